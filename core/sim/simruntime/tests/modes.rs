//! The runtime's own configuration and modes, what the driver's configuration does to the runtime
//! exports, the instrumentation, calls through the handed-out pointers, and the NULL-argument
//! abort; in-process through the rlib (the environment and the aborts in child processes).

#[path = "../../simdriver/tests/support/mod.rs"]
mod support;

use std::ffi::{CStr, CString, c_int, c_uint, c_void};
use std::sync::Mutex;

use cuda_entry_simruntime as rt;
use rt::{Config, Mode, RuntimeConfig, RuntimeMode};

const SENTINEL: *mut c_void = 0x05e1_71e1_usize as *mut c_void;

/// Tests of one binary share the simulator's global configurations and counters.
static LOCK: Mutex<()> = Mutex::new(());

fn lock() -> std::sync::MutexGuard<'static, ()> {
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// Sets both configurations (driver: version, mode; runtime: version, mode) and zeroes the counts.
fn set(driver: (i32, Mode), runtime: (i32, RuntimeMode)) {
    rt::set_config(Config {
        version: driver.0,
        mode: driver.1,
    });
    rt::set_runtime_config(RuntimeConfig {
        version: runtime.0,
        mode: runtime.1,
    });
    rt::reset();
}

fn normal() {
    set((13000, Mode::Normal), (13000, RuntimeMode::Normal));
}

/// (rc, status, funcPtr) of `cudaGetDriverEntryPointByVersion`; -1 / SENTINEL: unwritten.
fn by_version(symbol: &str, version: c_uint, flags: u64) -> (c_int, c_int, *mut c_void) {
    let symbol = CString::new(symbol).expect("no NUL");
    let (mut pfn, mut status) = (SENTINEL, -1);
    // SAFETY: NUL-terminated symbol, writable funcPtr and status.
    let rc = unsafe {
        rt::cudaGetDriverEntryPointByVersion(symbol.as_ptr(), &mut pfn, version, flags, &mut status)
    };
    (rc, status, pfn)
}

/// (rc, status, funcPtr) of the unversioned `cudaGetDriverEntryPoint`.
fn unversioned(symbol: &str, flags: u64) -> (c_int, c_int, *mut c_void) {
    let symbol = CString::new(symbol).expect("no NUL");
    let (mut pfn, mut status) = (SENTINEL, -1);
    // SAFETY: NUL-terminated symbol, writable funcPtr and status.
    let rc = unsafe { rt::cudaGetDriverEntryPoint(symbol.as_ptr(), &mut pfn, flags, &mut status) };
    (rc, status, pfn)
}

fn addr(name: &str) -> *mut c_void {
    rt::export_address(name).unwrap_or_else(|| panic!("no export {name}"))
}

fn runtime_version() -> (c_int, c_int) {
    let mut v = -7;
    // SAFETY: a writable int.
    let rc = unsafe { rt::cudaRuntimeGetVersion(&mut v) };
    (rc, v)
}

fn driver_version() -> (c_int, c_int) {
    let mut v = -7;
    // SAFETY: a writable int.
    let rc = unsafe { rt::cudaDriverGetVersion(&mut v) };
    (rc, v)
}

#[test]
fn parsing_the_environment_values() {
    assert_eq!(
        RuntimeConfig::from_values(None, None),
        Ok(RuntimeConfig {
            version: 13000,
            mode: RuntimeMode::Normal
        })
    );
    for (text, mode) in [
        ("normal", RuntimeMode::Normal),
        ("unwritten-status", RuntimeMode::UnwrittenStatus),
        ("null-success", RuntimeMode::NullSuccess),
        ("rc=999", RuntimeMode::Rc(999)),
        ("rc=0", RuntimeMode::Rc(0)),
        ("rc=-3", RuntimeMode::Rc(-3)),
        (" rc= 35 ", RuntimeMode::Rc(35)),
    ] {
        assert_eq!(
            RuntimeConfig::from_values(Some("12050"), Some(text)),
            Ok(RuntimeConfig {
                version: 12050,
                mode
            }),
            "{text}"
        );
    }
    for (version, mode) in [
        (Some("0"), None),
        (Some("-1"), None),
        (Some("13.0"), None),
        (None, Some("status-unwritten")), // the driver's spelling, not the runtime's
        (None, Some("stub")),
        (None, Some("rc=")),
        (None, Some("rc=x")),
    ] {
        assert!(
            RuntimeConfig::from_values(version, mode).is_err(),
            "{version:?} {mode:?}"
        );
    }
}

#[test]
fn versions() {
    let _g = lock();
    set((12080, Mode::Normal), (12050, RuntimeMode::Normal));
    assert_eq!(runtime_version(), (0, 12050));
    assert_eq!(driver_version(), (0, 12080));
    // NULL: cudaErrorInvalidValue, as the real runtime.
    // SAFETY: NULL is accepted and answered with 1.
    let (rc_runtime, rc_driver) = unsafe {
        (
            rt::cudaRuntimeGetVersion(std::ptr::null_mut()),
            rt::cudaDriverGetVersion(std::ptr::null_mut()),
        )
    };
    assert_eq!((rc_runtime, rc_driver), (1, 1));
    // The driver's version bounds what can be asked, the runtime's (12050 here) does not.
    assert_eq!(by_version("cuCtxCreate", 12090, 0), (1, -1, SENTINEL));
    assert_eq!(
        by_version("cuCtxCreate", 12080, 0),
        (0, 0, addr("cuCtxCreate_v4"))
    );
    rt::set_version(11080);
    assert_eq!(by_version("cuCtxCreate", 12050, 0), (1, -1, SENTINEL));
    assert_eq!(
        by_version("cuCtxCreate", 11080, 0),
        (0, 0, addr("cuCtxCreate_v3"))
    );
    // The runtime-version setters.
    rt::set_runtime_version(12040);
    assert_eq!(runtime_version(), (0, 12040));
    rt::set_runtime_mode(RuntimeMode::Rc(5));
    assert_eq!(rt::runtime::config::get().version, 12040);
    assert_eq!(by_version("cuInit", 2000, 0).0, 5);
    normal();
}

#[test]
fn normal_mode_answers() {
    let _g = lock();
    normal();
    assert_eq!(
        by_version("cuMemAlloc", 1000, 0),
        (0, 2, std::ptr::null_mut())
    );
    assert_eq!(
        by_version("cuMemAlloc", 2000, 0),
        (0, 0, addr("cuMemAlloc"))
    );
    assert_eq!(
        by_version("cuMemAlloc", 3020, 1),
        (0, 0, addr("cuMemAlloc_v2"))
    );
    assert_eq!(by_version("cuMemAlloc", 13020, 0), (1, -1, SENTINEL));
    assert_eq!(by_version("cuMemAlloc", 99999, 0), (1, -1, SENTINEL));
    assert_eq!(by_version("cuMemAlloc", 3020, 99), (1, -1, SENTINEL));
    assert_eq!(by_version("cuFoo", 13000, 0), (0, 1, std::ptr::null_mut()));
    assert_eq!(
        by_version("cuLaunchKernel", 4000, 2),
        (0, 2, std::ptr::null_mut())
    );
    assert_eq!(
        by_version("cuLaunchKernel", 7000, 2),
        (0, 0, addr("cuLaunchKernel_ptsz"))
    );
    // An `unsigned int` version above INT_MAX is above any driver (unmeasured).
    assert_eq!(by_version("cuMemAlloc", u32::MAX, 0), (1, -1, SENTINEL));
    assert_eq!(by_version("cuMemAlloc", 0x8000_0000, 0), (1, -1, SENTINEL));
    // A NULL driverStatus is allowed.
    let mut pfn = SENTINEL;
    // SAFETY: NUL-terminated symbol, writable funcPtr, NULL status (optional).
    let rc = unsafe {
        rt::cudaGetDriverEntryPointByVersion(
            c"cuMemAlloc".as_ptr(),
            &mut pfn,
            3020,
            0,
            std::ptr::null_mut(),
        )
    };
    assert_eq!((rc, pfn), (0, addr("cuMemAlloc_v2")));
}

#[test]
fn unwritten_status_mode() {
    let _g = lock();
    set((13000, Mode::Normal), (13000, RuntimeMode::UnwrittenStatus));
    assert_eq!(
        by_version("cuMemAlloc", 3020, 0),
        (0, -1, addr("cuMemAlloc_v2"))
    );
    assert_eq!(
        by_version("cuMemAlloc", 1000, 0),
        (0, -1, std::ptr::null_mut())
    );
    assert_eq!(by_version("cuFoo", 13000, 0), (0, -1, std::ptr::null_mut()));
    assert_eq!(by_version("cuMemAlloc", 13020, 0), (1, -1, SENTINEL));
    assert_eq!(
        unversioned("cuCtxCreate", 0),
        (0, -1, addr("cuCtxCreate_v4"))
    );
    normal();
}

#[test]
fn null_success_mode() {
    let _g = lock();
    set((13000, Mode::Normal), (13000, RuntimeMode::NullSuccess));
    for (symbol, version) in [("cuMemAlloc", 3020), ("cuFoo", 13000), ("cuMemAlloc", 1000)] {
        assert_eq!(
            by_version(symbol, version, 0),
            (0, 0, std::ptr::null_mut()),
            "{symbol}"
        );
    }
    assert_eq!(unversioned("cuInit", 0), (0, 0, std::ptr::null_mut()));
    // What the driver rejects with 1 is still rejected.
    assert_eq!(by_version("cuMemAlloc", 13020, 0), (1, -1, SENTINEL));
    assert_eq!(by_version("cuMemAlloc", 3020, 99), (1, -1, SENTINEL));
    normal();
}

#[test]
fn rc_mode() {
    let _g = lock();
    for n in [999, 0, -3, 35] {
        set((13000, Mode::Normal), (13000, RuntimeMode::Rc(n)));
        assert_eq!(by_version("cuMemAlloc", 3020, 0), (n, -1, SENTINEL));
        assert_eq!(by_version("cuMemAlloc", 13020, 99), (n, -1, SENTINEL));
        assert_eq!(unversioned("cuMemAlloc", 0), (n, -1, SENTINEL));
        // The version exports are not entry points: unaffected.
        assert_eq!(runtime_version(), (0, 13000));
        assert_eq!(driver_version(), (0, 13000));
    }
    normal();
}

#[test]
fn driver_modes_reach_the_runtime() {
    let _g = lock();
    // A runtime on the toolkit's stub driver: 34 from every call that needs the driver.
    set((13000, Mode::Stub), (13000, RuntimeMode::Normal));
    assert_eq!(by_version("cuMemAlloc", 3020, 0), (34, -1, SENTINEL));
    assert_eq!(unversioned("cuMemAlloc", 0), (34, -1, SENTINEL));
    assert_eq!(driver_version(), (34, -7));
    assert_eq!(runtime_version(), (0, 13000));
    // The pointers are the driver's exports: in stub mode they answer 34 too.
    set((13000, Mode::VersionFails), (13000, RuntimeMode::Normal));
    assert_eq!(driver_version(), (3, -7));
    assert_eq!(
        by_version("cuMemAlloc", 3020, 0),
        (0, 0, addr("cuMemAlloc_v2"))
    );
    set((13000, Mode::StatusUnwritten), (13000, RuntimeMode::Normal));
    assert_eq!(
        by_version("cuMemAlloc", 3020, 0),
        (0, -1, addr("cuMemAlloc_v2"))
    );
    set((13000, Mode::Rc(999)), (13000, RuntimeMode::Normal));
    assert_eq!(by_version("cuMemAlloc", 3020, 0), (999, -1, SENTINEL));
    set((13000, Mode::NoV2), (13000, RuntimeMode::Normal));
    assert_eq!(by_version("cuMemAlloc", 3020, 0), (500, -1, SENTINEL));
    // The runtime's own mode comes first.
    set((13000, Mode::Stub), (13000, RuntimeMode::Rc(7)));
    assert_eq!(by_version("cuMemAlloc", 3020, 0), (7, -1, SENTINEL));
    normal();
}

#[test]
fn error_mapping() {
    assert_eq!(rt::error_of(0), 0);
    assert_eq!(rt::error_of(1), rt::runtime::error::INVALID_VALUE);
    assert_eq!(rt::error_of(1), 1);
    assert_eq!(rt::error_of(34), 34);
    assert_eq!(rt::error_of(500), 500);
    assert_eq!(rt::error_of(999), 999);
}

#[test]
fn the_unversioned_entry_point_resolves_at_the_runtime_version() {
    let _g = lock();
    set((13000, Mode::Normal), (12040, RuntimeMode::Normal));
    assert_eq!(
        unversioned("cuCtxCreate", 0),
        (0, 0, addr("cuCtxCreate_v3"))
    );
    assert_eq!(
        unversioned("cuLaunchKernel", 2),
        (0, 0, addr("cuLaunchKernel_ptsz"))
    );
    assert_eq!(unversioned("cuFoo", 0), (0, 1, std::ptr::null_mut()));
    assert_eq!(rt::calls("cudaGetDriverEntryPoint"), 3);
    assert_eq!(rt::calls("cudaGetDriverEntryPointByVersion"), 0);
    // A runtime newer than its driver asks above the driver: 1, as the versioned one would.
    set((12040, Mode::Normal), (13000, RuntimeMode::Normal));
    assert_eq!(unversioned("cuCtxCreate", 0), (1, -1, SENTINEL));
    normal();
}

fn last_call() -> &'static CStr {
    // SAFETY: the export returns a static NUL-terminated string.
    unsafe { CStr::from_ptr(rt::cuda_entry_sim_last_call()) }
}

fn c_calls(name: &CStr) -> u64 {
    // SAFETY: a NUL-terminated name.
    unsafe { rt::cuda_entry_sim_calls(name.as_ptr()) }
}

#[test]
fn instrumentation_counts_the_runtime_exports() {
    let _g = lock();
    normal();
    assert_eq!(last_call(), c"");
    runtime_version();
    assert_eq!(last_call(), c"cudaRuntimeGetVersion");
    driver_version();
    driver_version();
    assert_eq!(last_call(), c"cudaDriverGetVersion");
    by_version("cuMemAlloc", 3020, 0);
    assert_eq!(last_call(), c"cudaGetDriverEntryPointByVersion");
    unversioned("cuMemAlloc", 0);
    assert_eq!(last_call(), c"cudaGetDriverEntryPoint");
    assert_eq!(c_calls(c"cudaRuntimeGetVersion"), 1);
    assert_eq!(c_calls(c"cudaDriverGetVersion"), 2);
    assert_eq!(c_calls(c"cudaGetDriverEntryPointByVersion"), 1);
    assert_eq!(c_calls(c"cudaGetDriverEntryPoint"), 1);
    // The runtime asks its driver by function, not through the driver's exports.
    assert_eq!(c_calls(c"cuGetProcAddress_v2"), 0);
    assert_eq!(c_calls(c"cuDriverGetVersion"), 0);
    // Failed and mode-forced calls count too.
    set((13000, Mode::Normal), (13000, RuntimeMode::Rc(3)));
    by_version("cuMemAlloc", 3020, 0);
    assert_eq!(rt::calls("cudaGetDriverEntryPointByVersion"), 1);
    rt::cuda_entry_sim_reset();
    assert_eq!(last_call(), c"");
    assert_eq!(c_calls(c"cudaGetDriverEntryPointByVersion"), 0);
    normal();
}

/// Resolves `symbol` at `version` through the runtime and casts it to `F`.
///
/// # Safety
///
/// `F` must be the C type of that variant.
unsafe fn resolve<F: Copy>(symbol: &CStr, version: c_uint) -> F {
    assert_eq!(size_of::<F>(), size_of::<*mut c_void>());
    let (mut pfn, mut status) = (std::ptr::null_mut(), -1);
    // SAFETY: NUL-terminated symbol, writable funcPtr and status.
    let rc = unsafe {
        rt::cudaGetDriverEntryPointByVersion(symbol.as_ptr(), &mut pfn, version, 0, &mut status)
    };
    assert_eq!((rc, status), (0, 0), "{symbol:?} {version}");
    assert!(!pfn.is_null());
    // SAFETY: the caller promises `F` is the variant's C type; same size as a pointer.
    unsafe { std::mem::transmute_copy::<*mut c_void, F>(&pfn) }
}

#[test]
fn calls_through_the_handed_out_pointers_work_and_are_recorded() {
    type Init = unsafe extern "C" fn(c_uint) -> c_int;
    type Retain = unsafe extern "C" fn(*mut *mut c_void, c_int) -> c_int;
    type SetCurrent = unsafe extern "C" fn(*mut c_void) -> c_int;
    type Alloc = unsafe extern "C" fn(*mut u64, usize) -> c_int;
    type HtoD = unsafe extern "C" fn(u64, *const c_void, usize) -> c_int;
    type DtoH = unsafe extern "C" fn(*mut c_void, u64, usize) -> c_int;
    type Free = unsafe extern "C" fn(u64) -> c_int;
    let _g = lock();
    normal();
    // SAFETY: each type is the cudaTypedefs.h PFN of the variant resolved (cuInit 2000,
    // cuDevicePrimaryCtxRetain 7000, cuCtxSetCurrent 4000, cuMemAlloc/cuMemcpy*/cuMemFree 3020).
    let (init, retain, set_current, alloc, htod, dtoh, free) = unsafe {
        (
            resolve::<Init>(c"cuInit", 13000),
            resolve::<Retain>(c"cuDevicePrimaryCtxRetain", 13000),
            resolve::<SetCurrent>(c"cuCtxSetCurrent", 13000),
            resolve::<Alloc>(c"cuMemAlloc", 13000),
            resolve::<HtoD>(c"cuMemcpyHtoD", 13000),
            resolve::<DtoH>(c"cuMemcpyDtoH", 13000),
            resolve::<Free>(c"cuMemFree", 13000),
        )
    };
    let data: Vec<u8> = (0..=255).collect();
    let mut back = vec![0u8; data.len()];
    let mut ctx = std::ptr::null_mut();
    let mut dptr = 0u64;
    // SAFETY: the simulated driver's C contracts: writable out-pointers, host buffers of `len`.
    unsafe {
        assert_eq!(init(0), 0);
        assert_eq!(retain(&mut ctx, 0), 0);
        assert_eq!(set_current(ctx), 0);
        assert_eq!(alloc(&mut dptr, data.len()), 0);
        assert_eq!(htod(dptr, data.as_ptr().cast(), data.len()), 0);
        assert_eq!(dtoh(back.as_mut_ptr().cast(), dptr, back.len()), 0);
        assert_eq!(free(dptr), 0);
    }
    assert_eq!(back, data);
    assert_eq!(last_call(), c"cuMemFree_v2");
    assert_eq!(rt::calls("cudaGetDriverEntryPointByVersion"), 7);
    for export in [
        "cuInit",
        "cuDevicePrimaryCtxRetain",
        "cuCtxSetCurrent",
        "cuMemAlloc_v2",
        "cuMemcpyHtoD_v2",
        "cuMemcpyDtoH_v2",
        "cuMemFree_v2",
    ] {
        assert_eq!(rt::calls(export), 1, "{export}");
    }
    assert_eq!(rt::calls("cuMemAlloc"), 0);
    normal();
}

/// The number in the variable `var`, or `default` when it is unset.
fn expected(var: &str, default: c_int) -> c_int {
    std::env::var(var).map_or(default, |v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{var}={v:?} is not a number"))
    })
}

/// In a child, what the environment asks for (`EXPECT_*`); in the test's own process, one child
/// per configuration, and the malformed values that must abort.
#[test]
fn configuration_is_read_from_the_environment() {
    const TEST: &str = "configuration_is_read_from_the_environment";
    match support::child_role().as_deref() {
        Some("env") => {
            let (rc, v) = runtime_version();
            assert_eq!((rc, v), (0, expected("EXPECT_RUNTIME", 13000)));
            let (rc, v) = driver_version();
            assert_eq!(rc, expected("EXPECT_DRIVER_RC", 0));
            if rc == 0 {
                assert_eq!(v, expected("EXPECT_DRIVER", 13000));
            }
            let (rc, status, pfn) = by_version("cuMemAlloc", 3020, 0);
            println!("child: cuMemAlloc 3020 -> rc {rc} status {status} pfn {pfn:p}");
            assert_eq!(rc, expected("EXPECT_RC", 0));
            assert_eq!(status, expected("EXPECT_STATUS", 0));
            return;
        }
        Some(other) => panic!("{TEST}: no child role {other}"),
        None => {}
    }
    for env in [
        &[][..],
        &[
            ("CUDA_ENTRY_SIMRT_VERSION", "12080"),
            ("EXPECT_RUNTIME", "12080"),
        ],
        &[
            ("CUDA_ENTRY_SIM_VERSION", "12040"),
            ("EXPECT_DRIVER", "12040"),
        ],
        &[
            ("CUDA_ENTRY_SIMRT_MODE", "rc=77"),
            ("EXPECT_RC", "77"),
            ("EXPECT_STATUS", "-1"),
        ],
        &[
            ("CUDA_ENTRY_SIMRT_MODE", "unwritten-status"),
            ("EXPECT_STATUS", "-1"),
        ],
        &[("CUDA_ENTRY_SIMRT_MODE", "null-success")],
        &[
            ("CUDA_ENTRY_SIM_MODE", "stub"),
            ("EXPECT_DRIVER_RC", "34"),
            ("EXPECT_RC", "34"),
            ("EXPECT_STATUS", "-1"),
        ],
        &[
            ("CUDA_ENTRY_SIM_VERSION", "3010"),
            ("EXPECT_DRIVER", "3010"),
            ("EXPECT_RC", "1"),
            ("EXPECT_STATUS", "-1"),
        ],
    ] {
        support::assert_passed(TEST, env, &support::run_again(TEST, "env", env));
    }
    // A malformed value stops the process with a message rather than running as `normal`.
    for (var, value) in [
        ("CUDA_ENTRY_SIMRT_MODE", "unwriten-status"),
        ("CUDA_ENTRY_SIMRT_VERSION", "13.0"),
    ] {
        let out = support::run_again(TEST, "env", &[(var, value)]);
        support::assert_ran_one_test(TEST, &out);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            std::os::unix::process::ExitStatusExt::signal(&out.status),
            Some(6),
            "{var}={value}: {stderr}"
        );
        assert!(
            stderr.contains(&format!("cuda-entry simulated runtime: {var}=\"{value}\"")),
            "{stderr}"
        );
    }
}

/// In a child, one of the NULL-argument calls, which must abort before returning; in the test's
/// own process, each child and what its abort says.
#[test]
fn null_func_ptr_or_symbol_aborts_loudly() {
    const TEST: &str = "null_func_ptr_or_symbol_aborts_loudly";
    match support::child_role().as_deref() {
        // The rc=0 mode writes nothing, yet a NULL funcPtr still aborts.
        Some("null_func_ptr" | "null_in_rc_mode") => {
            let mut status = 0;
            // SAFETY: deliberately NULL funcPtr: the simulator must abort before touching it.
            unsafe {
                rt::cudaGetDriverEntryPointByVersion(
                    c"cuMemAlloc".as_ptr(),
                    std::ptr::null_mut(),
                    3020,
                    0,
                    &mut status,
                );
            }
            panic!("cudaGetDriverEntryPointByVersion returned with a NULL funcPtr");
        }
        Some("null_symbol") => {
            let mut pfn = std::ptr::null_mut();
            // SAFETY: deliberately NULL symbol: the simulator must abort before reading it.
            unsafe {
                rt::cudaGetDriverEntryPoint(std::ptr::null(), &mut pfn, 0, std::ptr::null_mut())
            };
            panic!("cudaGetDriverEntryPoint returned with a NULL symbol");
        }
        Some(other) => panic!("{TEST}: no child role {other}"),
        None => {}
    }
    use std::os::unix::process::ExitStatusExt;
    for (role, env, message) in [
        (
            "null_func_ptr",
            &[][..],
            "cuda-entry simulated runtime: NULL funcPtr passed to cudaGetDriverEntryPointByVersion",
        ),
        (
            "null_symbol",
            &[],
            "cuda-entry simulated runtime: NULL symbol passed to cudaGetDriverEntryPoint",
        ),
        (
            "null_in_rc_mode",
            &[("CUDA_ENTRY_SIMRT_MODE", "rc=0")],
            "NULL funcPtr passed to cudaGetDriverEntryPointByVersion",
        ),
    ] {
        let out = support::run_again(TEST, role, env);
        support::assert_ran_one_test(TEST, &out);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.signal(),
            Some(6),
            "{role}: {:?}, stderr: {stderr}",
            out.status
        );
        assert!(stderr.contains(message), "{role}: stderr: {stderr}");
    }
}
