#!/usr/bin/env python3
"""Writes a crate's pre-expanded source with parts of every #[cuda_entry] expansion removed.

    expansion_variants.py EXPANDED OUT PART...

EXPANDED is the macro crate's `-Zunpretty=expanded` output (rustc's pretty printing of the
expansion); OUT gets it without the prelude lines (a stable compiler builds it) and without each
PART named:

    asserts       the ABI assertions (in each declaration's one `const _` block: the imports,
                  the typedefs' lines and the checks)
    lint          the extern block that gives the signature to rustc's FFI lints (in the same
                  block)
    registration  the entry's registration (its word in the registration section)
    manifest      the manifest record
    metadata      SYMBOL, VERSION, STREAM, TYPEDEF, pointer() and is_available(), and every doc
                  attribute

and with `macro`, nothing removed but each declaration's expansion wrapped in
`bench_identity::identity! { ... }`, a proc macro that returns its input (build-time.sh writes
it): the same code, expanded again after every change by a proc macro that does nothing, the
floor of any proc macro that writes this expansion. With `text`, each declaration's expansion
is a raw string literal given to `bench_identity::from_text!(...)`, which lexes it
(`TokenStream::from_str`) and returns the tokens: the cheapest way a proc macro can make these
tokens (every span the call site's; the literal's copy into the macro is counted too).

Used by tests/bench/build-time.sh (MODE=instructions) to measure what each part of the expansion
costs the compiler when no macro runs. Every part must be found once per declaration at least,
else this fails: a changed expansion must not make a variant measure nothing.
"""
import re
import sys


def group_end(s, start):
    """Index just past the brace group that opens at the first `{` at or after `start`."""
    k = s.index('{', start)
    depth = 0
    while True:
        c = s[k]
        if c == '"':
            k += 1
            while s[k] != '"':
                k += 2 if s[k] == '\\' else 1
        elif c == '{':
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0:
                return k + 1
        k += 1


def replace_items(s, start_re, then_semicolon, at_least, name, replace):
    """Each item that `start_re` begins (through its brace group, and its `;` where
    `then_semicolon`) replaced by `replace(match, item_text)`; fails when found fewer than
    `at_least` times."""
    out, i, n = [], 0, 0
    pat = re.compile(start_re)
    while True:
        m = pat.search(s, i)
        if not m:
            out.append(s[i:])
            break
        out.append(s[i:m.start()])
        k = group_end(s, m.start())
        if then_semicolon:
            while s[k] in ' \n':
                k += 1
            if s[k] != ';':
                sys.exit(f"expansion_variants: {name}: no `;` after the item at {s[m.start():m.start() + 80]!r}")
            k += 1
        out.append(replace(m, s[m.start():k]))
        i, n = k, n + 1
    if n < at_least:
        sys.exit(f"expansion_variants: {name}: found {n} times, expected at least {at_least}")
    return ''.join(out)


def remove(s, start_re, then_semicolon, at_least, name):
    return replace_items(s, start_re, then_semicolon, at_least, name, lambda m, item: '')


def checks(s, at_least, asserts, lint):
    """Each declaration's one constant, `const _: () = { <the lint block> <the assertions> };`,
    without the assertions (the imports, the typedefs' lines and the checks), the lint block
    (the `extern` block that gives the signature to rustc's FFI lints), or both (then the whole
    constant)."""
    def without(m, item):
        start = m.start(1) - m.start()
        lint_end = group_end(item, start)
        rest = item[lint_end:item.rindex('}')]
        if not rest.strip():
            sys.exit(f"expansion_variants: checks: no assertions in {item[:80]!r}")
        if asserts and lint:
            return ''
        return item[:start] + ('' if lint else item[start:lint_end]) + ('' if asserts else rest) + '};'
    return replace_items(s, r'const _: \(\) =\s*\{\s*(#\[allow\(dead_code\)\]\s*unsafe extern)',
                         True, at_least, 'checks', without)


def subn(pattern, s, at_least, name, flags=0):
    s, n = re.subn(pattern, '', s, flags=flags)
    if n < at_least:
        sys.exit(f"expansion_variants: {name}: found {n} times, expected at least {at_least}")
    return s


def main():
    expanded, out, parts = sys.argv[1], sys.argv[2], set(sys.argv[3:])
    known = {'asserts', 'lint', 'registration', 'manifest', 'metadata', 'macro', 'text'}
    if parts - known:
        sys.exit(f"expansion_variants: unknown parts {sorted(parts - known)}; known: {sorted(known)}")
    s = open(expanded).read()
    lines = s.split('\n')
    s = '\n'.join(l for i, l in enumerate(lines)
                  if not (i < 8 and ('prelude' in l or l == 'extern crate std;')))
    # The module's paths start with `__cuda_entry`, its import of `__private` (before: the path).
    private = r'(?:::cuda_entry::__private|__cuda_entry)'
    n = len(re.findall(r'pub static ENTRY: ' + private + r'::Entry', s))
    if n == 0:
        sys.exit("expansion_variants: no entry found: is this an expansion of #[cuda_entry]?")
    if 'asserts' in parts or 'lint' in parts:
        s = checks(s, n, 'asserts' in parts, 'lint' in parts)
    if 'registration' in parts:
        s = subn(r'#\[used\]\s*#\[unsafe\(link_section = "set_cuda_entry_registry_\d+_\d+"\)\]\s*'
                 r'static REGISTERED:[^;]*;', s, n, 'registration')
    if 'manifest' in parts:
        # Through the initializer's `;` outside string literals: the record is a byte string (or
        # two, for a declaration with a per-thread twin), or a call of `manifest::encode` before.
        s = subn(r'#\[doc = r" The manifest record that.*?static MANIFEST_RECORD: \[u8; \d+usize\] ='
                 r'(?:[^";]|"(?:[^"\\]|\\.)*")*;', s, n, 'manifest', re.S)
    if 'metadata' in parts:
        s = subn(r'#\[doc =\s*r?"(?:[^"\\]|\\.)*"\]', s, n, 'metadata (docs)')
        for name, ty in (('SYMBOL', re.escape('&str')), ('VERSION', 'u32'),
                         ('STREAM', private + '::Stream'), ('TYPEDEF', re.escape('&str'))):
            s = remove(s, r'pub const ' + name + ': ' + ty + r' =\s*\{', True, n,
                       f'metadata ({name})')
        s = remove(s, r'#\[inline\]\s*pub fn pointer\(\)', False, n, 'metadata (pointer)')
        s = remove(s, r'#\[inline\]\s*#\[must_use\]\s*pub fn is_available\(\)', False, n,
                   'metadata (is_available)')
    if 'macro' in parts:
        s = wrap(s, n, identity)
    if 'text' in parts:
        s = wrap(s, n, from_text)
    open(out, 'w').write(s)


def identity(items):
    return ['bench_identity::identity! {'] + items + ['}']


def from_text(items):
    text = '\n'.join(items)
    # More `#`s than follow any `"` in the text: the raw string cannot end early.
    hashes = '#' * (max((len(r) for r in re.findall(r'"(#*)', text)), default=0) + 1)
    return ['bench_identity::from_text!(r' + hashes + '"' + text + '"' + hashes + ');']


def wrap(s, n, wrapper):
    """Each declaration's items (from the end of the previous declaration's module, or the
    prelude's last `use`, through the end of its own module) passed to `wrapper` (lines in,
    lines out)."""
    lines = s.split('\n')
    start = max(i for i, l in enumerate(lines) if l.startswith('use ')) + 1
    out, wrapped, i = lines[:start], 0, start
    while i < len(lines):
        # The next declaration's module, at column 0 as the pretty printer writes it.
        k = next((j for j in range(i, len(lines)) if re.match(r'pub mod \w+ \{$', lines[j])), None)
        if k is None:
            out.extend(lines[i:])
            break
        end = next(j for j in range(k, len(lines)) if lines[j] == '}')
        out.extend(wrapper(lines[i:end + 1]))
        wrapped += 1
        i = end + 1
    if wrapped != n:
        sys.exit(f"expansion_variants: wrapped {wrapped} declarations, expected {n}")
    return '\n'.join(out)


main()
