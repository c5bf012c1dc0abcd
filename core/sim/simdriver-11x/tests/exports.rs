//! The 11.x build: the 4-argument cuGetProcAddress and no cuGetProcAddress_v2 at all.

#[path = "../../simdriver/tests/support/mod.rs"]
mod support;

use std::ffi::{c_int, c_void};

use support::{DriverGetVersion, GetProcAddress, INSTRUMENTATION, Library};

#[test]
fn exports_everything_but_get_proc_address_v2() {
    let path = support::cdylib_path("cuda_entry_simdriver_11x");
    let mut expected: Vec<String> = cuda_entry_simdriver_11x::all_exports()
        .into_iter()
        .chain(INSTRUMENTATION.iter().copied())
        .map(str::to_owned)
        .collect();
    expected.sort();
    assert!(expected.iter().any(|n| n == "cuGetProcAddress"));
    assert!(!expected.iter().any(|n| n == "cuGetProcAddress_v2"));
    assert_eq!(support::nm_exports(&path), expected);
    let lib = Library::open(&path);
    assert!(lib.sym("cuGetProcAddress_v2").is_null());
    assert!(!lib.sym("cuGetProcAddress").is_null());
}

#[test]
fn answers_as_an_11_8_driver() {
    if !support::with_default_configuration("answers_as_an_11_8_driver") {
        return;
    }
    let lib = Library::open(&support::cdylib_path("cuda_entry_simdriver_11x"));
    // SAFETY: the exports have these C types (PFN_cuDriverGetVersion_v2020,
    // PFN_cuGetProcAddress_v11030).
    let (version, gpa) = unsafe {
        (
            std::mem::transmute::<*mut c_void, DriverGetVersion>(lib.sym("cuDriverGetVersion")),
            std::mem::transmute::<*mut c_void, GetProcAddress>(lib.sym("cuGetProcAddress")),
        )
    };
    let mut v: c_int = 0;
    // SAFETY: a writable int.
    assert_eq!(unsafe { version(&mut v) }, 0);
    assert_eq!(v, 11080);
    let mut pfn = std::ptr::null_mut();
    // SAFETY: NUL-terminated symbols and a writable pfn throughout.
    unsafe {
        assert_eq!(gpa(c"cuCtxCreate".as_ptr(), &mut pfn, 11080, 0), 0);
        assert_eq!(pfn, lib.sym("cuCtxCreate_v3"));
        assert_eq!(
            gpa(c"cuCtxCreate".as_ptr(), &mut pfn, 12050, 0),
            1,
            "above the driver"
        );
        assert_eq!(gpa(c"cuFoo".as_ptr(), &mut pfn, 11080, 0), 500);
        assert_eq!(gpa(c"cuGetProcAddress".as_ptr(), &mut pfn, 11080, 0), 0);
        assert_eq!(pfn, lib.sym("cuGetProcAddress"));
    }
}

#[test]
fn even_at_a_12_x_version_it_never_resolves_the_missing_export() {
    use cuda_entry_simdriver_11x as sim;
    sim::set_config(sim::Config {
        version: 13000,
        mode: sim::Mode::Normal,
    });
    let mut pfn = std::ptr::null_mut();
    // SAFETY: a NUL-terminated symbol and a writable pfn.
    let rc = unsafe { sim::cuGetProcAddress(c"cuGetProcAddress".as_ptr(), &mut pfn, 12000, 0) };
    assert_eq!(rc, 0);
    assert_eq!(sim::export_name_of(pfn), Some("cuGetProcAddress"));
}
