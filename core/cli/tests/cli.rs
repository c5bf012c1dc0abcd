//! The command line itself: help that teaches, completions, and refusals of bad input.

mod common;

use common::{cuda_entry, run};

#[test]
fn an_unknown_subcommand_is_refused() {
    let out = run(cuda_entry(), &["prob"]);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(
        out.stderr.contains("unrecognized subcommand 'prob'"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("probe"), "{}", out.stderr);
    let out = run(cuda_entry(), &[]);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(out.stderr.contains("Usage"), "{}", out.stderr);
}

#[test]
fn each_help_explains_typedef_versions() {
    let out = run(cuda_entry(), &["--help"]);
    assert_eq!(out.status, 0);
    // The help is wrapped: compare with single spaces.
    let text = out.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(text.contains("PFN_cuMemAlloc_v3020"), "{text}");
    assert!(
        text.contains("typedef version: 1000 * major + 10 * minor"),
        "{text}"
    );
    for (subcommand, example) in [
        ("probe", "cuda-entry probe --symbol cuCtxCreate"),
        ("decl", "cuda-entry decl cuMemAlloc@3020"),
        ("check", "cuda-entry check --driver-version 12040 src/"),
        ("migrate", "cuda-entry migrate --write src/ffi.rs"),
        ("completions", "cuda-entry completions bash"),
    ] {
        let out = run(cuda_entry(), &[subcommand, "--help"]);
        assert_eq!(out.status, 0, "{subcommand}: {out:?}");
        assert!(
            out.stdout.contains(example),
            "{subcommand}:\n{}",
            out.stdout
        );
        if subcommand != "completions" {
            assert!(
                out.stdout.contains("PFN_"),
                "{subcommand} help says what a typedef version is:\n{}",
                out.stdout
            );
        }
    }
}

#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = run(cuda_entry(), &["completions", shell]);
        assert_eq!(out.status, 0, "{shell}: {out:?}");
        for word in [
            "probe",
            "decl",
            "check",
            "migrate",
            "dry-run",
            "driver-version",
            "cuda-entry",
        ] {
            assert!(out.stdout.contains(word), "{shell} lacks {word}");
        }
        // The shells whose scripts complete values offer the stream names too.
        if ["bash", "zsh", "fish"].contains(&shell) {
            assert!(
                out.stdout.contains("per_thread"),
                "{shell} lacks per_thread"
            );
        }
    }
    let out = run(cuda_entry(), &["completions", "tcsh"]);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(out.stderr.contains("possible values"), "{}", out.stderr);
}

#[test]
fn version_is_the_workspace_version() {
    let out = run(cuda_entry(), &["--version"]);
    assert_eq!(out.status, 0);
    assert_eq!(
        out.stdout.trim(),
        format!("cuda-entry {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn check_help_describes_sources_and_binaries() {
    let out = run(cuda_entry(), &["check", "--help"]);
    assert_eq!(out.status, 0, "{out:?}");
    let text = out.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    for said in [
        "Rust sources or built binaries",
        "manifest section (cuda_entry on ELF, .cuentry on PE, __DATA,__cuda_entry on Mach-O)",
        "--simulated",
        "--driver-version N (12040 or 12.4 for CUDA 12.4)",
        "the minimum driver",
        "--json",
        "Exit status: 0 everything was read and none would fail (an optional one unavailable \
         fails nothing); 1 at least one would fail",
        "when the driver cannot serve it, it is unavailable, optional, not a failure, and it sets \
         no minimum driver",
        "the optional upgrades",
        "a binary this command cannot read or whose manifest section is malformed",
        "3 none would fail but something was not checked",
        "4 the --simulated run crashed (the signal is named)",
        "141 standard output was closed",
        "a source may have 16 MiB, a binary 2 GiB, a manifest section 4 MiB",
        "nested more than 256 levels deep",
        "- for standard input",
        "behind cfg_attr, in an impl block or a trait) is listed as not checked",
        "every slice of a universal binary is read",
        "control characters escaped",
    ] {
        assert!(text.contains(said), "{said}:\n{}", out.stdout);
    }
}
