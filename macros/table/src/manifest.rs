//! The manifest: one plain-data record per `#[cuda_entry]` declaration, in a section of the
//! binary, so that `cuda-entry check BINARY` knows what a program asks of the driver without
//! running it. This module is the format's one definition: the section names, the codes and the
//! record layout, the writer (the attribute writes each record's bytes into the expansion, and a
//! `const` form for constant evaluation) and the reader the command calls.
//!
//! A record, little-endian:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | [`MAGIC`] |
//! | 4 | 1 | [`FORMAT`] |
//! | 5 | 1 | the stream ([`DefaultStream::code`]) |
//! | 6 | 1 | the resolver ([`Resolver::code`]) |
//! | 7 | 1 | flags: bit 0 [`FLAG_UNVERIFIED`], bit 1 [`FLAG_OPTIONAL`] |
//! | 8 | 4 | the typedef version |
//! | 12 | 2 | the symbol's length |
//! | 14 | 2 | the package's length |
//! | 16 | | the symbol, then the package (UTF-8, no terminator) |
//!
//! Linkers may pad between records with zero bytes; the reader skips them.

use std::fmt;

use crate::{DefaultStream, Resolver, Version};

/// The bytes that start every record.
pub const MAGIC: [u8; 4] = *b"CUEN";
/// The layout's version.
pub const FORMAT: u8 = 1;
/// The fixed part of a record, before the two strings.
pub const HEADER: usize = 16;
/// Flag bit: the declaration was `unverified` (not checked against the typedef table).
pub const FLAG_UNVERIFIED: u8 = 1;
/// Flag bit: the declaration was `optional` (the program runs without it, falling back to
/// another entry): a driver that cannot serve it does not fail the program.
pub const FLAG_OPTIONAL: u8 = 2;
/// The longest symbol or package a record holds (their lengths are `u16`).
pub const MAX_TEXT: usize = u16::MAX as usize;

/// The manifest section's name on ELF targets (Linux).
pub const SECTION_ELF: &str = "cuda_entry";
/// The manifest section's name on PE targets (Windows): at most 8 bytes.
pub const SECTION_PE: &str = ".cuentry";
/// The segment of the manifest section on Mach-O targets.
pub const SEGMENT_MACHO: &str = "__DATA";
/// The manifest section's name on Mach-O targets.
pub const SECTION_MACHO: &str = "__cuda_entry";

/// What one declaration states, as the expansion writes it and the reader returns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Record<'a> {
    /// The base symbol.
    pub symbol: &'a str,
    /// The typedef version the entry resolves at (after the default-stream feature chose).
    pub version: u32,
    /// The stream flavour it resolves in.
    pub stream: DefaultStream,
    /// Who it asks.
    pub resolver: Resolver,
    /// Whether it was declared `unverified`.
    pub unverified: bool,
    /// Whether it was declared `optional`.
    pub optional: bool,
    /// The package that declared it (`CARGO_PKG_NAME`).
    pub package: &'a str,
}

/// The length of `record` once encoded: the array length of [`encode`]'s output.
pub const fn record_len(record: &Record<'_>) -> usize {
    HEADER + record.symbol.len() + record.package.len()
}

/// The bytes of `record`; `N` must be [`record_len`]`(record)` (checked: a mismatch fails the
/// constant evaluation, so at compile time in an expansion).
pub const fn encode<const N: usize>(record: &Record<'_>) -> [u8; N] {
    assert!(N == record_len(record), "manifest record length");
    let mut out = [0u8; N];
    write(record, &mut out);
    out
}

/// The bytes of `record`, as [`encode`] gives them: what the expansion writes into the section as
/// a byte string (the attribute knows every field), so that no constant evaluation of
/// [`encode`] runs per declaration in every build of the declaring crate.
///
/// # Panics
///
/// When the symbol or the package is longer than [`MAX_TEXT`] bytes.
#[must_use]
pub fn to_bytes(record: &Record<'_>) -> Vec<u8> {
    let mut out = vec![0u8; record_len(record)];
    write(record, &mut out);
    out
}

/// Writes `record` into `out`, which is [`record_len`]`(record)` bytes long.
const fn write(record: &Record<'_>, out: &mut [u8]) {
    assert!(
        record.symbol.len() <= MAX_TEXT && record.package.len() <= MAX_TEXT,
        "manifest text too long"
    );
    let v = record.version.to_le_bytes();
    let s = (record.symbol.len() as u16).to_le_bytes();
    let p = (record.package.len() as u16).to_le_bytes();
    let flags = (if record.unverified {
        FLAG_UNVERIFIED
    } else {
        0
    }) | (if record.optional { FLAG_OPTIONAL } else { 0 });
    let header: [u8; HEADER] = [
        MAGIC[0],
        MAGIC[1],
        MAGIC[2],
        MAGIC[3],
        FORMAT,
        record.stream.code(),
        record.resolver.code(),
        flags,
        v[0],
        v[1],
        v[2],
        v[3],
        s[0],
        s[1],
        p[0],
        p[1],
    ];
    let at = copy(out, 0, &header);
    let at = copy(out, at, record.symbol.as_bytes());
    copy(out, at, record.package.as_bytes());
}

/// Copies `bytes` into `out` at `at`; returns the end.
const fn copy(out: &mut [u8], mut at: usize, bytes: &[u8]) -> usize {
    let mut i = 0;
    while i < bytes.len() {
        out[at] = bytes[i];
        at += 1;
        i += 1;
    }
    at
}

/// A record as read from a binary.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct OwnedRecord {
    /// The base symbol.
    pub symbol: String,
    /// The typedef version.
    pub version: u32,
    /// The stream flavour.
    pub stream: DefaultStream,
    /// Who it asks.
    pub resolver: Resolver,
    /// Whether it was declared `unverified`.
    pub unverified: bool,
    /// Whether it was declared `optional`: the program runs without it.
    pub optional: bool,
    /// The package that declared it.
    pub package: String,
}

/// Why a manifest section's bytes could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ManifestError {
    /// The offset of the record that is malformed.
    pub offset: usize,
    /// What is wrong with it.
    pub kind: ManifestErrorKind,
}

/// What is wrong with a malformed record.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ManifestErrorKind {
    /// The bytes end inside the record.
    Truncated,
    /// No [`MAGIC`] and [`FORMAT`] where a record starts.
    NotARecord,
    /// A stream byte that is no [`DefaultStream`] code.
    UnknownStream(u8),
    /// A resolver byte that is no [`Resolver`] code.
    UnknownResolver(u8),
    /// Flag bits this format does not define.
    UnknownFlags(u8),
    /// A version that is not `1000 * major + 10 * minor`.
    InvalidVersion(u32),
    /// A symbol or package that is not UTF-8.
    NotUtf8,
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = self.offset;
        match &self.kind {
            ManifestErrorKind::Truncated => write!(f, "truncated record at offset {at}"),
            ManifestErrorKind::NotARecord => write!(f, "no cuda-entry record at offset {at}"),
            ManifestErrorKind::UnknownStream(b) => {
                write!(f, "unknown stream {b} in the record at offset {at}")
            }
            ManifestErrorKind::UnknownResolver(b) => {
                write!(f, "unknown resolver {b} in the record at offset {at}")
            }
            ManifestErrorKind::UnknownFlags(b) => {
                write!(f, "unknown flags {b:#04x} in the record at offset {at}")
            }
            ManifestErrorKind::InvalidVersion(v) => write!(
                f,
                "version {v} in the record at offset {at} is not 1000 * major + 10 * minor"
            ),
            ManifestErrorKind::NotUtf8 => write!(f, "non-UTF-8 text in the record at offset {at}"),
        }
    }
}

impl std::error::Error for ManifestError {}

/// Reads every record of a manifest section's bytes (as an ELF, PE or Mach-O reader returns
/// them), skipping the zero padding a linker puts between records.
///
/// # Errors
/// The first malformed record, with its offset.
pub fn parse(mut bytes: &[u8]) -> Result<Vec<OwnedRecord>, ManifestError> {
    let mut records = Vec::new();
    let total = bytes.len();
    loop {
        while let [0, rest @ ..] = bytes {
            bytes = rest;
        }
        if bytes.is_empty() {
            return Ok(records);
        }
        let offset = total - bytes.len();
        let fail = |kind| ManifestError { offset, kind };
        let header = bytes
            .get(..HEADER)
            .ok_or_else(|| fail(ManifestErrorKind::Truncated))?;
        if header[..4] != MAGIC || header[4] != FORMAT {
            return Err(fail(ManifestErrorKind::NotARecord));
        }
        let stream = DefaultStream::from_code(header[5])
            .ok_or_else(|| fail(ManifestErrorKind::UnknownStream(header[5])))?;
        let resolver = Resolver::from_code(header[6])
            .ok_or_else(|| fail(ManifestErrorKind::UnknownResolver(header[6])))?;
        if header[7] & !(FLAG_UNVERIFIED | FLAG_OPTIONAL) != 0 {
            return Err(fail(ManifestErrorKind::UnknownFlags(header[7])));
        }
        let version = u32::from_le_bytes([header[8], header[9], header[10], header[11]]);
        if !Version::is_valid(version) {
            return Err(fail(ManifestErrorKind::InvalidVersion(version)));
        }
        let symbol_len = usize::from(u16::from_le_bytes([header[12], header[13]]));
        let package_len = usize::from(u16::from_le_bytes([header[14], header[15]]));
        let end = HEADER + symbol_len + package_len;
        let body = bytes
            .get(HEADER..end)
            .ok_or_else(|| fail(ManifestErrorKind::Truncated))?;
        let text =
            |b: &[u8]| String::from_utf8(b.to_vec()).map_err(|_| fail(ManifestErrorKind::NotUtf8));
        records.push(OwnedRecord {
            symbol: text(&body[..symbol_len])?,
            version,
            stream,
            resolver,
            unverified: header[7] & FLAG_UNVERIFIED != 0,
            optional: header[7] & FLAG_OPTIONAL != 0,
            package: text(&body[symbol_len..])?,
        });
        bytes = &bytes[end..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RECORD: Record<'static> = Record {
        symbol: "cuMemAlloc",
        version: 3020,
        stream: DefaultStream::PerThread,
        resolver: Resolver::Runtime,
        unverified: true,
        optional: false,
        package: "app",
    };
    const BYTES: [u8; record_len(&RECORD)] = encode(&RECORD);
    const OPTIONAL: Record<'static> = Record {
        unverified: false,
        optional: true,
        ..RECORD
    };
    const OPTIONAL_BYTES: [u8; record_len(&OPTIONAL)] = encode(&OPTIONAL);

    #[test]
    fn the_expansion_writes_the_bytes_the_const_encoder_writes() {
        // The attribute writes `to_bytes`'s output as a byte string; `encode` is the constant
        // writer: one format, whichever wrote it.
        assert_eq!(to_bytes(&RECORD), BYTES);
        assert_eq!(to_bytes(&OPTIONAL), OPTIONAL_BYTES);
        let legacy = Record {
            stream: DefaultStream::Legacy,
            resolver: Resolver::Driver,
            version: 2000,
            ..OPTIONAL
        };
        let bytes = to_bytes(&legacy);
        assert_eq!(bytes.len(), record_len(&legacy));
        assert_eq!(parse(&bytes).unwrap()[0].version, 2000);
        assert_eq!(parse(&bytes).unwrap()[0].stream, DefaultStream::Legacy);
    }

    #[test]
    #[should_panic(expected = "manifest text too long")]
    fn a_symbol_too_long_for_a_record_is_refused() {
        let long = "s".repeat(MAX_TEXT + 1);
        let _ = to_bytes(&Record {
            symbol: &long,
            ..RECORD
        });
    }

    #[test]
    fn a_record_reads_back_as_written_across_padding() {
        let mut section = vec![0u8; 3];
        section.extend_from_slice(&BYTES);
        section.extend_from_slice(&[0; 5]);
        section.extend_from_slice(&BYTES);
        let records = parse(&section).unwrap();
        assert_eq!(records.len(), 2);
        let r = &records[0];
        assert_eq!(
            (
                r.symbol.as_str(),
                r.version,
                r.stream,
                r.resolver,
                r.unverified
            ),
            (
                "cuMemAlloc",
                3020,
                DefaultStream::PerThread,
                Resolver::Runtime,
                true
            )
        );
        assert_eq!(r.package, "app");
        assert!(!r.optional);
        assert_eq!(&BYTES[..5], b"CUEN\x01");
    }

    /// A `.cuentry` section as an incremental `link.exe` may lay it out, built by hand (lld-link,
    /// which the Windows msvc run links with, never pads like this): the linker groups the input
    /// sections `.cuentry`, `.cuentry$a`, `.cuentry$m`... into one output section, sorted by what
    /// follows `$`; incremental linking leaves zero-filled room after each piece so that a
    /// relink can grow it in place; each piece starts at its alignment; and the section's raw
    /// data is zero-filled to the file alignment (512).
    #[test]
    fn an_incrementally_linked_msvc_section_reads_across_its_padding() {
        let pieces: [&[u8]; 4] = [&BYTES, &OPTIONAL_BYTES, &BYTES, &OPTIONAL_BYTES];
        let mut section = Vec::new();
        for (i, piece) in pieces.iter().enumerate() {
            section.resize(section.len().next_multiple_of(16), 0);
            section.extend_from_slice(piece);
            // Room to grow: more for some pieces than for others, never a record's worth of
            // anything but zeros.
            section.resize(section.len() + 64 * (i + 1) + 3, 0);
        }
        section.resize(section.len().next_multiple_of(512), 0);
        let records = parse(&section).unwrap();
        let read: Vec<(bool, bool)> = records.iter().map(|r| (r.unverified, r.optional)).collect();
        assert_eq!(
            read,
            [(true, false), (false, true), (true, false), (false, true)]
        );
        assert!(records.iter().all(|r| r.symbol == "cuMemAlloc"));
    }

    #[test]
    fn the_optional_flag_reads_back_apart_from_unverified() {
        assert_eq!(OPTIONAL_BYTES[7], FLAG_OPTIONAL);
        let records = parse(&OPTIONAL_BYTES).unwrap();
        assert_eq!((records[0].optional, records[0].unverified), (true, false));
        let both = Record {
            unverified: true,
            ..OPTIONAL
        };
        let bytes: [u8; record_len(&RECORD)] = encode(&both);
        assert_eq!(bytes[7], FLAG_UNVERIFIED | FLAG_OPTIONAL);
        let records = parse(&bytes).unwrap();
        assert_eq!((records[0].optional, records[0].unverified), (true, true));
    }

    #[test]
    fn malformed_records_are_named_with_their_offset() {
        let kind = |bytes: &[u8]| parse(bytes).unwrap_err();
        assert_eq!(kind(&BYTES[..10]).kind, ManifestErrorKind::Truncated);
        assert_eq!(
            kind(&BYTES[..BYTES.len() - 1]).kind,
            ManifestErrorKind::Truncated
        );
        let mut bad = BYTES;
        bad[5] = 7;
        assert_eq!(kind(&bad).kind, ManifestErrorKind::UnknownStream(7));
        let mut bad = BYTES;
        bad[8..12].copy_from_slice(&3025u32.to_le_bytes());
        assert_eq!(kind(&bad).kind, ManifestErrorKind::InvalidVersion(3025));
        let mut bad = BYTES;
        bad[7] = 0x80;
        assert_eq!(kind(&bad).kind, ManifestErrorKind::UnknownFlags(0x80));
        bad[7] = 0x04 | FLAG_OPTIONAL;
        assert_eq!(kind(&bad).kind, ManifestErrorKind::UnknownFlags(0x06));
        let mut section = vec![0u8; 2];
        section.extend_from_slice(&[b'X'; HEADER]);
        let e = kind(&section);
        assert_eq!((e.offset, e.kind), (2, ManifestErrorKind::NotARecord));
    }
}
