//! The built cdylib, loaded with dlopen as a library loads libcudart.so: it exports exactly the
//! simulated runtime API (plus the embedded driver's and the instrumentation), and its
//! `cudaGetDriverEntryPointByVersion` hands out the exports of that same shared object.

#[path = "../../simdriver/tests/support/mod.rs"]
mod support;

use std::ffi::{c_char, c_int, c_uint, c_void};

use support::{DriverGetVersion, INSTRUMENTATION, Library, RUNTIME_INSTRUMENTATION};

/// `cudaGetDriverEntryPointByVersion`'s C type.
type ByVersion =
    unsafe extern "C" fn(*const c_char, *mut *mut c_void, c_uint, u64, *mut c_int) -> c_int;
/// `cuda_entry_sim_calls`'s C type.
type Calls = unsafe extern "C" fn(*const c_char) -> u64;

fn expected_exports() -> Vec<String> {
    let mut names: Vec<String> = cuda_entry_simruntime::all_exports()
        .into_iter()
        .chain(cuda_entry_simruntime::all_runtime_exports())
        .chain(INSTRUMENTATION.iter().copied())
        .chain(RUNTIME_INSTRUMENTATION.iter().copied())
        .map(str::to_owned)
        .collect();
    names.sort();
    names
}

#[test]
fn the_shared_object_exports_the_runtime_api() {
    let path = support::cdylib_path("cuda_entry_simruntime");
    let expected = expected_exports();
    for name in [
        "cudaRuntimeGetVersion",
        "cudaDriverGetVersion",
        "cudaGetDriverEntryPointByVersion",
        "cudaGetDriverEntryPoint",
        "cuda_entry_sim_last_call",
        "cuda_entry_sim_calls",
        "cuda_entry_sim_reset",
    ] {
        assert!(expected.iter().any(|n| n == name), "{name} not expected");
    }
    let found = support::nm_exports(&path);
    assert_eq!(found, expected, "nm -D --defined-only {}", path.display());
    let lib = Library::open(&path);
    for name in &expected {
        assert!(!lib.sym(name).is_null(), "dlsym({name}) failed");
    }
    // The rlib's address table names the same exports.
    for name in cuda_entry_simruntime::all_runtime_exports() {
        assert!(cuda_entry_simruntime::runtime_export_address(name).is_some());
    }
    assert!(cuda_entry_simruntime::runtime_export_address("cudaMalloc").is_none());
}

#[test]
fn the_loaded_runtime_hands_out_its_own_driver_exports() {
    if !support::with_default_configuration("the_loaded_runtime_hands_out_its_own_driver_exports") {
        return;
    }
    let lib = Library::open(&support::cdylib_path("cuda_entry_simruntime"));
    // SAFETY: the exports have these C types (cuda_runtime_api.h, and the instrumentation's).
    let (by_version, calls, runtime_version) = unsafe {
        (
            std::mem::transmute::<*mut c_void, ByVersion>(
                lib.sym("cudaGetDriverEntryPointByVersion"),
            ),
            std::mem::transmute::<*mut c_void, Calls>(lib.sym("cuda_entry_sim_calls")),
            std::mem::transmute::<*mut c_void, DriverGetVersion>(lib.sym("cudaRuntimeGetVersion")),
        )
    };
    let mut v: c_int = 0;
    // SAFETY: a writable int.
    assert_eq!(unsafe { runtime_version(&mut v) }, 0);
    assert_eq!(v, 13000);
    for (symbol, version, flags, export) in [
        (c"cuCtxCreate", 12050, 1, "cuCtxCreate_v4"),
        (c"cuCtxCreate", 11040, 0, "cuCtxCreate_v3"),
        (c"cuMemAlloc", 2000, 1, "cuMemAlloc"),
        (c"cuMemAlloc", 3020, 0, "cuMemAlloc_v2"),
        (c"cuLaunchKernel", 7000, 2, "cuLaunchKernel_ptsz"),
        (c"cuDriverGetVersion", 2020, 0, "cuDriverGetVersion"),
    ] {
        let (mut pfn, mut status) = (std::ptr::null_mut(), -1);
        // SAFETY: NUL-terminated symbol, writable funcPtr and status.
        let rc = unsafe { by_version(symbol.as_ptr(), &mut pfn, version, flags, &mut status) };
        assert_eq!(rc, 0);
        assert_eq!((status, pfn), (0, lib.sym(export)), "{symbol:?} {version}");
    }
    // A call through a handed-out pointer reaches the driver inside the same shared object.
    let (mut pfn, mut status) = (std::ptr::null_mut(), -1);
    // SAFETY: as above.
    let rc = unsafe {
        by_version(
            c"cuDriverGetVersion".as_ptr(),
            &mut pfn,
            2020,
            0,
            &mut status,
        )
    };
    assert_eq!((rc, status), (0, 0));
    // SAFETY: PFN_cuDriverGetVersion_v2020.
    let driver_version = unsafe { std::mem::transmute::<*mut c_void, DriverGetVersion>(pfn) };
    let mut v: c_int = 0;
    // SAFETY: a writable int.
    assert_eq!(unsafe { driver_version(&mut v) }, 0);
    assert_eq!(v, 13000);
    // SAFETY: NUL-terminated names.
    unsafe {
        assert_eq!(calls(c"cudaGetDriverEntryPointByVersion".as_ptr()), 7);
        assert_eq!(calls(c"cudaRuntimeGetVersion".as_ptr()), 1);
        assert_eq!(calls(c"cuDriverGetVersion".as_ptr()), 1);
        assert_eq!(calls(c"cudaGetDriverEntryPoint".as_ptr()), 0);
        assert_eq!(calls(c"cuGetProcAddress_v2".as_ptr()), 0);
    }
}
