//! Resolution through the CUDA runtime's `cudaGetDriverEntryPointByVersion`, against the simulated
//! runtime libraries, one process per configuration. The unversioned `cudaGetDriverEntryPoint` is
//! never called.

use std::process::ExitCode;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUcontext, CUdevice, CUdeviceptr, CUresult};
use cuda_entry::{Entry, ErrorKind, Resolver, Stream};
use cuda_entry_sim as sim;
use cuda_entry_support::{Driver, Scenario, run_scenarios, simulator_at};

const RUNTIME: Driver = Driver::Runtime(sim::Runtime::Current);

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuInit", version = 2000, resolver = "runtime")]
    fn init(flags: u32) -> CUresult;
    #[cuda_entry(
        symbol = "cuDevicePrimaryCtxRetain",
        version = 7000,
        resolver = "runtime"
    )]
    fn primary_ctx_retain(pctx: *mut CUcontext, dev: CUdevice) -> CUresult;
    #[cuda_entry(symbol = "cuCtxSetCurrent", version = 4000, resolver = "runtime")]
    fn ctx_set_current(ctx: CUcontext) -> CUresult;
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020, resolver = "runtime")]
    fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;
}

fn main() -> ExitCode {
    run_scenarios(&[
        Scenario {
            name: "runtime_resolves_each_version_to_its_export",
            driver: RUNTIME,
            env: &[],
            run: runtime_resolves_each_version_to_its_export,
        },
        Scenario {
            name: "macro_entries_call_through_the_runtime",
            driver: RUNTIME,
            env: &[],
            run: macro_entries_call_through_the_runtime,
        },
        Scenario {
            name: "runtime_answers_map_to_the_same_errors",
            driver: RUNTIME,
            env: &[],
            run: runtime_answers_map_to_the_same_errors,
        },
        Scenario {
            name: "runtime_checks_the_driver_version_first",
            driver: RUNTIME,
            env: &[("CUDA_ENTRY_SIM_VERSION", "12040")],
            run: runtime_checks_the_driver_version_first,
        },
        Scenario {
            name: "runtime_without_by_version_is_an_error",
            driver: Driver::Runtime(sim::Runtime::BeforeCuda125),
            env: &[],
            run: runtime_without_by_version_is_an_error,
        },
        Scenario {
            name: "runtime_error_codes_are_reported",
            driver: RUNTIME,
            env: &[("CUDA_ENTRY_SIMRT_MODE", "rc=999")],
            run: runtime_error_codes_are_reported,
        },
        Scenario {
            name: "runtime_success_with_null_is_never_called",
            driver: RUNTIME,
            env: &[("CUDA_ENTRY_SIMRT_MODE", "null-success")],
            run: runtime_success_with_null_is_never_called,
        },
        Scenario {
            name: "runtime_without_a_driver_is_an_error",
            driver: RUNTIME,
            env: &[("CUDA_ENTRY_SIM_MODE", "version-fails")],
            run: runtime_without_a_driver_is_an_error,
        },
        Scenario {
            name: "missing_runtime_lists_what_was_tried",
            driver: Driver::Default,
            env: &[("CUDA_ENTRY_RUNTIME_PATH", "/nonexistent/libcudart.so.13")],
            run: missing_runtime_lists_what_was_tried,
        },
    ])
}

fn runtime_entry(symbol: &'static std::ffi::CStr, version: u32, stream: Stream) -> &'static Entry {
    Box::leak(Box::new(
        Entry::new(symbol, version, stream).through(Resolver::Runtime),
    ))
}

fn records() -> sim::Simulator {
    simulator_at("CUDA_ENTRY_RUNTIME_PATH")
}

fn assert_unversioned_never_called(sim: &sim::Simulator) {
    assert_eq!(
        sim.calls("cudaGetDriverEntryPoint"),
        0,
        "the unversioned query must never be used"
    );
}

fn runtime_resolves_each_version_to_its_export() {
    let sim = records();
    for (version, export) in [
        (3020, "cuCtxCreate_v2"),
        (11040, "cuCtxCreate_v3"),
        (12050, "cuCtxCreate_v4"),
    ] {
        let pfn = runtime_entry(c"cuCtxCreate", version, Stream::Legacy)
            .resolve()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            Some(pfn.as_ptr()),
            sim.address(export),
            "cuCtxCreate {version}"
        );
    }
    let ptsz = runtime_entry(c"cuLaunchKernel", 7000, Stream::PerThread)
        .resolve()
        .unwrap();
    assert_eq!(Some(ptsz.as_ptr()), sim.address("cuLaunchKernel_ptsz"));
    assert!(sim.calls("cudaGetDriverEntryPointByVersion") >= 4);
    assert_eq!(
        sim.calls("cuGetProcAddress_v2"),
        0,
        "asked through the runtime, not the driver"
    );
    assert_unversioned_never_called(&sim);
    assert_eq!(cuda_entry::runtime_version(), Ok(13000));
}

fn macro_entries_call_through_the_runtime() {
    let sim = records();
    assert_eq!(mem_alloc::ENTRY.resolver(), Resolver::Runtime);
    let mut ctx: CUcontext = std::ptr::null_mut();
    let mut dptr: CUdeviceptr = 0;
    // SAFETY: valid out-pointers to locals, in the driver API's order.
    unsafe {
        assert_eq!(init(0), Ok(()));
        assert_eq!(primary_ctx_retain(&raw mut ctx, 0), Ok(()));
        assert_eq!(ctx_set_current(ctx), Ok(()));
        assert_eq!(mem_alloc(&raw mut dptr, 4096), Ok(()));
    }
    assert_eq!(sim.last_call(), "cuMemAlloc_v2");
    assert_ne!(dptr, 0);
    assert_unversioned_never_called(&sim);
}

fn runtime_answers_map_to_the_same_errors() {
    let sim = records();
    let unknown = runtime_entry(c"cuFoo", 12000, Stream::Legacy)
        .resolve()
        .unwrap_err();
    assert!(
        matches!(unknown.kind(), ErrorKind::SymbolNotFound)
            && unknown.driver_version() == Some(13000),
        "{unknown:?}"
    );
    assert!(
        unknown.to_string().contains(
            "cuFoo version 12000 (CUDA 12.0, legacy default stream, through the CUDA runtime)"
        ),
        "{unknown}"
    );
    let trap = runtime_entry(c"cuLaunchKernel", 4000, Stream::PerThread)
        .resolve()
        .unwrap_err();
    assert!(
        matches!(trap.kind(), ErrorKind::VersionNotSufficient),
        "{trap:?}"
    );
    let asked = sim.calls("cudaGetDriverEntryPointByVersion");
    let too_new = runtime_entry(c"cuMemAlloc", 13020, Stream::Legacy)
        .resolve()
        .unwrap_err();
    assert!(
        matches!(too_new.kind(), ErrorKind::DriverTooOld)
            && too_new.driver_version() == Some(13000),
        "{too_new:?}"
    );
    assert_eq!(
        sim.calls("cudaGetDriverEntryPointByVersion"),
        asked,
        "a too-new request is not asked"
    );
    assert_unversioned_never_called(&sim);
}

fn runtime_checks_the_driver_version_first() {
    let err = runtime_entry(c"cuCtxCreate", 12050, Stream::Legacy)
        .resolve()
        .unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::DriverTooOld) && err.driver_version() == Some(12040),
        "{err:?}"
    );
    assert_eq!(records().calls("cudaGetDriverEntryPointByVersion"), 0);
}

fn runtime_without_by_version_is_an_error() {
    let sim = records();
    let err = runtime_entry(c"cuMemAlloc", 3020, Stream::Legacy)
        .resolve()
        .unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::RuntimeWithoutByVersion {
                runtime_version: 12040,
                ..
            }
        ),
        "{err:?}"
    );
    let text = err.to_string();
    assert!(
        text.contains("cannot resolve cuMemAlloc version 3020")
            && text.contains("CUDA 12.4")
            && text.contains("never used"),
        "{text}"
    );
    assert_unversioned_never_called(&sim);
}

fn runtime_error_codes_are_reported() {
    let err = runtime_entry(c"cuMemAlloc", 3020, Stream::Legacy)
        .resolve()
        .unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::RuntimeError {
                code: 999,
                runtime_version: 13000,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("cudaError_t 999"), "{err}");
}

fn runtime_success_with_null_is_never_called() {
    let err = runtime_entry(c"cuMemAlloc", 3020, Stream::Legacy)
        .resolve()
        .unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::NullPointer), "{err:?}");
}

fn runtime_without_a_driver_is_an_error() {
    let err = runtime_entry(c"cuMemAlloc", 3020, Stream::Legacy)
        .resolve()
        .unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::NoDriverForRuntime {
                runtime_version: 13000,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("reports no CUDA driver"), "{err}");
}

fn missing_runtime_lists_what_was_tried() {
    let err = runtime_entry(c"cuMemAlloc", 3020, Stream::Legacy)
        .resolve()
        .unwrap_err();
    let ErrorKind::RuntimeNotFound { tried, .. } = err.kind() else {
        panic!("{err:?}")
    };
    assert_eq!(tried[0].path, "/nonexistent/libcudart.so.13");
    assert!(err.to_string().contains("CUDA_ENTRY_RUNTIME_PATH"), "{err}");
}
