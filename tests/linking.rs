//! The registry in the linking shapes where a C toolchain, not rustc, makes the binary (issue 39):
//! Rust staticlibs (tests/linking) linked into a C program by each linker installed, with and
//! without `--gc-sections`, in the dev and release profiles, and embedded in two C shared
//! libraries that one C program loads with `RTLD_GLOBAL`, `RTLD_LOCAL` and under `LD_PRELOAD`,
//! closing and reopening one. Each binary lists the declarations it can reach (its own and its
//! dependency's), never another library's; one nothing reaches may be listed or not, as the
//! linker kept its object. Linux only (ELF, `dlopen`); skipped, saying so, without a C compiler.

#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::process::Command;

/// What each library reaches, and what it declares but nothing reaches.
const A_REACHED: [&str; 2] = ["cuCtxCreate@12050", "cuMemFree@3020"];
const A_UNREACHED: [&str; 2] = ["cuDeviceGet@2000", "cuMemGetInfo@3020"];
const B_REACHED: [&str; 2] = ["cuCtxCreate@12050", "cuInit@2000"];
const B_UNREACHED: [&str; 2] = ["cuDeviceGetCount@2000", "cuMemGetInfo@3020"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn linking() -> PathBuf {
    root().join("tests/linking")
}

fn has_cc() -> bool {
    Command::new("cc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Builds both staticlibs in `profile`; the folder holding `liba.a` and `libb.a`.
fn build(profile: &str) -> PathBuf {
    let target = root().join("target/linking");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let status = Command::new(cargo)
        .args([
            "build",
            "--offline",
            "--quiet",
            "--profile",
            profile,
            "--manifest-path",
        ])
        .arg(linking().join("Cargo.toml"))
        .args(["-p", "linking-lib-a", "-p", "linking-lib-b"])
        .env("CARGO_TARGET_DIR", &target)
        .status()
        .expect("cargo runs");
    assert!(status.success(), "the staticlibs build ({profile})");
    target.join(if profile == "dev" { "debug" } else { profile })
}

/// Runs `cc` with `args`; whether it linked (a linker not installed does not).
fn cc(args: &[&str]) -> bool {
    Command::new("cc")
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

fn run(program: &Path, args: &[&str], env: &[(&str, &Path)]) -> String {
    let mut command = Command::new(program);
    command.args(args);
    for (key, value) in env {
        command.env(key, value);
    }
    let out = command.output().expect("the program runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{} {args:?}: {}\n{stdout}{}",
        program.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// The entries a `libX: [..] minimum N` line lists, and its minimum.
fn listed(line: &str) -> (Vec<String>, u32) {
    let inner = line
        .split_once('[')
        .and_then(|(_, rest)| rest.split_once(']'))
        .expect("a list");
    let entries = inner
        .0
        .split(", ")
        .filter(|e| !e.is_empty())
        .map(str::to_owned)
        .collect();
    let minimum = inner
        .1
        .trim()
        .strip_prefix("minimum ")
        .and_then(|n| n.parse().ok())
        .expect("a minimum");
    (entries, minimum)
}

/// Holds `line` to what the library reaches: all of it listed, nothing of another library's,
/// the minimum set by the newest reached entry.
fn holds(line: &str, reached: [&str; 2], unreached: [&str; 2], context: &str) {
    let (entries, minimum) = listed(line);
    for r in reached {
        assert!(
            entries.iter().any(|e| e == r),
            "{context}: {r} is missing: {line}"
        );
    }
    for e in &entries {
        assert!(
            reached.contains(&e.as_str()) || unreached.contains(&e.as_str()),
            "{context}: {e} is not this library's: {line}"
        );
    }
    assert_eq!(minimum, 12050, "{context}: {line}");
}

#[test]
fn every_linking_shape_lists_its_own_declarations() {
    if !has_cc() {
        eprintln!("SKIPPED every_linking_shape_lists_its_own_declarations: no C compiler (`cc`)");
        return;
    }
    let out = root().join("target/linking/out");
    std::fs::create_dir_all(&out).expect("the output folder");
    let mut linkers_tried = 0;
    for profile in ["dev", "release"] {
        let libs = build(profile);
        let (a, b) = (libs.join("liba.a"), libs.join("libb.a"));
        let (a, b) = (a.to_str().expect("UTF-8"), b.to_str().expect("UTF-8"));
        let system = ["-lpthread", "-ldl", "-lm"];

        // A C program linking the staticlib, by each linker installed.
        for linker in ["bfd", "gold", "lld"] {
            for gc in [None, Some("-Wl,--gc-sections")] {
                let program = out.join(format!("static-{profile}-{linker}-{}", gc.is_some()));
                let main = linking().join("main_static.c");
                let mut args = vec![
                    main.to_str().expect("UTF-8"),
                    a,
                    "-o",
                    program.to_str().expect("UTF-8"),
                ];
                let fuse = format!("-fuse-ld={linker}");
                args.push(&fuse);
                args.extend(gc);
                args.extend(system);
                if !cc(&args) {
                    assert_ne!(linker, "bfd", "the default linker links the staticlib");
                    eprintln!("note: the {linker} linker is not installed: not tried");
                    continue;
                }
                linkers_tried += 1;
                let context = format!("{profile}, {linker}, gc-sections {}", gc.is_some());
                let stdout = run(&program, &[], &[]);
                holds(stdout.trim(), A_REACHED, A_UNREACHED, &context);
            }
        }

        // Two C shared libraries, each embedding a staticlib.
        let shim = linking().join("shim.c");
        let shared = |lib: &str, archive: &str| -> PathBuf {
            let path = out.join(format!("{lib}-{profile}.so"));
            let (entries, call) = (
                format!("-Wl,-u,{lib}_entries"),
                format!("-Wl,-u,{lib}_call"),
            );
            let args = [
                "-shared",
                "-fPIC",
                shim.to_str().expect("UTF-8"),
                &entries,
                &call,
                archive,
                "-o",
                path.to_str().expect("UTF-8"),
            ];
            let args: Vec<&str> = args.iter().copied().chain(system).collect();
            assert!(cc(&args), "{lib} links as a shared library");
            path
        };
        let (liba, libb) = (shared("liba", a), shared("libb", b));
        let loader = out.join("loader");
        let main = linking().join("main_loader.c");
        let args = [
            main.to_str().expect("UTF-8"),
            "-o",
            loader.to_str().expect("UTF-8"),
            "-ldl",
        ];
        assert!(cc(&args), "the loader links");
        let (liba, libb) = (liba.to_str().expect("UTF-8"), libb.to_str().expect("UTF-8"));
        let shapes: [(&str, &[(&str, &Path)]); 3] = [
            ("global", &[]),
            ("local", &[]),
            ("local", &[("LD_PRELOAD", Path::new(liba))]),
        ];
        for (flags, env) in shapes {
            let stdout = run(&loader, &[flags, liba, libb], env);
            let context = format!("{profile}, {flags}, LD_PRELOAD {}", !env.is_empty());
            let lines: Vec<&str> = stdout.lines().collect();
            assert_eq!(lines.len(), 5, "{context}: one line per call:\n{stdout}");
            for line in lines {
                match line.split_once(':') {
                    Some(("liba", _)) => holds(line, A_REACHED, A_UNREACHED, &context),
                    Some(("libb", _)) => holds(line, B_REACHED, B_UNREACHED, &context),
                    _ => panic!("{context}: {line}"),
                }
            }
        }
    }
    assert!(
        linkers_tried >= 4,
        "bfd at least, both profiles, with and without gc-sections"
    );
}
