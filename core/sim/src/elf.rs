//! Hiding exports of an ELF shared object from `dlsym`, in its bytes.
//!
//! The dynamic symbol table (the section of type `SHT_DYNSYM`, named by its linked string table)
//! is what the dynamic linker searches. For each defined global or weak symbol to hide, the
//! binding in `st_info` becomes `STB_LOCAL` (its type is kept) and the visibility in `st_other`
//! becomes `STV_HIDDEN`; nothing else of the file changes, not even its size.
//!
//! - `dlsym`, and every lookup by name, skips a local symbol: glibc's `do_lookup_x` accepts only
//!   `STB_GLOBAL`, `STB_WEAK` and `STB_GNU_UNIQUE`, musl's `find_sym` likewise.
//! - A relocation against a local symbol resolves to the library itself without a lookup
//!   (glibc's `RESOLVE_MAP`, musl's `do_relocs`), so the library's own references to the function
//!   (the simulator's tables of function pointers) keep working.
//! - A lazily bound PLT slot goes through glibc's `_dl_fixup`, which decides by the visibility,
//!   not the binding: a hidden symbol is taken from the library itself there too. (The simulators
//!   are linked with `-z now` anyway, as Rust links every shared object on Linux.)
//!
//! The symbol stays in the GNU hash table; the lookup finds it there and rejects it by its
//! binding. That a local symbol now follows global ones breaks the convention that `sh_info`
//! counts the local ones first: the dynamic linkers never read it, and `readelf` lists it anyway.

/// `SHT_DYNSYM`.
const SHT_DYNSYM: u32 = 11;
/// `SHN_UNDEF`: an undefined (imported) symbol.
const SHN_UNDEF: u16 = 0;
/// `STB_LOCAL`, `STB_GLOBAL`, `STB_WEAK`.
const STB_LOCAL: u8 = 0;
const STB_GLOBAL: u8 = 1;
const STB_WEAK: u8 = 2;
/// `STV_HIDDEN`.
const STV_HIDDEN: u8 = 2;

/// Whether `bytes` begin as an ELF file.
pub(crate) fn is_elf(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x7fELF")
}

/// Where a symbol's `st_info` lies in the file, and its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DynamicSymbol {
    /// The symbol's name.
    pub(crate) name: String,
    /// The file offset of its `st_info` byte (`st_other` is the next one).
    pub(crate) info_offset: usize,
    /// Whether it is defined here (not an import) with a global or weak binding: a symbol
    /// `dlsym` can find.
    pub(crate) exported: bool,
}

/// A reader of one ELF file's integers, in its class and byte order.
struct Reader<'a> {
    bytes: &'a [u8],
    /// ELFCLASS64.
    wide: bool,
    /// ELFDATA2MSB.
    big_endian: bool,
}

impl Reader<'_> {
    fn field(&self, offset: usize, size: usize) -> Result<u64, String> {
        let end = offset
            .checked_add(size)
            .filter(|end| *end <= self.bytes.len())
            .ok_or_else(|| format!("truncated: {size} bytes at {offset:#x} lie past its end"))?;
        let field = &self.bytes[offset..end];
        let mut value = 0u64;
        for i in 0..size {
            let byte = if self.big_endian {
                field[i]
            } else {
                field[size - 1 - i]
            };
            value = (value << 8) | u64::from(byte);
        }
        Ok(value)
    }

    fn u16(&self, offset: usize) -> Result<u16, String> {
        // Two bytes fit.
        Ok(self.field(offset, 2)? as u16)
    }

    fn u32(&self, offset: usize) -> Result<u32, String> {
        // Four bytes fit.
        Ok(self.field(offset, 4)? as u32)
    }

    /// An address-sized field (`Elf64_Off`, `Elf32_Word`...) as an offset into the file.
    fn offset(&self, offset: usize) -> Result<usize, String> {
        let value = self.field(offset, if self.wide { 8 } else { 4 })?;
        usize::try_from(value).map_err(|_| format!("offset {value:#x} does not fit in memory"))
    }
}

/// The dynamic symbols of the ELF file `bytes`.
///
/// # Errors
/// A message when the file is no ELF file or is malformed (truncated, no `SHT_DYNSYM` section).
pub(crate) fn dynamic_symbols(bytes: &[u8]) -> Result<Vec<DynamicSymbol>, String> {
    if !is_elf(bytes) {
        return Err("not an ELF file".to_owned());
    }
    let wide = match bytes.get(4) {
        Some(1) => false,
        Some(2) => true,
        other => return Err(format!("unknown ELF class {other:?}")),
    };
    let big_endian = match bytes.get(5) {
        Some(1) => false,
        Some(2) => true,
        other => return Err(format!("unknown ELF data encoding {other:?}")),
    };
    let r = Reader {
        bytes,
        wide,
        big_endian,
    };
    // e_shoff, e_shentsize, e_shnum.
    let (shoff, shentsize, shnum) = if wide {
        (r.offset(0x28)?, r.u16(0x3a)?, r.u16(0x3c)?)
    } else {
        (r.offset(0x20)?, r.u16(0x2e)?, r.u16(0x30)?)
    };
    if shoff == 0 {
        return Err("no section headers".to_owned());
    }
    let shentsize = usize::from(shentsize);
    if shentsize < if wide { 64 } else { 40 } {
        return Err(format!("section headers of {shentsize} bytes"));
    }
    // A section header, by index: (sh_type, sh_offset, sh_size, sh_link, sh_entsize).
    let section = |index: usize| -> Result<(u32, usize, usize, u32, usize), String> {
        let at = index
            .checked_mul(shentsize)
            .and_then(|o| o.checked_add(shoff))
            .ok_or_else(|| "section header offset overflows".to_owned())?;
        if wide {
            Ok((
                r.u32(at + 4)?,
                r.offset(at + 0x18)?,
                r.offset(at + 0x20)?,
                r.u32(at + 0x28)?,
                r.offset(at + 0x38)?,
            ))
        } else {
            Ok((
                r.u32(at + 4)?,
                r.offset(at + 0x10)?,
                r.offset(at + 0x14)?,
                r.u32(at + 0x18)?,
                r.offset(at + 0x24)?,
            ))
        }
    };
    // With 0xff00 sections or more, e_shnum is 0 and section 0's sh_size holds the count.
    let count = match shnum {
        0 => section(0)?.2,
        n => usize::from(n),
    };
    let mut dynsym = None;
    for index in 0..count {
        let header = section(index)?;
        if header.0 == SHT_DYNSYM {
            dynsym = Some(header);
            break;
        }
    }
    let (_, symbols_at, symbols_size, link, entsize) =
        dynsym.ok_or_else(|| "no dynamic symbol table (SHT_DYNSYM)".to_owned())?;
    let (_, strings_at, strings_size, _, _) = section(link as usize)?;
    let strings = bytes
        .get(strings_at..strings_at.saturating_add(strings_size))
        .ok_or_else(|| "the dynamic string table lies past the end".to_owned())?;
    if entsize < if wide { 24 } else { 16 } {
        return Err(format!("dynamic symbols of {entsize} bytes"));
    }
    // Field offsets in Elf64_Sym / Elf32_Sym.
    let (info, shndx) = if wide { (4, 6) } else { (12, 14) };
    let mut symbols = Vec::with_capacity(symbols_size / entsize);
    for index in 0..symbols_size / entsize {
        let at = symbols_at + index * entsize;
        let name_at = r.u32(at)? as usize;
        let name = strings
            .get(name_at..)
            .and_then(|s| s.split(|b| *b == 0).next())
            .ok_or_else(|| format!("symbol {index}'s name lies past the string table"))?;
        let info_byte = r.field(at + info, 1)? as u8;
        let binding = info_byte >> 4;
        symbols.push(DynamicSymbol {
            name: String::from_utf8_lossy(name).into_owned(),
            info_offset: at + info,
            exported: r.u16(at + shndx)? != SHN_UNDEF
                && (binding == STB_GLOBAL || binding == STB_WEAK),
        });
    }
    Ok(symbols)
}

/// Hides from `dlsym` every export of the ELF file `bytes` for which `hide` says so, in place,
/// and returns their names in the order of the symbol table.
///
/// # Errors
/// As [`dynamic_symbols`]; `bytes` is then unchanged.
pub(crate) fn hide_exports(
    bytes: &mut [u8],
    hide: impl Fn(&str) -> bool,
) -> Result<Vec<String>, String> {
    let symbols = dynamic_symbols(bytes)?;
    let mut hidden = Vec::new();
    for symbol in symbols {
        if symbol.exported && hide(&symbol.name) {
            let at = symbol.info_offset;
            // The type stays (low four bits); the binding becomes local.
            bytes[at] = (STB_LOCAL << 4) | (bytes[at] & 0x0f);
            // st_other: the visibility is its low two bits.
            bytes[at + 1] = (bytes[at + 1] & !0x03) | STV_HIDDEN;
            hidden.push(symbol.name);
        }
    }
    Ok(hidden)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal ELF file of the class and byte order given: section headers for a null section,
    /// `.dynstr` and `.dynsym`, and the symbols (name, st_info, st_shndx).
    fn synthetic(wide: bool, big_endian: bool, symbols: &[(&str, u8, u16)]) -> Vec<u8> {
        let put = |out: &mut Vec<u8>, value: u64, size: usize| {
            let bytes = value.to_le_bytes();
            if big_endian {
                out.extend(bytes[..size].iter().rev());
            } else {
                out.extend(&bytes[..size]);
            }
        };
        let word = if wide { 8 } else { 4 };
        let (header, section_size, symbol_size) = if wide { (64, 64, 24) } else { (52, 40, 16) };
        let mut strings = vec![0u8];
        let mut names = Vec::new();
        for (name, ..) in symbols {
            names.push(strings.len() as u64);
            strings.extend(name.as_bytes());
            strings.push(0);
        }
        let strings_at = header;
        let symbols_at = strings_at + strings.len();
        let symbols_len = (symbols.len() + 1) * symbol_size;
        let sections_at = symbols_at + symbols_len;
        let mut out = b"\x7fELF".to_vec();
        out.extend([if wide { 2 } else { 1 }, if big_endian { 2 } else { 1 }, 1]);
        out.resize(16, 0);
        put(&mut out, 3, 2); // e_type: ET_DYN
        put(&mut out, 62, 2); // e_machine
        put(&mut out, 1, 4); // e_version
        put(&mut out, 0, word); // e_entry
        put(&mut out, 0, word); // e_phoff
        put(&mut out, sections_at as u64, word); // e_shoff
        put(&mut out, 0, 4); // e_flags
        put(&mut out, header as u64, 2); // e_ehsize
        put(&mut out, 0, 2); // e_phentsize
        put(&mut out, 0, 2); // e_phnum
        put(&mut out, section_size as u64, 2); // e_shentsize
        put(&mut out, 3, 2); // e_shnum
        put(&mut out, 0, 2); // e_shstrndx
        assert_eq!(out.len(), header);
        out.extend(&strings);
        out.resize(symbols_at + symbol_size, 0); // symbol 0 is null
        for ((_, info, shndx), name) in symbols.iter().zip(&names) {
            put(&mut out, *name, 4);
            if wide {
                out.extend([*info, 0]);
                put(&mut out, u64::from(*shndx), 2);
                put(&mut out, 0x1000, 8);
                put(&mut out, 16, 8);
            } else {
                put(&mut out, 0x1000, 4);
                put(&mut out, 16, 4);
                out.extend([*info, 0]);
                put(&mut out, u64::from(*shndx), 2);
            }
        }
        out.resize(sections_at + section_size, 0); // section 0 is null
        // (sh_type, sh_offset, sh_size, sh_link, sh_entsize)
        for (kind, at, size, link, entsize) in [
            (3u64, strings_at, strings.len(), 0u64, 0usize),
            (
                u64::from(SHT_DYNSYM),
                symbols_at,
                symbols_len,
                1,
                symbol_size,
            ),
        ] {
            put(&mut out, 0, 4); // sh_name
            put(&mut out, kind, 4);
            put(&mut out, 0, word); // sh_flags
            put(&mut out, 0, word); // sh_addr
            put(&mut out, at as u64, word);
            put(&mut out, size as u64, word);
            put(&mut out, link, 4);
            put(&mut out, 1, 4); // sh_info
            put(&mut out, 8, word); // sh_addralign
            put(&mut out, entsize as u64, word);
        }
        out
    }

    #[test]
    fn every_class_and_byte_order_is_read_and_patched() {
        const FUNC: u8 = 2;
        let symbols = [
            ("imported_hide", (STB_GLOBAL << 4) | FUNC, SHN_UNDEF),
            ("keep", (STB_GLOBAL << 4) | FUNC, 7),
            ("hide", (STB_GLOBAL << 4) | FUNC, 7),
            ("hide_weak", (STB_WEAK << 4) | FUNC, 7),
            ("hide_local", (STB_LOCAL << 4) | FUNC, 7),
        ];
        for wide in [false, true] {
            for big_endian in [false, true] {
                let original = synthetic(wide, big_endian, &symbols);
                let read = dynamic_symbols(&original).expect("read");
                let names: Vec<(&str, bool)> =
                    read.iter().map(|s| (s.name.as_str(), s.exported)).collect();
                assert_eq!(
                    names,
                    [
                        ("", false),
                        ("imported_hide", false),
                        ("keep", true),
                        ("hide", true),
                        ("hide_weak", true),
                        ("hide_local", false),
                    ],
                    "wide {wide}, big-endian {big_endian}"
                );
                let mut copy = original.clone();
                let hidden = hide_exports(&mut copy, |n| n.starts_with("hide")).expect("patched");
                assert_eq!(hidden, ["hide", "hide_weak"]);
                let changed: Vec<usize> = (0..copy.len())
                    .filter(|i| copy[*i] != original[*i])
                    .collect();
                let expected: Vec<usize> = read[3..5]
                    .iter()
                    .flat_map(|s| [s.info_offset, s.info_offset + 1])
                    .collect();
                assert_eq!(changed, expected, "wide {wide}, big-endian {big_endian}");
                for at in expected.iter().step_by(2) {
                    assert_eq!((copy[*at], copy[*at + 1]), (FUNC, STV_HIDDEN));
                }
            }
        }
    }

    #[test]
    fn a_malformed_file_is_refused_and_left_alone() {
        let mut truncated = synthetic(true, false, &[("hide", 0x12, 7)]);
        truncated.truncate(truncated.len() - 10);
        let before = truncated.clone();
        let error = hide_exports(&mut truncated, |_| true).expect_err("truncated");
        assert!(error.contains("truncated"), "{error}");
        assert_eq!(truncated, before);
        assert_eq!(
            dynamic_symbols(b"MZ\x90\x00").expect_err("a PE file"),
            "not an ELF file"
        );
        let mut odd_class = synthetic(true, false, &[]);
        odd_class[4] = 3;
        assert!(dynamic_symbols(&odd_class).is_err());
    }
}
