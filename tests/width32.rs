//! Where pointers have 32 bits, the table's sizes and alignments do not hold and are not
//! asserted; everything else a declaration must prove is (issue 37, case 7: every assertion sat
//! under `cfg(target_pointer_width = "64")`, so a 32-bit build accepted a `bool` array the driver
//! writes, a read-only pointer it writes through, an enum status and a callback with the Rust
//! ABI). tests/width32 is checked for `i686-unknown-linux-gnu` and for this host: with no feature
//! it compiles, with each feature its one wrong declaration is refused with the rules' words, on
//! both. Skipped, saying so, where the i686 standard library is not installed (required under
//! `CI=1`).

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::Command;

use cuda_entry_support::{print_skipped, switched_on};

const I686: &str = "i686-unknown-linux-gnu";

/// Each feature's declaration and words its refusal must contain.
const REFUSED: &[(&str, &str)] = &[
    (
        "bad-valid",
        "`*mut Flags` points to a type not proven valid for every value the driver may store",
    ),
    ("bad-writable", "`ReadOnly` promises no write"),
    (
        "bad-status",
        "`Status` is not a type that `cuda_entry` can prove holds every `int`",
    ),
    (
        "bad-callback-abi",
        "`RustFn` has the Rust ABI, which C cannot call",
    ),
    (
        "bad-callback-value",
        "`NonNullFn` takes parameter 1 as a type not proven valid",
    ),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// `cargo check` of tests/width32 for `target` (the host's when `None`) with `feature`: whether
/// it compiled, and what it printed.
fn check(target: Option<&str>, feature: Option<&str>) -> (bool, String) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let mut command = Command::new(cargo);
    command
        .args(["check", "--offline", "--locked", "--manifest-path"])
        .arg(root().join("tests/width32/Cargo.toml"))
        .env("CARGO_TARGET_DIR", root().join("target/width32"));
    if let Some(target) = target {
        command.args(["--target", target]);
    }
    if let Some(feature) = feature {
        command.args(["--features", feature]);
    }
    let out = command.output().expect("cargo runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn installed(target: &str) -> bool {
    let sysroot = Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .expect("rustc runs");
    let sysroot = String::from_utf8_lossy(&sysroot.stdout).trim().to_owned();
    Path::new(&sysroot)
        .join("lib/rustlib")
        .join(target)
        .join("lib")
        .is_dir()
}

fn holds_on(target: Option<&str>) {
    let name = target.unwrap_or("the host");
    let (ok, stderr) = check(target, None);
    assert!(ok, "{name}: the right declarations compile:\n{stderr}");
    for (feature, words) in REFUSED {
        let (ok, stderr) = check(target, Some(feature));
        assert!(!ok, "{name}: `{feature}` compiled:\n{stderr}");
        assert!(
            stderr.contains("error[E0080]") && stderr.contains(words),
            "{name}: `{feature}` is refused, but not with the rules' words ({words}):\n{stderr}"
        );
        assert_eq!(
            stderr.matches("error[E0080]").count(),
            1,
            "{name}: `{feature}`: one error:\n{stderr}"
        );
    }
}

#[test]
fn a_32_bit_target_asserts_everything_but_the_layouts() {
    if !installed(I686) {
        let why = format!("the {I686} standard library is not installed (rustup target add)");
        assert!(!switched_on("CI"), "{why}; CI=1 requires it");
        print_skipped("a_32_bit_target_asserts_everything_but_the_layouts", &why);
        return;
    }
    holds_on(Some(I686));
}

#[test]
fn the_host_refuses_the_same_declarations() {
    holds_on(None);
}
