//! A minimal ELF64 reader: the `DT_NEEDED` entries of a shared object or executable, i.e. the
//! libraries it links to at load time, read the way the dynamic loader's tools do (section headers
//! -> the `SHT_DYNAMIC` section -> its `DT_NEEDED` entries -> names in the string table the
//! section links to). Standard library only; every offset is bounds-checked, so a malformed or
//! truncated file is an error, never a panic.

use std::path::Path;

/// `SHT_DYNAMIC`: the section holding the dynamic linking table.
const SHT_DYNAMIC: u32 = 6;
/// `SHT_STRTAB`: a string table.
const SHT_STRTAB: u32 = 3;
/// `DT_NULL`: the end of the dynamic table.
const DT_NULL: u64 = 0;
/// `DT_NEEDED`: a needed library, as an offset into the dynamic string table.
const DT_NEEDED: u64 = 1;
/// `Elf64_Shdr`'s size.
const SECTION_HEADER_SIZE: usize = 64;
/// `Elf64_Dyn`'s size.
const DYN_SIZE: usize = 16;

/// The libraries `path` needs at load time (its `DT_NEEDED` entries, in order).
///
/// # Errors
/// A message when the file cannot be read, is not a 64-bit ELF file, or is malformed.
pub fn needed_libraries(path: &Path) -> Result<Vec<String>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    needed_libraries_of(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// As [`needed_libraries`], for the file's bytes. A file without a dynamic section (a static
/// executable) needs nothing: `Ok(vec![])`.
///
/// # Errors
/// A message when the bytes are not a 64-bit ELF file or are malformed.
pub fn needed_libraries_of(bytes: &[u8]) -> Result<Vec<String>, String> {
    let file = Elf::parse(bytes)?;
    let mut needed = Vec::new();
    for index in 0..file.section_count {
        let section = file.section(index)?;
        if section.kind != SHT_DYNAMIC {
            continue;
        }
        let strings = file.section(usize::try_from(section.link).map_err(|_| "sh_link")?)?;
        if strings.kind != SHT_STRTAB {
            return Err(format!(
                "the dynamic section links to section {} of type {}, not a string table",
                section.link, strings.kind
            ));
        }
        let strtab = file.slice(strings.offset, strings.size, "the dynamic string table")?;
        let table = file.slice(section.offset, section.size, "the dynamic section")?;
        for entry in table.chunks_exact(DYN_SIZE) {
            let tag = file.u64_at(entry, 0)?;
            let value = file.u64_at(entry, 8)?;
            match tag {
                DT_NULL => break,
                DT_NEEDED => needed.push(string_at(strtab, value)?),
                _ => {}
            }
        }
    }
    Ok(needed)
}

/// The NUL-terminated string at `offset` of a string table.
fn string_at(table: &[u8], offset: u64) -> Result<String, String> {
    let start = usize::try_from(offset)
        .ok()
        .filter(|&s| s < table.len())
        .ok_or_else(|| format!("string offset {offset} outside the string table"))?;
    let rest = &table[start..];
    let end = rest
        .iter()
        .position(|&b| b == 0)
        .ok_or("an unterminated string in the string table")?;
    String::from_utf8(rest[..end].to_vec()).map_err(|_| "a non-UTF-8 library name".to_owned())
}

/// The parts of the ELF header this reader needs.
struct Elf<'a> {
    bytes: &'a [u8],
    little_endian: bool,
    section_offset: u64,
    section_entry_size: usize,
    section_count: usize,
}

/// The parts of a section header this reader needs.
struct Section {
    kind: u32,
    offset: u64,
    size: u64,
    link: u32,
}

impl<'a> Elf<'a> {
    fn parse(bytes: &'a [u8]) -> Result<Elf<'a>, String> {
        if bytes.len() < 64 || bytes[..4] != *b"\x7fELF" {
            return Err("not an ELF file".to_owned());
        }
        if bytes[4] != 2 {
            return Err(format!(
                "not a 64-bit ELF file (EI_CLASS {}); this reader knows ELF64 only",
                bytes[4]
            ));
        }
        let little_endian = match bytes[5] {
            1 => true,
            2 => false,
            other => return Err(format!("unknown ELF data encoding {other}")),
        };
        let mut elf = Elf {
            bytes,
            little_endian,
            section_offset: 0,
            section_entry_size: 0,
            section_count: 0,
        };
        elf.section_offset = elf.u64_at(bytes, 0x28)?;
        elf.section_entry_size = usize::from(elf.u16_at(bytes, 0x3a)?);
        elf.section_count = usize::from(elf.u16_at(bytes, 0x3c)?);
        if elf.section_count == 0 && elf.section_offset != 0 {
            // More than 0xff00 sections: the real count is the first section header's sh_size.
            let first = elf.slice(elf.section_offset, SECTION_HEADER_SIZE as u64, "section 0")?;
            elf.section_count =
                usize::try_from(elf.u64_at(first, 0x20)?).map_err(|_| "section count")?;
        }
        if elf.section_count > 0 && elf.section_entry_size < SECTION_HEADER_SIZE {
            return Err(format!(
                "section headers of {} bytes, expected at least {SECTION_HEADER_SIZE}",
                elf.section_entry_size
            ));
        }
        Ok(elf)
    }

    fn section(&self, index: usize) -> Result<Section, String> {
        if index >= self.section_count {
            return Err(format!(
                "section {index} does not exist ({} sections)",
                self.section_count
            ));
        }
        let offset = (index as u64)
            .checked_mul(self.section_entry_size as u64)
            .and_then(|o| o.checked_add(self.section_offset))
            .ok_or("section header offset overflows")?;
        let header = self.slice(offset, SECTION_HEADER_SIZE as u64, "a section header")?;
        Ok(Section {
            kind: self.u32_at(header, 0x04)?,
            offset: self.u64_at(header, 0x18)?,
            size: self.u64_at(header, 0x20)?,
            link: self.u32_at(header, 0x28)?,
        })
    }

    /// `len` bytes of the file at `offset`.
    fn slice(&self, offset: u64, len: u64, what: &str) -> Result<&'a [u8], String> {
        let start = usize::try_from(offset).ok();
        let end = start
            .zip(usize::try_from(len).ok())
            .and_then(|(s, l)| s.checked_add(l));
        match (start, end) {
            (Some(start), Some(end)) if end <= self.bytes.len() => Ok(&self.bytes[start..end]),
            _ => Err(format!(
                "{what} ({len} bytes at offset {offset}) lies outside the file ({} bytes)",
                self.bytes.len()
            )),
        }
    }

    fn array<const N: usize>(data: &[u8], at: usize) -> Result<[u8; N], String> {
        data.get(at..at + N)
            .and_then(|s| s.try_into().ok())
            .ok_or_else(|| format!("a field at offset {at} lies outside its record"))
    }

    fn u16_at(&self, data: &[u8], at: usize) -> Result<u16, String> {
        let raw = Self::array::<2>(data, at)?;
        Ok(if self.little_endian {
            u16::from_le_bytes(raw)
        } else {
            u16::from_be_bytes(raw)
        })
    }

    fn u32_at(&self, data: &[u8], at: usize) -> Result<u32, String> {
        let raw = Self::array::<4>(data, at)?;
        Ok(if self.little_endian {
            u32::from_le_bytes(raw)
        } else {
            u32::from_be_bytes(raw)
        })
    }

    fn u64_at(&self, data: &[u8], at: usize) -> Result<u64, String> {
        let raw = Self::array::<8>(data, at)?;
        Ok(if self.little_endian {
            u64::from_le_bytes(raw)
        } else {
            u64::from_be_bytes(raw)
        })
    }
}
