//! Binaries built byte by byte, as small as each reader accepts: ELF, PE and Mach-O files with
//! the sections a test asks for, universal Mach-O files, and the manifest records
//! `#[cuda_entry]` writes (`cuda_entry_table::manifest`'s own encoder).

use std::path::{Path, PathBuf};

use cuda_entry_table::manifest::{self, Record};
use cuda_entry_table::{DefaultStream, Resolver};

pub(crate) const CTX_CREATE: Record<'static> = Record {
    symbol: "cuCtxCreate",
    version: 12050,
    stream: DefaultStream::Legacy,
    resolver: Resolver::Driver,
    unverified: false,
    optional: false,
    package: "app",
};
pub(crate) const LAUNCH: Record<'static> = Record {
    symbol: "cuLaunchKernel",
    version: 7000,
    stream: DefaultStream::PerThread,
    resolver: Resolver::Runtime,
    unverified: false,
    optional: false,
    package: "kernels",
};
pub(crate) const CTX_CREATE_BYTES: [u8; manifest::record_len(&CTX_CREATE)] =
    manifest::encode(&CTX_CREATE);
pub(crate) const LAUNCH_BYTES: [u8; manifest::record_len(&LAUNCH)] = manifest::encode(&LAUNCH);

/// The x86-64 and arm64 CPU types of Mach-O.
pub(crate) const X86_64: u32 = 0x0100_0007;
pub(crate) const ARM64: u32 = 0x0100_000c;

/// Two records with the zero padding a linker may put between them.
pub(crate) fn section() -> Vec<u8> {
    let mut bytes = CTX_CREATE_BYTES.to_vec();
    bytes.extend_from_slice(&[0; 4]);
    bytes.extend_from_slice(&LAUNCH_BYTES);
    bytes
}

/// Little-endian writing.
pub(crate) trait Put {
    fn u16(&mut self, v: u16);
    fn u32(&mut self, v: u32);
    fn u64(&mut self, v: u64);
    /// `text` in a fixed-size, zero-padded field.
    fn name(&mut self, text: &str, size: usize);
    fn pad_to(&mut self, len: usize);
}

impl Put for Vec<u8> {
    fn u16(&mut self, v: u16) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn name(&mut self, text: &str, size: usize) {
        assert!(text.len() <= size, "{text} fits {size} bytes");
        self.extend_from_slice(text.as_bytes());
        self.pad_to(self.len() + size - text.len());
    }
    fn pad_to(&mut self, len: usize) {
        assert!(self.len() <= len, "padding backwards");
        self.resize(len, 0);
    }
}

pub(crate) fn len32(n: usize) -> u32 {
    u32::try_from(n).expect("small")
}

/// An ELF section: its name, type (1 PROGBITS, 2 SYMTAB, 8 NOBITS, 11 DYNSYM) and contents.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ElfSection<'a> {
    pub(crate) name: &'a str,
    pub(crate) kind: u32,
    pub(crate) data: &'a [u8],
}

/// An x86-64 ELF executable with one section, `name`, holding `data`.
pub(crate) fn elf(name: &str, data: &[u8]) -> Vec<u8> {
    elf_of_kind(name, 1, data)
}

/// An x86-64 ELF executable with one section, `name`, of type `kind` (1 PROGBITS, 8 NOBITS).
pub(crate) fn elf_of_kind(name: &str, kind: u32, data: &[u8]) -> Vec<u8> {
    elf_sections(&[ElfSection { name, kind, data }])
}

/// An x86-64 ELF executable with `sections` (then `.shstrtab`), their contents after the header
/// and the section header table last.
pub(crate) fn elf_sections(sections: &[ElfSection<'_>]) -> Vec<u8> {
    let mut names = String::from("\0");
    let mut name_at = Vec::new();
    for s in sections {
        name_at.push(names.len());
        names.push_str(s.name);
        names.push('\0');
    }
    let strtab_name = names.len();
    names.push_str(".shstrtab\0");
    let mut f = Vec::new();
    f.extend_from_slice(b"\x7fELF\x02\x01\x01");
    f.pad_to(16);
    f.u16(2); // ET_EXEC
    f.u16(62); // EM_X86_64
    f.u32(1);
    f.u64(0); // entry
    f.u64(0); // no program headers
    let shoff_at = f.len();
    f.u64(0); // the section header table's offset, written below
    f.u32(0);
    f.u16(64);
    f.u16(56);
    f.u16(0);
    f.u16(64);
    f.u16(u16::try_from(sections.len() + 2).expect("few sections")); // null, sections, names
    f.u16(u16::try_from(sections.len() + 1).expect("few sections"));
    let mut placed = Vec::new();
    for s in sections {
        placed.push(f.len());
        if s.kind != 8 {
            f.extend_from_slice(s.data);
        }
    }
    let names_at = f.len();
    f.extend_from_slice(names.as_bytes());
    let headers_at = f.len().next_multiple_of(8);
    f[shoff_at..shoff_at + 8].copy_from_slice(&(headers_at as u64).to_le_bytes());
    f.pad_to(headers_at + 64); // the null section header
    for ((s, at), name) in sections.iter().zip(&placed).zip(&name_at) {
        elf_section_header(&mut f, *name, s.kind, *at as u64, s.data.len() as u64);
    }
    elf_section_header(&mut f, strtab_name, 3, names_at as u64, names.len() as u64);
    f
}

/// One ELF64 section header.
pub(crate) fn elf_section_header(f: &mut Vec<u8>, name: usize, kind: u32, at: u64, size: u64) {
    f.u32(len32(name));
    f.u32(kind);
    f.u64(if kind == 3 { 0 } else { 2 }); // ALLOC, but for the names
    f.u64(0);
    f.u64(at);
    f.u64(size);
    f.u32(0);
    f.u32(0);
    f.u64(1);
    f.u64(if kind == 2 || kind == 11 { 24 } else { 0 }); // a symbol's size
}

/// An x86-64 PE32+ executable with one section, `name`, holding `data`.
pub(crate) fn pe(name: &str, data: &[u8]) -> Vec<u8> {
    pe_sections(&[(name, data)])
}

/// An x86-64 PE32+ executable with `sections` (name, contents), each aligned to 512 bytes.
pub(crate) fn pe_sections(sections: &[(&str, &[u8])]) -> Vec<u8> {
    let data_at = 1024;
    let mut f = b"MZ".to_vec();
    f.pad_to(0x3c);
    f.u32(64); // e_lfanew
    f.extend_from_slice(b"PE\0\0");
    f.u16(0x8664);
    f.u16(u16::try_from(sections.len()).expect("few sections"));
    f.u32(0);
    f.u32(0);
    f.u32(0);
    f.u16(240); // optional header
    f.u16(0x22);
    let optional = f.len();
    f.u16(0x20b); // PE32+
    f.pad_to(optional + 24);
    f.u64(0x1_4000_0000); // image base
    f.u32(0x1000); // section alignment
    f.u32(512); // file alignment
    f.pad_to(optional + 56);
    let raw: Vec<usize> = sections
        .iter()
        .map(|(_, d)| d.len().next_multiple_of(512))
        .collect();
    f.u32(0x2000 + len32(raw.iter().sum::<usize>()).next_multiple_of(0x1000) * 2); // image size
    f.u32(len32(data_at)); // headers size
    f.u32(0);
    f.u16(3); // console
    f.pad_to(optional + 108);
    f.u32(16); // data directories, all empty
    f.pad_to(optional + 240);
    let (mut file_at, mut virtual_at) = (data_at, 0x1000);
    for ((name, data), raw) in sections.iter().zip(&raw) {
        f.name(name, 8);
        f.u32(len32(data.len()));
        f.u32(len32(virtual_at));
        f.u32(len32(*raw));
        f.u32(len32(file_at));
        f.pad_to(f.len() + 12);
        f.u32(0x4000_0040); // initialized data, readable
        file_at += raw;
        virtual_at += raw.next_multiple_of(0x1000).max(0x1000);
    }
    f.pad_to(data_at);
    for ((_, data), raw) in sections.iter().zip(&raw) {
        let at = f.len();
        f.extend_from_slice(data);
        f.pad_to(at + raw);
    }
    f
}

/// An x86-64 Mach-O executable with one section, `segment,name`, holding `data`.
pub(crate) fn macho(segment: &str, name: &str, data: &[u8]) -> Vec<u8> {
    macho_for(X86_64, segment, name, data)
}

/// A 64-bit Mach-O executable for the CPU type `cpu`, with one section holding `data`.
pub(crate) fn macho_for(cpu: u32, segment: &str, name: &str, data: &[u8]) -> Vec<u8> {
    macho_sections(cpu, segment, &[(name, data)])
}

/// A 64-bit Mach-O executable for `cpu`, with one segment command holding `sections` (name,
/// contents) one after the other.
pub(crate) fn macho_sections(cpu: u32, segment: &str, sections: &[(&str, &[u8])]) -> Vec<u8> {
    let commands = 72 + 80 * sections.len();
    let data_at = 32 + commands;
    let total: usize = sections.iter().map(|(_, d)| d.len()).sum();
    let mut f = Vec::new();
    f.u32(0xfeed_facf);
    f.u32(cpu);
    f.u32(3);
    f.u32(2); // MH_EXECUTE
    f.u32(1);
    f.u32(len32(commands));
    f.u32(0);
    f.u32(0);
    f.u32(0x19); // LC_SEGMENT_64
    f.u32(len32(commands));
    f.name(segment, 16);
    f.u64(0x1000);
    f.u64(total as u64);
    f.u64(data_at as u64);
    f.u64(total as u64);
    f.u32(3);
    f.u32(3);
    f.u32(len32(sections.len()));
    f.u32(0);
    let mut at = data_at;
    for (name, data) in sections {
        f.name(name, 16);
        f.name(segment, 16);
        f.u64(0x1000 + (at - data_at) as u64);
        f.u64(data.len() as u64);
        f.u32(len32(at));
        f.pad_to(f.len() + 28); // align, relocations, flags (regular), reserved
        at += data.len();
    }
    for (_, data) in sections {
        f.extend_from_slice(data);
    }
    f
}

/// A universal Mach-O holding `slices` (CPU type, bytes), each aligned to 4 KiB.
pub(crate) fn universal(slices: &[(u32, Vec<u8>)]) -> Vec<u8> {
    let mut at = 0x1000;
    let mut entries = Vec::new();
    for (cpu, bytes) in slices {
        entries.push((*cpu, at, bytes.len()));
        at = (at + bytes.len()).next_multiple_of(0x1000);
    }
    let mut f = fat_header(&entries);
    for (_, bytes) in slices {
        f.pad_to(f.len().next_multiple_of(0x1000));
        f.extend_from_slice(bytes);
    }
    f
}

/// A universal Mach-O's header and table: each entry's CPU type, offset and size, as given
/// (they may alias or overlap).
pub(crate) fn fat_header(entries: &[(u32, usize, usize)]) -> Vec<u8> {
    let be = |f: &mut Vec<u8>, v: u32| f.extend_from_slice(&v.to_be_bytes());
    let mut f = Vec::new();
    be(&mut f, 0xcafe_babe);
    be(&mut f, len32(entries.len()));
    for (cpu, at, size) in entries {
        be(&mut f, *cpu);
        be(&mut f, 3);
        be(&mut f, len32(*at));
        be(&mut f, len32(*size));
        be(&mut f, 12);
    }
    f
}

pub(crate) fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write");
    path
}
