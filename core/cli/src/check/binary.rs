//! Reading a built binary: the manifest sections `#[cuda_entry]` writes one record into per
//! declaration, found by the file's own object format (ELF, PE, Mach-O, or each slice of a
//! universal Mach-O, whatever the host).
//!
//! Nothing here passes what it could not read: a file whose headers do not hold together, a
//! manifest section without contents in the file or larger than [`MANIFEST_LIMIT`], or a
//! malformed record make the binary unreadable; a binary (or slice) without a manifest section is
//! reported as not checked.
//!
//! The work is bounded by what the file holds, not by what it claims: only the headers that
//! locate sections are read ([`sections`]: no symbol table, no program header), each slice of a
//! universal binary once (slices that share bytes are refused, at most [`SLICE_LIMIT`] of them),
//! every manifest section once (sections that share bytes are refused), what was read is dropped
//! after each slice and each section, and a binary states at most [`DECLARATION_LIMIT`]
//! declarations.

mod sections;

use std::io::{Read, Seek};
use std::path::Path;

use cuda_entry_table::Resolver;
use cuda_entry_table::Version;
use cuda_entry_table::manifest::{self, OwnedRecord};
use object::FileKind;
use object::endian::{BigEndian, U32};
use object::read::macho::{FatArch, FatArch32, FatArch64, MachOFatFile};
use object::read::{ReadCache, ReadCacheOps, ReadRef};

use super::read::Binary;
use super::ruling;
use super::{Declaration, Request, Scanned, Unchecked};
use crate::shown;
use sections::Section;

/// The largest manifest section read: 4 MiB, some 50,000 records, beyond any program.
pub(super) const MANIFEST_LIMIT: u64 = 4 << 20;
/// The most declarations one binary may state, all its manifest sections and slices together:
/// 100,000, where a program has hundreds.
pub(super) const DECLARATION_LIMIT: usize = 100_000;
/// The most slices a universal binary may have: 64, where Apple's tools make two to four.
pub(super) const SLICE_LIMIT: u32 = 64;

/// What one binary, or one slice of a universal binary, states.
#[derive(Debug)]
struct Slice {
    /// The slice's architecture (`x86_64`), for a universal binary only.
    architecture: Option<String>,
    /// Its records, or why it has none (no manifest section, an empty one).
    records: Result<Vec<OwnedRecord>, String>,
}

/// Where a binary, or one slice of a universal binary, lies in the file.
#[derive(Debug)]
struct Extent {
    architecture: Option<String>,
    offset: u64,
    size: u64,
}

/// The declarations a built binary states, or a message naming the file when it cannot be read
/// (a malformed record included).
pub(super) fn declarations(file: &Path, binary: Binary) -> Result<Scanned, String> {
    let slices = match binary {
        Binary::File(f) => slices(f),
        Binary::Memory(bytes) => slices(bytes),
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

/// The slices of a binary, each read once: one, or one per architecture of a universal binary.
fn slices<R: Read + Seek>(reader: R) -> Result<Vec<Slice>, String> {
    let mut cache = ReadCache::new(reader);
    let extents = extents(&cache)?;
    cache.clear();
    let mut left = DECLARATION_LIMIT;
    let mut slices = Vec::with_capacity(extents.len());
    for extent in extents {
        let records =
            records(&mut cache, &extent, &mut left).map_err(|e| match &extent.architecture {
                Some(a) => format!("the {a} slice: {e}"),
                None => e,
            })?;
        slices.push(Slice {
            architecture: extent.architecture,
            records,
        });
    }
    Ok(slices)
}

/// Where the binary, or each slice of a universal binary, lies: slices that share bytes are
/// refused, so each byte is read for one slice at most.
fn extents<R: ReadCacheOps>(cache: &ReadCache<R>) -> Result<Vec<Extent>, String> {
    let size = cache
        .len()
        .map_err(|()| "cannot read: its size is unknown".to_owned())?;
    let whole = || {
        vec![Extent {
            architecture: None,
            offset: 0,
            size,
        }]
    };
    let mut extents = match FileKind::parse(cache) {
        Ok(FileKind::MachOFat32) => fat::<FatArch32, R>(cache)?,
        Ok(FileKind::MachOFat64) => fat::<FatArch64, R>(cache)?,
        _ => return Ok(whole()),
    };
    extents.sort_by_key(|e| (e.offset, e.size));
    for pair in extents.windows(2) {
        let [a, b] = pair else { continue };
        if a.offset.saturating_add(a.size) > b.offset {
            let name = |e: &Extent| e.architecture.clone().unwrap_or_default();
            return Err(format!(
                "malformed universal binary: its {} slice (bytes {}..{}) and {} slice (bytes \
                 {}..{}) share bytes; slices are disjoint, and each is read once",
                name(a),
                a.offset,
                a.offset.saturating_add(a.size),
                name(b),
                b.offset,
                b.offset.saturating_add(b.size)
            ));
        }
    }
    Ok(extents)
}

/// The slices a universal binary's table lists (at most [`SLICE_LIMIT`], counted before the
/// table is read).
fn fat<Fat: FatArch, R: ReadCacheOps>(cache: &ReadCache<R>) -> Result<Vec<Extent>, String> {
    let unreadable =
        |e: &dyn std::fmt::Display| format!("not a universal binary this command can read: {e}");
    let count = cache
        .read_at::<U32<BigEndian>>(4)
        .map_err(|()| unreadable(&"its header is truncated"))?
        .get(BigEndian);
    if count > SLICE_LIMIT {
        return Err(format!(
            "a universal binary of {count} slices, more than this command reads ({SLICE_LIMIT})"
        ));
    }
    let file = MachOFatFile::<Fat>::parse(cache).map_err(|e| unreadable(&e))?;
    if file.arches().is_empty() {
        return Err("a universal binary without any slice".to_owned());
    }
    Ok(file
        .arches()
        .iter()
        .map(|arch| {
            let (offset, size) = arch.file_range();
            Extent {
                architecture: Some(format!("{:?}", arch.architecture()).to_lowercase()),
                offset,
                size,
            }
        })
        .collect())
}

/// The manifest records of one binary or slice (`Err` outside: the binary is unreadable; `Err`
/// inside: it has no manifest to read). Every manifest section is read, once each, in file
/// order; what was read is dropped after the headers and after each section.
fn records<R: ReadCacheOps>(
    cache: &mut ReadCache<R>,
    extent: &Extent,
    left: &mut usize,
) -> Result<Result<Vec<OwnedRecord>, String>, String> {
    let found = sections::manifest(cache.range(extent.offset, extent.size))
        .map_err(|e| format!("not a binary this command can read: {e}"))?;
    cache.clear();
    let shown = found.shown;
    if found.sections.is_empty() {
        return Ok(Err(format!(
            "no cuda-entry manifest (no {shown} section): no #[cuda_entry] declaration was linked \
             into it, or the section was stripped; nothing to judge"
        )));
    }
    let mut ranges = Vec::with_capacity(found.sections.len());
    for section in found.sections {
        let Section::Contents { offset, size } = section else {
            return Err(format!(
                "malformed {shown} section: it has no contents in the file (a NOBITS or \
                 zero-fill section)"
            ));
        };
        if size > MANIFEST_LIMIT {
            return Err(format!(
                "malformed {shown} section: {size} bytes, more than a manifest may have (4 MiB)"
            ));
        }
        ranges.push((offset, size));
    }
    ranges.sort_unstable();
    if let Some(pair) = ranges
        .windows(2)
        .find(|pair| pair[0].0.saturating_add(pair[0].1) > pair[1].0)
    {
        return Err(format!(
            "malformed {shown} sections: two of them share bytes (at offsets {} and {}); each is \
             read once",
            pair[0].0, pair[1].0
        ));
    }
    let mut records = Vec::new();
    for (offset, size) in ranges {
        let beyond = || {
            format!(
                "cannot read section {shown}: its {size} bytes at offset {offset} lie beyond the \
                 file"
            )
        };
        if offset.saturating_add(size) > extent.size {
            return Err(beyond());
        }
        let parsed = {
            let bytes = (&*cache)
                .read_bytes_at(extent.offset.saturating_add(offset), size)
                .map_err(|()| beyond())?;
            manifest::parse(bytes).map_err(|e| format!("malformed {shown} section: {e}"))?
        };
        cache.clear();
        if parsed.len() > *left {
            return Err(format!(
                "more than {DECLARATION_LIMIT} declarations, more than a binary may state: \
                 refused"
            ));
        }
        *left -= parsed.len();
        records.extend(parsed);
    }
    if records.is_empty() {
        return Ok(Err(format!(
            "the {shown} section holds no record; nothing to judge"
        )));
    }
    Ok(Ok(records))
}

/// A record as a declaration: the binary's file, the package (and slice) for a name, no line.
fn declaration(file: &Path, record: OwnedRecord, within: &str) -> Result<Declaration, String> {
    // The reader has checked the version already; a failure here would be a reader bug.
    let version = Version::new(record.version).map_err(|e| e.to_string())?;
    Ok(Declaration {
        file: file.to_path_buf(),
        line: 0,
        function: format!("in {}{within}", record.package),
        judged: ruling::record(Request {
            symbol: record.symbol,
            version,
            per_thread: record.stream.is_per_thread(),
            runtime: record.resolver == Resolver::Runtime,
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
    use std::io::Cursor;

    #[test]
    fn a_file_that_is_no_object_is_named_as_such() {
        let e = slices(Cursor::new(b"MZ not really")).expect_err("refused");
        assert!(e.contains("not a binary this command can read"), "{e}");
    }

    #[test]
    fn mach_o_load_commands_must_hold_together() {
        // A 64-bit Mach-O header claiming one load command of 0x1000 bytes, and nothing after.
        let mut bytes = vec![0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1, 3, 0, 0, 0, 2, 0, 0, 0];
        bytes.extend_from_slice(&[1, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        let e = slices(Cursor::new(bytes)).expect_err("refused");
        assert!(e.contains("load command"), "{e}");
    }
}
