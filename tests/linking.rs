//! The registry in the linking shapes where a C toolchain, not rustc, makes the binary (issue 39):
//! Rust staticlibs (tests/linking) linked into a C program by each linker installed, with and
//! without `--gc-sections`, in the dev and release profiles, and embedded in two C shared
//! libraries that one C program loads with `RTLD_GLOBAL`, `RTLD_LOCAL` and under `LD_PRELOAD`,
//! closing and reopening one. Each binary lists the declarations it can reach (its own and its
//! dependency's), never another library's; one nothing reaches may be listed or not, as the
//! linker kept its object.
//!
//! On three platforms, each with its own test: this Linux host; aarch64 Linux (Debian's cross gcc,
//! the programs run by qemu-user, `LD_PRELOAD` given to the emulated loader); Windows with the GNU
//! toolchain (mingw-w64's gcc, two DLLs loaded with `LoadLibrary` and the first freed and
//! reloaded, run under Wine: Windows has no global or preload shape). A platform whose tools are
//! missing is skipped, saying so, except under `CI=1`, where each is required.

#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::process::Command;

use cuda_entry_support::{print_skipped, switched_on};

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

fn utf8(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// Where the shapes are linked and run.
struct Platform {
    /// For messages and the output folder.
    name: &'static str,
    /// Cargo's `--target`; `None` for the host.
    target: Option<&'static str>,
    /// The C compiler driver that links.
    cc: &'static str,
    /// The linkers tried for a C program linking the staticlib (`-fuse-ld=`); the first must
    /// be installed.
    linkers: &'static [&'static str],
    /// How a program runs here.
    runner: Runner,
}

#[derive(Clone, Copy, PartialEq)]
enum Runner {
    Host,
    /// qemu-user with the target's system root.
    Qemu(&'static str),
    /// tests/windows/wine-run.sh, in the Wine prefix the Windows stages use.
    Wine,
}

const HOST: Platform = Platform {
    name: "host",
    target: None,
    cc: "cc",
    linkers: &["bfd", "gold", "lld"],
    runner: Runner::Host,
};

const AARCH64: Platform = Platform {
    name: "aarch64",
    target: Some("aarch64-unknown-linux-gnu"),
    cc: "aarch64-linux-gnu-gcc",
    linkers: &["bfd", "gold", "lld"],
    runner: Runner::Qemu("/usr/aarch64-linux-gnu"),
};

const WINDOWS_GNU: Platform = Platform {
    name: "windows-gnu",
    target: Some("x86_64-pc-windows-gnu"),
    cc: "x86_64-w64-mingw32-gcc",
    linkers: &["bfd", "lld"],
    runner: Runner::Wine,
};

fn runs(program: &str, arg: &str) -> bool {
    Command::new(program)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success())
}

impl Platform {
    fn windows(&self) -> bool {
        self.runner == Runner::Wine
    }

    /// Why this platform's shapes cannot be tried here, if they cannot.
    fn missing(&self) -> Option<String> {
        if !runs(self.cc, "--version") {
            return Some(format!("no C compiler `{}`", self.cc));
        }
        if let Some(target) = self.target {
            let sysroot = Command::new("rustc")
                .args(["--print", "sysroot"])
                .output()
                .expect("rustc runs");
            let sysroot = String::from_utf8_lossy(&sysroot.stdout).trim().to_owned();
            let std = Path::new(&sysroot)
                .join("lib/rustlib")
                .join(target)
                .join("lib");
            if !std.is_dir() {
                return Some(format!(
                    "no standard library for {target} (rustup target add)"
                ));
            }
        }
        match self.runner {
            Runner::Host => None,
            Runner::Qemu(sysroot) if !runs("qemu-aarch64", "--version") => {
                Some(format!("no qemu-aarch64 (for {sysroot})"))
            }
            Runner::Qemu(sysroot) if !Path::new(sysroot).join("lib/libc.so.6").is_file() => {
                Some(format!("no C library in {sysroot}"))
            }
            Runner::Qemu(_) => None,
            Runner::Wine if !runs("wine", "--version") => Some("no Wine".to_owned()),
            Runner::Wine => None,
        }
    }

    /// Builds both staticlibs in `profile`: the folder holding them, and the native libraries
    /// a C link of them needs (rustc's `native-static-libs`).
    fn build(&self, profile: &str) -> (PathBuf, Vec<String>) {
        let target_dir = root().join("target/linking");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        // The target's own dependencies (windows-link) may not be downloaded yet: the Windows
        // stages run later.
        let mut fetch = Command::new(&cargo);
        fetch
            .args(["fetch", "--locked", "--manifest-path"])
            .arg(linking().join("Cargo.toml"));
        if let Some(target) = self.target {
            fetch.args(["--target", target]);
        }
        let fetched = fetch.output().expect("cargo runs");
        assert!(
            fetched.status.success(),
            "{}: cargo fetch: {}",
            self.name,
            String::from_utf8_lossy(&fetched.stderr)
        );
        let mut native = Vec::new();
        for (package, first) in [("linking-lib-a", true), ("linking-lib-b", false)] {
            let mut command = Command::new(&cargo);
            command
                .args(["rustc", "--offline", "--locked", "--message-format=json"])
                .arg("--profile")
                .arg(profile)
                .arg("--manifest-path")
                .arg(linking().join("Cargo.toml"))
                .args(["-p", package]);
            if let Some(target) = self.target {
                command.args(["--target", target]);
            }
            // The same flags for both packages and every run: nothing is rebuilt for nothing.
            command.args(["--", "--print=native-static-libs"]);
            let out = command
                .env("CARGO_TARGET_DIR", &target_dir)
                .output()
                .expect("cargo runs");
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "{}: {package} builds ({profile}):\n{}{stdout}",
                self.name,
                String::from_utf8_lossy(&out.stderr)
            );
            if first {
                native = native_static_libs(&stdout).unwrap_or_else(|| {
                    panic!(
                        "{}: rustc named no native-static-libs:\n{stdout}",
                        self.name
                    )
                });
            }
        }
        let mut dir = target_dir;
        if let Some(target) = self.target {
            dir.push(target);
        }
        dir.push(if profile == "dev" { "debug" } else { profile });
        (dir, native)
    }

    /// Runs the C compiler with `args`; whether it linked (a linker not installed does not).
    fn cc(&self, args: &[&str]) -> Result<(), String> {
        let out = Command::new(self.cc)
            .args(args)
            .output()
            .expect("the C compiler runs");
        if out.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&out.stderr).into_owned())
        }
    }

    /// Runs `program` with `args` (and `LD_PRELOAD` set to `preload` for it), in `dir`; what it
    /// printed.
    fn run(&self, dir: &Path, program: &Path, args: &[&str], preload: Option<&str>) -> String {
        let mut command = match self.runner {
            Runner::Host => Command::new(program),
            Runner::Qemu(sysroot) => {
                let mut c = Command::new("qemu-aarch64");
                c.args(["-L", sysroot]);
                if let Some(preload) = preload {
                    // For the emulated program's loader, not for qemu itself.
                    c.arg("-E").arg(format!("LD_PRELOAD={preload}"));
                }
                c.arg(program);
                c
            }
            Runner::Wine => {
                let mut c = Command::new(root().join("tests/windows/wine-run.sh"));
                c.env("WINEPREFIX", root().join("target/wine-prefix"));
                c.arg(program);
                c
            }
        };
        if let (Runner::Host, Some(preload)) = (self.runner, preload) {
            command.env("LD_PRELOAD", preload);
        }
        let out = command
            .args(args)
            .current_dir(dir)
            .output()
            .expect("the program runs");
        let stdout = String::from_utf8_lossy(&out.stdout).replace('\r', "");
        assert!(
            out.status.success(),
            "{}: {} {args:?}: {}\n{stdout}{}",
            self.name,
            program.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        stdout
    }

    /// Every shape of this platform, in both profiles.
    fn every_shape(&self) {
        if let Some(why) = self.missing() {
            assert!(
                !switched_on("CI"),
                "the linking shapes on {}: {why}; CI=1 requires them",
                self.name
            );
            print_skipped(&format!("the linking shapes on {}", self.name), &why);
            return;
        }
        let out = root().join("target/linking/out").join(self.name);
        std::fs::create_dir_all(&out).expect("the output folder");
        let exe = if self.windows() { ".exe" } else { "" };
        let mut linked = 0;
        for profile in ["dev", "release"] {
            let (libs, native) = self.build(profile);
            let native: Vec<&str> = native.iter().map(String::as_str).collect();
            let (a, b) = (libs.join("liba.a"), libs.join("libb.a"));
            let (a, b) = (utf8(&a), utf8(&b));

            // A C program linking the staticlib, by each linker installed.
            for &linker in self.linkers {
                for gc in [None, Some("-Wl,--gc-sections")] {
                    let name = format!("static-{profile}-{linker}-{}{exe}", gc.is_some());
                    let program = out.join(&name);
                    let main = linking().join("main_static.c");
                    let fuse = format!("-fuse-ld={linker}");
                    let mut args = vec![utf8(&main), a, "-o", utf8(&program), &fuse];
                    args.extend(gc);
                    args.extend(&native);
                    // mingw-w64's gcc links with GNU ld when `ld.lld` is missing, saying
                    // nothing: lld is tried only where it is installed.
                    if linker == "lld" && !runs("ld.lld", "--version") {
                        eprintln!(
                            "note: {}: ld.lld is not installed: lld not tried",
                            self.name
                        );
                        continue;
                    }
                    if let Err(error) = self.cc(&args) {
                        assert_ne!(
                            linker, self.linkers[0],
                            "{}: the default linker links the staticlib: {error}",
                            self.name
                        );
                        eprintln!(
                            "note: {}: the {linker} linker links nothing: not tried",
                            self.name
                        );
                        continue;
                    }
                    linked += 1;
                    let context = format!(
                        "{}, {profile}, {linker}, gc-sections {}",
                        self.name,
                        gc.is_some()
                    );
                    let stdout = self.run(&out, &program, &[], None);
                    holds(stdout.trim(), A_REACHED, A_UNREACHED, &context);
                }
            }

            // Two C shared libraries, each embedding a staticlib, and a program loading both.
            let (liba, libb) = (
                self.shared("liba", a, profile, &out, &native),
                self.shared("libb", b, profile, &out, &native),
            );
            let loader = out.join(format!("loader-{profile}{exe}"));
            let main = linking().join(if self.windows() {
                "main_loader_win.c"
            } else {
                "main_loader.c"
            });
            let mut args = vec![utf8(&main), "-o", utf8(&loader)];
            if !self.windows() {
                args.push("-ldl");
            }
            if let Err(error) = self.cc(&args) {
                panic!("{}: the loader links: {error}", self.name);
            }
            let shapes: &[(&str, Option<&str>)] = if self.windows() {
                // LoadLibrary, by the names beside the loader.
                &[("", None)]
            } else {
                &[("global", None), ("local", None), ("local", Some(&liba))]
            };
            for &(flags, preload) in shapes {
                let args: Vec<&str> = if self.windows() {
                    vec![&liba, &libb]
                } else {
                    vec![flags, &liba, &libb]
                };
                let stdout = self.run(&out, &loader, &args, preload);
                let context = format!(
                    "{}, {profile}, {flags}, LD_PRELOAD {}",
                    self.name,
                    preload.is_some()
                );
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
            linked >= 4,
            "{}: the default linker at least, both profiles, with and without gc-sections",
            self.name
        );
    }

    /// Links `archive` into the shared library `lib` (a DLL on Windows) with the C shim; its
    /// path (on Windows its file name: the loader runs beside it).
    fn shared(
        &self,
        lib: &str,
        archive: &str,
        profile: &str,
        out: &Path,
        native: &[&str],
    ) -> String {
        let file = if self.windows() {
            format!("{lib}-{profile}.dll")
        } else {
            format!("{lib}-{profile}.so")
        };
        let path = out.join(&file);
        let shim = linking().join("shim.c");
        let (entries, call) = (
            format!("-Wl,-u,{lib}_entries"),
            format!("-Wl,-u,{lib}_call"),
        );
        let mut args = vec![
            "-shared",
            utf8(&shim),
            &entries,
            &call,
            archive,
            "-o",
            utf8(&path),
        ];
        if self.windows() {
            // The staticlib's functions carry no dllexport: export them all, as GNU ld does for
            // a DLL whose objects name no export.
            args.push("-Wl,--export-all-symbols");
            // gcc links a DLL against its runtime's DLL (libgcc_s_seh-1.dll), which a Windows
            // machine (and Wine) does not have: as rustc does, link it in.
            args.push("-static-libgcc");
        } else {
            args.push("-fPIC");
        }
        args.extend(native);
        if let Err(error) = self.cc(&args) {
            panic!("{}: {lib} links as a shared library: {error}", self.name);
        }
        if self.windows() {
            file
        } else {
            utf8(&path).to_owned()
        }
    }
}

/// The libraries of rustc's `native-static-libs` note, from cargo's JSON messages.
fn native_static_libs(json: &str) -> Option<Vec<String>> {
    json.lines().find_map(|line| {
        let at = line.find("native-static-libs: ")? + "native-static-libs: ".len();
        let rest = &line[at..];
        // The note's text ends at the end of the JSON string (`"` or an escaped newline).
        let end = rest.find(['"', '\\']).unwrap_or(rest.len());
        Some(rest[..end].split_whitespace().map(str::to_owned).collect())
    })
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
    HOST.every_shape();
}

#[test]
fn every_linking_shape_lists_its_own_declarations_on_aarch64_under_qemu() {
    AARCH64.every_shape();
}

#[test]
fn every_linking_shape_lists_its_own_declarations_on_windows_gnu_under_wine() {
    WINDOWS_GNU.every_shape();
}
