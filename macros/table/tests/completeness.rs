//! Where the toolkit headers are at hand (`CUDA_ENTRY_HEADERS`, or the default cache
//! `target/cuda-headers` that `macros/generator/regenerate.sh` fills), every `PFN_` typedef of
//! every header must be in the table. Found with a plain text scan, independent of the generator.
//!
//! Without the headers the test prints `SKIPPED` and passes, except on CI (`CI` set, as `.ci/run`
//! does after fetching them), where it fails.

use std::io::Write;
use std::path::{Path, PathBuf};

use cuda_entry_table::{TOOLKITS, TYPEDEFS, lookup};

const HEADERS: &[&str] = &[
    "cudaTypedefs.h",
    "cudaProfilerTypedefs.h",
    "cudaGLTypedefs.h",
    "cudaEGLTypedefs.h",
    "cudaVDPAUTypedefs.h",
];

/// The folders holding a cuda.h: `dir` itself or `dir/*/nvidia/*/include`.
fn include_dirs(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let children = |d: &Path| -> Vec<PathBuf> {
        std::fs::read_dir(d)
            .map(|rd| rd.flatten().map(|e| e.path()).collect())
            .unwrap_or_default()
    };
    if root.join("cuda.h").is_file() {
        out.push(root.to_path_buf());
    }
    for tk in children(root) {
        for pkg in children(&tk.join("nvidia")) {
            if pkg.join("include/cuda.h").is_file() {
                out.push(pkg.join("include"));
            }
        }
    }
    out.sort();
    out
}

fn cuda_version(cuda_h: &str) -> Option<u32> {
    cuda_h.lines().find_map(|l| {
        l.trim()
            .strip_prefix("#define CUDA_VERSION")?
            .trim()
            .parse()
            .ok()
    })
}

/// The names after `typedef ... PFN_` in each `;`-terminated statement.
fn pfn_typedefs(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for stmt in text.split(';') {
        let Some(t) = stmt.find("typedef") else {
            continue;
        };
        let Some(p) = stmt[t..].find("PFN_") else {
            continue;
        };
        let name: String = stmt[t + p..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        names.push(name);
    }
    names
}

/// Whether `CI` is switched on: set, and neither empty, `0` nor `false` (the reading of
/// `cuda_entry_support::switched_on`, which this crate does not depend on).
fn on_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "0" && v != "false")
}

#[test]
fn every_header_typedef_is_in_the_table() {
    let root = std::env::var_os("CUDA_ENTRY_HEADERS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/cuda-headers"));
    let dirs = include_dirs(&root);
    if dirs.is_empty() {
        let why = format!(
            "headers not found at {} (set CUDA_ENTRY_HEADERS, or run \
             macros/generator/regenerate.sh to fill it)",
            root.display()
        );
        assert!(!on_ci(), "{why}; CI is set, so this check is required");
        // Straight to stderr: libtest captures `eprintln!`, and a passing test's capture is
        // never shown.
        let _ = writeln!(
            std::io::stderr().lock(),
            "SKIPPED every_header_typedef_is_in_the_table: {why}"
        );
        return;
    }
    let by_name: std::collections::HashMap<String, _> =
        TYPEDEFS.iter().map(|t| (t.typedef_name(), t)).collect();
    let mut checked = 0;
    let mut problems = Vec::new();
    for dir in &dirs {
        let cuda_h = std::fs::read_to_string(dir.join("cuda.h")).unwrap_or_default();
        let Some(tk) = cuda_version(&cuda_h) else {
            problems.push(format!("{}: no CUDA_VERSION in cuda.h", dir.display()));
            continue;
        };
        if !TOOLKITS.contains(&tk) {
            problems.push(format!(
                "{}: toolkit {tk} is not in TOOLKITS {TOOLKITS:?}: regenerate the table",
                dir.display()
            ));
            continue;
        }
        for header in HEADERS {
            let Ok(text) = std::fs::read_to_string(dir.join(header)) else {
                continue;
            };
            for name in pfn_typedefs(&text) {
                checked += 1;
                match by_name.get(&name) {
                    Some(t) if t.header != *header => problems.push(format!(
                        "{name} ({tk}): table says {}, header is {header}",
                        t.header
                    )),
                    Some(t) if !(t.first_toolkit <= tk && tk <= t.last_toolkit) => {
                        problems.push(format!(
                            "{name}: in {tk}'s {header} but the table says {}..{}",
                            t.first_toolkit, t.last_toolkit
                        ))
                    }
                    Some(_) => {}
                    // CUDA 12.4-12.9 name four typedefs without a version (`PFN_cuModuleGetFunctionCount`);
                    // the generator takes the version from the header's #define.
                    None if !name.contains("_v") && !lookup(&name["PFN_".len()..]).is_empty() => {}
                    None => problems.push(format!(
                        "{name} of {}/{header} is not in the table",
                        dir.display()
                    )),
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert!(
        checked >= 685,
        "only {checked} typedefs found under {}",
        root.display()
    );
    println!(
        "checked {checked} typedefs in {} toolkits under {}",
        dirs.len(),
        root.display()
    );
}
