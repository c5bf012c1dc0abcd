//! The sources of `tests/cudarc-user`, the crate outside the workspace that compiles what
//! `cuda-entry decl --types c` and `cuda-entry migrate` print against cudarc 0.19's own types,
//! with its feature `cuda-12080` and with `cuda-13000` (tests/run-all.sh builds it with each,
//! offline from its lockfile). A cudarc user's declarations must compile against the headers
//! cudarc was generated from: a struct whose layout changed between toolkits (`CUdevResource`,
//! `CUtensorMap`) has cudarc's layout of that version, and callbacks are cudarc's function
//! pointers.
//!
//! For each feature:
//! - `decl_<feature>.rs`: `cuda-entry decl SYMBOL@VERSION --types c`, in a module of its own with
//!   `use cudarc::driver::sys::*;`, for every typedef whose headers include that toolkit's and
//!   whose C types cudarc defines with that feature (the rest name types cudarc lacks);
//! - `migrate_<feature>.rs`: the declarations `cuda-entry migrate` prints for a call of every
//!   driver function cudarc has with that feature, through `sys::`.
//!
//! The committed files must be what this writes; `CUDA_ENTRY_BLESS=1` rewrites them.

mod common;

use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use common::{cuda_entry, json, run, scratch};
use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;

/// The cudarc features the crate is built with, as toolkits.
const FEATURES: [u32; 2] = [12080, 13000];

/// The crate's sources.
fn crate_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cudarc-user/src")
}

/// `cudarc/src/driver/sys/mod.rs` of the cudarc this workspace locks.
fn cudarc_sys() -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.toml");
    let out = std::process::Command::new(cargo)
        // The host's dependencies only: those of other platforms need not be downloaded.
        .args([
            "metadata",
            "--offline",
            "--format-version",
            "1",
            "--filter-platform",
        ])
        .arg(host())
        .arg("--manifest-path")
        .arg(&manifest)
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "{out:?}");
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let cudarc = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .find(|p| p["name"] == "cudarc")
        .expect("cudarc is a dependency");
    let dir = Path::new(cudarc["manifest_path"].as_str().expect("a path"))
        .parent()
        .expect("its folder")
        .to_path_buf();
    let path = dir.join("src/driver/sys/mod.rs");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The host's target triple, as `rustc -vV` says.
fn host() -> String {
    let out = std::process::Command::new("rustc")
        .arg("-vV")
        .output()
        .expect("rustc runs");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    text.lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("a host line")
        .to_owned()
}

/// What cudarc's `driver::sys` has with one feature: its type names, and its driver functions
/// with their parameter counts.
#[derive(Debug, Default)]
struct Cudarc {
    names: BTreeSet<String>,
    functions: Vec<(String, usize)>,
}

/// Whether the `#[cfg(...)]` predicate `tokens` holds with `features` on.
fn holds(tokens: TokenStream, features: &[String]) -> bool {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    match tokens.as_slice() {
        [
            TokenTree::Ident(i),
            TokenTree::Punct(eq),
            TokenTree::Literal(l),
        ] if i == "feature" && eq.as_char() == '=' => {
            features.contains(&l.to_string().trim_matches('"').to_owned())
        }
        [TokenTree::Ident(i), TokenTree::Group(g)] => {
            let parts = split_commas(g.stream());
            match i.to_string().as_str() {
                "any" => parts.into_iter().any(|p| holds(p, features)),
                "all" => parts.into_iter().all(|p| holds(p, features)),
                "not" => !parts.into_iter().all(|p| holds(p, features)),
                other => panic!("cudarc: cfg `{other}` not understood"),
            }
        }
        other => panic!(
            "cudarc: cfg `{}` not understood",
            TokenStream::from_iter(other.to_vec())
        ),
    }
}

fn split_commas(tokens: TokenStream) -> Vec<TokenStream> {
    let mut parts = vec![TokenStream::new()];
    for t in tokens {
        match &t {
            TokenTree::Punct(p) if p.as_char() == ',' => parts.push(TokenStream::new()),
            _ => parts.last_mut().expect("a part").extend([t]),
        }
    }
    parts.retain(|p| !p.is_empty());
    parts
}

/// Whether an item with `attrs` is compiled with `features` on.
fn compiled(attrs: &[syn::Attribute], features: &[String]) -> bool {
    attrs.iter().filter(|a| a.path().is_ident("cfg")).all(|a| {
        let syn::Meta::List(list) = &a.meta else {
            panic!("cudarc: a cfg without a list");
        };
        holds(list.tokens.to_token_stream(), features)
    })
}

fn read_cudarc(file: &syn::File, toolkit: u32) -> Cudarc {
    let features: Vec<String> = [
        format!("cuda-{toolkit}"),
        "std".into(),
        "driver".into(),
        "dynamic-loading".into(),
    ]
    .into();
    let mut cudarc = Cudarc::default();
    for item in &file.items {
        let attrs = match item {
            syn::Item::Type(i) => &i.attrs,
            syn::Item::Struct(i) => &i.attrs,
            syn::Item::Union(i) => &i.attrs,
            syn::Item::Enum(i) => &i.attrs,
            syn::Item::Use(i) => &i.attrs,
            syn::Item::Fn(i) => &i.attrs,
            _ => continue,
        };
        if !compiled(attrs, &features) {
            continue;
        }
        match item {
            syn::Item::Type(i) => _ = cudarc.names.insert(i.ident.to_string()),
            syn::Item::Struct(i) => _ = cudarc.names.insert(i.ident.to_string()),
            syn::Item::Union(i) => _ = cudarc.names.insert(i.ident.to_string()),
            syn::Item::Enum(i) => _ = cudarc.names.insert(i.ident.to_string()),
            syn::Item::Use(i) => {
                if let syn::UseTree::Path(p) = &i.tree
                    && let syn::UseTree::Rename(r) = &*p.tree
                {
                    cudarc.names.insert(r.rename.to_string());
                }
            }
            // A driver function: `cu` and an uppercase letter (not cudarc's `culib`).
            syn::Item::Fn(f)
                if f.sig
                    .ident
                    .to_string()
                    .strip_prefix("cu")
                    .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase())) =>
            {
                let name = f.sig.ident.to_string();
                cudarc.functions.push((name, f.sig.inputs.len()));
            }
            _ => {}
        }
    }
    cudarc
}

/// The C type names a `decl --types c` output lists for the user to bring.
fn brought(output: &str) -> Vec<&str> {
    output
        .lines()
        .filter_map(|l| l.strip_prefix("//   "))
        .filter_map(|l| l.split(':').next())
        .collect()
}

fn indented(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.is_empty() {
            out.push('\n');
        } else {
            let _ = writeln!(out, "    {line}");
        }
    }
    out
}

/// `decl_<toolkit>.rs`, and how many typedefs it declares of how many the toolkit's headers have.
fn decl_source(toolkit: u32, cudarc: &Cudarc, outputs: &[String]) -> (String, usize, usize) {
    let mut modules = String::new();
    let (mut declared, mut headers) = (0, 0);
    for (t, output) in cuda_entry_table::TYPEDEFS.iter().zip(outputs) {
        if t.first_toolkit > toolkit {
            continue;
        }
        headers += 1;
        if !brought(output).iter().all(|n| cudarc.names.contains(*n)) {
            continue;
        }
        declared += 1;
        let name = t.typedef_name().to_lowercase();
        let _ = write!(
            modules,
            "\npub mod {name} {{\n    use cudarc::driver::sys::*;\n\n{}}}\n",
            indented(output)
        );
    }
    let source = format!(
        "// Generated by core/cli/tests/cudarc_user.rs (CUDA_ENTRY_BLESS=1 rewrites it); do not \
         edit.\n// `cuda-entry decl SYMBOL@VERSION --types c` of the {declared} typedefs (of the \
         {headers} of {}'s\n// headers) whose C types cudarc's `cuda-{toolkit}` defines, \
         each with cudarc's types.\n{modules}",
        cuda_entry_table::Cuda(toolkit),
    );
    (source, declared, headers)
}

/// `migrate_<toolkit>.rs`, and how many of cudarc's functions it declares.
fn migrate_source(toolkit: u32, cudarc: &Cudarc) -> (String, usize) {
    let dir = scratch(&format!("cudarc-user-{toolkit}"));
    let mut calls =
        String::from("use cudarc::driver::sys;\n\npub unsafe fn calls() {\n    unsafe {\n");
    for (name, arity) in &cudarc.functions {
        let args = vec!["0"; *arity].join(", ");
        let _ = writeln!(calls, "        let _ = sys::{name}({args});");
    }
    calls.push_str("    }\n}\n");
    let path = dir.join("calls.rs");
    std::fs::write(&path, &calls).expect("write the calls");
    let report = json(&run(
        cuda_entry(),
        &["migrate", "--json", path.to_str().expect("UTF-8")],
    ));
    let mut modules = String::new();
    let mut ready = 0;
    let mut not_ready = Vec::new();
    for b in report["bindings"].as_array().expect("bindings") {
        let name = b["export"].as_str().unwrap_or_default().to_owned();
        if b["status"] != "ready" {
            not_ready.push(name);
            continue;
        }
        ready += 1;
        let declaration = b["declaration"].as_str().expect("a declaration");
        let _ = write!(
            modules,
            "\npub mod {} {{\n    use super::*;\n\n{}}}\n",
            name.to_lowercase(),
            indented(declaration)
        );
    }
    let source = format!(
        "// Generated by core/cli/tests/cudarc_user.rs (CUDA_ENTRY_BLESS=1 rewrites it); do not \
         edit.\n// What `cuda-entry migrate` prints for a call through `sys::` of each of the {} \
         driver functions\n// of cudarc's `cuda-{toolkit}`: the {ready} it declares. Not \
         declared: {}.\n\nuse cuda_entry::cuda_entry;\nuse cudarc::driver::sys;\n{modules}",
        cudarc.functions.len(),
        if not_ready.is_empty() {
            "none".to_owned()
        } else {
            not_ready.join(", ")
        }
    );
    (source, ready)
}

#[test]
fn the_cudarc_user_crate_holds_what_the_command_prints() {
    let file = syn::parse_file(&cudarc_sys()).expect("cudarc's sys parses");
    // One `decl` run per typedef, whatever the feature.
    let outputs: Vec<String> = cuda_entry_table::TYPEDEFS
        .iter()
        .map(|t| {
            let spec = format!("{}@{}", t.symbol, t.version);
            let stream = if t.stream.is_per_thread() {
                "per_thread"
            } else {
                "legacy"
            };
            let out = run(
                cuda_entry(),
                &["decl", &spec, "--stream", stream, "--types", "c"],
            );
            assert_eq!(out.status, 0, "{spec}: {out:?}");
            out.stdout
        })
        .collect();
    let bless = std::env::var_os("CUDA_ENTRY_BLESS").is_some();
    let mut stale = Vec::new();
    for toolkit in FEATURES {
        let cudarc = read_cudarc(&file, toolkit);
        assert!(
            cudarc.functions.len() > 400,
            "{toolkit}: {}",
            cudarc.functions.len()
        );
        let (decl, declared, headers) = decl_source(toolkit, &cudarc, &outputs);
        let (migrate, ready) = migrate_source(toolkit, &cudarc);
        eprintln!(
            "cuda-{toolkit}: decl {declared} of {headers} typedefs; migrate {ready} of {} functions",
            cudarc.functions.len()
        );
        assert!(declared > 500, "{toolkit}: {declared} declarations");
        assert!(ready > 400, "{toolkit}: {ready} migrated calls");
        for (name, text) in [
            (format!("decl_{toolkit}.rs"), decl),
            (format!("migrate_{toolkit}.rs"), migrate),
        ] {
            let path = crate_dir().join(&name);
            if bless {
                std::fs::write(&path, &text).expect("write");
            } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                stale.push(name);
            }
        }
    }
    assert!(
        stale.is_empty(),
        "tests/cudarc-user/src/{stale:?} are stale: regenerate them with CUDA_ENTRY_BLESS=1 cargo \
         test -p cuda-entry-cli --test cudarc_user"
    );
}
