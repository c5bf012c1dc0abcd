//! Reading one input ([`Input`]: a file or standard input), once, within limits: a source is read
//! whole (at most [`SOURCE_LIMIT`]), a binary is left open for the object reader to read the
//! parts it needs (at most [`BINARY_LIMIT`]). Nothing is memory-mapped: a file that changes
//! while it is read cannot change memory the command already checked.

use std::fs::File;
use std::io::{Cursor, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use crate::shown;

/// The largest source file read: 16 MiB, beyond any hand-written or generated Rust file.
pub(crate) const SOURCE_LIMIT: u64 = 16 << 20;
/// The largest binary read: 2 GiB.
pub(crate) const BINARY_LIMIT: u64 = 2 << 30;
/// How the limits read in messages.
const SOURCE_LIMIT_SHOWN: &str = "16 MiB";
const BINARY_LIMIT_SHOWN: &str = "2 GiB";

/// One thing to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Input {
    /// `-`: standard input, whatever it is (a pipe, a terminal, a file).
    Stdin,
    /// A regular file, named or found in a folder.
    File(PathBuf),
}

impl Input {
    /// The name the output gives it.
    pub(crate) fn name(&self) -> PathBuf {
        match self {
            Input::Stdin => PathBuf::from("<stdin>"),
            Input::File(path) => path.clone(),
        }
    }
}

/// Why a FIFO, socket or device is not read.
pub(crate) const NOT_REGULAR: &str = "not a regular file (a FIFO, socket or device): check reads \
                                      files and folders; to read standard input, pass `-`";

/// An I/O error in the words the command's messages use.
pub(crate) fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => e.to_string(),
    }
}

/// What an input holds.
#[derive(Debug)]
pub(crate) enum Content {
    /// Rust source text.
    Source(String),
    /// An executable or library, as the object reader reads it.
    Binary(Binary),
}

/// A binary's bytes: an open file (read in parts, as needed) or standard input's bytes.
#[derive(Debug)]
pub(crate) enum Binary {
    File(File),
    Memory(Cursor<Vec<u8>>),
}

/// Whether `head`, a file's first bytes, starts like an executable or library: ELF, PE, Mach-O
/// (32 and 64 bits, either byte order) or a universal Mach-O.
pub(crate) fn is_binary(head: &[u8]) -> bool {
    head.starts_with(b"\x7fELF")
        || head.starts_with(b"MZ")
        || matches!(
            head.get(..4),
            Some(
                [0xfe, 0xed, 0xfa, 0xce | 0xcf]
                    | [0xce | 0xcf, 0xfa, 0xed, 0xfe]
                    | [0xca, 0xfe, 0xba, 0xbe | 0xbf]
            )
        )
}

/// Reads `input`, or says why it cannot be read (naming it).
pub(crate) fn read(input: &Input) -> Result<Content, String> {
    match input {
        Input::Stdin => stdin(),
        Input::File(path) => file(path).map_err(|e| format!("{}: {e}", shown::path(path))),
    }
}

/// `path` opened for reading, and its size: a regular file (checked on the open file: the path
/// may have been replaced since it was listed).
fn open(path: &Path) -> Result<(File, u64), String> {
    let file = File::open(path).map_err(cannot)?;
    let meta = file.metadata().map_err(cannot)?;
    if !meta.is_file() {
        return Err(NOT_REGULAR.to_owned());
    }
    Ok((file, meta.len()))
}

fn cannot(e: std::io::Error) -> String {
    format!("cannot read: {}", io_message(&e))
}

/// A file's first bytes, enough for [`is_binary`].
fn head(file: &mut File) -> Result<Vec<u8>, String> {
    let mut head = Vec::with_capacity(16);
    file.take(16).read_to_end(&mut head).map_err(cannot)?;
    Ok(head)
}

/// Whether the regular file at `path` starts like an executable or library (how a folder's
/// binaries are found).
pub(crate) fn starts_like_binary(path: &Path) -> Result<bool, String> {
    let (mut file, _) = open(path)?;
    Ok(is_binary(&head(&mut file)?))
}

fn file(path: &Path) -> Result<Content, String> {
    let (mut file, size) = open(path)?;
    let source = path.extension().is_some_and(|e| e == "rs");
    if !source {
        let head = head(&mut file)?;
        if is_binary(&head) {
            if size > BINARY_LIMIT {
                return Err(too_large(size, "binary", BINARY_LIMIT_SHOWN));
            }
            file.seek(SeekFrom::Start(0)).map_err(cannot)?;
            return Ok(Content::Binary(Binary::File(file)));
        }
        file.seek(SeekFrom::Start(0)).map_err(cannot)?;
    }
    if size > SOURCE_LIMIT {
        return Err(too_large(size, "source", SOURCE_LIMIT_SHOWN));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(SOURCE_LIMIT + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    text(bytes)
}

/// Standard input: read up to the source limit, and on to the binary limit when it starts like
/// a binary.
fn stdin() -> Result<Content, String> {
    let cannot = |e: std::io::Error| format!("<stdin>: cannot read: {}", io_message(&e));
    let mut input = std::io::stdin().lock();
    let mut bytes = Vec::new();
    (&mut input)
        .take(SOURCE_LIMIT + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if is_binary(&bytes) {
        input
            .take(BINARY_LIMIT + 1 - bytes.len() as u64)
            .read_to_end(&mut bytes)
            .map_err(cannot)?;
        if bytes.len() as u64 > BINARY_LIMIT {
            return Err(format!(
                "<stdin>: {}",
                too_large(bytes.len() as u64, "binary", BINARY_LIMIT_SHOWN)
            ));
        }
        return Ok(Content::Binary(Binary::Memory(Cursor::new(bytes))));
    }
    text(bytes).map_err(|e| format!("<stdin>: {e}"))
}

fn text(bytes: Vec<u8>) -> Result<Content, String> {
    if bytes.len() as u64 > SOURCE_LIMIT {
        return Err(too_large(bytes.len() as u64, "source", SOURCE_LIMIT_SHOWN));
    }
    String::from_utf8(bytes)
        .map(Content::Source)
        .map_err(|_| "cannot read: not UTF-8 text".to_owned())
}

fn too_large(size: u64, what: &str, limit: &str) -> String {
    format!("{size} bytes, more than a {what} may have ({limit}): refused")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binaries_are_told_by_their_magic() {
        for head in [
            &b"\x7fELF\x02\x01"[..],
            b"MZ\x90\0",
            &[0xcf, 0xfa, 0xed, 0xfe],
            &[0xca, 0xfe, 0xba, 0xbe],
            &[0xca, 0xfe, 0xba, 0xbf],
        ] {
            assert!(is_binary(head), "{head:?}");
        }
        for head in [&b"use std;"[..], b"", b"\x7fEL", &[0xca, 0xfe]] {
            assert!(!is_binary(head), "{head:?}");
        }
    }
}
