//! The built cdylib, loaded with dlopen as the library loads libcuda.so.1: it exports exactly the
//! expected names, and its `cuGetProcAddress_v2` hands out its own exports.

#[path = "support/mod.rs"]
mod support;

use std::ffi::{c_int, c_void};

use support::{DriverGetVersion, GetProcAddress, GetProcAddressV2, INSTRUMENTATION, Library};

fn expected_exports() -> Vec<String> {
    let mut names: Vec<String> = cuda_entry_simdriver::all_exports()
        .into_iter()
        .chain(INSTRUMENTATION.iter().copied())
        .map(str::to_owned)
        .collect();
    names.sort();
    names
}

#[test]
fn the_shared_object_exports_exactly_the_simulated_api() {
    let path = support::cdylib_path("cuda_entry_simdriver");
    let expected = expected_exports();
    assert!(expected.iter().any(|n| n == "cuGetProcAddress_v2"));
    assert!(expected.iter().any(|n| n == "cuGetProcAddress"));
    let found = support::nm_exports(&path);
    assert_eq!(found, expected, "nm -D --defined-only {}", path.display());
    let lib = Library::open(&path);
    for name in &expected {
        assert!(!lib.sym(name).is_null(), "dlsym({name}) failed");
    }
    // What the ground truth lists as real exports is never invented: every simulated CUDA export
    // is one of the real driver's (driver-13000-exports.txt).
    let real = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../tests/ground-truth/driver-13000-exports.txt"),
    )
    .expect("exports list");
    let real: Vec<&str> = real.lines().collect();
    for name in cuda_entry_simdriver::all_exports() {
        assert!(
            real.contains(&name),
            "{name} is not an export of the real driver"
        );
    }
}

#[test]
fn the_loaded_driver_resolves_to_its_own_exports() {
    if !support::with_default_configuration("the_loaded_driver_resolves_to_its_own_exports") {
        return;
    }
    let lib = Library::open(&support::cdylib_path("cuda_entry_simdriver"));
    let gpa2 = lib.sym("cuGetProcAddress_v2");
    let gpa1 = lib.sym("cuGetProcAddress");
    let version = lib.sym("cuDriverGetVersion");
    // SAFETY: the exports have these C types (cudaTypedefs.h PFN_cuGetProcAddress_v12000,
    // PFN_cuGetProcAddress_v11030, PFN_cuDriverGetVersion_v2020).
    let (gpa2, gpa1, version) = unsafe {
        (
            std::mem::transmute::<*mut c_void, GetProcAddressV2>(gpa2),
            std::mem::transmute::<*mut c_void, GetProcAddress>(gpa1),
            std::mem::transmute::<*mut c_void, DriverGetVersion>(version),
        )
    };
    let mut v: c_int = 0;
    // SAFETY: a writable int.
    assert_eq!(unsafe { version(&mut v) }, 0);
    assert_eq!(v, 13000);
    for (symbol, ver, flags, export) in [
        (c"cuCtxCreate", 12050, 1, "cuCtxCreate_v4"),
        (c"cuCtxCreate", 11040, 1, "cuCtxCreate_v3"),
        (c"cuMemAlloc", 2000, 1, "cuMemAlloc"),
        (c"cuLaunchKernel", 7000, 2, "cuLaunchKernel_ptsz"),
        (c"cuGetProcAddress", 12000, 0, "cuGetProcAddress_v2"),
    ] {
        let (mut pfn, mut status) = (std::ptr::null_mut(), -1);
        // SAFETY: NUL-terminated symbol, writable pfn and status.
        let rc = unsafe { gpa2(symbol.as_ptr(), &mut pfn, ver, flags, &mut status) };
        assert_eq!(rc, 0);
        assert_eq!((status, pfn), (0, lib.sym(export)), "{symbol:?} {ver}");
        let mut pfn1 = std::ptr::null_mut();
        if flags != 2 {
            // SAFETY: as above.
            assert_eq!(unsafe { gpa1(symbol.as_ptr(), &mut pfn1, ver, flags) }, 0);
            assert_eq!(pfn1, pfn);
        }
    }
    // The instrumentation of the loaded copy saw the calls.
    let calls = lib.sym("cuda_entry_sim_calls");
    // SAFETY: `uint64_t cuda_entry_sim_calls(const char *)`.
    let calls = unsafe {
        std::mem::transmute::<*mut c_void, unsafe extern "C" fn(*const std::ffi::c_char) -> u64>(
            calls,
        )
    };
    // SAFETY: a NUL-terminated name.
    assert_eq!(unsafe { calls(c"cuGetProcAddress_v2".as_ptr()) }, 5);
}
