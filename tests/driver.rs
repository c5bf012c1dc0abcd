//! The runtime against the simulated driver, one process per driver configuration: which export
//! each version reaches, every error variant and its message, caching, racing first uses.

use std::process::ExitCode;
use std::sync::Barrier;

use cuda_entry::types::{CUcontext, CUdevice, CUdeviceptr, CUresult};
use cuda_entry::{Bootstrap, Entry, ErrorKind, Stream};
use cuda_entry_sim as sim;
use cuda_entry_support::{Driver, Queries, Scenario, run_scenarios, simulator};

const SIM: Driver = Driver::Sim(sim::Driver::Current);

fn main() -> ExitCode {
    if let Some(code) = privileged_child() {
        return code;
    }
    run_scenarios(&[
        Scenario {
            name: "each_version_reaches_its_own_export",
            driver: SIM,
            env: &[],
            run: each_version_reaches_its_own_export,
        },
        Scenario {
            name: "a_resolved_entry_calls_the_right_abi",
            driver: SIM,
            env: &[],
            run: a_resolved_entry_calls_the_right_abi,
        },
        Scenario {
            name: "per_thread_flag_selects_ptsz_exports",
            driver: SIM,
            env: &[],
            run: per_thread_flag_selects_ptsz_exports,
        },
        Scenario {
            name: "driver_answers_map_to_typed_errors",
            driver: SIM,
            env: &[],
            run: driver_answers_map_to_typed_errors,
        },
        Scenario {
            name: "too_new_and_invalid_versions_never_reach_the_driver",
            driver: SIM,
            env: &[],
            run: too_new_and_invalid_versions_never_reach_the_driver,
        },
        Scenario {
            name: "errors_and_pointers_are_cached",
            driver: SIM,
            env: &[],
            run: errors_and_pointers_are_cached,
        },
        Scenario {
            name: "racing_threads_resolve_once",
            driver: SIM,
            env: &[],
            run: racing_threads_resolve_once,
        },
        Scenario {
            name: "preload_reports_every_failure",
            driver: SIM,
            env: &[],
            run: preload_reports_every_failure,
        },
        Scenario {
            name: "driver_12040_is_too_old_for_cuctxcreate_v4",
            driver: SIM,
            env: &[("CUDA_ENTRY_SIM_VERSION", "12040")],
            run: driver_12040_is_too_old_for_cuctxcreate_v4,
        },
        Scenario {
            name: "driver_11080_uses_the_four_argument_query",
            driver: Driver::Sim(sim::Driver::Cuda11x),
            env: &[],
            run: driver_11080_uses_the_four_argument_query,
        },
        Scenario {
            name: "driver_before_11_3_resolves_by_export_name",
            driver: Driver::Sim(sim::Driver::BeforeCuda113),
            env: &[],
            run: driver_before_11_3_resolves_by_export_name,
        },
        Scenario {
            name: "stub_library_is_named",
            driver: SIM,
            env: &[("CUDA_ENTRY_SIM_MODE", "stub")],
            run: stub_library_is_named,
        },
        Scenario {
            name: "unwritten_status_is_not_trusted",
            driver: SIM,
            env: &[("CUDA_ENTRY_SIM_MODE", "status-unwritten")],
            run: unwritten_status_is_not_trusted,
        },
        Scenario {
            name: "success_with_null_is_never_called",
            driver: SIM,
            env: &[("CUDA_ENTRY_SIM_MODE", "null-success")],
            run: success_with_null_is_never_called,
        },
        Scenario {
            name: "unexpected_return_code_is_reported",
            driver: SIM,
            env: &[("CUDA_ENTRY_SIM_MODE", "rc=999")],
            run: unexpected_return_code_is_reported,
        },
        Scenario {
            name: "failing_cudrivergetversion_is_reported",
            driver: SIM,
            env: &[("CUDA_ENTRY_SIM_MODE", "version-fails")],
            run: failing_cudrivergetversion_is_reported,
        },
        Scenario {
            name: "missing_library_lists_what_was_tried",
            driver: Driver::Path("/nonexistent/libcuda.so.1"),
            env: &[],
            run: missing_library_lists_what_was_tried,
        },
        Scenario {
            name: "non_library_file_is_not_loaded",
            driver: Driver::Path(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")),
            env: &[],
            run: non_library_file_is_not_loaded,
        },
        Scenario {
            name: "library_without_driver_exports_is_not_a_driver",
            driver: Driver::Path(NOT_A_DRIVER),
            env: &[],
            run: library_without_driver_exports_is_not_a_driver,
        },
        Scenario {
            name: "a_non_utf8_override_is_the_only_library_tried",
            driver: Driver::Default,
            env: &[],
            run: a_non_utf8_override_is_the_only_library_tried,
        },
        Scenario {
            name: "privileged_programs_ignore_the_override_unless_trusted",
            driver: SIM,
            env: &[],
            run: privileged_programs_ignore_the_override_unless_trusted,
        },
    ])
}

/// A library every Linux system has that exports nothing of CUDA's.
#[cfg(not(windows))]
const NOT_A_DRIVER: &str = "libm.so.6";
#[cfg(windows)]
const NOT_A_DRIVER: &str = "kernel32.dll";

fn legacy(symbol: &'static std::ffi::CStr, version: u32) -> &'static Entry {
    Box::leak(Box::new(Entry::new(symbol, version, Stream::Legacy)))
}

fn per_thread(symbol: &'static std::ffi::CStr, version: u32) -> &'static Entry {
    Box::leak(Box::new(Entry::new(symbol, version, Stream::PerThread)))
}

fn assert_reaches(sim: &sim::Simulator, entry: &Entry, export: &str) {
    let pfn = entry.resolve().unwrap_or_else(|e| panic!("{entry:?}: {e}"));
    let expected = sim
        .address(export)
        .unwrap_or_else(|| panic!("simulator exports {export}"));
    assert_eq!(
        pfn.as_ptr(),
        expected,
        "{:?} v{} should reach {export}",
        entry.symbol(),
        entry.version()
    );
}

fn each_version_reaches_its_own_export() {
    let sim = simulator();
    for (version, export) in [
        (2000, "cuCtxCreate"),
        (3020, "cuCtxCreate_v2"),
        (11040, "cuCtxCreate_v3"),
        (12050, "cuCtxCreate_v4"),
    ] {
        assert_reaches(&sim, legacy(c"cuCtxCreate", version), export);
    }
    // A version between two typedefs gets the newest at or below it: still the typedef's ABI only
    // if the user wrote that typedef's number, which is what the macro enforces.
    assert_reaches(&sim, legacy(c"cuCtxCreate", 12000), "cuCtxCreate_v3");
    assert_reaches(&sim, legacy(c"cuMemAlloc", 2000), "cuMemAlloc");
    assert_reaches(&sim, legacy(c"cuMemAlloc", 3020), "cuMemAlloc_v2");
    assert_reaches(&sim, legacy(c"cuDeviceGetUuid", 9020), "cuDeviceGetUuid");
    assert_reaches(
        &sim,
        legacy(c"cuDeviceGetUuid", 11040),
        "cuDeviceGetUuid_v2",
    );
    assert_reaches(&sim, legacy(c"cuMemFree", 3020), "cuMemFree_v2");
    let info = cuda_entry::driver_info().expect("driver info");
    assert_eq!(info.version, 13000);
    assert_eq!(info.bootstrap, Bootstrap::GetProcAddressV2);
    assert_eq!(cuda_entry::driver_version(), Ok(13000));
}

fn a_resolved_entry_calls_the_right_abi() {
    let sim = simulator();
    type InitV2000 = unsafe extern "C" fn(u32) -> CUresult;
    type RetainV7000 = unsafe extern "C" fn(*mut CUcontext, CUdevice) -> CUresult;
    type SetCurrentV4000 = unsafe extern "C" fn(CUcontext) -> CUresult;
    type MemAllocV3020 = unsafe extern "C" fn(*mut CUdeviceptr, usize) -> CUresult;
    type MemFreeV3020 = unsafe extern "C" fn(CUdeviceptr) -> CUresult;
    static INIT: Entry = Entry::new(c"cuInit", 2000, Stream::Legacy);
    static RETAIN: Entry = Entry::new(c"cuDevicePrimaryCtxRetain", 7000, Stream::Legacy);
    static SET_CURRENT: Entry = Entry::new(c"cuCtxSetCurrent", 4000, Stream::Legacy);
    static MEM_ALLOC: Entry = Entry::new(c"cuMemAlloc", 3020, Stream::Legacy);
    static MEM_FREE: Entry = Entry::new(c"cuMemFree", 3020, Stream::Legacy);
    // SAFETY: each type is the signature of the typedef its entry names.
    unsafe {
        let mut ctx: CUcontext = std::ptr::null_mut();
        assert_eq!(
            INIT.resolve_as::<InitV2000>().unwrap()(0),
            CUresult::SUCCESS
        );
        assert_eq!(
            RETAIN.resolve_as::<RetainV7000>().unwrap()(&mut ctx, 0),
            CUresult::SUCCESS
        );
        assert_eq!(
            SET_CURRENT.resolve_as::<SetCurrentV4000>().unwrap()(ctx),
            CUresult::SUCCESS
        );
        let (alloc, free) = (
            MEM_ALLOC.resolve_as::<MemAllocV3020>().unwrap(),
            MEM_FREE.resolve_as::<MemFreeV3020>().unwrap(),
        );
        let mut dptr: CUdeviceptr = 0;
        assert_eq!(alloc(&mut dptr, 1 << 20), CUresult::SUCCESS);
        assert_eq!(sim.last_call(), "cuMemAlloc_v2");
        assert_ne!(dptr, 0);
        assert_eq!(free(dptr), CUresult::SUCCESS);
        assert_eq!(sim.last_call(), "cuMemFree_v2");
    }
}

fn per_thread_flag_selects_ptsz_exports() {
    let sim = simulator();
    assert_reaches(
        &sim,
        per_thread(c"cuStreamBeginCapture", 10000),
        "cuStreamBeginCapture_ptsz",
    );
    assert_reaches(
        &sim,
        per_thread(c"cuStreamBeginCapture", 10010),
        "cuStreamBeginCapture_v2_ptsz",
    );
    assert_reaches(
        &sim,
        legacy(c"cuStreamBeginCapture", 10010),
        "cuStreamBeginCapture_v2",
    );
    assert_reaches(
        &sim,
        per_thread(c"cuLaunchKernel", 7000),
        "cuLaunchKernel_ptsz",
    );
    assert_reaches(&sim, legacy(c"cuLaunchKernel", 4000), "cuLaunchKernel");
    // The trap: the legacy typedef's version with the per-thread flag (measured on the real driver).
    let err = per_thread(c"cuLaunchKernel", 4000).resolve().unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::VersionNotSufficient),
        "{err:?}"
    );
    let text = err.to_string();
    assert!(
        text.contains("cuLaunchKernel version 4000")
            && text.contains("per-thread")
            && text.contains("_ptsz"),
        "{text}"
    );
}

fn driver_answers_map_to_typed_errors() {
    let unknown = legacy(c"cuFoo", 12000).resolve().unwrap_err();
    assert!(
        matches!(unknown.kind(), ErrorKind::SymbolNotFound)
            && unknown.driver_version() == Some(13000),
        "{unknown:?}"
    );
    let text = unknown.to_string();
    assert!(
        text.contains("cuFoo version 12000")
            && text.contains("CUDA 13.0")
            && text.contains("spelling"),
        "{text}"
    );

    let suffixed = legacy(c"cuMemAlloc_v2", 3020).resolve().unwrap_err();
    assert!(
        matches!(suffixed.kind(), ErrorKind::SymbolNotFound),
        "{suffixed:?}"
    );
    assert!(
        suffixed.to_string().contains("without a `_v2`"),
        "{suffixed}"
    );

    let too_low = legacy(c"cuLaunchKernel", 3990).resolve().unwrap_err();
    assert!(
        matches!(too_low.kind(), ErrorKind::VersionNotSufficient)
            && too_low.driver_version() == Some(13000),
        "{too_low:?}"
    );
    let text = too_low.to_string();
    assert!(
        text.contains("cuLaunchKernel version 3990") && text.contains("PFN_cuLaunchKernel_v<N>"),
        "{text}"
    );
    assert_eq!(too_low.request().map(|r| r.version), Some(3990));
}

fn too_new_and_invalid_versions_never_reach_the_driver() {
    let sim = simulator();
    let before = sim.queries();
    let too_new = legacy(c"cuMemAlloc", 13020).resolve().unwrap_err();
    assert!(
        matches!(too_new.kind(), ErrorKind::DriverTooOld)
            && too_new.driver_version() == Some(13000)
            && too_new.request().map(|r| r.version) == Some(13020),
        "{too_new:?}"
    );
    let text = too_new.to_string();
    assert!(
        text.contains("cuMemAlloc version 13020")
            && text.contains("reports CUDA 13.0")
            && text.contains("update the driver to >= CUDA 13.2"),
        "{text}"
    );
    for version in [0, 999, 3025, u32::MAX] {
        let err = legacy(c"cuMemAlloc", version).resolve().unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::InvalidVersion),
            "{version}: {err:?}"
        );
        assert!(
            err.to_string().contains("1000 * major + 10 * minor"),
            "{err}"
        );
    }
    assert_eq!(sim.queries(), before, "the driver must not be asked");
}

fn errors_and_pointers_are_cached() {
    let sim = simulator();
    let ok = legacy(c"cuMemAlloc", 3020);
    let bad = legacy(c"cuFoo", 12000);
    let first_ok = ok.resolve().unwrap();
    let first_err = bad.resolve().unwrap_err();
    let asked = sim.queries();
    for _ in 0..100 {
        assert_eq!(ok.resolve(), Ok(first_ok));
        assert_eq!(bad.resolve(), Err(first_err.clone()));
        assert!(ok.is_available());
        assert!(!bad.is_available());
    }
    assert_eq!(
        sim.queries(),
        asked,
        "cached answers must not ask the driver again"
    );
}

fn racing_threads_resolve_once() {
    let sim = simulator();
    static RACED: Entry = Entry::new(c"cuCtxCreate", 12050, Stream::Legacy);
    static RACED_ERR: Entry = Entry::new(c"cuNoSuchThing", 12000, Stream::Legacy);
    let before = sim.calls("cuGetProcAddress_v2");
    const THREADS: usize = 48;
    let barrier = Barrier::new(THREADS);
    let results: Vec<(usize, String)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|_| {
                s.spawn(|| {
                    barrier.wait();
                    let p = RACED.resolve().expect("resolves").as_ptr() as usize;
                    let e = RACED_ERR.resolve().unwrap_err().to_string();
                    (p, e)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no panic"))
            .collect()
    });
    let expected = sim.address("cuCtxCreate_v4").unwrap() as usize;
    assert!(
        results.iter().all(|(p, _)| *p == expected),
        "every thread sees cuCtxCreate_v4"
    );
    assert!(
        results.iter().all(|(_, e)| *e == results[0].1),
        "every thread sees the same error"
    );
    assert_eq!(
        sim.calls("cuGetProcAddress_v2") - before,
        2,
        "one query per entry, whatever the race"
    );
}

fn preload_reports_every_failure() {
    static A: Entry = Entry::new(c"cuMemAlloc", 3020, Stream::Legacy);
    static B: Entry = Entry::new(c"cuFoo", 12000, Stream::Legacy);
    static C: Entry = Entry::new(c"cuMemFree", 3020, Stream::Legacy);
    static D: Entry = Entry::new(c"cuMemAlloc", 13050, Stream::Legacy);
    assert_eq!(cuda_entry::preload(&[&A, &C]), Ok(()));
    let err = cuda_entry::preload(&[&A, &B, &C, &D]).unwrap_err();
    assert_eq!(err.failures.len(), 2);
    assert!(matches!(err.failures[0].kind(), ErrorKind::SymbolNotFound));
    assert!(matches!(err.failures[1].kind(), ErrorKind::DriverTooOld));
    let text = err.to_string();
    assert!(
        text.starts_with("2 CUDA driver entries cannot be resolved")
            && text.contains("cuFoo")
            && text.contains("cuMemAlloc version 13050"),
        "{text}"
    );
}

fn driver_12040_is_too_old_for_cuctxcreate_v4() {
    let sim = simulator();
    let err = legacy(c"cuCtxCreate", 12050).resolve().unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::DriverTooOld) && err.driver_version() == Some(12040),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .contains("reports CUDA 12.4 but this ABI needs CUDA 12.5"),
        "{err}"
    );
    assert_reaches(&sim, legacy(c"cuCtxCreate", 11040), "cuCtxCreate_v3");
}

fn driver_11080_uses_the_four_argument_query() {
    let sim = simulator();
    let info = cuda_entry::driver_info().expect("loads");
    assert_eq!(
        (info.version, info.bootstrap),
        (11080, Bootstrap::GetProcAddress)
    );
    assert_reaches(&sim, legacy(c"cuMemAlloc", 3020), "cuMemAlloc_v2");
    assert_reaches(&sim, legacy(c"cuCtxCreate", 11040), "cuCtxCreate_v3");
    for err in [
        legacy(c"cuFoo", 11000).resolve().unwrap_err(),
        legacy(c"cuLaunchKernel", 3990).resolve().unwrap_err(),
    ] {
        assert!(
            matches!(err.kind(), ErrorKind::NotFoundByLegacyQuery)
                && err.driver_version() == Some(11080),
            "{err:?}"
        );
        assert!(
            err.to_string()
                .contains("cannot say whether the symbol is unknown or the version is below"),
            "{err}"
        );
    }
    assert_eq!(sim.calls("cuGetProcAddress_v2"), 0);
}

fn driver_before_11_3_resolves_by_export_name() {
    let sim = simulator();
    let info =
        cuda_entry::driver_info().expect("loads: a driver without cuGetProcAddress is a driver");
    assert_eq!(
        (info.version, info.bootstrap),
        (11020, Bootstrap::ExportName)
    );
    // Each entry is the export of its exact typedef, as a program linked against the driver gets.
    assert_reaches(&sim, legacy(c"cuMemAlloc", 2000), "cuMemAlloc");
    assert_reaches(&sim, legacy(c"cuMemAlloc", 3020), "cuMemAlloc_v2");
    assert_reaches(&sim, legacy(c"cuCtxDestroy", 4000), "cuCtxDestroy_v2");
    assert_reaches(
        &sim,
        per_thread(c"cuMemcpyHtoD", 7000),
        "cuMemcpyHtoD_v2_ptds",
    );
    assert_reaches(&sim, per_thread(c"cuMemAlloc", 3020), "cuMemAlloc_v2");
    assert_reaches(&sim, legacy(c"cuMemcpyHtoD", 3020), "cuMemcpyHtoD_v2");
    // Nothing asked the driver but the loader: there is no query to ask.
    assert_eq!(sim.calls("cuGetProcAddress"), 0);
    // A call through the pointer reaches the simulated function.
    let mem_alloc = legacy(c"cuMemAlloc", 3020);
    // SAFETY: cuMemAlloc_v2's C signature; the simulator checks its context first.
    let alloc: unsafe extern "C" fn(*mut CUdeviceptr, usize) -> CUresult =
        unsafe { std::mem::transmute(mem_alloc.resolve().unwrap().as_ptr()) };
    // SAFETY: a valid out-pointer; no context is current, so it answers 3 or 201, not 801.
    let code = unsafe { alloc(&mut 0, 8) };
    assert!(code == CUresult(3) || code == CUresult(201), "{code:?}");
    assert_eq!(sim.last_call(), "cuMemAlloc_v2");

    // Newer than the driver: refused before any lookup.
    let err = legacy(c"cuCtxCreate", 12050).resolve().unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::DriverTooOld), "{err:?}");
    // No export is known for it: refused, never guessed.
    for err in [
        legacy(c"cuFoo", 11000).resolve().unwrap_err(),
        legacy(c"cuMemAlloc", 2010).resolve().unwrap_err(),
        per_thread(c"cuLaunchKernel", 4000).resolve().unwrap_err(),
    ] {
        assert!(
            matches!(err.kind(), ErrorKind::NoGetProcAddress { .. })
                && err.driver_version() == Some(11020),
            "{err:?}"
        );
        let text = err.to_string();
        assert!(
            text.contains("CUDA 11.2")
                && text.contains("no export is known to implement this typedef")
                && text.contains(">= CUDA 11.3"),
            "{text}"
        );
    }
    assert_eq!(cuda_entry::driver_version().unwrap(), 11020);
}

fn stub_library_is_named() {
    let err = legacy(c"cuMemAlloc", 3020).resolve().unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::StubLibrary { .. }),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .contains("stub library (CUDA_ERROR_STUB_LIBRARY, 34)"),
        "{err}"
    );
}

fn unwritten_status_is_not_trusted() {
    let err = legacy(c"cuMemAlloc", 3020).resolve().unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::MalformedAnswer { status: None, .. }),
        "{err:?}"
    );
    assert!(
        err.to_string().contains("left the query status unwritten"),
        "{err}"
    );
}

fn success_with_null_is_never_called() {
    let entry = legacy(c"cuMemAlloc", 3020);
    let err = entry.resolve().unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::NullPointer) && err.driver_version() == Some(13000),
        "{err:?}"
    );
    assert!(
        err.to_string().contains("NULL pointer; it was not called"),
        "{err}"
    );
    // SAFETY: never called: the resolution fails.
    assert!(unsafe { entry.resolve_as::<unsafe extern "C" fn() -> CUresult>() }.is_err());
}

fn unexpected_return_code_is_reported() {
    let err = legacy(c"cuMemAlloc", 3020).resolve().unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::DriverError { code: 999, .. }),
        "{err:?}"
    );
    assert!(
        err.to_string().contains("CUDA_ERROR_UNKNOWN (999)"),
        "{err}"
    );
}

fn failing_cudrivergetversion_is_reported() {
    let err = legacy(c"cuMemAlloc", 3020).resolve().unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::DriverVersionUnavailable { code: 3, .. }
        ),
        "{err:?}"
    );
    assert!(
        err.to_string().contains("CUDA_ERROR_NOT_INITIALIZED (3)"),
        "{err}"
    );
}

fn missing_library_lists_what_was_tried() {
    let err = legacy(c"cuMemAlloc", 3020).resolve().unwrap_err();
    let ErrorKind::LibraryNotFound { tried, .. } = err.kind() else {
        panic!("{err:?}")
    };
    assert_eq!(tried.len(), 1, "the override is the only path tried");
    assert_eq!(tried[0].path, "/nonexistent/libcuda.so.1");
    let text = err.to_string();
    assert!(
        text.contains("/nonexistent/libcuda.so.1") && text.contains("CUDA_ENTRY_DRIVER_PATH"),
        "{text}"
    );
}

fn non_library_file_is_not_loaded() {
    let err = cuda_entry::driver_version().unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::LibraryNotFound { .. }) && err.request().is_none(),
        "{err:?}"
    );
    assert!(err.to_string().contains("Cargo.toml"), "{err}");
}

fn library_without_driver_exports_is_not_a_driver() {
    let err = legacy(c"cuMemAlloc", 3020).resolve().unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::NotADriver {
                missing: "cuDriverGetVersion",
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("is not a CUDA driver"), "{err}");
}

/// Sets the override to a path that is not UTF-8 (it does not exist), then loads.
fn a_non_utf8_override_is_the_only_library_tried() {
    #[cfg(unix)]
    let path = {
        use std::os::unix::ffi::OsStringExt;
        std::ffi::OsString::from_vec(b"/nonexistent/\xff\xfe/libcuda.so.1".to_vec())
    };
    #[cfg(windows)]
    let path = {
        use std::os::windows::ffi::OsStringExt;
        // An unpaired surrogate: valid for Windows, not UTF-8.
        std::ffi::OsString::from_wide(&[u16::from(b'C'), u16::from(b':'), 0xD800])
    };
    assert!(path.to_str().is_none(), "the path is not UTF-8");
    // SAFETY: this scenario's process is single-threaded and has not read the variable yet.
    unsafe { std::env::set_var(cuda_entry::PATH_VARIABLE, &path) };
    let err = cuda_entry::driver_version().unwrap_err();
    let ErrorKind::LibraryNotFound { tried, ignored, .. } = err.kind() else {
        panic!("{err:?}")
    };
    assert_eq!(
        tried.len(),
        1,
        "the override is the only library tried: {err}"
    );
    assert_eq!(tried[0].path, path.to_string_lossy(), "{err}");
    assert_eq!(*ignored, None);
}

/// The variable naming what the setgid copy of this test should do (`ignored` or `trusted`).
const PRIVILEGED_CHILD: &str = "CUDA_ENTRY_TEST_PRIVILEGED_CHILD";

/// In the setgid copy of this test: loads the driver with the override set, and prints what was
/// loaded (or why nothing was).
fn privileged_child() -> Option<ExitCode> {
    let mode = std::env::var(PRIVILEGED_CHILD).ok()?;
    if mode == "trusted" {
        cuda_entry::trust_path_variables_when_privileged();
    }
    match cuda_entry::driver_info() {
        Ok(info) => println!("loaded {}", info.path),
        Err(e) => println!("error {}: {e}", e.kind().name()),
    }
    Some(ExitCode::SUCCESS)
}

/// A setgid copy of this test runs in secure-execution mode (`AT_SECURE`), as a privileged
/// program would: the override must not choose the library there unless the program opted in.
#[cfg(target_os = "linux")]
fn privileged_programs_ignore_the_override_unless_trusted() {
    use std::os::unix::fs::PermissionsExt;
    let sim = std::env::var(cuda_entry::PATH_VARIABLE).expect("the simulated driver's path");
    let dir = std::env::temp_dir().join(format!("cuda-entry-privileged-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let copy = dir.join("driver-test");
    std::fs::copy(std::env::current_exe().expect("current_exe"), &copy).expect("copy");
    // The `nogroup` group: a group this process is not running as, so setgid changes the
    // effective group and the kernel sets AT_SECURE.
    if let Err(e) = std::os::unix::fs::chown(&copy, None, Some(65534)) {
        let _ = std::fs::remove_dir_all(&dir);
        assert!(
            std::env::var_os("CI").is_none(),
            "CI requires this check; chown to group 65534 failed: {e} (run as root)"
        );
        eprintln!("SKIPPED privileged_programs_ignore_the_override: chown needs root: {e}");
        return;
    }
    std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o2755)).expect("setgid");
    let run = |mode: &str| {
        // Through an emulator this runs the emulator, not the setgid copy, and the kernel gives
        // no secure-execution mode: tests/run-all.sh leaves this scenario out of the aarch64 run.
        let out = cuda_entry_support::target_command(&copy)
            .env(PRIVILEGED_CHILD, mode)
            .env(cuda_entry::PATH_VARIABLE, &sim)
            .output()
            .expect("run the setgid copy");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    let (ignored, trusted) = (run("ignored"), run("trusted"));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        trusted,
        format!("loaded {sim}"),
        "the opt-in honours the override"
    );
    assert!(
        !ignored.contains(&sim),
        "the override was honoured: {ignored}"
    );
    // Where a real driver is installed it is loaded instead; where none is, the error says the
    // variable was ignored and why.
    assert!(
        ignored == "loaded libcuda.so.1"
            || (ignored.starts_with("error library_not_found")
                && ignored.contains("CUDA_ENTRY_DRIVER_PATH is set but ignored")
                && ignored.contains("secure-execution mode")),
        "{ignored}"
    );
}

/// Windows has no secure-execution mode: the override is always honoured.
#[cfg(not(target_os = "linux"))]
fn privileged_programs_ignore_the_override_unless_trusted() {
    let info = cuda_entry::driver_info().expect("the simulated driver");
    assert_eq!(
        std::env::var(cuda_entry::PATH_VARIABLE).ok().as_deref(),
        Some(info.path.as_str())
    );
}
