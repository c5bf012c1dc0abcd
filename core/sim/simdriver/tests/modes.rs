//! Each configuration mode, the reported-version setting, the instrumentation, the NULL-argument
//! abort and the simulated API (memory round trip, vector_add), in-process through the rlib.

#[path = "support/mod.rs"]
mod support;

use std::ffi::{CStr, CString, c_int, c_uint, c_void};
use std::sync::Mutex;

use cuda_entry_simdriver as sim;
use sim::{Config, Mode};

const SENTINEL: *mut c_void = 0x05e1_71e1_usize as *mut c_void;

/// Tests of one binary share the simulator's global configuration and counters.
static LOCK: Mutex<()> = Mutex::new(());

fn lock() -> std::sync::MutexGuard<'static, ()> {
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

fn set(version: i32, mode: Mode) {
    sim::set_config(Config { version, mode });
}

/// (rc, status, pfn) of `cuGetProcAddress_v2`; status -1 / pfn SENTINEL: unwritten.
fn v2(symbol: &str, version: c_int, flags: u64) -> (c_int, c_int, *mut c_void) {
    let symbol = CString::new(symbol).expect("no NUL");
    let (mut pfn, mut status) = (SENTINEL, -1);
    // SAFETY: NUL-terminated symbol, writable pfn and status.
    let rc =
        unsafe { sim::cuGetProcAddress_v2(symbol.as_ptr(), &mut pfn, version, flags, &mut status) };
    (rc, status, pfn)
}

/// (rc, pfn) of the 4-argument `cuGetProcAddress`.
fn v1(symbol: &str, version: c_int) -> (c_int, *mut c_void) {
    let symbol = CString::new(symbol).expect("no NUL");
    let mut pfn = SENTINEL;
    // SAFETY: NUL-terminated symbol, writable pfn.
    let rc = unsafe { sim::cuGetProcAddress(symbol.as_ptr(), &mut pfn, version, 0) };
    (rc, pfn)
}

fn addr(name: &str) -> *mut c_void {
    sim::export_address(name).unwrap_or_else(|| panic!("no export {name}"))
}

fn driver_version() -> (c_int, c_int) {
    let mut v = -7;
    // SAFETY: a writable int.
    let rc = unsafe { sim::cuDriverGetVersion(&mut v) };
    (rc, v)
}

#[test]
fn parsing_the_environment_values() {
    let default = Config::from_values(None, None).expect("defaults");
    assert_eq!(
        default,
        Config {
            version: 13000,
            mode: Mode::Normal
        }
    );
    let cases = [
        ("normal", Mode::Normal),
        ("stub", Mode::Stub),
        ("status-unwritten", Mode::StatusUnwritten),
        ("null-success", Mode::NullSuccess),
        ("rc=999", Mode::Rc(999)),
        ("rc=-3", Mode::Rc(-3)),
        ("version-fails", Mode::VersionFails),
        ("no-v2", Mode::NoV2),
    ];
    for (text, mode) in cases {
        assert_eq!(
            Config::from_values(Some("12080"), Some(text)),
            Ok(Config {
                version: 12080,
                mode
            })
        );
    }
    for bad in ["Stub", "rc=", "rc=x", "nope"] {
        assert!(
            Config::from_values(None, Some(bad)).is_err(),
            "{bad} accepted"
        );
    }
    for bad in ["abc", "0", "-1", "13.0"] {
        assert!(
            Config::from_values(Some(bad), None).is_err(),
            "version {bad} accepted"
        );
    }
    // Empty is unset, as for the mode: the build's default version.
    for empty in ["", " "] {
        assert_eq!(Config::from_values(Some(empty), None), Ok(default));
    }
}

#[test]
fn reported_version_moves_every_answer() {
    let _g = lock();
    set(11080, Mode::Normal);
    assert_eq!(driver_version(), (0, 11080));
    // At its own version an 11.8 driver hands out cuCtxCreate_v3 (typedef 11040)...
    assert_eq!(v2("cuCtxCreate", 11080, 1), (0, 0, addr("cuCtxCreate_v3")));
    // ...and a version above it is rc 1 with nothing written, as 13020 is on the 13000 driver:
    // that covers every symbol whose first typedef is newer than the driver.
    assert_eq!(v2("cuCtxCreate", 12050, 1), (1, -1, SENTINEL));
    assert_eq!(v2("cuCtxSynchronize", 13000, 1), (1, -1, SENTINEL));
    assert_eq!(v1("cuCtxCreate", 12050), (1, SENTINEL));
    // Version -1 follows the reported version.
    assert_eq!(v2("cuCtxCreate", -1, 1), (0, 0, addr("cuCtxCreate_v3")));
    set(13000, Mode::Normal);
    assert_eq!(v2("cuCtxCreate", -1, 1), (0, 0, addr("cuCtxCreate_v4")));
}

#[test]
fn stub_mode_returns_34_everywhere() {
    let _g = lock();
    set(13000, Mode::Stub);
    assert_eq!(driver_version(), (34, -7));
    // SAFETY: plain value arguments / writable out-pointers.
    unsafe {
        assert_eq!(sim::cuInit(0), 34);
        let mut d: u64 = 0;
        assert_eq!(sim::cuMemAlloc_v2(&mut d, 16), 34);
        assert_eq!(d, 0);
        let mut count: c_int = -1;
        assert_eq!(sim::cuDeviceGetCount(&mut count), 34);
        assert_eq!(count, -1);
    }
    assert_eq!(v2("cuMemAlloc", 3020, 0), (34, -1, SENTINEL));
    assert_eq!(v1("cuMemAlloc", 3020), (34, SENTINEL));
    // Still recorded.
    assert_eq!(sim::last_call(), "cuGetProcAddress");
    set(13000, Mode::Normal);
}

#[test]
fn status_unwritten_mode() {
    let _g = lock();
    set(13000, Mode::StatusUnwritten);
    assert_eq!(v2("cuMemAlloc", 3020, 0), (0, -1, addr("cuMemAlloc_v2")));
    assert_eq!(v2("cuFoo", 3020, 0), (0, -1, std::ptr::null_mut()));
    set(13000, Mode::Normal);
}

#[test]
fn null_success_mode() {
    let _g = lock();
    set(13000, Mode::NullSuccess);
    assert_eq!(v2("cuMemAlloc", 3020, 0), (0, 0, std::ptr::null_mut()));
    assert_eq!(v2("cuFoo", 3020, 0), (0, 0, std::ptr::null_mut()));
    assert_eq!(v1("cuMemAlloc", 3020), (0, std::ptr::null_mut()));
    set(13000, Mode::Normal);
}

#[test]
fn rc_mode() {
    let _g = lock();
    set(13000, Mode::Rc(999));
    assert_eq!(v2("cuMemAlloc", 3020, 0), (999, -1, SENTINEL));
    assert_eq!(v1("cuMemAlloc", 3020), (999, SENTINEL));
    set(13000, Mode::Rc(0));
    assert_eq!(v2("cuMemAlloc", 3020, 0), (0, -1, SENTINEL));
    set(13000, Mode::Normal);
}

#[test]
fn version_fails_mode() {
    let _g = lock();
    set(13000, Mode::VersionFails);
    assert_eq!(driver_version(), (3, -7));
    // Only cuDriverGetVersion fails.
    assert_eq!(v2("cuMemAlloc", 3020, 0), (0, 0, addr("cuMemAlloc_v2")));
    set(13000, Mode::Normal);
}

#[test]
fn no_v2_mode() {
    let _g = lock();
    set(13000, Mode::NoV2);
    assert_eq!(v2("cuMemAlloc", 3020, 0), (500, -1, SENTINEL));
    assert_eq!(v1("cuMemAlloc", 3020), (0, addr("cuMemAlloc_v2")));
    // The 4-argument export no longer knows the 5-argument one.
    assert_eq!(v1("cuGetProcAddress", 12000), (0, addr("cuGetProcAddress")));
    set(13000, Mode::Normal);
    assert_eq!(
        v1("cuGetProcAddress", 12000),
        (0, addr("cuGetProcAddress_v2"))
    );
}

/// `cuda_entry_sim_last_call()` through the C export.
fn last_call_c() -> &'static CStr {
    // SAFETY: the export returns a static NUL-terminated string.
    unsafe { CStr::from_ptr(sim::cuda_entry_sim_last_call()) }
}

#[test]
fn instrumentation_records_the_variant_called() {
    let _g = lock();
    set(13000, Mode::Normal);
    sim::reset();
    assert_eq!(last_call_c(), c"");
    let (rc, status, pfn) = v2("cuCtxCreate", 12050, 1);
    assert_eq!((rc, status), (0, 0));
    type CtxCreateV4 = unsafe extern "C" fn(
        *mut *mut c_void,
        *mut sim::shared::CUctxCreateParams,
        c_uint,
        c_int,
    ) -> c_int;
    // SAFETY: the pointer is cuCtxCreate_v4, whose C type this is (PFN_cuCtxCreate_v12050).
    let create: CtxCreateV4 = unsafe { std::mem::transmute::<*mut c_void, CtxCreateV4>(pfn) };
    let mut ctx = std::ptr::null_mut();
    // SAFETY: writable pctx, NULL params (allowed).
    unsafe {
        sim::cuInit(0);
        create(&mut ctx, std::ptr::null_mut(), 0, 0);
    }
    assert_eq!(sim::last_call(), "cuCtxCreate_v4");
    assert_eq!(last_call_c(), c"cuCtxCreate_v4");
    // SAFETY: NUL-terminated names / NULL.
    unsafe {
        assert_eq!(sim::cuda_entry_sim_calls(c"cuCtxCreate_v4".as_ptr()), 1);
        assert_eq!(
            sim::cuda_entry_sim_calls(c"cuGetProcAddress_v2".as_ptr()),
            1
        );
        assert_eq!(sim::cuda_entry_sim_calls(c"cuCtxCreate_v3".as_ptr()), 0);
        assert_eq!(sim::cuda_entry_sim_calls(std::ptr::null()), 0);
        sim::cuCtxDestroy_v2(ctx);
    }
    sim::cuda_entry_sim_reset();
    assert_eq!(sim::calls("cuCtxCreate_v4"), 0);
    assert_eq!(sim::last_call(), "");
}

/// A PTX image declaring the one kernel the simulator computes.
const PTX: &CStr = c".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry vector_add(\n.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n\n)\n{ ret; }\n";

#[test]
fn memory_round_trip_and_vector_add() {
    let _g = lock();
    set(13000, Mode::Normal);
    // SAFETY: every pointer passed is a live local of the right type; device pointers come from
    // the simulator.
    unsafe {
        assert_eq!(sim::cuInit(0), 0);
        let mut dev = -1;
        assert_eq!(sim::cuDeviceGet(&mut dev, 0), 0);
        let mut ctx = std::ptr::null_mut();
        assert_eq!(sim::cuDevicePrimaryCtxRetain(&mut ctx, dev), 0);
        assert_eq!(sim::cuCtxSetCurrent(ctx), 0);

        // The 32-bit ABI: a pointer that fits in unsigned int.
        let mut small: u32 = 0;
        assert_eq!(sim::cuMemAlloc(&mut small, 64), 0);
        assert_ne!(small, 0);
        let input = *b"0123456789abcdef";
        let mut output = [0u8; 16];
        assert_eq!(sim::cuMemcpyHtoD(small, input.as_ptr().cast(), 16), 0);
        assert_eq!(sim::cuMemcpyDtoH(output.as_mut_ptr().cast(), small, 16), 0);
        assert_eq!(input, output);
        assert_eq!(sim::cuMemFree(small), 0);
        assert_eq!(sim::cuMemFree(small), 1, "double free");

        let n = 1000usize;
        let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let b: Vec<f32> = (0..n).map(|i| 2.0 * i as f32).collect();
        let mut c = vec![0f32; n];
        let bytes = n * 4;
        let (mut da, mut db, mut dc) = (0u64, 0u64, 0u64);
        for d in [&mut da, &mut db, &mut dc] {
            assert_eq!(sim::cuMemAlloc_v2(d, bytes), 0);
        }
        assert_eq!(sim::cuMemcpyHtoD_v2(da, a.as_ptr().cast(), bytes), 0);
        assert_eq!(sim::cuMemcpyHtoD_v2_ptds(db, b.as_ptr().cast(), bytes), 0);
        // Out of bounds.
        assert_eq!(sim::cuMemcpyHtoD_v2(da, a.as_ptr().cast(), bytes + 1), 1);

        let mut module = std::ptr::null_mut();
        assert_eq!(sim::cuModuleLoadData(&mut module, PTX.as_ptr().cast()), 0);
        let mut func = std::ptr::null_mut();
        assert_eq!(
            sim::cuModuleGetFunction(&mut func, module, c"nope".as_ptr()),
            500
        );
        assert_eq!(
            sim::cuModuleGetFunction(&mut func, module, c"vector_add".as_ptr()),
            0
        );
        let mut count = n as c_int;
        let mut params: [*mut c_void; 4] = [
            (&raw mut da).cast(),
            (&raw mut db).cast(),
            (&raw mut dc).cast(),
            (&raw mut count).cast(),
        ];
        let blocks = n.div_ceil(256) as c_uint;
        let null = std::ptr::null_mut();
        let no_extra = std::ptr::null_mut();
        assert_eq!(
            sim::cuLaunchKernel_ptsz(
                func,
                blocks,
                1,
                1,
                256,
                1,
                1,
                0,
                null,
                params.as_mut_ptr(),
                no_extra
            ),
            0
        );
        assert_eq!(sim::cuStreamSynchronize_ptsz(null), 0);
        assert_eq!(sim::cuCtxSynchronize(), 0);
        assert_eq!(sim::cuMemcpyDtoH_v2(c.as_mut_ptr().cast(), dc, bytes), 0);
        assert!(
            c.iter().enumerate().all(|(i, &x)| x == 3.0 * i as f32),
            "{:?}",
            &c[..8]
        );
        assert_eq!(sim::last_call(), "cuMemcpyDtoH_v2");

        assert_eq!(sim::cuModuleUnload(module), 0);
        assert_eq!(
            sim::cuLaunchKernel(
                func,
                1,
                1,
                1,
                1,
                1,
                1,
                0,
                null,
                params.as_mut_ptr(),
                no_extra
            ),
            400,
            "function of an unloaded module"
        );
        for d in [da, db, dc] {
            assert_eq!(sim::cuMemFree_v2(d), 0);
        }
        assert_eq!(sim::cuCtxSetCurrent(std::ptr::null_mut()), 0);
        assert_eq!(sim::cuDevicePrimaryCtxRelease_v2(dev), 0);
        // No current context any more.
        assert_eq!(sim::cuMemAlloc_v2(&mut da, 4), 201);
    }
}

#[test]
fn contexts_devices_and_streams() {
    let _g = lock();
    set(13000, Mode::Normal);
    // SAFETY: live locals as out-pointers.
    unsafe {
        assert_eq!(sim::cuInit(1), 1, "cuInit flags must be 0");
        assert_eq!(sim::cuInit(0), 0);
        let mut count = 0;
        assert_eq!(sim::cuDeviceGetCount(&mut count), 0);
        assert_eq!(count, 1);
        let mut dev = 0;
        assert_eq!(sim::cuDeviceGet(&mut dev, 1), 101);
        let mut uuid = sim::shared::CUuuid::default();
        assert_eq!(sim::cuDeviceGetUuid_v2(&mut uuid, 0), 0);
        assert_ne!(uuid, sim::shared::CUuuid::default());

        let mut c1 = std::ptr::null_mut();
        let mut c3 = std::ptr::null_mut();
        assert_eq!(sim::cuCtxCreate_v2(&mut c1, 0, 0), 0);
        let mut affinity = sim::shared::CUexecAffinityParam {
            kind: 0,
            sm_count: 8,
        };
        assert_eq!(sim::cuCtxCreate_v3(&mut c3, &mut affinity, 1, 0, 0), 0);
        assert_eq!(
            sim::cuCtxCreate_v3(&mut c3, std::ptr::null_mut(), 1, 0, 0),
            1
        );
        let mut current = std::ptr::null_mut();
        assert_eq!(sim::cuCtxGetCurrent(&mut current), 0);
        assert_eq!(current, c3, "cuCtxCreate makes the new context current");
        let mut both = sim::shared::CUctxCreateParams {
            exec_affinity_params: &mut affinity,
            num_exec_affinity_params: 1,
            cig_params: std::ptr::dangling_mut(),
        };
        let mut c4 = std::ptr::null_mut();
        assert_eq!(
            sim::cuCtxCreate_v4(&mut c4, &mut both, 0, 0),
            1,
            "exactly one of the two"
        );
        assert_eq!(sim::cuCtxSynchronize_v2(c1), 0);
        assert_eq!(sim::cuStreamBeginCapture_v2(std::ptr::null_mut(), 0), 900);
        assert_eq!(sim::cuStreamBeginCapture_v2(std::ptr::null_mut(), 7), 1);
        assert_eq!(sim::cuStreamSynchronize(0x1234 as *mut c_void), 400);
        assert_eq!(sim::cuCtxDestroy_v2(c3), 0);
        assert_eq!(sim::cuCtxGetCurrent(&mut current), 0);
        assert_eq!(
            current, c1,
            "destroying the current context pops it: the one below (c1) is current again"
        );
        assert_eq!(sim::cuCtxDestroy(c1), 0);
        assert_eq!(sim::cuCtxGetCurrent(&mut current), 0);
        assert!(current.is_null());
        assert_eq!(sim::cuCtxDestroy(c1), 201);
    }
}

/// In a child, one of the two NULL-argument calls, which must abort before returning; in the
/// test's own process, both children and what their aborts say.
#[test]
fn null_pfn_or_symbol_aborts_loudly() {
    const TEST: &str = "null_pfn_or_symbol_aborts_loudly";
    match support::child_role().as_deref() {
        Some("null_pfn") => {
            let mut status = 0;
            // SAFETY: deliberately NULL pfn: the simulator must abort before touching it.
            unsafe {
                sim::cuGetProcAddress_v2(
                    c"cuMemAlloc".as_ptr(),
                    std::ptr::null_mut(),
                    3020,
                    0,
                    &mut status,
                );
            }
            panic!("cuGetProcAddress_v2 returned with a NULL pfn");
        }
        Some("null_symbol") => {
            let mut pfn = std::ptr::null_mut();
            // SAFETY: deliberately NULL symbol: the simulator must abort before reading it.
            unsafe { sim::cuGetProcAddress(std::ptr::null(), &mut pfn, 3020, 0) };
            panic!("cuGetProcAddress returned with a NULL symbol");
        }
        Some(other) => panic!("{TEST}: no child role {other}"),
        None => {}
    }
    use std::os::unix::process::ExitStatusExt;
    for (role, message) in [
        (
            "null_pfn",
            "cuda-entry simulated driver: NULL pfn passed to cuGetProcAddress_v2 (the real driver segfaults here)",
        ),
        (
            "null_symbol",
            "NULL symbol passed to cuGetProcAddress (the real driver segfaults here)",
        ),
    ] {
        let out = support::run_again(TEST, role, &[]);
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

/// In a child, the version and return code the environment asks for (`EXPECT_VERSION`,
/// `EXPECT_RC`); in the test's own process, one child per configuration.
#[test]
fn configuration_is_read_from_the_environment() {
    const TEST: &str = "configuration_is_read_from_the_environment";
    match support::child_role().as_deref() {
        Some("env") => {
            let expected = |name: &str, default: c_int| -> c_int {
                std::env::var(name).map_or(default, |v| {
                    v.parse()
                        .unwrap_or_else(|_| panic!("{name}={v:?} is not a number"))
                })
            };
            let (rc, v) = driver_version();
            println!("child: rc {rc} version {v}");
            assert_eq!(rc, expected("EXPECT_RC", 0));
            if rc == 0 {
                assert_eq!(v, expected("EXPECT_VERSION", 13000));
            }
            return;
        }
        Some(other) => panic!("{TEST}: no child role {other}"),
        None => {}
    }
    for env in [
        &[("EXPECT_VERSION", "13000")][..],
        &[
            ("CUDA_ENTRY_SIM_VERSION", "12040"),
            ("EXPECT_VERSION", "12040"),
        ],
        &[("CUDA_ENTRY_SIM_MODE", "stub"), ("EXPECT_RC", "34")],
        &[("CUDA_ENTRY_SIM_MODE", "version-fails"), ("EXPECT_RC", "3")],
    ] {
        support::assert_passed(TEST, env, &support::run_again(TEST, "env", env));
    }
    // A malformed value stops the process with a message rather than running as `normal`.
    let out = support::run_again(TEST, "env", &[("CUDA_ENTRY_SIM_MODE", "stubb")]);
    support::assert_ran_one_test(TEST, &out);
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&out.status),
        Some(6)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("CUDA_ENTRY_SIM_MODE=\"stubb\""));
}
