//! How a migrated shim gives the driver's status back in the binding's own `CUresult` (issue 47,
//! item 6): never by reading the status's bytes into a type that may not hold them. An enum of
//! the sources gets a `match` written once per enum (a code it does not list becomes its
//! `CUDA_ERROR_UNKNOWN`, or its variant for 999), an integer an `as`, a newtype its constructor,
//! a type `migrate` cannot see into a helper bounded by `cuda_entry::FromDriver`; an enum with no
//! variant for an unlisted code is refused. What is written builds under clippy with warnings
//! denied, and a type not seen into that is an enum does not build. (`migrate_compiles.rs` runs
//! the shapes against the simulated driver answering a code no enum lists.)

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{cuda_entry, fixtures, json, run, scratch};

/// `tests/fixtures/migrate/status.rs` migrated with `--write` in `dir`, and the command's output.
fn migrated(dir: &Path) -> (String, common::Output) {
    let file = dir.join("status.rs");
    std::fs::copy(fixtures().join("migrate/status.rs"), &file).expect("copy the fixture");
    let out = run(
        cuda_entry(),
        &[
            "migrate",
            "--write",
            "--allow-no-vcs",
            file.to_str().expect("UTF-8"),
        ],
    );
    (std::fs::read_to_string(&file).expect("read"), out)
}

/// The text of module `name` of a migrated status.rs, to its end.
fn module<'a>(migrated: &'a str, name: &str) -> &'a str {
    let start = migrated
        .find(&format!("pub mod {name} {{\n"))
        .unwrap_or_else(|| panic!("no module {name}:\n{migrated}"));
    let end = migrated[start..]
        .find("\n}\n")
        .map_or(migrated.len(), |e| start + e);
    &migrated[start..end]
}

#[test]
fn each_status_type_gets_a_conversion_that_cannot_make_an_invalid_value() {
    let (migrated, out) = migrated(&scratch("migrate-status-text"));
    assert_eq!(out.status, 0, "{out:?}");
    // Nothing reads a status's bytes into the binding's type any more (the shim did so for every
    // type, bindgen's enums included).
    assert!(!migrated.contains(".cast::<CUresult>()"), "{migrated}");

    // An enum: one helper per definition (two, under exclusive `cfg`s), which every shim of the
    // module calls; a code it does not list is its `CUDA_ERROR_UNKNOWN`.
    let rustified = module(&migrated, "rustified");
    assert!(
        rustified.contains(
            "    #[cfg(not(any()))]\n    #[allow(dead_code)]\n    fn cuda_error_enum_from_status(\
             status: i32) -> CUresult {\n        match status {\n            0 => \
             CUresult::CUDA_SUCCESS,\n            2 => CUresult::CUDA_ERROR_OUT_OF_MEMORY,\n            \
             999 => CUresult::CUDA_ERROR_UNKNOWN,\n            _ => CUresult::CUDA_ERROR_UNKNOWN,\n        \
             }\n    }\n"
        ),
        "{rustified}"
    );
    assert!(
        rustified.contains(
            "    #[cfg(any())]\n    #[allow(dead_code)]\n    fn cuda_error_enum_from_status(status: \
             i32) -> CUresult {\n        match status {\n            0 => CUresult::CUDA_SUCCESS,\n            \
             7 => CUresult::CUDA_ERROR_ONLY_IN_THE_OTHER,\n"
        ),
        "{rustified}"
    );
    assert_eq!(
        rustified.matches("fn cuda_error_enum_from_status(").count(),
        2
    );
    assert_eq!(
        rustified
            .matches("\n        cuda_error_enum_from_status(status)\n    }\n")
            .count(),
        3,
        "{rustified}"
    );
    // A status passed in: the enum's discriminant.
    assert!(
        rustified.contains("cuGetErrorName_entry(::cuda_entry::types::CUresult(error as _), pStr)"),
        "{rustified}"
    );
    // Without `CUDA_ERROR_UNKNOWN`, the variant for 999; implicit discriminants counted.
    let other = module(&migrated, "other_999");
    assert!(
        other.contains(
            "fn curesult_from_status(status: i32) -> CUresult {\n        match status {\n            \
             0 => CUresult::CUDA_SUCCESS,\n            1 => CUresult::CUDA_ERROR_INVALID_VALUE,\n            \
             999 => CUresult::CUDA_ERROR_OTHER,\n            _ => CUresult::CUDA_ERROR_OTHER,\n"
        ),
        "{other}"
    );

    // A newtype: its constructor, or through a `type` alias the one form an alias allows.
    let newtype = module(&migrated, "newtype");
    assert!(
        newtype.contains("\n        CUresult(status as _)\n"),
        "{newtype}"
    );
    assert!(
        newtype.contains("::cuda_entry::types::CUresult(error.0 as _)"),
        "{newtype}"
    );
    assert!(
        newtype.contains("\n            CUresult { 0: status as _ }\n"),
        "{newtype}"
    );
    // An integer: `as`, or the status itself.
    let constified = module(&migrated, "constified");
    assert!(
        constified.contains("\n        status as CUresult\n"),
        "{constified}"
    );
    let integer = module(&migrated, "integer");
    assert!(
        integer.contains(
            "pub unsafe extern \"C\" fn cuCtxSynchronize() -> i32 {\n        // SAFETY: the caller \
             upholds the driver function's contract, as with the declaration this\n        // \
             replaces.\n        match unsafe { cuCtxSynchronize_entry"
        ),
        "{integer}"
    );
    assert!(!integer.contains("from_status"), "{integer}");
    // Not seen into: through `FromDriver`, one helper for the module, and said.
    let unseen = module(&migrated, "unseen");
    assert!(
        unseen.contains("\n        status_from_driver::<HiddenStatus>(status)\n"),
        "{unseen}"
    );
    assert!(
        unseen.contains("\n        status_from_driver::<HiddenResult>(status)\n"),
        "{unseen}"
    );
    assert_eq!(
        unseen
            .matches("fn status_from_driver<T: ::cuda_entry::FromDriver>(status: i32) -> T {")
            .count(),
        1,
        "{unseen}"
    );
    assert!(
        out.stdout.contains(
            "status.rs: converts the status of 1 binding to `HiddenStatus` through \
             `cuda_entry::FromDriver`: `HiddenStatus` is not defined in the sources migrated"
        ),
        "{}",
        out.stdout
    );
}

#[test]
fn an_enum_that_cannot_hold_an_unlisted_code_is_refused() {
    let dir = scratch("migrate-status-refused");
    let file = dir.join("sys.rs");
    let source = "#[repr(u32)]\npub enum cudaError_enum {\n    CUDA_SUCCESS = 0,\n    \
                  CUDA_ERROR_INVALID_VALUE = 1,\n}\npub use self::cudaError_enum as CUresult;\n\n\
                  #[link(name = \"cuda\")]\nextern \"C\" {\n    pub fn cuInit(Flags: u32) -> \
                  CUresult;\n    pub fn cuDriverGetVersion(driverVersion: *mut i32) -> i32;\n}\n";
    std::fs::write(&file, source).expect("write");
    let path = file.to_str().expect("UTF-8");

    let doc = json(&run(cuda_entry(), &["migrate", "--json", path]));
    let bindings = doc["bindings"].as_array().expect("bindings");
    let init = bindings
        .iter()
        .find(|b| b["name"] == "cuInit")
        .expect("cuInit");
    assert_eq!(init["status"], "disagrees", "{init}");
    assert_eq!(init["notes"][0]["kind"], "status_enum_without_unknown");
    let why = init["notes"][0]["message"].as_str().expect("a message");
    assert!(
        why.starts_with(&format!(
            "the status type `CUresult` is the enum `cudaError_enum` ({}:2), which lists neither \
             `CUDA_ERROR_UNKNOWN` nor a variant for 999",
            file.display()
        )),
        "{why}"
    );
    // A binding whose status is an integer is migrated.
    let version = bindings
        .iter()
        .find(|b| b["name"] == "cuDriverGetVersion")
        .expect("cuDriverGetVersion");
    assert_eq!(version["status"], "ready", "{version}");

    let out = run(
        cuda_entry(),
        &["migrate", "--write", "--allow-no-vcs", path],
    );
    assert_eq!(out.status, 1, "as a binding that disagrees: {out:?}");
    assert!(
        out.stdout.contains(&format!(
            "{path}:10:12: `cuInit` in an `extern` block is cuInit at 2000 (PFN_cuInit_v2000), but \
             its status type cannot hold every status a driver returns (not migrated):\n    \
             status_enum_without_unknown: the status type `CUresult` is the enum `cudaError_enum`"
        )),
        "{}",
        out.stdout
    );
    // It is left as it was, with the link it needs.
    let written = std::fs::read_to_string(&file).expect("read");
    assert!(
        written.contains("#[link(name = \"cuda\")]\nextern \"C\" {\n    pub fn cuInit(Flags: u32) -> CUresult;\n}"),
        "{written}"
    );
    assert!(!written.contains("from_status"), "{written}");
}

/// The workspace's `core` folder: the path dependency the crates get.
fn core() -> String {
    let core = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    core.canonicalize().expect("core").display().to_string()
}

/// A crate `name` in `dir` with `lib` as its `src/lib.rs` and `dependencies` as its own.
fn krate(dir: &Path, name: &str, dependencies: &str, lib: &str) -> PathBuf {
    let root = dir.join(name);
    std::fs::create_dir_all(root.join("src")).expect("create");
    std::fs::write(
        root.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [dependencies]\n{dependencies}\n[workspace]\n"
        ),
    )
    .expect("write");
    std::fs::write(root.join("src/lib.rs"), lib).expect("write");
    root
}

/// `migrate --write` of `crates` with the workspace's `core` as the dependency.
fn migrate(crates: &[&Path]) -> common::Output {
    let dependency = format!("path = {:?}", core());
    let mut args = vec![
        "migrate",
        "--write",
        "--allow-no-vcs",
        "--dependency",
        &dependency,
    ];
    args.extend(crates.iter().map(|c| c.to_str().expect("UTF-8")));
    run(cuda_entry(), &args)
}

/// `cargo ARGS` in `dir`, offline, in the target folder `migrate_crate.rs` builds in.
fn cargo(dir: &Path, args: &[&str]) -> std::process::Output {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("migrate-crate-target");
    Command::new(env!("CARGO"))
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs")
}

#[test]
fn the_shapes_pass_clippy_and_an_enum_not_seen_into_does_not_build() {
    let dir = scratch("migrate-status-crates");
    // Every shape, migrated as a crate, under clippy with warnings denied.
    let shapes = krate(&dir, "status-shapes", "", "");
    std::fs::remove_file(shapes.join("src/lib.rs")).expect("remove");
    std::fs::copy(
        fixtures().join("migrate/status.rs"),
        shapes.join("src/main.rs"),
    )
    .expect("copy");
    let out = migrate(&[&shapes]);
    assert_eq!(out.status, 0, "{out:?}");
    let clippy = cargo(
        &shapes,
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

    // A binding whose `CUresult` is another crate's enum: migrated alone, that enum is not seen
    // into, and the `FromDriver` bound refuses it at compile time.
    let types = krate(
        &dir,
        "gpu-types",
        "",
        "#![allow(non_camel_case_types)]\n#[repr(u32)]\n#[derive(Clone, Copy, Debug, PartialEq, \
         Eq)]\npub enum cudaError_enum {\n    CUDA_SUCCESS = 0,\n    CUDA_ERROR_UNKNOWN = 999,\n}\n\
         pub type CUresult = cudaError_enum;\n",
    );
    let app_lib = "use gpu_types::CUresult;\n\nextern \"C\" {\n    pub fn cuInit(Flags: u32) -> \
                   CUresult;\n}\n";
    let app = krate(
        &dir,
        "gpu-app",
        "gpu-types = { path = \"../gpu-types\" }\n",
        app_lib,
    );
    let manifest = std::fs::read_to_string(app.join("Cargo.toml")).expect("read");
    let out = migrate(&[&app]);
    assert_eq!(out.status, 0, "{out:?}");
    assert!(
        out.stdout.contains(
            "converts the status of 1 binding to `CUresult` through `cuda_entry::FromDriver`"
        ),
        "{}",
        out.stdout
    );
    let build = cargo(&app, &["build", "--offline"]);
    let stderr = String::from_utf8_lossy(&build.stderr);
    assert!(
        !build.status.success()
            && stderr.contains("is not proven valid for every value the driver may store"),
        "{stderr}"
    );

    // Migrated with the crate that defines it, the enum is read: its `match`, and it builds.
    std::fs::write(app.join("src/lib.rs"), app_lib).expect("restore");
    std::fs::write(app.join("Cargo.toml"), manifest).expect("restore");
    let out = migrate(&[&types, &app]);
    assert_eq!(out.status, 0, "{out:?}");
    let lib = std::fs::read_to_string(app.join("src/lib.rs")).expect("read");
    assert!(
        lib.contains("\n        _ => CUresult::CUDA_ERROR_UNKNOWN,\n"),
        "{lib}"
    );
    let build = cargo(&app, &["build", "--offline"]);
    assert!(
        build.status.success(),
        "{}",
        String::from_utf8_lossy(&build.stderr)
    );
}
