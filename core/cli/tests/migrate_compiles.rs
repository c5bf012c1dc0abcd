//! What `cuda-entry migrate` writes compiles, with the user's own types, and runs: the
//! link-time sample (tests/fixtures/migrate/linked.rs) migrated with `--write`, compiled and run
//! against the simulated driver with its call sites unchanged; the bindgen-style binding of the
//! whole of CUDA 13.0 (cuda-13.0-bindgen.rs), every function migrated; the status types of
//! every shape (status.rs), run with the simulated driver answering a code no enum lists; and the
//! declarations printed for calls through cudarc, against cudarc's types.
//!
//! One test in this file: it points the programs trybuild runs at the simulated driver through
//! this process's environment.

mod common;

use std::fmt::Write;
use std::path::{Path, PathBuf};

use common::{cuda_entry, fixtures, json, run, scratch, simdriver};

/// `file` of the fixtures, migrated with `--write` in `dir`; the command's `--json` report.
fn migrated(dir: &Path, file: &str) -> (String, serde_json::Value) {
    let copy = dir.join(Path::new(file).file_name().expect("a name"));
    std::fs::copy(fixtures().join(file), &copy).expect("copy the fixture");
    let path = copy.to_str().expect("UTF-8");
    let report = json(&run(cuda_entry(), &["migrate", "--json", path]));
    let out = run(
        cuda_entry(),
        &["migrate", "--write", "--allow-no-vcs", path],
    );
    assert_eq!(out.status, 0, "{file}: {out:?}");
    (std::fs::read_to_string(&copy).expect("read"), report)
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write a test program");
    path
}

#[test]
fn migrated_sources_compile_and_run() {
    // SAFETY: the only test of this process; nothing reads the environment concurrently.
    unsafe {
        std::env::set_var("CUDA_ENTRY_DRIVER_PATH", simdriver());
        std::env::remove_var("CUDA_ENTRY_SIM_VERSION");
        std::env::remove_var("CUDA_ENTRY_SIM_MODE");
        // A code newer than every enum of status.rs, for the one function only it calls.
        std::env::set_var("CUDA_ENTRY_SIM_STATUS", "cuCtxSynchronize=12345");
    }
    let dir = scratch("migrate-compiles");
    let cases = trybuild::TestCases::new();

    // Each original and its migration compile with every rustc warning denied (the entries'
    // names included), and the migrations run against the simulated driver.
    let deny = |source: &str| format!("#![deny(warnings)]\n{source}");
    let (linked, report) = migrated(&dir, "migrate/linked.rs");
    assert_eq!(report["totals"]["ready"], 9, "{report}");
    assert!(!linked.contains("#[link("), "{linked}");
    cases.pass(write(&dir, "linked.rs", &deny(&linked)));

    for (file, ready) in [("dynamic.rs", 9), ("lazy.rs", 5)] {
        let original =
            std::fs::read_to_string(fixtures().join("migrate").join(file)).expect("read");
        let (loaded, report) = migrated(&dir, &format!("migrate/{file}"));
        assert_eq!(report["totals"]["ready"], ready, "{file}: {report}");
        assert!(
            !loaded.contains("\\0\")"),
            "{file} still loads by name:\n{loaded}"
        );
        cases.pass(write(&dir, &format!("original_{file}"), &deny(&original)));
        cases.pass(write(&dir, &format!("migrated_{file}"), &deny(&loaded)));
    }

    // Each status type gets back what the driver answered, in a value it can hold: 12345 is the
    // unknown variant of an enum that does not list it (before the fix, read into the enum as it
    // was: an invalid value, and the program's `assert_eq!` against that variant failed).
    let (status, report) = migrated(&dir, "migrate/status.rs");
    assert_eq!(report["totals"]["ready"], 12, "{report}");
    cases.pass(write(&dir, "status.rs", &deny(&status)));

    let (cuda13, report) = migrated(&dir, "migrate/cuda-13.0-bindgen.rs");
    let original =
        std::fs::read_to_string(fixtures().join("migrate/cuda-13.0-bindgen.rs")).expect("read");
    let functions = original.matches("    pub fn cu").count();
    assert!(functions > 400, "{functions}");
    assert_eq!(report["totals"]["bindings"], functions, "{report}");
    assert_eq!(report["totals"]["ready"], functions, "{report}");
    assert_eq!(cuda13.matches("#[cuda_entry(symbol = ").count(), functions);
    cases.pass(write(
        &dir,
        "cuda13_bindgen.rs",
        &format!("{original}\nfn main() {{}}\n"),
    ));
    cases.pass(write(
        &dir,
        "cuda13_migrated.rs",
        &format!("{cuda13}\nfn main() {{}}\n"),
    ));

    let report = json(&run(
        {
            let mut command = cuda_entry();
            command.current_dir(fixtures());
            command
        },
        &["migrate", "--json", "migrate/cudarc.rs"],
    ));
    let mut program = String::from(
        "#![allow(dead_code)]\nuse cuda_entry::cuda_entry;\nuse cudarc::driver::sys;\n\
         use cudarc::driver::sys as cu;\nuse cudarc::driver::{self as drv};\n\n",
    );
    let mut ready = 0;
    for (i, b) in report["bindings"]
        .as_array()
        .expect("bindings")
        .iter()
        .enumerate()
    {
        if b["status"] == "ready" {
            let declaration = b["declaration"].as_str().expect("a declaration");
            let _ = writeln!(
                program,
                "mod call{i} {{\n    use super::*;\n{declaration}\n}}\n"
            );
            ready += 1;
        }
    }
    assert_eq!(ready, 7, "{report}");
    program.push_str("fn main() {}\n");
    cases.pass(write(&dir, "cudarc_declarations.rs", &program));
}
