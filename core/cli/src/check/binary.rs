//! Reading a built binary: the manifest section `#[cuda_entry]` writes one record into per
//! declaration, found by the file's own object format (ELF, PE, Mach-O, or each slice of a
//! universal Mach-O, whatever the host).
//!
//! Nothing here passes what it could not read: a file the object reader refuses, a Mach-O load
//! command table that does not hold together, a manifest section without contents in the file
//! or larger than [`MANIFEST_LIMIT`], or a malformed record make the binary unreadable; a binary
//! (or slice) without a manifest section is reported as not checked.

use std::io::{Read, Seek};
use std::path::Path;

use cuda_entry_table::Version;
use cuda_entry_table::manifest::{
    self, OwnedRecord, ResolverCode, SECTION_ELF, SECTION_MACHO, SECTION_PE, SEGMENT_MACHO,
    StreamCode,
};
use object::macho::{MachHeader32, MachHeader64};
use object::read::macho::{FatArch, FatArch32, FatArch64, MachHeader, MachOFatFile, Segment};
use object::read::{ReadCache, ReadRef};
use object::{BinaryFormat, Endianness, FileKind, Object, ObjectSection};

use super::read::Binary;
use super::rules;
use super::{Declaration, Request, Scanned, Unchecked};
use crate::shown;

/// The largest manifest section read: 4 MiB, some 50,000 records, beyond any program.
pub(super) const MANIFEST_LIMIT: u64 = 4 << 20;

/// What one binary, or one slice of a universal binary, states.
#[derive(Debug)]
struct Slice {
    /// The slice's architecture (`x86_64`), for a universal binary only.
    architecture: Option<String>,
    /// Its records, or why it has none (no manifest section, an empty one).
    records: Result<Vec<OwnedRecord>, String>,
}

/// The declarations a built binary states, or a message naming the file when it cannot be read
/// (a malformed record included).
pub(super) fn declarations(file: &Path, binary: Binary) -> Result<Scanned, String> {
    let slices = match binary {
        Binary::File(f) => slices(&ReadCache::new(f)),
        Binary::Memory(bytes) => slices(&ReadCache::new(bytes)),
    }
    .map_err(|e| format!("{}: {e}", shown::path(file)))?;
    let mut scanned = Scanned::default();
    for slice in slices {
        let within = slice
            .architecture
            .as_ref()
            .map_or_else(String::new, |a| format!(", {a} slice"));
        match slice.records {
            Ok(records) => scanned.declarations.extend(
                records
                    .into_iter()
                    .map(|r| declaration(file, r, &within))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| format!("{}: {e}", shown::path(file)))?,
            ),
            Err(why) => scanned.unchecked.push(Unchecked {
                file: file.to_path_buf(),
                line: 0,
                why: match &slice.architecture {
                    Some(a) => format!("the {a} slice: {why}"),
                    None => why,
                },
            }),
        }
    }
    Ok(scanned)
}

/// The slices of a binary: one, or one per architecture of a universal binary.
fn slices<R: Read + Seek>(cache: &ReadCache<R>) -> Result<Vec<Slice>, String> {
    match FileKind::parse(cache) {
        Ok(FileKind::MachOFat32) => fat::<FatArch32, R>(cache),
        Ok(FileKind::MachOFat64) => fat::<FatArch64, R>(cache),
        _ => Ok(vec![Slice {
            architecture: None,
            records: records(cache)?,
        }]),
    }
}

/// Every slice of a universal binary, each read as a binary of its own.
fn fat<Fat: FatArch, R: Read + Seek>(cache: &ReadCache<R>) -> Result<Vec<Slice>, String> {
    let file = MachOFatFile::<Fat>::parse(cache)
        .map_err(|e| format!("not a universal binary this command can read: {e}"))?;
    if file.arches().is_empty() {
        return Err("a universal binary without any slice".to_owned());
    }
    let mut slices = Vec::new();
    for arch in file.arches() {
        let architecture = format!("{:?}", arch.architecture()).to_lowercase();
        let (offset, size) = arch.file_range();
        let slice = cache.range(offset, size);
        if matches!(
            FileKind::parse(slice),
            Ok(FileKind::MachOFat32 | FileKind::MachOFat64)
        ) {
            return Err(format!(
                "the {architecture} slice is itself a universal binary"
            ));
        }
        let records = records(slice).map_err(|e| format!("the {architecture} slice: {e}"))?;
        slices.push(Slice {
            architecture: Some(architecture),
            records,
        });
    }
    Ok(slices)
}

/// The manifest records of one binary's bytes (`Err` outside: the binary is unreadable; `Err`
/// inside: it has no manifest to read).
fn records<'data, R: ReadRef<'data>>(data: R) -> Result<Result<Vec<OwnedRecord>, String>, String> {
    let unreadable = |e: object::Error| format!("not a binary this command can read: {e}");
    match FileKind::parse(data) {
        Ok(FileKind::MachO32) => load_commands::<MachHeader32<Endianness>, R>(data),
        Ok(FileKind::MachO64) => load_commands::<MachHeader64<Endianness>, R>(data),
        _ => Ok(()),
    }
    .map_err(unreadable)?;
    let binary = object::File::parse(data).map_err(unreadable)?;
    let (segment, name) = match binary.format() {
        BinaryFormat::Elf => (None, SECTION_ELF),
        BinaryFormat::Pe | BinaryFormat::Coff => (None, SECTION_PE),
        BinaryFormat::MachO => (Some(SEGMENT_MACHO), SECTION_MACHO),
        other => {
            return Err(format!(
                "a {other:?} binary, which has no cuda-entry manifest: only ELF, PE and Mach-O do"
            ));
        }
    };
    let shown = match segment {
        Some(segment) => format!("{segment},{name}"),
        None => name.to_owned(),
    };
    let section = binary.sections().find(|s| {
        s.name() == Ok(name) && segment.is_none_or(|segment| s.segment_name() == Ok(Some(segment)))
    });
    let Some(section) = section else {
        return Ok(Err(format!(
            "no cuda-entry manifest (no {shown} section): no #[cuda_entry] declaration was linked \
             into it, or the section was stripped; nothing to judge"
        )));
    };
    let Some((_, size)) = section.file_range() else {
        return Err(format!(
            "malformed {shown} section: it has no contents in the file (a NOBITS or zero-fill \
             section)"
        ));
    };
    if size > MANIFEST_LIMIT {
        return Err(format!(
            "malformed {shown} section: {size} bytes, more than a manifest may have (4 MiB)"
        ));
    }
    let bytes = section
        .data()
        .map_err(|e| format!("cannot read section {shown}: {e}"))?;
    let records = manifest::parse(bytes).map_err(|e| format!("malformed {shown} section: {e}"))?;
    if records.is_empty() {
        return Ok(Err(format!(
            "the {shown} section holds no record; nothing to judge"
        )));
    }
    Ok(Ok(records))
}

/// Walks a Mach-O's load commands and their sections, which the object reader skips silently
/// when they do not hold together (a bad `sizeofcmds`, a command running past the table).
fn load_commands<'data, Mach: MachHeader, R: ReadRef<'data>>(data: R) -> Result<(), object::Error> {
    let header = Mach::parse(data, 0)?;
    let endian = header.endian()?;
    let mut commands = header.load_commands(endian, data, 0)?;
    while let Some(command) = commands.next()? {
        if let Some((segment, section_data)) = Mach::Segment::from_command(command)? {
            segment.sections(endian, section_data)?;
        }
    }
    Ok(())
}

/// A record as a declaration: the binary's file, the package (and slice) for a name, no line.
fn declaration(file: &Path, record: OwnedRecord, within: &str) -> Result<Declaration, String> {
    // The reader has checked the version already; a failure here would be a reader bug.
    let version = Version::new(record.version).map_err(|e| e.to_string())?;
    Ok(Declaration {
        file: file.to_path_buf(),
        line: 0,
        function: format!("in {}{within}", record.package),
        judged: rules::record(Request {
            symbol: record.symbol,
            version,
            per_thread: record.stream == StreamCode::PerThread,
            runtime: record.resolver == ResolverCode::Runtime,
            unverified: record.unverified,
            optional: record.optional,
        }),
        notes: Vec::new(),
    })
}

/// Reads `bytes` as `check` reads a binary, for the fuzz target: whatever the bytes, an answer,
/// never a panic.
pub(super) fn fuzz(bytes: &[u8]) {
    let _ = declarations(
        Path::new("fuzz"),
        Binary::Memory(std::io::Cursor::new(bytes.to_vec())),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_is_no_object_is_named_as_such() {
        let e = records(&b"MZ not really"[..]).expect_err("refused");
        assert!(e.contains("not a binary this command can read"), "{e}");
    }

    #[test]
    fn mach_o_load_commands_must_hold_together() {
        // A 64-bit Mach-O header claiming one load command of 0x1000 bytes, and nothing after.
        let mut bytes = vec![0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1, 3, 0, 0, 0, 2, 0, 0, 0];
        bytes.extend_from_slice(&[1, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        let e = records(&bytes[..]).expect_err("refused");
        assert!(e.contains("load command"), "{e}");
    }
}
