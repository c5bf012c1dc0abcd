//! `cuda-entry decl`, run as a process: the declarations it prints and its refusals.

mod common;

use common::{cuda_entry, run};

fn decl(args: &[&str]) -> common::Output {
    let mut all = vec!["decl"];
    all.extend_from_slice(args);
    run(cuda_entry(), &all)
}

#[test]
fn mem_alloc_at_3020() {
    let out = decl(&["cuMemAlloc@3020"]);
    assert_eq!(out.status, 0, "{out:?}");
    assert_eq!(
        out.stdout,
        "\
use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

/// `typedef CUresult (CUDAAPI *PFN_cuMemAlloc_v3020)(CUdeviceptr_v2 *dptr, size_t bytesize);`
///
/// In `cudaTypedefs.h` of CUDA 11.7 to 13.5 (the toolkits the table read).
#[cuda_entry(symbol = \"cuMemAlloc\", version = 3020)]
pub unsafe extern \"C\" fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;
"
    );
}

#[test]
fn the_old_abi_is_its_own_signature() {
    let out = decl(&["cuMemAlloc@2000"]);
    assert_eq!(out.status, 0, "{out:?}");
    assert!(
        out.stdout.contains(
            "pub unsafe extern \"C\" fn mem_alloc(dptr: *mut CUdeviceptr_v1, bytesize: u32) -> \
             CUresult;"
        ),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("pub type CUdeviceptr_v1 = u32;"),
        "{}",
        out.stdout
    );
}

#[test]
fn latest_and_no_version_are_the_newest_typedef() {
    for spec in ["cuCtxCreate@latest", "cuCtxCreate"] {
        let out = decl(&[spec]);
        assert_eq!(out.status, 0, "{out:?}");
        assert!(
            out.stdout
                .contains("#[cuda_entry(symbol = \"cuCtxCreate\", version = 12050)]"),
            "{}",
            out.stdout
        );
        assert!(
            out.stdout
                .contains("ctx_create_params: *mut CUctxCreateParams,")
        );
        assert!(out.stdout.contains("// TODO: define `CUctxCreateParams`"));
    }
}

#[test]
fn per_thread_variants_have_the_stream_argument() {
    let out = decl(&["cuLaunchKernel@7000", "--stream", "per_thread"]);
    assert_eq!(out.status, 0, "{out:?}");
    for want in [
        "#[cuda_entry(symbol = \"cuLaunchKernel\", version = 7000, stream = \"per_thread\")]",
        "PFN_cuLaunchKernel_v7000_ptsz",
        "    grid_dim_x: u32,",
        "    h_stream: CUstream,",
        "    kernel_params: *mut *mut c_void,",
        "use std::ffi::c_void;",
        "use cuda_entry::types::{CUfunction, CUresult, CUstream};",
    ] {
        assert!(out.stdout.contains(want), "{want} missing:\n{}", out.stdout);
    }
    // The spelling with a hyphen is accepted too.
    assert_eq!(
        decl(&["cuLaunchKernel@7000", "--stream", "per-thread"]).stdout,
        out.stdout
    );
}

#[test]
fn types_c_keeps_the_c_names() {
    let out = decl(&["cuMemcpyHtoD@latest", "--types", "c"]);
    assert_eq!(out.status, 0, "{out:?}");
    for want in [
        "dst_device: CUdeviceptr_v2,",
        "src_host: *const c_void,",
        "byte_count: usize,",
        "//   CUdeviceptr_v2: 8 bytes, align 8",
        "use std::ffi::c_void;",
        // The status is the crate's: bindings' own may be an enum, which cannot hold every one.
        ") -> cuda_entry::types::CUresult;",
    ] {
        assert!(out.stdout.contains(want), "{want} missing:\n{}", out.stdout);
    }
    assert!(!out.stdout.contains("//   CUresult"), "{}", out.stdout);
    assert!(
        !out.stdout.contains("use cuda_entry::types"),
        "{}",
        out.stdout
    );
}

#[test]
fn misspelled_symbols_get_a_suggestion() {
    for (spec, near) in [
        ("cuMemAloc@3020", "cuMemAlloc"),
        ("cuMemAlloc_v2", "cuMemAlloc"),
        ("culaunchkernel", "cuLaunchKernel"),
    ] {
        let out = decl(&[spec]);
        assert_eq!(out.status, 2, "{out:?}");
        assert!(
            out.stderr.contains(&format!("did you mean `{near}`")),
            "{spec}: {}",
            out.stderr
        );
        assert_eq!(out.stdout, "");
    }
    let out = decl(&["somethingElseEntirely"]);
    assert_eq!(out.status, 2);
    assert!(
        out.stderr
            .contains("unknown symbol `somethingElseEntirely`")
    );
}

#[test]
fn an_unknown_version_lists_the_valid_ones() {
    let out = decl(&["cuCtxCreate@12000"]);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(
        out.stderr.contains(
            "PFN_cuCtxCreate_v2000 (2000), PFN_cuCtxCreate_v3020 (3020), PFN_cuCtxCreate_v11040 \
             (11040), PFN_cuCtxCreate_v12050 (12050)"
        ),
        "{}",
        out.stderr
    );
    let out = decl(&["cuLaunchKernel@7000"]);
    assert_eq!(out.status, 2);
    assert!(
        out.stderr.contains("add `--stream per_thread`"),
        "{}",
        out.stderr
    );
    let out = decl(&["cuCtxCreate@12050", "--stream", "per_thread"]);
    assert_eq!(out.status, 2);
    assert!(
        out.stderr.contains("no per-thread default stream typedef"),
        "{}",
        out.stderr
    );
    let out = decl(&["cuMemAlloc@abc"]);
    assert_eq!(out.status, 2);
    assert!(
        out.stderr.contains("`abc` is not a version"),
        "{}",
        out.stderr
    );
    let out = decl(&["cuMemAlloc", "--stream", "sideways"]);
    assert_eq!(out.status, 2);
    assert!(out.stderr.contains("sideways"), "{}", out.stderr);
}
