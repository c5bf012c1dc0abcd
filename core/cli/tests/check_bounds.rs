//! `cuda-entry check BINARY` bounds its work by what the file holds, not by what it claims: each
//! slice of a universal binary is read once (slices that share bytes are refused), at most 64 of
//! them; only the headers that locate sections are read (a sparse file's claimed symbol tables
//! and program headers cost nothing); every manifest section is read, once; a binary states at
//! most 100,000 declarations.

mod common;

use std::path::Path;

use common::binary::{
    ARM64, CTX_CREATE, CTX_CREATE_BYTES, ElfSection, LAUNCH_BYTES, Put, X86_64, elf_sections,
    fat_header, macho_for, macho_sections, pe_sections, universal, write,
};
use common::{cuda_entry, run, scratch};
use cuda_entry_table::manifest::{self, Record};

/// `check --driver-version 12040 FILE`, loading no driver.
fn check(file: &Path) -> common::Output {
    let mut command = cuda_entry();
    command.env("CUDA_ENTRY_DRIVER_PATH", "/nonexistent/libcuda.so.1");
    let file = file.to_str().expect("UTF-8 path");
    run(command, &["check", "--driver-version", "12040", file])
}

/// The lines after the driver's.
fn lines(out: &common::Output) -> Vec<&str> {
    out.stdout.lines().skip(1).collect()
}

#[test]
fn every_manifest_section_is_read() {
    // The first section holds what a 12.4 driver serves, the second what it does not: reading
    // the first only passed the binary.
    let dir = scratch("check-bounds-sections");
    let files = [
        (
            "two.elf",
            elf_sections(&[
                ElfSection {
                    name: "cuda_entry",
                    kind: 1,
                    data: &LAUNCH_BYTES,
                },
                ElfSection {
                    name: ".data",
                    kind: 1,
                    data: &[1; 8],
                },
                ElfSection {
                    name: "cuda_entry",
                    kind: 1,
                    data: &CTX_CREATE_BYTES,
                },
            ]),
        ),
        (
            "two.exe",
            pe_sections(&[(".cuentry", &LAUNCH_BYTES), (".cuentry", &CTX_CREATE_BYTES)]),
        ),
        (
            "two.macho",
            macho_sections(
                X86_64,
                "__DATA",
                &[
                    ("__cuda_entry", &LAUNCH_BYTES),
                    ("__cuda_entry", &CTX_CREATE_BYTES),
                ],
            ),
        ),
    ];
    for (name, bytes) in files {
        let file = write(&dir, name, &bytes);
        let shown = file.display();
        let out = check(&file);
        assert_eq!(out.status, 1, "{name}: {out:?}");
        assert_eq!(
            lines(&out),
            [
                format!("{shown}: ok   `in kernels` cuLaunchKernel@7000 per_thread via runtime"),
                format!(
                    "{shown}: FAIL `in app` cuCtxCreate@12050: the driver (CUDA 12.4) is older \
                     than this ABI (CUDA 12.5): update the driver to >= CUDA 12.5"
                ),
                "minimum driver: 12050 (CUDA 12.5), set by cuCtxCreate".to_owned(),
                "2 declarations in 1 file: 1 ok, 1 would fail, 0 with notes, 0 not checked"
                    .to_owned(),
            ],
            "{name}"
        );
    }
}

#[test]
fn manifest_sections_that_share_bytes_are_refused() {
    let dir = scratch("check-bounds-shared-sections");
    let mut bytes = elf_sections(&[
        ElfSection {
            name: "cuda_entry",
            kind: 1,
            data: &CTX_CREATE_BYTES,
        },
        ElfSection {
            name: "cuda_entry",
            kind: 1,
            data: &LAUNCH_BYTES,
        },
    ]);
    // The second section header (index 2) points at the first one's bytes.
    let table =
        usize::try_from(u64::from_le_bytes(bytes[40..48].try_into().expect("8"))).expect("small");
    let first: [u8; 8] = bytes[table + 64 + 24..table + 64 + 32]
        .try_into()
        .expect("8");
    bytes[table + 128 + 24..table + 128 + 32].copy_from_slice(&first);
    let file = write(&dir, "aliased.elf", &bytes);
    let out = check(&file);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(
        out.stderr
            .contains("malformed cuda_entry sections: two of them share bytes"),
        "{}",
        out.stderr
    );
}

#[test]
fn slices_that_share_bytes_are_refused() {
    let dir = scratch("check-bounds-aliases");
    let slice = macho_for(X86_64, "__DATA", "__cuda_entry", &CTX_CREATE_BYTES);
    let size = slice.len();
    // Eight entries of the table, one slice: each would be read (and its records listed) again.
    let mut aliased = fat_header(&[(X86_64, 0x1000, size); 8]);
    aliased.pad_to(0x1000);
    aliased.extend_from_slice(&slice);
    // Two entries overlapping by a byte.
    let mut overlapping = fat_header(&[(X86_64, 0x1000, size), (ARM64, 0x1000 + size - 1, size)]);
    overlapping.pad_to(0x1000);
    overlapping.extend_from_slice(&slice);
    overlapping.extend_from_slice(&slice);
    for (name, bytes) in [("aliased", aliased), ("overlapping", overlapping)] {
        let file = write(&dir, name, &bytes);
        let out = check(&file);
        assert_eq!(out.status, 2, "{name}: {out:?}");
        assert_eq!(out.stdout, "", "{name}");
        assert!(
            out.stderr
                .contains("malformed universal binary: its x86_64 slice (bytes 4096..")
                && out
                    .stderr
                    .contains("share bytes; slices are disjoint, and each is read once"),
            "{name}: {}",
            out.stderr
        );
    }
}

#[test]
fn a_universal_binary_has_at_most_64_slices() {
    let dir = scratch("check-bounds-slices");
    let slice = macho_for(ARM64, "__DATA", "__cuda_entry", &LAUNCH_BYTES);
    let at_limit = universal(&vec![(ARM64, slice.clone()); 64]);
    let out = check(&write(&dir, "sixty-four", &at_limit));
    assert_eq!(out.status, 0, "{out:?}");
    assert!(
        out.stdout.contains("64 declarations in 1 file: 64 ok"),
        "{}",
        out.stdout
    );
    let over = universal(&vec![(ARM64, slice); 65]);
    let out = check(&write(&dir, "sixty-five", &over));
    assert_eq!(out.status, 2, "{out:?}");
    assert!(
        out.stderr
            .contains("a universal binary of 65 slices, more than this command reads (64)"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_binary_states_at_most_100000_declarations() {
    const SMALL: Record<'static> = Record {
        symbol: "cuInit",
        version: 2000,
        package: "a",
        ..CTX_CREATE
    };
    let record = manifest::encode::<{ manifest::record_len(&SMALL) }>(&SMALL);
    let section: Vec<u8> = record
        .iter()
        .copied()
        .cycle()
        .take(record.len() * 100_001)
        .collect();
    let dir = scratch("check-bounds-declarations");
    let file = write(
        &dir,
        "many.elf",
        &elf_sections(&[ElfSection {
            name: "cuda_entry",
            kind: 1,
            data: &section,
        }]),
    );
    let out = check(&file);
    assert_eq!(
        out.status,
        2,
        "status {}, {} bytes of output",
        out.status,
        out.stdout.len()
    );
    assert!(
        out.stderr
            .contains("more than 100000 declarations, more than a binary may state: refused"),
        "{}",
        out.stderr
    );
}

/// The files whose tables claim what their holes hold (Linux: sparse files, `wait4`).
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
mod sparse {
    use std::os::unix::fs::FileExt;
    use std::path::Path;

    use super::common::binary::{CTX_CREATE_BYTES, Put, elf_section_header};
    use super::cuda_entry;

    /// A sparse ELF file of `SIZE` bytes whose first 8 KiB and last 8 KiB hold data: the header
    /// (and, for [`Tables::SectionHeaders`], section 0) at the start; the manifest section, the
    /// section names and the section header table at the end; between them, holes that the
    /// tables claim.
    pub(super) const SIZE: u64 = 256 << 20;
    /// What the holes' claimants span.
    const CLAIMED: u64 = SIZE - 8192 - 4096;

    #[derive(Clone, Copy)]
    pub(super) enum Tables {
        /// `.symtab`, `.dynsym` and the program headers span the hole.
        SymbolsAndProgramHeaders,
        /// The section header table spans the hole (an extended count in section 0).
        SectionHeaders,
    }

    /// The size of the section header table [`Tables::SectionHeaders`] claims.
    pub(super) const CLAIMED_TABLE: u64 = CLAIMED / 64 * 64;

    /// Section 0, which holds the extended counts: the section count, the names' index, the
    /// program header count.
    fn section_0(end: &mut Vec<u8>, count: u64, link: u32, info: u32) {
        elf_section_header(end, 0, 0, 0, count);
        let at = end.len() - 64;
        end[at + 8..at + 16].copy_from_slice(&[0; 8]);
        end[at + 40..at + 44].copy_from_slice(&link.to_le_bytes());
        end[at + 44..at + 48].copy_from_slice(&info.to_le_bytes());
    }

    pub(super) fn elf(path: &Path, tables: Tables) {
        let tail = SIZE - 8192;
        let names = b"\0cuda_entry\0.shstrtab\0.symtab\0.dynsym\0";
        let mut head = Vec::new();
        head.extend_from_slice(b"\x7fELF\x02\x01\x01");
        head.pad_to(16);
        head.u16(2);
        head.u16(62);
        head.u32(1);
        head.u64(0);
        let mut end = Vec::new();
        end.extend_from_slice(&CTX_CREATE_BYTES);
        let names_at = end.len() as u64;
        end.extend_from_slice(names);
        end.pad_to(1024);
        match tables {
            Tables::SymbolsAndProgramHeaders => {
                head.u64(4096); // program headers in the hole, their count in section 0
                head.u64(tail + 1024); // section headers at the end
                head.u32(0);
                head.u16(64);
                head.u16(56);
                head.u16(0xffff); // PN_XNUM
                head.u16(64);
                head.u16(5);
                head.u16(2);
                let program_headers = u32::try_from(CLAIMED / 56).expect("small");
                section_0(&mut end, 0, 0, program_headers);
                elf_section_header(&mut end, 1, 1, tail, CTX_CREATE_BYTES.len() as u64);
                elf_section_header(&mut end, 12, 3, tail + names_at, names.len() as u64);
                // Symbol tables spanning the hole, each linked to the names (a string table).
                let symbols = CLAIMED / 24 * 24 - 24;
                for (name, kind, at) in [(22, 2, 4096), (30, 11, 4096 + 24)] {
                    elf_section_header(&mut end, name, kind, at, symbols);
                    let header = end.len() - 64;
                    end[header + 40..header + 44].copy_from_slice(&2u32.to_le_bytes());
                }
            }
            Tables::SectionHeaders => {
                head.u64(0);
                head.u64(4096); // the section header table in the hole
                head.u32(0);
                head.u16(64);
                head.u16(56);
                head.u16(0);
                head.u16(64);
                head.u16(0); // the count is section 0's size
                head.u16(0xffff); // SHN_XINDEX: the names' index is section 0's link
                head.pad_to(4096);
                section_0(&mut head, CLAIMED / 64, 2, 0);
            }
        }
        let file = std::fs::File::create(path).expect("create");
        file.set_len(SIZE).expect("sparse");
        file.write_all_at(&head, 0).expect("head");
        file.write_all_at(&end, tail).expect("tail");
    }

    /// The command's exit status and peak resident memory in KiB, from the kernel's accounting
    /// of that one child (`wait4`).
    pub(super) fn status_and_peak_memory(file: &Path) -> (i32, i64) {
        unsafe extern "C" {
            fn wait4(pid: i32, status: *mut i32, options: i32, usage: *mut [i64; 18]) -> i32;
        }
        let mut command = cuda_entry();
        command
            .env("CUDA_ENTRY_DRIVER_PATH", "/nonexistent/libcuda.so.1")
            .args(["check", "--driver-version", "12040"])
            .arg(file)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        #[allow(
            clippy::zombie_processes,
            reason = "reaped by wait4 below, which also reports its memory"
        )]
        let child = command.spawn().expect("spawn");
        let pid = i32::try_from(child.id()).expect("a pid");
        let (mut status, mut usage) = (0, [0i64; 18]);
        // SAFETY: our own child, not yet waited for; `usage` is Linux's `struct rusage` (two
        // `timeval`s, then 14 `long`s) on a 64-bit target.
        let waited = unsafe { wait4(pid, &raw mut status, 0, &raw mut usage) };
        assert_eq!(waited, pid, "wait4");
        assert_eq!(status & 0x7f, 0, "exited, not killed: {status:#x}");
        ((status >> 8) & 0xff, usage[4])
    }
}

#[test]
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn a_sparse_binary_is_read_by_its_headers_only() {
    use sparse::{CLAIMED_TABLE, Tables, elf, status_and_peak_memory};
    let dir = scratch("check-bounds-sparse");
    // The manifest is found and judged; the 256 MiB the symbol tables and program headers claim
    // are never read.
    let symbols = dir.join("symbols.elf");
    elf(&symbols, Tables::SymbolsAndProgramHeaders);
    let out = check(&symbols);
    assert_eq!(out.status, 1, "{out:?}");
    assert!(
        out.stdout.contains("FAIL `in app` cuCtxCreate@12050"),
        "{}",
        out.stdout
    );
    let (status, peak) = status_and_peak_memory(&symbols);
    assert_eq!(status, 1);
    assert!(peak < 64 << 10, "{peak} KiB resident for a 16 KiB file");
    // A section header table of 256 MiB is more than a table this command reads.
    let headers = dir.join("headers.elf");
    elf(&headers, Tables::SectionHeaders);
    let out = check(&headers);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(
        out.stderr.contains(&format!(
            "not a binary this command can read: a section header table of {CLAIMED_TABLE} \
             bytes, more than this command reads (16 MiB)"
        )),
        "{}",
        out.stderr
    );
    let (status, peak) = status_and_peak_memory(&headers);
    assert_eq!(status, 2);
    assert!(peak < 64 << 10, "{peak} KiB resident for a 16 KiB file");
}
