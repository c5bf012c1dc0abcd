#!/usr/bin/env python3
"""The size of the expansion: bytes and tokens of each snapshot of macros/tests/expand/.

    tests/bench/expansion_size.py [FILE...]     # default: every *.expanded.rs there

Tokens are counted as a proc-macro token stream holds them: an identifier, a literal, a lifetime
or a punctuation character each one, a delimited group one (its close is not counted again);
comments are not tokens. The snapshots are pretty-printed (the expansion's doc comments as
`#[doc = "..."]` attributes), so the count is the expansion's, up to spacing.
"""
import glob
import os
import re
import sys

TOKEN = re.compile(r'''(?:[bc]?r(#*)"(?s:.*?)"\1)|(?:[bc]?"(?:[^"\\]|\\.)*")|(?:b?'(?:[^'\\]|\\.)')'''
                   r'''|(?:'[A-Za-z_]\w*)|(?:[A-Za-z_]\w*)|(?:\d[\w.]*)|(?:\S)''')


def tokens(source):
    source = re.sub(r'//[^\n]*', '', source)
    return sum(1 for m in TOKEN.finditer(source) if m.group(0) not in ')]}')


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
    files = sys.argv[1:] or sorted(glob.glob(os.path.join(root, 'macros/tests/expand/*.expanded.rs')))
    print('| snapshot | bytes | tokens |')
    print('|---|---|---|')
    for f in files:
        text = open(f).read()
        print(f'| {os.path.basename(f)} | {len(text.encode())} | {tokens(text)} |')


main()
