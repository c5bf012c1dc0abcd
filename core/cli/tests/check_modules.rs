//! `check` reads what the compiler reads: a module whose file is outside the folder given
//! (`#[path = "../gen/decls.rs"] mod decls;`, the usual layout of generated bindings) is read and
//! judged, and an `include!` of a file named at build time, which it cannot read, is reported as
//! not checked (status 3), never passed over (it printed "0 declarations" and exited 0).

mod common;

use std::path::Path;

use common::{cuda_entry, run, scratch};

const DECLS: &str = "use cuda_entry::cuda_entry;\nuse cuda_entry::types::CUresult;\n\n\
                     #[cuda_entry(symbol = \"cuCtxCreate\", version = 12050)]\n\
                     pub unsafe extern \"C\" fn ctx_create(pctx: *mut *mut std::ffi::c_void, \
                     params: *mut std::ffi::c_void, flags: u32, dev: i32) -> CUresult;\n";

/// `check --driver-version VERSION PATH`.
fn check(version: &str, path: &Path) -> common::Output {
    run(
        cuda_entry(),
        &[
            "check",
            "--driver-version",
            version,
            path.to_str().expect("UTF-8"),
        ],
    )
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("create");
    std::fs::write(path, text).expect("write");
}

#[test]
fn a_module_outside_the_folder_given_is_read() {
    let root = scratch("check-path-module");
    write(&root.join("gen/decls.rs"), DECLS);
    write(
        &root.join("src/lib.rs"),
        "#[path = \"../gen/decls.rs\"]\nmod decls;\n",
    );
    let src = root.join("src");
    let out = check("12040", &src);
    // cuCtxCreate at 12050 needs CUDA 12.5: it would fail on a 12.4 driver.
    assert_eq!(out.status, 1, "{out:?}");
    assert!(out.stdout.contains("cuCtxCreate@12050"), "{}", out.stdout);
    assert!(out.stdout.contains("gen/decls.rs"), "{}", out.stdout);
}

#[test]
fn a_module_of_a_file_given_alone_is_read_once() {
    let root = scratch("check-mod-file");
    write(&root.join("src/decls.rs"), DECLS);
    write(&root.join("src/lib.rs"), "mod decls;\n");
    // The file alone: its module is read too. The folder: every file once.
    for path in [root.join("src/lib.rs"), root.join("src")] {
        let out = check("12050", &path);
        assert_eq!(out.status, 0, "{out:?}");
        assert_eq!(
            out.stdout.matches("cuCtxCreate@12050").count(),
            1,
            "{}",
            out.stdout
        );
    }
}

#[test]
fn an_include_of_a_generated_file_is_not_checked() {
    let root = scratch("check-include");
    write(
        &root.join("src/lib.rs"),
        "include!(concat!(env!(\"OUT_DIR\"), \"/decls.rs\"));\n",
    );
    let src = root.join("src");
    let out = check("12040", &src);
    assert_eq!(out.status, 3, "not checked is no pass: {out:?}");
    assert!(out.stdout.contains("named at build time"), "{}", out.stdout);
    // A literal path is read like a module.
    write(&root.join("src/decls.rs"), DECLS);
    write(&root.join("src/lib.rs"), "include!(\"decls.rs\");\n");
    let file = root.join("src/lib.rs");
    let out = check("12040", &file);
    assert_eq!(out.status, 1, "{out:?}");
    assert!(out.stdout.contains("cuCtxCreate@12050"), "{}", out.stdout);
}
