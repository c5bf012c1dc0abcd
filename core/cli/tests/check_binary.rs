//! `cuda-entry check BINARY`: the manifest section of an ELF, PE or Mach-O file, whatever the host.
//! The files are built byte by byte (`common::binary`), as small as each reader accepts: one
//! section holding the records `#[cuda_entry]` writes.

mod common;

use std::path::Path;

use common::binary::{
    ARM64, CTX_CREATE, CTX_CREATE_BYTES, LAUNCH_BYTES, X86_64, elf, elf_of_kind, macho, macho_for,
    pe, section, universal, write,
};
use common::{cuda_entry, json, run, scratch};
use cuda_entry_table::manifest::{self, Record};
use cuda_entry_table::{DefaultStream, Resolver};

/// `check --driver-version 12040 [--json] FILE`, loading no driver.
fn check(file: &Path, json: bool) -> common::Output {
    let mut command = cuda_entry();
    command.env("CUDA_ENTRY_DRIVER_PATH", "/nonexistent/libcuda.so.1");
    let mut args = vec!["check", "--driver-version", "12040"];
    if json {
        args.push("--json");
    }
    args.push(file.to_str().expect("UTF-8 path"));
    run(command, &args)
}

#[test]
fn every_format_is_read_on_any_host() {
    let dir = scratch("check-binary-formats");
    let section = section();
    let files = [
        write(&dir, "app.elf", &elf("cuda_entry", &section)),
        write(&dir, "app.exe", &pe(".cuentry", &section)),
        write(
            &dir,
            "app.macho",
            &macho("__DATA", "__cuda_entry", &section),
        ),
    ];
    for file in &files {
        let shown = file.display();
        let out = check(file, false);
        assert_eq!(out.status, 1, "{out:?}");
        let want = [
            format!(
                "{shown}: FAIL `in app` cuCtxCreate@12050: the driver (CUDA 12.4) is older than \
                 this ABI (CUDA 12.5): update the driver to >= CUDA 12.5"
            ),
            format!("{shown}: ok   `in kernels` cuLaunchKernel@7000 per_thread via runtime"),
            "minimum driver: 12050 (CUDA 12.5), set by cuCtxCreate".to_owned(),
            "2 declarations in 1 file: 1 ok, 1 would fail, 0 with notes, 0 not checked".to_owned(),
        ];
        let lines: Vec<&str> = out.stdout.lines().skip(1).collect();
        assert_eq!(lines, want, "{shown}");

        let doc = json(&check(file, true));
        assert_eq!(doc["minimum_driver"], 12050, "{shown}");
        assert_eq!(doc["totals"]["fail"], 1, "{shown}");
        let launch = &doc["declarations"][1];
        assert_eq!(
            (&launch["stream"], &launch["resolver"], &launch["line"]),
            (&"per_thread".into(), &"runtime".into(), &0.into()),
            "{shown}"
        );
    }
}

#[test]
fn an_optional_record_the_driver_cannot_serve_fails_nothing() {
    // cuCtxCreate_v4 when the driver serves it, else the CUDA 3.2 ABI the program needs.
    const UPGRADE: Record<'static> = Record {
        optional: true,
        ..CTX_CREATE
    };
    const FALLBACK: Record<'static> = Record {
        version: 3020,
        ..CTX_CREATE
    };
    let mut section = manifest::encode::<{ manifest::record_len(&UPGRADE) }>(&UPGRADE).to_vec();
    section.extend_from_slice(&manifest::encode::<{ manifest::record_len(&FALLBACK) }>(
        &FALLBACK,
    ));
    let dir = scratch("check-binary-optional");
    let file = write(&dir, "app.elf", &elf("cuda_entry", &section));
    let shown = file.display();
    let out = check(&file, false);
    assert_eq!(out.status, 0, "{out:?}");
    let lines: Vec<&str> = out.stdout.lines().skip(1).collect();
    assert_eq!(
        lines,
        [
            format!(
                "{shown}: unavailable, optional `in app` cuCtxCreate@12050: the driver (CUDA \
                 12.4) is older than this ABI (CUDA 12.5): update the driver to >= CUDA 12.5; \
                 the program runs without it"
            ),
            format!(
                "{shown}: ok   `in app` cuCtxCreate@3020: note: not the newest typedef: \
                 `cuCtxCreate` also has 11040, 12050 (fine when this is the signature written; \
                 newer ABIs exist)"
            ),
            "minimum driver: 3020 (CUDA 3.2), set by cuCtxCreate".to_owned(),
            "optional upgrades: cuCtxCreate@12050".to_owned(),
            "2 declarations in 1 file: 1 ok, 0 would fail, 1 unavailable (optional), 1 with \
             notes, 0 not checked"
                .to_owned(),
        ]
    );
    let doc = json(&check(&file, true));
    let upgrade = &doc["declarations"][0];
    assert_eq!(
        (&upgrade["status"], &upgrade["optional"], &upgrade["kind"]),
        (
            &"unavailable".into(),
            &true.into(),
            &"driver_too_old".into()
        )
    );
    assert_eq!(doc["declarations"][1]["optional"], false);
    assert_eq!(doc["minimum_driver"], 3020);
    assert_eq!(
        doc["optional_upgrades"],
        serde_json::json!([{"symbol": "cuCtxCreate", "version": 12050, "stream": "legacy"}])
    );
    assert_eq!(
        (&doc["totals"]["fail"], &doc["totals"]["unavailable"]),
        (&0.into(), &1.into())
    );
}

#[test]
fn a_binary_without_a_manifest_is_not_passed() {
    let dir = scratch("check-binary-other");
    let section = section();
    for (file, shown) in [
        (
            write(&dir, "other.elf", &elf(".data", &section)),
            "cuda_entry",
        ),
        (write(&dir, "other.exe", &pe(".data", &section)), ".cuentry"),
        (
            write(
                &dir,
                "other.macho",
                &macho("__TEXT", "__cuda_entry", &section),
            ),
            "__DATA,__cuda_entry",
        ),
    ] {
        let out = check(&file, false);
        assert_eq!(out.status, 3, "{out:?}");
        let lines: Vec<&str> = out.stdout.lines().skip(1).collect();
        assert_eq!(
            lines,
            [
                format!(
                    "{}: not checked: no cuda-entry manifest (no {shown} section): no \
                     #[cuda_entry] declaration was linked into it, or the section was stripped; \
                     nothing to judge",
                    file.display()
                ),
                "0 declarations in 1 file: 0 ok, 0 would fail, 0 with notes, 1 not checked"
                    .to_owned(),
            ]
        );
        let doc = json(&check(&file, true));
        assert_eq!(doc["totals"]["not_checked"], 1);
        assert_eq!(doc["not_checked"][0]["line"], 0);
    }
    // An empty section holds no record either.
    let empty = write(&dir, "empty.elf", &elf("cuda_entry", &[]));
    let out = check(&empty, false);
    assert_eq!(out.status, 3, "{out:?}");
    assert!(
        out.stdout
            .contains("not checked: the cuda_entry section holds no record"),
        "{}",
        out.stdout
    );
}

#[test]
fn the_command_itself_is_not_passed() {
    // A real executable of this host without a manifest (the test harness, linking none).
    let exe = std::env::current_exe().expect("current_exe");
    let out = check(&exe, false);
    assert_eq!(out.status, 3, "{out:?}");
    assert!(out.stdout.contains("not checked: no cuda-entry manifest"));
}

#[test]
fn a_manifest_section_without_contents_is_unreadable() {
    let dir = scratch("check-binary-nobits");
    let file = write(
        &dir,
        "nobits.elf",
        &elf_of_kind("cuda_entry", 8, &CTX_CREATE_BYTES),
    );
    let out = check(&file, false);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(
        out.stderr
            .contains("malformed cuda_entry section: it has no contents in the file"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_mach_o_that_does_not_hold_together_is_unreadable() {
    let dir = scratch("check-binary-broken-macho");
    let good = macho("__DATA", "__cuda_entry", &section());
    let mut sizeofcmds = good.clone();
    sizeofcmds[20..24].copy_from_slice(&0x00ff_ffffu32.to_le_bytes());
    let mut random = good[..4].to_vec();
    let mut x = 0x2545_f491_4f6c_dd1d_u64;
    for _ in 0..4096 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        random.push(x.to_le_bytes()[0]);
    }
    for (name, bytes) in [("sizeofcmds.macho", sizeofcmds), ("random.macho", random)] {
        let file = write(&dir, name, &bytes);
        let out = check(&file, false);
        assert_eq!(out.status, 2, "{name}: {out:?}");
        assert!(
            out.stderr.contains("not a binary this command can read"),
            "{name}: {}",
            out.stderr
        );
        assert_eq!(out.stdout, "");
    }
}

#[test]
fn every_slice_of_a_universal_binary_is_read() {
    let dir = scratch("check-binary-universal");
    let file = write(
        &dir,
        "app.universal",
        &universal(&[
            (
                X86_64,
                macho_for(X86_64, "__DATA", "__cuda_entry", &CTX_CREATE_BYTES),
            ),
            (
                ARM64,
                macho_for(ARM64, "__DATA", "__cuda_entry", &LAUNCH_BYTES),
            ),
            (ARM64, macho_for(ARM64, "__DATA", "__other", &LAUNCH_BYTES)),
        ]),
    );
    let shown = file.display();
    let out = check(&file, false);
    assert_eq!(out.status, 1, "{out:?}");
    let lines: Vec<&str> = out.stdout.lines().skip(1).collect();
    assert_eq!(
        lines,
        [
            format!(
                "{shown}: FAIL `in app, x86_64 slice` cuCtxCreate@12050: the driver (CUDA 12.4) \
                 is older than this ABI (CUDA 12.5): update the driver to >= CUDA 12.5"
            ),
            format!(
                "{shown}: ok   `in kernels, aarch64 slice` cuLaunchKernel@7000 per_thread via \
                 runtime"
            ),
            format!(
                "{shown}: not checked: the aarch64 slice: no cuda-entry manifest (no \
                 __DATA,__cuda_entry section): no #[cuda_entry] declaration was linked into it, \
                 or the section was stripped; nothing to judge"
            ),
            "minimum driver: 12050 (CUDA 12.5), set by cuCtxCreate".to_owned(),
            "2 declarations in 1 file: 1 ok, 1 would fail, 0 with notes, 1 not checked".to_owned(),
        ]
    );
}

#[test]
fn a_binary_cannot_drive_the_terminal() {
    let dir = scratch("check-binary-escapes");
    const FORGED: Record<'static> = Record {
        symbol: "cuMemAlloc\x1b[2K\rok",
        version: 3020,
        stream: DefaultStream::Legacy,
        resolver: Resolver::Driver,
        unverified: false,
        optional: false,
        package: "app\x1b[1A\u{9b}2K\u{202e}\nfake.rs:1: ok",
    };
    let bytes: [u8; manifest::record_len(&FORGED)] = manifest::encode(&FORGED);
    let file = write(&dir, "forged.elf", &elf("cuda_entry", &bytes));
    let out = check(&file, false);
    assert_eq!(out.status, 1, "{out:?}");
    assert!(
        !out.stdout
            .chars()
            .any(|c| c.is_control() && c != '\n' || c == '\u{202e}'),
        "{:?}",
        out.stdout
    );
    assert!(
        out.stdout.contains(
            "`in app\\u{1b}[1A\\u{9b}2K\\u{202e}\\u{a}fake.rs:1: ok` \
             cuMemAlloc\\u{1b}[2K\\u{d}ok@3020: the macro rejects it\n"
        ),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains(
            "forged.elf: symbol_not_an_identifier: `cuMemAlloc\\u{1b}[2K\\u{d}ok` is not a C \
             identifier"
        ),
        "{}",
        out.stdout
    );
    // The driver, the declaration and its mistake, the minimum driver, the totals: the forged
    // line break did not start a line of its own.
    assert_eq!(out.stdout.lines().count(), 5, "{}", out.stdout);
    // JSON keeps the bytes, escaped as JSON.
    let doc = json(&check(&file, true));
    assert_eq!(doc["declarations"][0]["symbol"], "cuMemAlloc\x1b[2K\rok");
}

#[test]
fn a_malformed_record_makes_the_binary_unreadable() {
    let dir = scratch("check-binary-malformed");
    let mut bad_version = CTX_CREATE_BYTES;
    bad_version[8..12].copy_from_slice(&3025u32.to_le_bytes());
    let mut no_version = CTX_CREATE_BYTES;
    no_version[8..12].copy_from_slice(&0u32.to_le_bytes());
    let mut bad_flags = CTX_CREATE_BYTES;
    bad_flags[7] = 0x80;
    let mut zero_unverified = no_version;
    zero_unverified[7] = manifest::FLAG_UNVERIFIED;
    let mut bad_unverified = bad_version;
    bad_unverified[7] = manifest::FLAG_UNVERIFIED;
    for (name, record, why) in [
        (
            "zero-unverified.elf",
            &zero_unverified,
            "version 0 in the record at offset 0 is not 1000 * major + 10 * minor",
        ),
        (
            "version-unverified.elf",
            &bad_unverified,
            "version 3025 in the record at offset 0 is not 1000 * major + 10 * minor",
        ),
        (
            "version.elf",
            &bad_version,
            "version 3025 in the record at offset 0 is not 1000 * major + 10 * minor",
        ),
        (
            "zero.elf",
            &no_version,
            "version 0 in the record at offset 0 is not 1000 * major + 10 * minor",
        ),
        (
            "flags.elf",
            &bad_flags,
            "unknown flags 0x80 in the record at offset 0",
        ),
    ] {
        let file = write(&dir, name, &elf("cuda_entry", record));
        let out = check(&file, false);
        assert_eq!(out.status, 2, "{out:?}");
        assert_eq!(out.stdout, "");
        assert_eq!(
            out.stderr.trim_end(),
            format!(
                "error: {}: malformed cuda_entry section: {why}",
                file.display()
            )
        );
    }
    let file = write(
        &dir,
        "truncated.macho",
        &macho("__DATA", "__cuda_entry", &CTX_CREATE_BYTES[..10]),
    );
    let out = check(&file, false);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(
        out.stderr
            .contains("malformed __DATA,__cuda_entry section: truncated record at offset 0"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_folder_of_binaries_checks_them() {
    // A `dist/` folder: binaries (found by their first bytes, whatever their names), a text
    // file, and a folder of libraries.
    let dir = scratch("check-binary-folder");
    let dist = dir.join("dist");
    std::fs::create_dir_all(dist.join("lib")).expect("create dist/lib");
    let app = write(&dist, "app", &elf("cuda_entry", &CTX_CREATE_BYTES));
    let library = write(
        &dist.join("lib"),
        "kernels.dll",
        &pe(".cuentry", &LAUNCH_BYTES),
    );
    write(&dist, "README.txt", b"how to run the app\n");
    let out = check(&dist, false);
    assert_eq!(out.status, 1, "{out:?}");
    let lines: Vec<&str> = out.stdout.lines().skip(1).collect();
    assert_eq!(
        lines,
        [
            format!(
                "{}: FAIL `in app` cuCtxCreate@12050: the driver (CUDA 12.4) is older than this \
                 ABI (CUDA 12.5): update the driver to >= CUDA 12.5",
                app.display()
            ),
            format!(
                "{}: ok   `in kernels` cuLaunchKernel@7000 per_thread via runtime",
                library.display()
            ),
            "minimum driver: 12050 (CUDA 12.5), set by cuCtxCreate".to_owned(),
            "2 declarations in 2 files: 1 ok, 1 would fail, 0 with notes, 0 not checked".to_owned(),
        ]
    );
}

#[test]
fn a_folder_without_sources_or_binaries_is_bad_input() {
    let dir = scratch("check-binary-empty-folder");
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).expect("create");
    let text = dir.join("text");
    std::fs::create_dir_all(&text).expect("create");
    write(&text, "notes.txt", b"no binary here\n");
    for folder in [&empty, &text] {
        let out = check(folder, false);
        assert_eq!(out.status, 2, "{out:?}");
        assert_eq!(out.stdout, "");
        assert_eq!(
            out.stderr.trim_end(),
            format!(
                "error: {}: no sources or binaries found: no .rs file, and no executable or \
                 library (ELF, PE, Mach-O), in it or its folders",
                folder.display()
            )
        );
    }
}
