//! Reading a built binary: the manifest section `#[cuda_entry]` writes one record into per
//! declaration, found by the file's own object format (ELF, PE or Mach-O, whatever the host).

use std::fs;
use std::path::Path;

use cuda_entry_table::Version;
use cuda_entry_table::manifest::{
    self, OwnedRecord, ResolverCode, SECTION_ELF, SECTION_MACHO, SECTION_PE, SEGMENT_MACHO,
    StreamCode,
};
use object::{BinaryFormat, Object, ObjectSection};

use super::walk::io_message;
use super::{Declaration, Request};

/// Whether `file` starts like an executable or library (ELF, PE, Mach-O).
pub(super) fn is_binary(file: &Path) -> bool {
    let mut head = [0u8; 16];
    let Ok(mut f) = fs::File::open(file) else {
        return false;
    };
    let n = std::io::Read::read(&mut f, &mut head).unwrap_or(0);
    head[..n].starts_with(b"\x7fELF")
        || head[..n].starts_with(b"MZ")
        || matches!(
            head[..n.min(4)],
            [0xfe, 0xed, 0xfa, 0xce | 0xcf]
                | [0xce | 0xcf, 0xfa, 0xed, 0xfe]
                | [0xca, 0xfe, 0xba, 0xbe]
        )
}

/// The declarations a built binary states in its manifest section, or a message naming the file
/// when it cannot be read (a malformed record included).
pub(super) fn declarations(file: &Path) -> Result<Vec<Declaration>, String> {
    let data = fs::read(file)
        .map_err(|e| format!("{}: cannot read: {}", file.display(), io_message(&e)))?;
    let records = records(&data).map_err(|e| format!("{}: {e}", file.display()))?;
    records
        .into_iter()
        .map(|r| declaration(file, r))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{}: {e}", file.display()))
}

/// The manifest records of a binary's bytes; none when no `#[cuda_entry]` declaration was linked
/// into it.
fn records(data: &[u8]) -> Result<Vec<OwnedRecord>, String> {
    let binary = object::File::parse(data)
        .map_err(|e| format!("not a binary this command can read: {e}"))?;
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
    let section = binary.sections().find(|s| {
        s.name() == Ok(name) && segment.is_none_or(|segment| s.segment_name() == Ok(Some(segment)))
    });
    let shown = match segment {
        Some(segment) => format!("{segment},{name}"),
        None => name.to_owned(),
    };
    let Some(section) = section else {
        return Ok(Vec::new());
    };
    let bytes = section
        .data()
        .map_err(|e| format!("cannot read section {shown}: {e}"))?;
    manifest::parse(bytes).map_err(|e| format!("malformed {shown} section: {e}"))
}

/// A record as a declaration: the binary's file, the package for a name, no line.
fn declaration(file: &Path, record: OwnedRecord) -> Result<Declaration, String> {
    // The reader has checked the version already; a failure here would be a reader bug.
    let version = Version::new(record.version).map_err(|e| e.to_string())?;
    Ok(Declaration {
        file: file.to_path_buf(),
        line: 0,
        function: format!("in {}", record.package),
        request: Ok(Request {
            symbol: record.symbol,
            version,
            per_thread: record.stream == StreamCode::PerThread,
            runtime: record.resolver == ResolverCode::Runtime,
            unverified: record.unverified,
        }),
        form: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_is_no_object_is_named_as_such() {
        let e = records(b"MZ not really").expect_err("refused");
        assert!(e.contains("not a binary this command can read"), "{e}");
    }
}
