//! The 12.0-12.4 runtime build: no `cudaGetDriverEntryPointByVersion`; `cudaRuntimeGetVersion`
//! reports 12040 and `cudaGetDriverEntryPoint` resolves at that version.

#[path = "../../simdriver/tests/support/mod.rs"]
mod support;

use std::ffi::{c_char, c_int, c_void};

use support::{DriverGetVersion, INSTRUMENTATION, Library, RUNTIME_INSTRUMENTATION};

/// `cudaGetDriverEntryPoint`'s C type (CUDA 12.x).
type Unversioned = unsafe extern "C" fn(*const c_char, *mut *mut c_void, u64, *mut c_int) -> c_int;
/// `cuda_entry_sim_calls`'s C type.
type Calls = unsafe extern "C" fn(*const c_char) -> u64;

#[test]
fn exports_no_versioned_entry_point() {
    let path = support::cdylib_path("cuda_entry_simruntime_old");
    let mut expected: Vec<String> = cuda_entry_simruntime_old::all_exports()
        .into_iter()
        .chain(cuda_entry_simruntime_old::all_runtime_exports())
        .chain(INSTRUMENTATION.iter().copied())
        .chain(RUNTIME_INSTRUMENTATION.iter().copied())
        .map(str::to_owned)
        .collect();
    expected.sort();
    assert!(
        !expected
            .iter()
            .any(|n| n == "cudaGetDriverEntryPointByVersion")
    );
    assert!(expected.iter().any(|n| n == "cudaGetDriverEntryPoint"));
    assert_eq!(support::nm_exports(&path), expected);
    let lib = Library::open(&path);
    assert!(lib.sym("cudaGetDriverEntryPointByVersion").is_null());
    for name in [
        "cudaGetDriverEntryPoint",
        "cudaRuntimeGetVersion",
        "cudaDriverGetVersion",
        "cuda_entry_sim_calls",
    ] {
        assert!(!lib.sym(name).is_null(), "{name}");
    }
    assert!(
        cuda_entry_simruntime_old::runtime_export_address("cudaGetDriverEntryPointByVersion")
            .is_none()
    );
}

#[test]
fn reports_12_4_and_resolves_at_it() {
    if !support::with_default_configuration("reports_12_4_and_resolves_at_it") {
        return;
    }
    let lib = Library::open(&support::cdylib_path("cuda_entry_simruntime_old"));
    // SAFETY: the exports have these C types (cuda_runtime_api.h, and the instrumentation's).
    let (runtime_version, driver_version, unversioned, calls) = unsafe {
        (
            std::mem::transmute::<*mut c_void, DriverGetVersion>(lib.sym("cudaRuntimeGetVersion")),
            std::mem::transmute::<*mut c_void, DriverGetVersion>(lib.sym("cudaDriverGetVersion")),
            std::mem::transmute::<*mut c_void, Unversioned>(lib.sym("cudaGetDriverEntryPoint")),
            std::mem::transmute::<*mut c_void, Calls>(lib.sym("cuda_entry_sim_calls")),
        )
    };
    let (mut rv, mut dv): (c_int, c_int) = (0, 0);
    // SAFETY: writable ints.
    unsafe {
        assert_eq!(runtime_version(&mut rv), 0);
        assert_eq!(driver_version(&mut dv), 0);
    }
    assert_eq!((rv, dv), (12040, 13000));
    // At 12040, cuCtxCreate is the 11.4 ABI (`_v3`), not the 12.5 one the driver also has.
    for (symbol, flags, export) in [
        (c"cuCtxCreate", 0, "cuCtxCreate_v3"),
        (c"cuLaunchKernel", 2, "cuLaunchKernel_ptsz"),
        (c"cuMemAlloc", 1, "cuMemAlloc_v2"),
    ] {
        let (mut pfn, mut status) = (std::ptr::null_mut(), -1);
        // SAFETY: NUL-terminated symbol, writable funcPtr and status.
        let rc = unsafe { unversioned(symbol.as_ptr(), &mut pfn, flags, &mut status) };
        assert_eq!((rc, status, pfn), (0, 0, lib.sym(export)), "{symbol:?}");
    }
    // SAFETY: a NUL-terminated name.
    assert_eq!(unsafe { calls(c"cudaGetDriverEntryPoint".as_ptr()) }, 3);
}
