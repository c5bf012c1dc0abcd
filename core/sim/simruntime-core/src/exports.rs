//! The `cuda*` exports both runtime builds have, and the entry-point logic behind
//! `cudaGetDriverEntryPointByVersion` (exported by the builds that have it, `runtime_build!`).
//!
//! The logic returns a [`SimResult`], turned into the `cudaError_t` once, by `answer`.

use std::ffi::{c_char, c_int, c_ulonglong, c_void};

use super::config::{self, RuntimeMode};
use super::shared::config::Mode;
use super::shared::{SimError, SimResult, api, gpa, record, say};
use super::{CudaDriverEntryPointQueryResult, CudaError, error_of, query};

/// What every runtime export does around its implementation, the one place a [`SimResult`]
/// becomes a `cudaError_t`: records the call under `name_nul` (its name with a trailing NUL) and
/// returns the code. The runtime's own failures are [`SimError`]s too: every code it returns is
/// the twin of a driver code ([`error_of`]).
fn answer(name_nul: &'static str, implementation: impl FnOnce() -> SimResult) -> CudaError {
    record::enter(name_nul);
    error_of(SimError::result_code(implementation()))
}

/// As the driver simulator: a NULL `funcPtr` or `symbol` is always the caller's bug, so the
/// process stops loudly instead of returning an error a test could overlook.
fn abort_on_null(what: &str, export: &str) -> ! {
    say(format_args!(
        "cuda-entry simulated runtime: NULL {what} passed to {export} (the driver simulator aborts \
         here too; the real driver segfaults)"
    ));
    std::process::abort();
}

/// The status value meaning "the driver left `*status` unwritten" (never a real status).
const UNWRITTEN: CudaDriverEntryPointQueryResult = -1;

/// What both entry-point exports do once the version to resolve at is known.
///
/// # Safety
///
/// `symbol` NULL or NUL-terminated; `func_ptr` NULL or writable; `driver_status` NULL or writable.
unsafe fn entry_point(
    export: &str,
    symbol: *const c_char,
    func_ptr: *mut *mut c_void,
    cuda_version: c_int,
    flags: u64,
    driver_status: *mut CudaDriverEntryPointQueryResult,
) -> SimResult {
    if symbol.is_null() {
        abort_on_null("symbol", export);
    }
    if func_ptr.is_null() {
        abort_on_null("funcPtr", export);
    }
    let mode = config::get().mode;
    if let RuntimeMode::Rc(n) = mode {
        return Err(SimError::Injected(n));
    }
    // A runtime sitting on the toolkit's stub driver gets 34 from every driver call.
    if super::shared::config::get().mode == Mode::Stub {
        return Err(SimError::StubLibrary);
    }
    let (mut pfn, mut status) = (std::ptr::null_mut(), UNWRITTEN);
    // SAFETY: `symbol` is non-NULL and NUL-terminated (the caller's contract); `pfn` and `status`
    // are live locals. On an error the driver wrote nothing; neither does the runtime.
    unsafe { gpa::get_proc_address_v2(symbol, &mut pfn, cuda_version, flags, &mut status) }?;
    let (pfn, status) = match mode {
        RuntimeMode::NullSuccess => (std::ptr::null_mut(), query::SUCCESS),
        _ => (pfn, status),
    };
    // SAFETY: `func_ptr` is non-NULL and the caller promises it is writable.
    unsafe { func_ptr.write(pfn) };
    // `driverStatus` is optional (NULL allowed), and stays unwritten when the driver left it so
    // (driver mode `status-unwritten`) or the runtime's mode says so.
    if !driver_status.is_null() && status != UNWRITTEN && mode != RuntimeMode::UnwrittenStatus {
        // SAFETY: non-NULL, and the caller promises it is writable.
        unsafe { driver_status.write(status) };
    }
    Ok(())
}

/// `cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr,
/// unsigned int cudaVersion, unsigned long long flags,
/// cudaDriverEntryPointQueryResult *driverStatus)` (CUDA 12.5+): the embedded driver's
/// `cuGetProcAddress_v2` answer for (`symbol`, `cudaVersion`, `flags`), as libcudart.so.13 gave
/// the real driver's. A `cudaVersion` above `INT_MAX` (unmeasured) is asked as `INT_MAX`, i.e.
/// above any driver: 1.
///
/// Records the call as `cudaGetDriverEntryPointByVersion`; the crate that has the export
/// generates it with `runtime_build!`.
///
/// # Safety
///
/// `symbol` must be NULL or a NUL-terminated string; `func_ptr` NULL or writable;
/// `driver_status` NULL or writable. (NULL `symbol`/`func_ptr` abort the process on purpose.)
pub unsafe fn get_driver_entry_point_by_version(
    symbol: *const c_char,
    func_ptr: *mut *mut c_void,
    cuda_version: u32,
    flags: c_ulonglong,
    driver_status: *mut CudaDriverEntryPointQueryResult,
) -> CudaError {
    answer("cudaGetDriverEntryPointByVersion\0", || {
        let version = c_int::try_from(cuda_version).unwrap_or(c_int::MAX);
        // SAFETY: the caller's contract, forwarded unchanged.
        unsafe {
            entry_point(
                "cudaGetDriverEntryPointByVersion",
                symbol,
                func_ptr,
                version,
                flags,
                driver_status,
            )
        }
    })
}

/// `cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr,
/// unsigned long long flags, cudaDriverEntryPointQueryResult *driverStatus)` (the CUDA 12.x
/// signature): as `cudaGetDriverEntryPointByVersion` at the runtime's own version (what
/// `cudaRuntimeGetVersion` reports), which is why a library must never call it: the ABI it hands
/// out follows whichever runtime is installed. It exists so tests can prove it is not called
/// (`cuda_entry_sim_calls("cudaGetDriverEntryPoint")`).
///
/// # Safety
///
/// As `cudaGetDriverEntryPointByVersion`.
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub unsafe extern "C" fn cudaGetDriverEntryPoint(
    symbol: *const c_char,
    func_ptr: *mut *mut c_void,
    flags: c_ulonglong,
    driver_status: *mut CudaDriverEntryPointQueryResult,
) -> CudaError {
    answer("cudaGetDriverEntryPoint\0", || {
        let version = config::get().version;
        // SAFETY: the caller's contract, forwarded unchanged.
        unsafe {
            entry_point(
                "cudaGetDriverEntryPoint",
                symbol,
                func_ptr,
                version,
                flags,
                driver_status,
            )
        }
    })
}

/// `cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)`: writes the runtime version
/// (`CUDA_ENTRY_SIMRT_VERSION`, default: the build's); NULL: 1 (`cudaErrorInvalidValue`). Needs
/// no driver, so the driver's modes do not affect it.
///
/// # Safety
///
/// `runtime_version` must be NULL or writable.
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub unsafe extern "C" fn cudaRuntimeGetVersion(runtime_version: *mut c_int) -> CudaError {
    answer("cudaRuntimeGetVersion\0", || {
        if runtime_version.is_null() {
            return Err(SimError::InvalidValue);
        }
        let version = config::get().version;
        // SAFETY: non-NULL, and the caller promises it is writable.
        unsafe { runtime_version.write(version) };
        Ok(())
    })
}

/// `cudaError_t cudaDriverGetVersion(int *driverVersion)`: the embedded driver's
/// `cuDriverGetVersion` answer (`CUDA_ENTRY_SIM_VERSION`, read as the driver simulator reads it);
/// NULL: 1. Driver mode `stub`: 34 (`cudaErrorStubLibrary`); `version-fails`: 3
/// (`cudaErrorInitializationError`); nothing written either way.
///
/// # Safety
///
/// `driver_version` must be NULL or writable.
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub unsafe extern "C" fn cudaDriverGetVersion(driver_version: *mut c_int) -> CudaError {
    answer("cudaDriverGetVersion\0", || {
        if driver_version.is_null() {
            return Err(SimError::InvalidValue);
        }
        if super::shared::config::get().mode == Mode::Stub {
            return Err(SimError::StubLibrary);
        }
        // SAFETY: non-NULL and writable (the caller's contract); called as a function, so the
        // driver's `cuDriverGetVersion` is not recorded.
        unsafe { api::driver_get_version(driver_version) }
    })
}

/// The runtime exports every build has.
pub const COMMON_RUNTIME_EXPORTS: &[&str] = &[
    "cudaDriverGetVersion",
    "cudaGetDriverEntryPoint",
    "cudaRuntimeGetVersion",
];

/// The address of the runtime export `name` (`cuda*`) of this build, or `None` when it has no
/// such export.
pub fn runtime_export_address(name: &str) -> Option<*mut c_void> {
    match name {
        "cudaDriverGetVersion" => Some(cudaDriverGetVersion as *mut c_void),
        "cudaGetDriverEntryPoint" => Some(cudaGetDriverEntryPoint as *mut c_void),
        "cudaRuntimeGetVersion" => Some(cudaRuntimeGetVersion as *mut c_void),
        _ => super::runtime_build().export_address(name),
    }
}

/// Every runtime export (`cuda*`) of this build. The embedded driver's exports (`cu*`) are
/// `all_exports()`, the instrumentation exports (`cuda_entry_sim_*`) neither.
pub fn all_runtime_exports() -> Vec<&'static str> {
    COMMON_RUNTIME_EXPORTS
        .iter()
        .copied()
        .chain(super::runtime_build().export_names())
        .collect()
}
