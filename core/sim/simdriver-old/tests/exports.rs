//! The pre-11.3 build: no cuGetProcAddress of either kind; cuDriverGetVersion reports 11020.

#[path = "../../simdriver/tests/support/mod.rs"]
mod support;

use std::ffi::{c_int, c_void};

use support::{DriverGetVersion, INSTRUMENTATION, Library};

#[test]
fn exports_no_get_proc_address() {
    let path = support::cdylib_path("cuda_entry_simdriver_old");
    let mut expected: Vec<String> = cuda_entry_simdriver_old::all_exports()
        .into_iter()
        .chain(INSTRUMENTATION.iter().copied())
        .map(str::to_owned)
        .collect();
    expected.sort();
    assert!(!expected.iter().any(|n| n.starts_with("cuGetProcAddress")));
    assert_eq!(support::nm_exports(&path), expected);
    let lib = Library::open(&path);
    assert!(lib.sym("cuGetProcAddress_v2").is_null());
    assert!(lib.sym("cuGetProcAddress").is_null());
    assert!(!lib.sym("cuDriverGetVersion").is_null());
}

#[test]
fn reports_11_2() {
    if !support::with_default_configuration("reports_11_2") {
        return;
    }
    let lib = Library::open(&support::cdylib_path("cuda_entry_simdriver_old"));
    // SAFETY: the export has this C type (PFN_cuDriverGetVersion_v2020).
    let version = unsafe {
        std::mem::transmute::<*mut c_void, DriverGetVersion>(lib.sym("cuDriverGetVersion"))
    };
    let mut v: c_int = 0;
    // SAFETY: a writable int.
    assert_eq!(unsafe { version(&mut v) }, 0);
    assert_eq!(v, 11020);
}
