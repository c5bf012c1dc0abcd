//! Text that came from a file (a path, a function name, a binary's symbol or package), made safe
//! to print on a terminal: a forged binary must not be able to move the cursor, recolour or
//! redraw the lines around it, nor start a line of its own.

use std::borrow::Cow;
use std::fmt::Write;
use std::path::Path;

/// Whether `c` would do something other than show a glyph: a control character (C0, DEL, C1:
/// escape sequences, line breaks, the 8-bit CSI), a bidirectional override or isolate (which can
/// reorder what follows it), or an invisible format character.
pub(crate) fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{206f}'
                | '\u{feff}'
                | '\u{fff9}'..='\u{fffb}'
        )
}

/// `s` with each hidden character written as `\u{1b}`, or `s` itself when it has none.
pub(crate) fn shown(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_hidden) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_hidden(c) {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Lines of source text (a diff, a declaration) as [`shown`], keeping their line breaks and tabs.
pub(crate) fn lines(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if is_hidden(c) && c != '\n' && c != '\t' {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    out
}

/// A path as the command prints it: lossily decoded, then [`shown`].
pub(crate) fn path(p: &Path) -> String {
    shown(&p.display().to_string()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_a_terminal_would_act_on() {
        assert_eq!(shown("cuMemAlloc"), "cuMemAlloc");
        assert!(matches!(shown("día"), Cow::Borrowed(_)));
        assert_eq!(
            shown("a\x1b[2K\rok\n\u{9b}31m\u{202e}x\u{7f}"),
            "a\\u{1b}[2K\\u{d}ok\\u{a}\\u{9b}31m\\u{202e}x\\u{7f}"
        );
    }
}
