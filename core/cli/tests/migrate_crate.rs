//! `cuda-entry migrate CRATE_DIR`: a whole crate turned over with one command. The fixture crate
//! (tests/fixtures/migrate/crate) binds the driver in the three shapes and links libcuda three
//! ways; after `--write` nothing links it, the manifest has the dependency (its comments kept),
//! and the crate builds under clippy with `-D warnings` and passes its own tests against the
//! simulated driver.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{cuda_entry, fixtures, json, run, scratch, simdriver};

/// A copy of `from` at `to` (files and folders, hidden ones included).
fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create");
    for entry in std::fs::read_dir(from).expect("list") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// The fixture crate, copied into a fresh folder.
fn fixture_crate(name: &str) -> PathBuf {
    let dir = scratch(name).join("gpu-sys");
    copy(&fixtures().join("migrate/crate"), &dir);
    dir
}

/// The workspace's `core` folder: the path dependency the tests give.
fn core() -> String {
    let core = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    core.canonicalize().expect("core").display().to_string()
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).expect("read")
}

#[test]
fn a_crate_is_reported_file_by_file_then_written() {
    let dir = fixture_crate("migrate-crate-report");
    std::fs::write(
        dir.join("Cargo.lock"),
        "version = 3\n\n[[package]]\nname = \"quote\"\nversion = \"1.0.9\"\n\n\
         [[package]]\nname = \"proc-macro2\"\nversion = \"1.0.28\"\n",
    )
    .expect("a lockfile");
    let original = read(&dir, "Cargo.toml");
    let path = dir.to_str().expect("UTF-8");
    let out = run(cuda_entry(), &["migrate", path]);
    assert_eq!(out.status, 0, "{out:?}");
    let changes = |file: &str, change: &str| format!("{}: {change}\n", dir.join(file).display());
    for line in [
        changes("src/lib.rs", "declares 6 bindings through #[cuda_entry]"),
        changes("src/lib.rs", "removes line 33: `#[link(name = \"cuda\")]`"),
        changes(
            "build.rs",
            "removes line 5: `println!(\"cargo:rustc-link-lib=dylib=cuda\");`",
        ),
        changes(
            "Cargo.toml",
            "adds `cuda-entry = \"0.1\"` to [dependencies]",
        ),
        changes(
            ".cargo/config.toml",
            "removes `-l cuda` from build.rustflags",
        ),
        format!(
            "{}: holds proc-macro2 1.0.28 (cuda-entry needs 1.0.91), quote 1.0.9 (cuda-entry \
             needs 1.0.35): run `cargo update -p proc-macro2 -p quote` before building\n",
            dir.join("Cargo.lock").display()
        ),
    ] {
        assert!(
            out.stdout.contains(&line),
            "{line}\nnot in:\n{}",
            out.stdout
        );
    }
    assert!(
        out.stdout.ends_with(
            "6 bindings in 5 files: 6 ready, 0 disagree with the typedef, 0 unknown; --write \
             rewrites 4 files (--dry-run shows the diff)\n"
        ),
        "{}",
        out.stdout
    );
    // Reported only: nothing written.
    assert_eq!(read(&dir, "Cargo.toml"), original);
    let doc = json(&run(cuda_entry(), &["migrate", "--json", path]));
    assert_eq!(
        doc["lockfiles"][0]["update"],
        "cargo update -p proc-macro2 -p quote"
    );
    assert_eq!(doc["files"].as_array().map(Vec::len), Some(4), "{doc}");

    let out = run(
        cuda_entry(),
        &["migrate", "--write", "--allow-no-vcs", path],
    );
    assert_eq!(out.status, 0, "{out:?}");
    // The manifest keeps its comments and layout; the dependency is added.
    assert_eq!(
        read(&dir, "Cargo.toml"),
        original.replace(
            "libloading = \"0.9\"\n",
            "libloading = \"0.9\"\ncuda-entry = \"0.1\"\n"
        )
    );
    let build = read(&dir, "build.rs");
    assert!(!build.contains("rustc-link-lib"), "{build}");
    assert!(build.contains("rustc-link-search"), "{build}");
    assert_eq!(
        read(&dir, ".cargo/config.toml"),
        "# Link flags for the tests' binaries.\n[build]\nrustflags = [\"-C\", \"debuginfo=1\"]\n"
    );
    let lib = read(&dir, "src/lib.rs");
    assert!(!lib.contains("#[link("), "{lib}");
    assert!(lib.contains("mod driver_entries {"), "{lib}");
    assert!(
        lib.contains("::core::result::Result::Ok(driver_entries::cuCtxSetCurrent as unsafe"),
        "{lib}"
    );
    // Again: nothing left to do.
    let again = run(
        cuda_entry(),
        &["migrate", "--write", "--allow-no-vcs", path],
    );
    assert_eq!(again.status, 0, "{again:?}");
    assert!(
        again.stdout.starts_with(&format!(
            "{}: holds proc-macro2 1.0.28",
            dir.join("Cargo.lock").display()
        )),
        "{}",
        again.stdout
    );
    assert!(
        again.stdout.ends_with("; rewrote 0 files\n"),
        "{}",
        again.stdout
    );
}

#[test]
fn what_cannot_be_removed_is_left_and_said() {
    let dir = fixture_crate("migrate-crate-left");
    std::fs::write(
        dir.join("build.rs"),
        "fn main() {\n    let link = \"cargo:rustc-link-lib=cuda\";\n    println!(\"{link}\");\n}\n",
    )
    .expect("write");
    std::fs::write(
        dir.join("src/more.rs"),
        "#[link(name = \"cuda\")]\nunsafe extern \"C\" {\n    pub fn cuFrobnicate(x: u32) -> i32;\n}\n",
    )
    .expect("write");
    let manifest = read(&dir, "Cargo.toml").replace("edition = \"2021\"\n", "");
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("write");
    let out = run(cuda_entry(), &["migrate", dir.to_str().expect("UTF-8")]);
    assert_eq!(out.status, 3, "{out:?}");
    for line in [
        format!(
            "{}: left as it is: edition 2015: the declarations name `::cuda_entry`, which such \
             a crate reaches only with `extern crate cuda_entry;` at its root: add that line\n",
            dir.join("Cargo.toml").display()
        ),
        format!(
            "{}: left as it is: line 2: `cargo:rustc-link-lib=cuda` is not a statement of its \
             own: remove it by hand\n",
            dir.join("build.rs").display()
        ),
        format!(
            "{}: left as it is: line 1: `#[link(name = \"cuda\")]` is kept: the block still \
             declares `cuFrobnicate`, not migrated\n",
            dir.join("src/more.rs").display()
        ),
    ] {
        assert!(
            out.stdout.contains(&line),
            "{line}\nnot in:\n{}",
            out.stdout
        );
    }
}

#[test]
fn bad_crates_and_dependencies_are_status_2() {
    let dir = fixture_crate("migrate-crate-bad");
    let path = dir.to_str().expect("UTF-8");
    for (args, message) in [
        (
            vec!["--dependency", "pth = \"x\""],
            "`pth` is not a key of a dependency",
        ),
        (
            vec!["--dependency", "path = \"../nowhere\""],
            "has no Cargo.toml",
        ),
    ] {
        let mut all = vec!["migrate"];
        all.extend(args);
        all.push(path);
        let out = run(cuda_entry(), &all);
        assert_eq!(out.status, 2, "{out:?}");
        assert!(out.stderr.contains(message), "{}", out.stderr);
    }
    let lib = dir.join("src/lib.rs");
    let out = run(
        cuda_entry(),
        &[
            "migrate",
            "--dependency",
            "0.1",
            lib.to_str().expect("UTF-8"),
        ],
    );
    assert_eq!(out.status, 2, "{out:?}");
    assert!(
        out.stderr.contains("no crate folder given"),
        "{}",
        out.stderr
    );
    // A workspace whose member is missing: Cargo cannot list its members, and says why.
    std::fs::write(dir.join("Cargo.toml"), "[workspace]\nmembers = [\"a\"]\n").expect("write");
    let out = run(cuda_entry(), &["migrate", path]);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(
        out.stderr.contains("could not list") && out.stderr.contains("Cargo.toml"),
        "{}",
        out.stderr
    );
    // A manifest that is neither a package nor a workspace.
    std::fs::write(dir.join("Cargo.toml"), "[dependencies]\n").expect("write");
    let out = run(cuda_entry(), &["migrate", path]);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(out.stderr.contains("not a crate"), "{}", out.stderr);
}

/// `cargo ARGS` in `dir`, offline, in a target folder of its own (kept between runs).
fn cargo(dir: &Path, args: &[&str]) -> std::process::Output {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("migrate-crate-target");
    Command::new(env!("CARGO"))
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env("CUDA_ENTRY_DRIVER_PATH", simdriver())
        // tests/driver.rs: the second `cuDeviceGet` answers a code its enum does not list.
        .env("CUDA_ENTRY_SIM_STATUS", "cuDeviceGet=12345@2")
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs")
}

/// `cuda-entry migrate --verify DIR`, building in the tests' target folder.
fn verify(dir: &Path) -> common::Output {
    let mut command = cuda_entry();
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("migrate-crate-target");
    command
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS");
    run(
        command,
        &["migrate", "--verify", dir.to_str().expect("UTF-8")],
    )
}

#[test]
fn the_migrated_crate_is_lint_clean_and_passes_its_tests() {
    let dir = fixture_crate("migrate-crate-builds");
    let dependency = format!("path = {:?}", core());
    // Before: it links libcuda, so it does not build where none is installed, or its artifacts
    // need it where one is.
    let before = verify(&dir);
    assert_eq!(before.status, 3, "{before:?}");
    assert!(
        before
            .stderr
            .contains("does not build without CUDA installed")
            || before.stderr.contains("still need the driver"),
        "{}",
        before.stderr
    );
    let out = run(
        cuda_entry(),
        &[
            "migrate",
            "--write",
            "--allow-no-vcs",
            "--dependency",
            &dependency,
            dir.to_str().expect("UTF-8"),
        ],
    );
    assert_eq!(out.status, 0, "{out:?}");
    let clippy = cargo(
        &dir,
        &[
            "clippy",
            "--offline",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
    );
    assert!(
        clippy.status.success(),
        "{}",
        String::from_utf8_lossy(&clippy.stderr)
    );
    // After: it builds with CUDA's variables removed, and nothing it produces needs libcuda.
    let after = verify(&dir);
    assert_eq!(after.status, 0, "{after:?}");
    assert!(
        after
            .stderr
            .contains("builds without CUDA installed, and none of its")
            && after.stderr.contains("artifacts needs libcuda"),
        "{}",
        after.stderr
    );
    let test = cargo(&dir, &["test", "--offline"]);
    let stdout = String::from_utf8_lossy(&test.stdout);
    assert!(
        test.status.success() && stdout.contains("test result: ok. 1 passed"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&test.stderr)
    );
}
