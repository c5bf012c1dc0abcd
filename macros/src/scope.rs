//! Where the attribute is written: a declaration inside an `impl` block or a `trait` cannot
//! expand (a declaration is a function, a module and statics: items of a module), and rustc's
//! own errors for the expansion there name none of that ("module is not supported in `trait`s or
//! `impl`s", "`const` items in this context need a name", ...). The attribute's tokens are the
//! same in both places, so the macro reads the file its span names and finds the innermost block
//! around it: an `impl` or `trait` body gets one message saying where to put the declaration.
//!
//! Best effort, never a refusal of its own: without a file (rust-analyzer's server may give
//! none, a declaration written by a `macro_rules!` names the macro's file), or where the text
//! does not place the span in an `impl` or `trait` body, the expansion is as before. Each file is
//! scanned once per macro process, and again when its length or modification time changes (a
//! long-lived server sees edits).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

/// What the innermost block around a place is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Block {
    /// An `impl` block's body.
    Impl,
    /// A `trait`'s body.
    Trait,
}

/// A block of a file: the byte offsets of its braces, and whether it is an `impl` or `trait`
/// body (`None`: a module, a function body, any other block).
#[derive(Clone, Copy, Debug)]
struct Braces {
    open: usize,
    close: usize,
    kind: Option<Block>,
}

#[derive(Debug)]
struct Scanned {
    len: u64,
    modified: Option<SystemTime>,
    /// The start of each line.
    lines: Vec<usize>,
    blocks: Vec<Braces>,
}

static FILES: Mutex<Option<HashMap<PathBuf, Scanned>>> = Mutex::new(None);

/// The `impl` or `trait` body the place at `line` (1-based) and `column` (1-based, in bytes) of
/// `file` is directly inside, if it is.
pub(crate) fn enclosing(file: &Path, line: usize, column: usize) -> Option<Block> {
    let meta = std::fs::metadata(file).ok()?;
    let (len, modified) = (meta.len(), meta.modified().ok());
    let mut files = FILES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let files = files.get_or_insert_with(HashMap::new);
    let fresh = files
        .get(file)
        .is_some_and(|s| s.len == len && s.modified == modified);
    if !fresh {
        let text = std::fs::read_to_string(file).ok()?;
        let (lines, blocks) = scan(&text);
        files.insert(
            file.to_path_buf(),
            Scanned {
                len,
                modified,
                lines,
                blocks,
            },
        );
    }
    let scanned = files.get(file)?;
    let start = *scanned.lines.get(line.checked_sub(1)?)?;
    innermost(&scanned.blocks, start + column.saturating_sub(1))
}

/// The kind of the innermost block holding `offset`.
fn innermost(blocks: &[Braces], offset: usize) -> Option<Block> {
    blocks
        .iter()
        .filter(|b| b.open < offset && offset < b.close)
        .max_by_key(|b| b.open)
        .and_then(|b| b.kind)
}

/// The starts of the lines of `text`, and its blocks: braces outside comments, strings and
/// character literals, each with what its header (the text since the last `;`, `{` or `}`) makes
/// it.
fn scan(text: &str) -> (Vec<usize>, Vec<Braces>) {
    let bytes = text.as_bytes();
    let mut lines = vec![0];
    let mut blocks = Vec::new();
    // Open braces: index into `blocks`.
    let mut open: Vec<usize> = Vec::new();
    let mut header = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => lines.push(i + 1),
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                // Block comments nest.
                let mut depth = 0usize;
                while i < bytes.len() {
                    if bytes[i] == b'/' && bytes.get(i + 1) == Some(&b'*') {
                        depth += 1;
                        i += 2;
                    } else if bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        if bytes[i] == b'\n' {
                            lines.push(i + 1);
                        }
                        i += 1;
                    }
                }
                continue;
            }
            b'r' | b'b' | b'c' if raw_string_at(bytes, i).is_some() => {
                let (hashes, body) = raw_string_at(bytes, i).unwrap_or((0, i));
                i = body;
                while i < bytes.len() {
                    if bytes[i] == b'\n' {
                        lines.push(i + 1);
                    }
                    if bytes[i] == b'"'
                        && bytes[i + 1..].iter().take(hashes).all(|&b| b == b'#')
                        && bytes.len() >= i + 1 + hashes
                    {
                        i += 1 + hashes;
                        break;
                    }
                    i += 1;
                }
                continue;
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\n' {
                        lines.push(i + 1);
                    }
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'\'' => {
                // A character literal (`'{'`, `'\''`, `'\u{7b}'`), not a lifetime (`'a`).
                if let Some(end) = char_literal_end(bytes, i) {
                    i = end;
                    continue;
                }
            }
            b'{' => {
                let kind = kind_of(&text[header..i]);
                open.push(blocks.len());
                blocks.push(Braces {
                    open: i,
                    close: usize::MAX,
                    kind,
                });
                header = i + 1;
            }
            b'}' => {
                if let Some(b) = open.pop() {
                    blocks[b].close = i;
                }
                header = i + 1;
            }
            b';' => header = i + 1,
            _ => {}
        }
        i += 1;
    }
    (lines, blocks)
}

/// Where a raw string literal starting at `i` (`r"`, `r#"`, `br"`, `cr#"`) has its body, and
/// how many `#` close it.
fn raw_string_at(bytes: &[u8], i: usize) -> Option<(usize, usize)> {
    // Not the end of an identifier (`bar"` is not a raw string: `bar` then a string).
    if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
        return None;
    }
    let mut j = i;
    if bytes[j] == b'b' || bytes[j] == b'c' {
        j += 1;
    }
    if bytes.get(j) != Some(&b'r') {
        return None;
    }
    j += 1;
    let mut hashes = 0;
    while bytes.get(j) == Some(&b'#') {
        hashes += 1;
        j += 1;
    }
    (bytes.get(j) == Some(&b'"')).then_some((hashes, j + 1))
}

/// The offset after the character literal starting at `i`, if one starts there.
fn char_literal_end(bytes: &[u8], i: usize) -> Option<usize> {
    let next = *bytes.get(i + 1)?;
    if next == b'\\' {
        // An escape: up to the closing quote (`'\u{7b}'`).
        let close = bytes[i + 2..].iter().take(12).position(|&b| b == b'\'')?;
        return Some(i + 2 + close + 1);
    }
    // One character of up to four bytes, then the quote.
    let width = match next {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    };
    (bytes.get(i + 1 + width) == Some(&b'\'')).then_some(i + 2 + width)
}

/// Whether a block's header makes it an `impl` or `trait` body: after its attributes and the
/// words that may come before the keyword (`pub(crate)`, `unsafe`, `default`, `auto`).
fn kind_of(header: &str) -> Option<Block> {
    let mut rest = header.trim_start();
    loop {
        if let Some(attr) = rest.strip_prefix("#") {
            // `#[...]`, `#![...]`: to the matching bracket.
            let attr = attr
                .trim_start()
                .strip_prefix('!')
                .unwrap_or(attr)
                .trim_start();
            let body = attr.strip_prefix('[')?;
            let mut depth = 1usize;
            let end = body.char_indices().find_map(|(k, c)| {
                match c {
                    '[' => depth += 1,
                    ']' => depth -= 1,
                    _ => {}
                }
                (depth == 0).then_some(k)
            })?;
            rest = body[end + 1..].trim_start();
            continue;
        }
        let word_end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let (word, after) = rest.split_at(word_end);
        match word {
            "impl" => return Some(Block::Impl),
            "trait" => return Some(Block::Trait),
            "unsafe" | "default" | "auto" => rest = after.trim_start(),
            "pub" => {
                let after = after.trim_start();
                rest = match after.strip_prefix('(') {
                    Some(inner) => inner.split_once(')')?.1.trim_start(),
                    None => after,
                };
            }
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kind of the innermost block around the first `@` of `text` (which is then a space).
    fn at_marker(text: &str) -> Option<Block> {
        let offset = text.find('@').expect("a marker");
        let text = text.replacen('@', " ", 1);
        let (_, blocks) = scan(&text);
        innermost(&blocks, offset)
    }

    #[test]
    fn impl_and_trait_bodies_are_found() {
        assert_eq!(at_marker("impl Foo { @ }"), Some(Block::Impl));
        assert_eq!(
            at_marker("#[cfg(x)] unsafe impl<T: Copy> Send for W<T> where T: Sync { @ }"),
            Some(Block::Impl)
        );
        assert_eq!(
            at_marker("pub(crate) trait T: Sized { @ }"),
            Some(Block::Trait)
        );
        assert_eq!(
            at_marker("pub unsafe auto trait T { @ }"),
            Some(Block::Trait)
        );
        assert_eq!(
            at_marker("mod m { struct S; impl S { fn f() {} @ } }"),
            Some(Block::Impl)
        );
    }

    #[test]
    fn other_blocks_are_not() {
        assert_eq!(at_marker("@ impl Foo {}"), None);
        assert_eq!(at_marker("mod m { @ }"), None);
        assert_eq!(at_marker("impl Foo { fn f() { @ } }"), None);
        assert_eq!(at_marker("extern \"C\" { @ }"), None);
        assert_eq!(at_marker("fn implement() { @ }"), None);
        assert_eq!(at_marker("impl Foo {} mod m { @ }"), None);
    }

    #[test]
    fn braces_in_comments_strings_and_characters_are_not_blocks() {
        let text = "impl Foo {\n  // }\n  /* } /* } */ } */\n  const A: &str = \"}\\\"}\";\n  \
                    const B: &str = r#\"}\"#;\n  const C: char = '}';\n  const D: char = '\\u{7d}';\n  \
                    fn f<'a>(x: &'a u8) {}\n  @\n}";
        assert_eq!(at_marker(text), Some(Block::Impl));
    }

    #[test]
    fn lines_and_columns_place_the_span() {
        let dir = std::env::temp_dir().join(format!("cuda-entry-scope-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("lib.rs");
        std::fs::write(
            &file,
            "struct S;\nimpl S {\n    #[a] fn f();\n}\n#[a] fn g();\n",
        )
        .unwrap();
        assert_eq!(enclosing(&file, 3, 5), Some(Block::Impl));
        assert_eq!(enclosing(&file, 5, 1), None);
        // Edited: scanned again (another length).
        std::fs::write(
            &file,
            "struct S;\nmod m {\n    #[a] fn f();\n}\n#[a] fn g();\n",
        )
        .unwrap();
        assert_eq!(enclosing(&file, 3, 5), None);
        assert_eq!(enclosing(&file, 99, 1), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
