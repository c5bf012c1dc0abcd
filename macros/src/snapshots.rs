//! Expansion snapshots: what the macro writes for each form, formatted by rustfmt and compared with
//! the committed files in macros/tests/expand/, so a reviewer sees every change to the expansion.
//! `UPDATE_SNAPSHOTS=1 cargo test -p cuda-entry-macros` rewrites them (then review the diff).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use quote::quote;

use crate::crate_path::without_manifest;
use crate::pipeline;

fn rustfmt(code: &str) -> String {
    let mut child = Command::new(std::env::var("RUSTFMT").unwrap_or_else(|_| "rustfmt".into()))
        .args(["--edition", "2024"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("rustfmt is installed with the toolchain");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(code.as_bytes())
        .expect("write to rustfmt");
    let out = child.wait_with_output().expect("rustfmt runs");
    assert!(
        out.status.success(),
        "rustfmt rejected the expansion:\n{code}"
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn check(name: &str, args: proc_macro2::TokenStream, item: proc_macro2::TokenStream) {
    let expanded = rustfmt(&pipeline::expand(args, item, without_manifest).to_string());
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/expand/{name}.expanded.rs"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &expanded).expect("write the snapshot");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == expanded,
        "the expansion of `{name}` changed; review it and run with UPDATE_SNAPSHOTS=1:\n{expanded}"
    );
}

#[test]
fn single_declaration() {
    check(
        "single",
        quote!(symbol = "cuMemAlloc", version = 3020),
        quote! {
            /// Allocates device memory.
            pub unsafe extern "C" fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;
        },
    );
}

#[test]
fn block_of_declarations() {
    check(
        "block",
        quote!(),
        quote! {
            unsafe extern "C" {
                #[cuda_entry(symbol = "cuLaunchKernel", version = 4000)]
                pub(crate) fn launch(
                    f: CUfunction, gx: u32, gy: u32, gz: u32, bx: u32, by: u32, bz: u32,
                    shared: u32, stream: CUstream, params: *mut *mut c_void, extra: *mut *mut c_void,
                ) -> CUresult;
                #[cuda_entry(symbol = "cuMemFree", version = 3020, resolver = "runtime")]
                #[cfg(unix)]
                fn mem_free(dptr: CUdeviceptr) -> CUresult;
            }
        },
    );
}

#[test]
fn rejected_declaration_keeps_a_stub() {
    check(
        "rejected",
        quote!(symbol = "cuMemAlloc", version = CUDA_VERSION),
        quote! {
            pub unsafe extern "C" fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;
        },
    );
}

#[test]
fn optional_declaration_through_a_reexport() {
    check(
        "reexport",
        quote!(
            symbol = "cuCtxCreate",
            version = 12050,
            optional,
            crate = "gpu_sys::cuda_entry"
        ),
        quote! {
            /// Creates a context with creation parameters.
            pub(crate) unsafe extern "C" fn ctx_create_v4(
                pctx: *mut CUcontext, params: *mut c_void, flags: u32, dev: CUdevice,
            ) -> CUresult;
        },
    );
}

#[test]
fn callback_declaration() {
    check(
        "callback",
        quote!(symbol = "cuLaunchHostFunc", version = 10000),
        quote! {
            pub unsafe extern "C" fn launch_host_func(
                stream: CUstream, f: CUhostFn, user_data: *mut c_void,
            ) -> CUresult;
        },
    );
}
