//! `cuda-entry check`, run as a process on the fixtures (tests/fixtures/, never compiled), against
//! the simulated driver at 12040 and 13000 and against `--driver-version`.

mod common;

use std::path::Path;

use common::{cuda_entry, fixtures, json, run, scratch, simulated};
use serde_json::Value;

/// `check ARGS` in the fixtures folder (so paths print as `project/lib.rs`).
fn check(mut command: std::process::Command, args: &[&str]) -> common::Output {
    command.current_dir(fixtures());
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    run(command, &all)
}

/// A command that must not load any driver: the override names nothing loadable.
fn driverless() -> std::process::Command {
    let mut command = cuda_entry();
    command.env("CUDA_ENTRY_DRIVER_PATH", "/nonexistent/libcuda.so.1");
    command
}

/// The declaration for `function` in a `--json` document.
fn declaration<'a>(doc: &'a Value, function: &str) -> &'a Value {
    doc["declarations"]
        .as_array()
        .expect("declarations")
        .iter()
        .find(|d| d["function"] == function)
        .unwrap_or_else(|| panic!("{function} missing from {doc}"))
}

/// Every declaration of `project/`: (function, file:line).
const PROJECT: &[(&str, &str)] = &[
    ("mem_alloc", "project/lib.rs:10"),
    ("ctx_create", "project/lib.rs:14"),
    ("ctx_create_v2", "project/lib.rs:23"),
    ("ctx_synchronize", "project/lib.rs:27"),
    ("launch_kernel", "project/nested/mod.rs:10"),
    ("stream_synchronize", "project/nested/mod.rs:24"),
    ("device_get_uuid", "project/nested/mod.rs:33"),
];

fn status_of(out: &common::Output, location: &str) -> &'static str {
    let line = out
        .stdout
        .lines()
        .find(|l| l.starts_with(&format!("{location}: ")))
        .unwrap_or_else(|| panic!("no line for {location}:\n{}", out.stdout));
    if line.contains(": FAIL ") {
        "FAIL"
    } else {
        assert!(line.contains(": ok "), "{line}");
        "ok"
    }
}

#[test]
fn a_cuda_12_4_driver_cannot_serve_two_declarations() {
    let out = check(simulated(Some(12040)), &["project"]);
    assert_eq!(out.status, 1, "{out:?}");
    for (function, location) in PROJECT {
        let want = if ["ctx_create", "ctx_synchronize"].contains(function) {
            "FAIL"
        } else {
            "ok"
        };
        assert_eq!(
            status_of(&out, location),
            want,
            "{function}:\n{}",
            out.stdout
        );
    }
    assert!(
        out.stdout.contains(
            "project/lib.rs:14: FAIL `ctx_create` cuCtxCreate@12050: the driver reports CUDA 12.4 \
             but this ABI needs CUDA 12.5"
        ),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("7 declarations in 2 files: 5 ok, 2 would fail, 1 with notes"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_cuda_13_0_driver_serves_them_all() {
    let out = check(simulated(Some(13000)), &["project"]);
    assert_eq!(out.status, 0, "{out:?}");
    for (_, location) in PROJECT {
        assert_eq!(status_of(&out, location), "ok");
    }
    // The old cuCtxCreate ABI works but has a note.
    assert!(
        out.stdout.contains(
            "project/lib.rs:23: ok   `ctx_create_v2` cuCtxCreate@3020: note: not the newest \
             typedef: `cuCtxCreate` also has 11040, 12050"
        ),
        "{}",
        out.stdout
    );
}

#[test]
fn json_reports_each_declaration() {
    for (driver, failing) in [(12040, 2), (13000, 0)] {
        let out = check(simulated(Some(driver)), &["--json", "project"]);
        assert_eq!(out.status, i32::from(failing > 0), "{out:?}");
        let doc = json(&out);
        assert_eq!(doc["driver"]["source"], "loaded");
        assert_eq!(doc["driver"]["version"], driver);
        assert_eq!(doc["totals"]["files"], 2);
        assert_eq!(doc["totals"]["declarations"], PROJECT.len());
        assert_eq!(doc["totals"]["fail"], failing);
        assert_eq!(doc["totals"]["with_notes"], 1);
        for (function, location) in PROJECT {
            let d = declaration(&doc, function);
            let (file, line) = location.split_once(':').expect("file:line");
            assert_eq!(
                Path::new(d["file"].as_str().expect("file")),
                Path::new(file)
            );
            assert_eq!(d["line"].to_string(), line);
        }
        let launch = declaration(&doc, "launch_kernel");
        assert_eq!(launch["symbol"], "cuLaunchKernel");
        assert_eq!(launch["version"], 7000);
        assert_eq!(launch["stream"], "per_thread");
        assert_eq!(launch["status"], "ok");
        let create = declaration(&doc, "ctx_create");
        if driver == 12040 {
            assert_eq!(create["status"], "fail");
            assert_eq!(create["kind"], "driver_too_old");
            assert!(
                create["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("CUDA 12.5"))
            );
        } else {
            assert_eq!(create["status"], "ok");
            assert_eq!(create["kind"], Value::Null);
        }
        let notes = declaration(&doc, "ctx_create_v2")["notes"]
            .as_array()
            .expect("notes")
            .len();
        assert_eq!(notes, 1);
    }
}

#[test]
fn driver_version_judges_from_the_table_without_a_driver() {
    let old = check(driverless(), &["--driver-version", "12040", "project"]);
    assert_eq!(old.status, 1, "{old:?}");
    assert_eq!(status_of(&old, "project/lib.rs:14"), "FAIL");
    assert_eq!(status_of(&old, "project/lib.rs:27"), "FAIL");
    assert_eq!(status_of(&old, "project/lib.rs:10"), "ok");
    assert!(
        old.stdout.contains("from --driver-version"),
        "{}",
        old.stdout
    );
    let new = check(
        driverless(),
        &["--driver-version", "13000", "project", "--json"],
    );
    assert_eq!(new.status, 0, "{new:?}");
    let doc = json(&new);
    assert_eq!(doc["driver"]["source"], "driver_version_option");
    assert_eq!(doc["driver"]["path"], Value::Null);
    assert_eq!(doc["totals"]["fail"], 0);
}

#[test]
fn mistakes_fail_whatever_the_driver() {
    let out = check(simulated(Some(13000)), &["--json", "mistakes"]);
    assert_eq!(out.status, 1, "{out:?}");
    let doc = json(&out);
    let kind = |f: &str| declaration(&doc, f)["kind"].as_str().map(str::to_owned);
    assert_eq!(kind("mem_alloc").as_deref(), Some("unknown_symbol"));
    assert!(
        declaration(&doc, "mem_alloc")["message"]
            .as_str()
            .is_some_and(|m| m.contains("did you mean `cuMemAlloc`"))
    );
    assert_eq!(kind("mem_alloc_3010").as_deref(), Some("not_a_typedef"));
    assert_eq!(kind("future_api").as_deref(), Some("symbol_not_found"));
    assert_eq!(declaration(&doc, "future_api")["unverified"], true);
    assert_eq!(
        kind("event_from_egl_sync").as_deref(),
        Some("symbol_not_found")
    );

    // From the table alone, the unverified symbol and the unserved one cannot be refused.
    let doc = json(&check(
        driverless(),
        &["--json", "--driver-version", "13000", "mistakes"],
    ));
    assert_eq!(declaration(&doc, "future_api")["status"], "ok");
    assert_eq!(declaration(&doc, "event_from_egl_sync")["status"], "ok");
    assert_eq!(declaration(&doc, "mem_alloc")["status"], "fail");
}

#[test]
fn simulated_finds_the_built_simulator() {
    let out = check(cuda_entry(), &["--simulated", "project"]);
    assert_eq!(out.status, 0, "{out:?}");
    assert!(
        out.stdout.contains("(SIMULATED) reports 13000"),
        "{}",
        out.stdout
    );
}

#[test]
fn without_a_driver_every_declaration_fails_with_the_reason() {
    let out = check(driverless(), &["project/nested"]);
    assert_eq!(out.status, 1, "{out:?}");
    assert!(out.stdout.contains("driver: none usable"), "{}", out.stdout);
    assert!(out.stdout.contains("--driver-version N"), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("3 declarations in 1 file: 0 ok, 3 would fail")
    );
}

#[test]
fn target_and_hidden_folders_are_skipped() {
    let dir = scratch("check-skips");
    let project = dir.join("project");
    copy(&fixtures().join("project"), &project);
    for skipped in ["target", ".git", "nested/target"] {
        let folder = project.join(skipped);
        std::fs::create_dir_all(&folder).expect("mkdir");
        std::fs::write(folder.join("broken.rs"), "this is not Rust {").expect("write");
    }
    std::fs::write(project.join("notes.txt"), "not a .rs file").expect("write");
    let mut command = simulated(Some(13000));
    command.current_dir(&dir);
    let out = run(command, &["check", "project"]);
    assert_eq!(out.status, 0, "{out:?}");
    assert!(
        out.stdout.contains("7 declarations in 2 files"),
        "{}",
        out.stdout
    );
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

#[test]
fn a_file_without_declarations_passes() {
    let dir = scratch("check-empty");
    std::fs::write(dir.join("plain.rs"), "fn main() {}\n").expect("write");
    let out = run(driverless(), &["check", dir.to_str().expect("UTF-8 path")]);
    assert_eq!(out.status, 0, "{out:?}");
    assert!(
        out.stdout.contains("0 declarations in 1 file"),
        "{}",
        out.stdout
    );
}

#[test]
fn bad_input_is_status_2_naming_the_file() {
    let dir = scratch("check-bad");
    let missing = dir.join("missing.rs");
    let out = run(driverless(), &["check", missing.to_str().expect("UTF-8")]);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(
        out.stderr.contains("missing.rs: no such file or directory"),
        "{}",
        out.stderr
    );

    let broken = dir.join("broken.rs");
    std::fs::write(&broken, "fn main() {\n    let x = ;\n}\n").expect("write");
    let out = run(driverless(), &["check", broken.to_str().expect("UTF-8")]);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(out.stderr.contains("broken.rs:2:"), "{}", out.stderr);
    assert!(out.stderr.contains("not valid Rust"), "{}", out.stderr);

    let binary = dir.join("binary.rs");
    std::fs::write(&binary, [0xff, 0xfe, 0x00, 0x41]).expect("write");
    let out = run(driverless(), &["check", binary.to_str().expect("UTF-8")]);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(
        out.stderr
            .contains("binary.rs: cannot read: not UTF-8 text"),
        "{}",
        out.stderr
    );

    // Every bad path is reported, each on an `error:` line of its own.
    let out = run(
        driverless(),
        &[
            "check",
            missing.to_str().expect("UTF-8"),
            broken.to_str().expect("UTF-8"),
            binary.to_str().expect("UTF-8"),
        ],
    );
    assert_eq!(out.status, 2, "{out:?}");
    assert_eq!(
        out.stderr
            .lines()
            .filter(|l| l.starts_with("error: "))
            .count(),
        3
    );
    assert_eq!(out.stdout, "");

    let out = run(driverless(), &["check"]);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(out.stderr.contains("<PATH>"), "{}", out.stderr);

    // The one version rule: no version above CUDA 99.99, none between releases.
    for bad in ["4294967290", "100000", "12041", "12.45"] {
        let out = run(
            driverless(),
            &[
                "check",
                "--driver-version",
                bad,
                dir.to_str().expect("UTF-8"),
            ],
        );
        assert_eq!(out.status, 2, "{bad}: {out:?}");
        assert!(
            out.stderr
                .contains(&format!("`{bad}` is not a CUDA version")),
            "{}",
            out.stderr
        );
    }
}

#[test]
fn driver_version_reads_major_dot_minor() {
    let dotted = check(driverless(), &["--driver-version", "12.4", "project"]);
    let number = check(driverless(), &["--driver-version", "12040", "project"]);
    assert_eq!(dotted.status, 1, "{dotted:?}");
    assert_eq!(dotted.stdout, number.stdout);
    assert!(
        dotted
            .stdout
            .starts_with("driver: assumed 12040 (CUDA 12.4), from --driver-version"),
        "{}",
        dotted.stdout
    );
}

#[cfg(unix)]
#[test]
fn an_unreadable_file_is_bad_input() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let mode = |path: &Path, mode| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod")
    };
    let dir = scratch("check-unreadable");
    let secret = dir.join("secret.rs");
    std::fs::write(&secret, "fn main() {}\n").expect("write");
    mode(&secret, 0o000);
    if std::fs::File::open(&secret).is_err() {
        let out = run(driverless(), &["check", dir.to_str().expect("UTF-8")]);
        return assert_permission_denied(&out);
    }
    // Root (CI runs as root) reads any file whatever its mode: the command then runs as
    // `nobody`, whom the mode stops. A folder every user can enter holds a copy of the command
    // and the file, since the build's own folders need not be open to `nobody`.
    const NOBODY: u32 = 65534;
    let open = std::env::temp_dir().join(format!(
        "cuda-entry-check-unreadable-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&open);
    std::fs::create_dir_all(open.join("project")).expect("create the open folder");
    mode(&open, 0o755);
    mode(&open.join("project"), 0o755);
    let command = open.join("cuda-entry");
    std::fs::copy(env!("CARGO_BIN_EXE_cuda-entry"), &command).expect("copy the command");
    mode(&command, 0o755);
    let secret = open.join("project").join("secret.rs");
    std::fs::write(&secret, "fn main() {}\n").expect("write");
    mode(&secret, 0o000);
    let mut as_nobody = std::process::Command::new(&command);
    as_nobody
        .uid(NOBODY)
        .gid(NOBODY)
        .current_dir(&open)
        .env("CUDA_ENTRY_DRIVER_PATH", "/nonexistent/libcuda.so.1");
    for variable in [
        "CUDA_ENTRY_RUNTIME_PATH",
        "CUDA_ENTRY_SIM_VERSION",
        "CUDA_ENTRY_SIM_MODE",
        "CUDA_ENTRY_CLI_SIMULATED",
    ] {
        as_nobody.env_remove(variable);
    }
    as_nobody.args(["check", "project"]);
    // ETXTBSY: a process another test forks while the copy was open for writing holds it until
    // that process execs; wait for it, briefly.
    let mut tries = 0;
    let out = loop {
        match as_nobody.output() {
            Err(e) if e.raw_os_error() == Some(26) && tries < 50 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            other => break other,
        }
    }
    .unwrap_or_else(|e| {
        panic!(
            "running {} as uid {NOBODY} (needed to test an unreadable file when permissions \
                 do not stop this process): {e}",
            command.display()
        )
    });
    let _ = std::fs::remove_dir_all(&open);
    assert_permission_denied(&common::Output {
        status: out.status.code().expect("exited, not killed"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    });
}

/// Status 2 (bad input), naming the unreadable file and why.
fn assert_permission_denied(out: &common::Output) {
    assert_eq!(out.status, 2, "{out:?}");
    assert!(
        out.stderr
            .contains("secret.rs: cannot read: permission denied"),
        "{}",
        out.stderr
    );
}

#[test]
fn declarations_the_parse_cannot_read_are_not_checked_and_not_passed() {
    let out = check(driverless(), &["--driver-version", "13000", "hidden"]);
    assert_eq!(out.status, 3, "{out:?}");
    let unchecked: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.contains(": not checked: "))
        .collect();
    let said = [
        ("hidden/lib.rs:7", "in the body of `macro_rules! declare`"),
        ("hidden/lib.rs:14", "in the body of `cfg_if!`"),
        ("hidden/lib.rs:19", "behind `cfg_attr`"),
        ("hidden/lib.rs:23", "in an `impl` block"),
        ("hidden/lib.rs:28", "in a `trait`"),
    ];
    assert_eq!(unchecked.len(), said.len(), "{}", out.stdout);
    for (line, (at, why)) in unchecked.iter().zip(said) {
        assert!(
            line.starts_with(&format!("{at}: not checked: {why}")),
            "{line}"
        );
    }
    assert!(
        out.stdout
            .contains("2 declarations in 1 file: 2 ok, 0 would fail, 1 with notes, 5 not checked"),
        "{}",
        out.stdout
    );
    let doc = json(&check(
        driverless(),
        &["--driver-version", "13000", "--json", "hidden"],
    ));
    assert_eq!(doc["totals"]["not_checked"], 5);
    assert_eq!(doc["not_checked"][2]["line"], 19);
    assert!(
        doc["not_checked"][2]["reason"]
            .as_str()
            .is_some_and(|r| r.starts_with("behind `cfg_attr`"))
    );
    // A failing declaration still fails: 1 outranks 3.
    let old = check(driverless(), &["--driver-version", "3000", "hidden"]);
    assert_eq!(old.status, 1, "{old:?}");
}

#[test]
fn a_declaration_never_compiled_is_judged_with_a_note() {
    let doc = json(&check(
        driverless(),
        &["--driver-version", "13000", "--json", "hidden"],
    ));
    let never = declaration(&doc, "init_never_compiled");
    assert_eq!(never["status"], "ok");
    assert_eq!(
        never["notes"][0],
        "never compiled: under `#[cfg(any())]`, which is always false; judged all the same"
    );
    assert_eq!(
        declaration(&doc, "mem_alloc")["notes"],
        Value::Array(Vec::new())
    );
}

#[test]
fn duplicate_arguments_fail_as_the_macro_rejects_them() {
    let dir = scratch("check-duplicates");
    std::fs::write(
        dir.join("lib.rs"),
        "#[cuda_entry(symbol = \"cuCtxCreate\", version = 12050, version = 3020)]\n\
         pub unsafe extern \"C\" fn ctx_create(\n    \
         pctx: *mut CUcontext, params: *mut c_void, flags: u32, dev: CUdevice) -> CUresult;\n",
    )
    .expect("write");
    let mut command = driverless();
    command.current_dir(&dir);
    let out = run(command, &["check", "--driver-version", "13000", "lib.rs"]);
    assert_eq!(out.status, 1, "{out:?}");
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(
        lines[1..3],
        [
            "lib.rs:1: FAIL `ctx_create` cuCtxCreate@12050: the macro rejects it",
            "    lib.rs:1:55: duplicate_argument: duplicate argument `version`: give it once",
        ],
        "{}",
        out.stdout
    );
    let doc = json(&run(
        {
            let mut command = driverless();
            command.current_dir(&dir);
            command
        },
        &["check", "--driver-version", "13000", "--json", "lib.rs"],
    ));
    let d = declaration(&doc, "ctx_create");
    assert_eq!(d["kind"], "duplicate_argument");
    assert_eq!(d["mistakes"].as_array().map(Vec::len), Some(1));
    assert_eq!(d["mistakes"][0]["line"], 1);
    assert_eq!(d["mistakes"][0]["column"], 55);
}

#[cfg(unix)]
#[test]
fn a_file_name_cannot_drive_the_terminal() {
    let dir = scratch("check-escaped-name");
    std::fs::write(
        dir.join("a\x1b[2Kb.rs"),
        "#[cuda_entry(symbol = \"cuMemAlloc\", version = 3020)]\n\
         pub unsafe extern \"C\" fn mem_alloc(dptr: *mut u64, bytesize: usize) -> CUresult;\n",
    )
    .expect("write");
    std::fs::write(dir.join("c\x1b[1m.rs"), "fn broken( {\n").expect("write");
    let out = run(
        driverless(),
        &[
            "check",
            "--driver-version",
            "13000",
            dir.to_str().expect("UTF-8"),
        ],
    );
    assert_eq!(out.status, 2, "{out:?}");
    assert!(!out.stderr.contains('\x1b'), "{:?}", out.stderr);
    assert!(out.stderr.contains("c\\u{1b}[1m.rs:"), "{}", out.stderr);
    std::fs::remove_file(dir.join("c\x1b[1m.rs")).expect("remove");
    let out = run(
        driverless(),
        &[
            "check",
            "--driver-version",
            "13000",
            dir.to_str().expect("UTF-8"),
        ],
    );
    assert_eq!(out.status, 0, "{out:?}");
    assert!(!out.stdout.contains('\x1b'), "{:?}", out.stdout);
    assert!(
        out.stdout.contains("a\\u{1b}[2Kb.rs:1: ok   `mem_alloc`"),
        "{}",
        out.stdout
    );
}

#[test]
fn link_time_bindings_are_noted_with_the_migrate_command() {
    let out = check(
        driverless(),
        &["--driver-version", "13000", "migrate/mixed.rs"],
    );
    // Noted, not judged: nothing fails, nothing is left unread.
    assert_eq!(out.status, 0, "{out:?}");
    assert!(
        out.stdout.contains(
            "migrate/mixed.rs:15: unversioned: `cuMemAlloc_v2` is linked against libcuda (the \
             export `cuMemAlloc_v2`, which is cuMemAlloc at 3020), not resolved through \
             cuGetProcAddress: `cuda-entry migrate migrate/mixed.rs` declares it through \
             #[cuda_entry]\n"
        ),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.ends_with(
            "0 declarations in 1 file: 0 ok, 0 would fail, 0 with notes, 0 not checked; 5 \
             unversioned bindings (linked against libcuda)\n"
        ),
        "{}",
        out.stdout
    );
    let doc = json(&check(
        driverless(),
        &["--driver-version", "13000", "--json", "migrate/mixed.rs"],
    ));
    assert_eq!(doc["totals"]["unversioned"], 5);
    let noted = doc["unversioned"].as_array().expect("unversioned");
    let ptsz = noted
        .iter()
        .find(|u| u["export"] == "cuGraphicsMapResources_ptsz")
        .expect("the per-thread export");
    assert_eq!(ptsz["symbol"], "cuGraphicsMapResources");
    assert_eq!(ptsz["version"], 7000);
    assert_eq!(ptsz["stream"], "per_thread");
    assert_eq!(ptsz["line"], 28);
    // An export the table does not know is no driver binding it can name.
    assert!(noted.iter().all(|u| u["export"] != "cuFrobnicate_v9"));
}

#[test]
fn an_optional_declaration_the_driver_cannot_serve_fails_nothing() {
    let out = check(driverless(), &["--driver-version", "12040", "optional"]);
    assert_eq!(out.status, 0, "{out:?}");
    let lines: Vec<&str> = out.stdout.lines().skip(1).collect();
    assert_eq!(
        lines,
        [
            "optional/lib.rs:11: unavailable, optional `ctx_create_v4` cuCtxCreate@12050: the \
             driver (CUDA 12.4) is older than this ABI (CUDA 12.5): update the driver to >= CUDA \
             12.5; the program runs without it",
            "optional/lib.rs:19: ok   `ctx_create_v2` cuCtxCreate@3020: note: not the newest \
             typedef: `cuCtxCreate` also has 11040, 12050 (fine when this is the signature \
             written; newer ABIs exist)",
            "minimum driver: 3020 (CUDA 3.2), set by cuCtxCreate",
            "optional upgrades: cuCtxCreate@12050",
            "left to the compiler: 2 declarations have types whose layout the command cannot \
             read (types of your own, aliases); the build checks them (`--json` lists what, under \
             `left_to_compiler`)",
            "2 declarations in 1 file: 1 ok, 0 would fail, 1 unavailable (optional), 1 with \
             notes, 0 not checked",
        ]
    );
    // A driver that serves it: ok, and still optional.
    let out = check(driverless(), &["--driver-version", "12050", "optional"]);
    assert_eq!(out.status, 0, "{out:?}");
    assert!(
        out.stdout
            .contains("optional/lib.rs:11: ok   `ctx_create_v4` cuCtxCreate@12050 optional\n"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("2 declarations in 1 file: 2 ok, 0 would fail, 1 with notes"),
        "{}",
        out.stdout
    );
    // The driver itself (simulated) answers the same.
    let doc = json(&check(simulated(Some(12040)), &["--json", "optional"]));
    let upgrade = declaration(&doc, "ctx_create_v4");
    assert_eq!(upgrade["status"], "unavailable");
    assert_eq!(upgrade["optional"], true);
    assert_eq!(upgrade["kind"], "driver_too_old");
    assert_eq!(declaration(&doc, "ctx_create_v2")["status"], "ok");
    assert_eq!(declaration(&doc, "ctx_create_v2")["optional"], false);
    assert_eq!(doc["minimum_driver"], 3020);
    assert_eq!(doc["optional_upgrades"][0]["version"], 12050);
    assert_eq!(doc["totals"]["unavailable"], 1);
    assert_eq!(doc["totals"]["fail"], 0);
    // Without a usable driver the required one fails; the optional one is unavailable still.
    let out = check(driverless(), &["optional"]);
    assert_eq!(out.status, 1, "{out:?}");
    assert!(
        out.stdout.contains(
            "optional/lib.rs:11: unavailable, optional `ctx_create_v4` cuCtxCreate@12050: no \
             usable CUDA driver"
        ),
        "{}",
        out.stdout
    );
    assert_eq!(status_of(&out, "optional/lib.rs:19"), "FAIL");
}

#[test]
fn renamed_attributes_and_crate_paths_are_read() {
    let dir = scratch("check-written");
    let source = dir.join("lib.rs");
    std::fs::write(
        &source,
        "use cuda_entry::cuda_entry as driver_fn;\n\
         #[driver_fn(symbol = \"cuMemFree\", version = 3020)]\n\
         unsafe extern \"C\" fn mem_free(dptr: u64) -> CUresult;\n\
         #[gpu_sys::cuda_entry::cuda_entry(crate = gpu_sys::cuda_entry)]\n\
         unsafe extern \"C\" {\n\
         \x20   #[cuda_entry(symbol = \"cuInit\", version = 2000, crate = \"::cuda_entry\")]\n\
         \x20   fn init(flags: u32) -> CUresult;\n\
         \x20   #[cuda_entry(symbol = \"cuMemAloc\", version = 3020)]\n\
         \x20   fn mem_alloc(dptr: *mut u64, bytesize: usize) -> CUresult;\n\
         }\n\
         macro_rules! declare {\n\
         \x20   () => {\n\
         \x20       #[driver_fn(symbol = \"cuCtxSynchronize\", version = 2000)]\n\
         \x20       unsafe extern \"C\" fn ctx_synchronize() -> CUresult;\n\
         \x20   };\n\
         }\n",
    )
    .expect("write");
    let out = run(
        driverless(),
        &[
            "check",
            "--json",
            "--driver-version",
            "13000",
            source.to_str().expect("UTF-8"),
        ],
    );
    let doc = json(&out);
    let seen: Vec<(&str, u64, &str)> = doc["declarations"]
        .as_array()
        .expect("declarations")
        .iter()
        .map(|d| {
            (
                d["function"].as_str().expect("function"),
                d["line"].as_u64().expect("line"),
                d["status"].as_str().expect("status"),
            )
        })
        .collect();
    // Each at its attribute's line; the misspelled symbol refused under the path as under any.
    assert_eq!(
        seen,
        [
            ("mem_free", 2, "ok"),
            ("init", 6, "ok"),
            ("mem_alloc", 8, "fail")
        ]
    );
    assert_eq!(declaration(&doc, "mem_alloc")["kind"], "unknown_symbol");
    // Under another name in a macro's body: found all the same, and not passed.
    let unread = doc["not_checked"].as_array().expect("not_checked");
    assert_eq!(unread.len(), 1, "{doc}");
    assert_eq!(unread[0]["line"], 13);
    assert!(
        unread[0]["reason"]
            .as_str()
            .is_some_and(|r| r.starts_with("in the body of `macro_rules! declare`")),
        "{doc}"
    );
    assert_eq!(out.status, 1, "{out:?}");
}
