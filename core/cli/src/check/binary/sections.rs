//! Where a binary's manifest sections are, read from the headers that locate sections and from
//! nothing else: the ELF file header, section header table and section names; the PE headers
//! and section table; the Mach-O header and load commands. Symbol tables, program headers,
//! relocations and everything else a general object reader parses are never read, so what a file
//! claims about them costs nothing; a table that locates sections is read whole, and so is at
//! most [`TABLE_LIMIT`].

use cuda_entry_table::manifest::{SECTION_ELF, SECTION_MACHO, SECTION_PE, SEGMENT_MACHO};
use object::elf::{FileHeader32, FileHeader64};
use object::macho::{MachHeader32, MachHeader64};
use object::pe::{ImageDosHeader, ImageNtHeaders32, ImageNtHeaders64};
use object::read::ReadRef;
use object::read::elf::{FileHeader, SectionHeader};
use object::read::macho::{MachHeader, Section as _, Segment as _};
use object::read::pe::ImageNtHeaders;
use object::{Endianness, FileKind};

/// The largest table that locates sections read (an ELF section header table or section name
/// table, Mach-O load commands): 16 MiB, 262,144 ELF section headers; linked programs have tens.
pub(super) const TABLE_LIMIT: u64 = 16 << 20;
const TABLE_LIMIT_SHOWN: &str = "16 MiB";

/// A manifest section, as the headers place it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Section {
    /// Its bytes: an offset from the binary's start, and a size.
    Contents { offset: u64, size: u64 },
    /// It has no contents in the file (ELF NOBITS, Mach-O zero-fill, PE uninitialised data).
    NoContents,
}

/// Every manifest section of one binary, in the order its headers list them.
#[derive(Debug)]
pub(super) struct Manifest {
    /// How messages name the section: `cuda_entry`, `.cuentry`, `__DATA,__cuda_entry`.
    pub(super) shown: String,
    pub(super) sections: Vec<Section>,
}

/// The manifest sections of one binary (not a universal one), or why its headers cannot be read.
pub(super) fn manifest<'data, R: ReadRef<'data>>(data: R) -> Result<Manifest, String> {
    let (shown, sections) = match FileKind::parse(data).map_err(|e| e.to_string())? {
        FileKind::Elf32 => (
            SECTION_ELF.to_owned(),
            elf::<FileHeader32<Endianness>, R>(data)?,
        ),
        FileKind::Elf64 => (
            SECTION_ELF.to_owned(),
            elf::<FileHeader64<Endianness>, R>(data)?,
        ),
        FileKind::Pe32 => (SECTION_PE.to_owned(), pe::<ImageNtHeaders32, R>(data)?),
        FileKind::Pe64 => (SECTION_PE.to_owned(), pe::<ImageNtHeaders64, R>(data)?),
        FileKind::MachO32 => (
            format!("{SEGMENT_MACHO},{SECTION_MACHO}"),
            macho::<MachHeader32<Endianness>, R>(data)?,
        ),
        FileKind::MachO64 => (
            format!("{SEGMENT_MACHO},{SECTION_MACHO}"),
            macho::<MachHeader64<Endianness>, R>(data)?,
        ),
        FileKind::MachOFat32 | FileKind::MachOFat64 => {
            return Err("it is itself a universal binary".to_owned());
        }
        other => {
            return Err(format!(
                "a {other:?} file: only ELF, PE and Mach-O are read"
            ));
        }
    };
    Ok(Manifest { shown, sections })
}

/// A table of `size` bytes, refused beyond [`TABLE_LIMIT`].
fn within_limit(what: &str, size: u64) -> Result<(), String> {
    if size > TABLE_LIMIT {
        return Err(format!(
            "{what} of {size} bytes, more than this command reads ({TABLE_LIMIT_SHOWN})"
        ));
    }
    Ok(())
}

/// The ELF sections named [`SECTION_ELF`]: the section header table and the section names are
/// read, nothing else.
fn elf<'data, Elf, R>(data: R) -> Result<Vec<Section>, String>
where
    Elf: FileHeader<Endian = Endianness>,
    R: ReadRef<'data>,
{
    let error = |e: object::Error| e.to_string();
    let header = Elf::parse(data).map_err(error)?;
    let endian = header.endian().map_err(error)?;
    let count = header.shnum(endian, data).map_err(error)?;
    if count == 0 {
        return Ok(Vec::new()); // no section headers: no manifest
    }
    let entry = size_of::<Elf::SectionHeader>() as u64;
    within_limit(
        "a section header table",
        u64::from(count).saturating_mul(entry),
    )?;
    let headers = header.section_headers(endian, data).map_err(error)?;
    let names_index = header.shstrndx(endian, data).map_err(error)?;
    let names = headers
        .get(names_index as usize)
        .ok_or_else(|| format!("section names in section {names_index}, which does not exist"))?;
    let (names_at, names_size) = names
        .file_range(endian)
        .ok_or_else(|| "the section name table has no contents in the file".to_owned())?;
    within_limit("a section name table", names_size)?;
    let names = data
        .read_bytes_at(names_at, names_size)
        .map_err(|()| "the section name table lies beyond the file".to_owned())?;
    let wanted = SECTION_ELF.as_bytes();
    Ok(headers
        .iter()
        .filter(|section| {
            let at = section.sh_name(endian) as usize;
            let name = names.get(at..at.saturating_add(wanted.len() + 1));
            name.is_some_and(|n| n.strip_suffix(b"\0") == Some(wanted))
        })
        .map(|section| match section.file_range(endian) {
            Some((offset, size)) => Section::Contents { offset, size },
            None => Section::NoContents,
        })
        .collect())
}

/// The PE sections named [`SECTION_PE`] (8 bytes: always written in the section header itself,
/// never through the COFF string table): the headers and the section table are read, nothing
/// else.
fn pe<'data, Pe, R>(data: R) -> Result<Vec<Section>, String>
where
    Pe: ImageNtHeaders,
    R: ReadRef<'data>,
{
    let error = |e: object::Error| e.to_string();
    let dos = ImageDosHeader::parse(data).map_err(error)?;
    let mut offset = dos.nt_headers_offset().into();
    let (nt_headers, _) = Pe::parse(data, &mut offset).map_err(error)?;
    let table = nt_headers.sections(data, offset).map_err(error)?;
    Ok(table
        .iter()
        .filter(|section| section.raw_name() == SECTION_PE.as_bytes())
        .map(|section| match section.pe_file_range() {
            (_, 0) => Section::NoContents,
            (offset, size) => Section::Contents {
                offset: offset.into(),
                size: size.into(),
            },
        })
        .collect())
}

/// The Mach-O sections [`SEGMENT_MACHO`],[`SECTION_MACHO`]: the header and the load commands
/// are read, nothing else. Every load command and section header must hold together (a general
/// reader skips a broken table silently).
fn macho<'data, Mach, R>(data: R) -> Result<Vec<Section>, String>
where
    Mach: MachHeader<Endian = Endianness>,
    R: ReadRef<'data>,
{
    let error = |e: object::Error| e.to_string();
    let header = Mach::parse(data, 0).map_err(error)?;
    let endian = header.endian().map_err(error)?;
    within_limit("load commands", header.sizeofcmds(endian).into())?;
    let mut commands = header.load_commands(endian, data, 0).map_err(error)?;
    let mut found = Vec::new();
    while let Some(command) = commands.next().map_err(error)? {
        let Some((segment, section_data)) = Mach::Segment::from_command(command).map_err(error)?
        else {
            continue;
        };
        let sections = segment.sections(endian, section_data).map_err(error)?;
        for placed in segment.section_offsets(endian, sections) {
            let (section, offset) = placed.map_err(error)?;
            if section.segment_name() == SEGMENT_MACHO.as_bytes()
                && section.name() == SECTION_MACHO.as_bytes()
            {
                found.push(match section.file_range(endian, offset) {
                    Some((offset, size)) => Section::Contents { offset, size },
                    None => Section::NoContents,
                });
            }
        }
    }
    Ok(found)
}
