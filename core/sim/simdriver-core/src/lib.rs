//! The simulated CUDA driver, compiled once for every simulator build.
//!
//! Five cdylibs stand in for libcuda or libcudart: `cuda-entry-simdriver` (a 12.x/13.x driver),
//! `cuda-entry-simdriver-11x` (no `cuGetProcAddress_v2`), `cuda-entry-simdriver-old` (no
//! `cuGetProcAddress` of either kind) and the two simulated runtimes, which embed this driver. An
//! export cannot be removed by configuration, so each is its own shared object; everything they
//! have in common is this crate. It defines the exports every build has (`#[no_mangle]` here, so
//! each cdylib linking it exports them) and the logic behind all of them. A build's crate root
//! adds what makes it that build, with one [`build!`] invocation: the version
//! `cuDriverGetVersion` reports by default and its `cuGetProcAddress*` exports. See
//! core/sim/simdriver/README.md.
//!
//! Every other export of the real driver is here too, as a stub that records its call and returns
//! 801 ([`unsupported`]), so `cuGetProcAddress*` answers every symbol as the real driver did.

pub mod api;
pub mod build;
pub mod config;
pub mod error;
pub mod exports;
#[rustfmt::skip]
pub mod generated_device;
pub mod gpa;
pub mod inject;
pub mod record;
pub mod table;
pub mod unsupported;

use std::collections::HashMap;
use std::ffi::{CStr, c_char, c_int, c_uint, c_void};
use std::sync::OnceLock;

pub use build::{Build, Export, build};
pub use config::{
    Config, Mode, Settings, cuda_entry_sim_configure, reset_config, set_config, set_mode,
    set_version,
};
pub use error::{SimError, SimResult, rc};
pub use exports::*;
pub use record::{
    calls, cuda_entry_sim_calls, cuda_entry_sim_each_call, cuda_entry_sim_last_call,
    cuda_entry_sim_reset, last_call, recorded, reset,
};

/// What the macros of this crate name from the crate that invokes them.
#[doc(hidden)]
pub mod __private {
    pub use linkme;
}

/// `CUresult`: a C enum, returned as `int`.
pub type CUresult = i32;
/// `CUdevice` (`CUdevice_v1`): a device ordinal.
pub type CUdevice = c_int;
/// `CUdeviceptr` (`CUdeviceptr_v2`): `unsigned long long` since CUDA 3.2.
pub type CUdeviceptr = u64;
/// `CUdeviceptr_v1`: the 32-bit `unsigned int` device pointer of the CUDA 2.0 ABI (`cuMemAlloc`,
/// `cuMemFree`, `cuMemcpyHtoD`, `cuMemcpyDtoH` without `_v2`).
pub type CUdeviceptrV1 = c_uint;
/// `CUcontext`: an opaque pointer.
pub type CUcontext = *mut c_void;
/// `CUmodule`: an opaque pointer.
pub type CUmodule = *mut c_void;
/// `CUfunction`: an opaque pointer.
pub type CUfunction = *mut c_void;
/// `CUstream`: an opaque pointer (NULL, `CU_STREAM_LEGACY` = 1 and `CU_STREAM_PER_THREAD` = 2 are
/// the special ones).
pub type CUstream = *mut c_void;
/// `CUevent`: an opaque pointer.
pub type CUevent = *mut c_void;
/// `CUmemoryPool`: an opaque pointer.
pub type CUmemoryPool = *mut c_void;
/// `cuuint64_t`.
pub type Cuuint64 = u64;
/// `CUdriverProcAddressQueryResult`: a C enum, written as `int`.
pub type CUdriverProcAddressQueryResult = c_int;

/// `CUuuid`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CUuuid {
    /// The 16 bytes.
    pub bytes: [c_char; 16],
}

/// `CUexecAffinityParam` (`CUexecAffinityParam_v1`): `{ CUexecAffinityType type; union { CUexecAffinitySmCount smCount; } param; }`,
/// 8 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CUexecAffinityParam {
    /// `CUexecAffinityType` (0 = `CU_EXEC_AFFINITY_TYPE_SM_COUNT`).
    pub kind: c_int,
    /// `param.smCount.val`, the only member of the union.
    pub sm_count: c_uint,
}

/// `CUctxCreateParams` (CUDA 12.5): "exactly one of execAffinityParams and cigParams must be
/// non-NULL" (cuda.h).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CUctxCreateParams {
    /// `CUexecAffinityParam *execAffinityParams`.
    pub exec_affinity_params: *mut CUexecAffinityParam,
    /// `int numExecAffinityParams`.
    pub num_exec_affinity_params: c_int,
    /// `CUctxCigParam *cigParams` (left opaque: the simulator never reads it).
    pub cig_params: *mut c_void,
}

/// `CUdriverProcAddressQueryResult` values.
pub mod status {
    use super::CUdriverProcAddressQueryResult;
    /// `CU_GET_PROC_ADDRESS_SUCCESS`.
    pub const SUCCESS: CUdriverProcAddressQueryResult = 0;
    /// `CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND`.
    pub const SYMBOL_NOT_FOUND: CUdriverProcAddressQueryResult = 1;
    /// `CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT`.
    pub const VERSION_NOT_SUFFICIENT: CUdriverProcAddressQueryResult = 2;
}

/// Writes one line to stderr. Unlike `eprintln!`, never panics (a panic must not unwind out of
/// an `extern "C"` export): a failed write is ignored.
pub fn say(message: std::fmt::Arguments<'_>) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "{message}");
}

/// The export whose address is `ptr`, if it is one of this driver's exports (what the ground truth
/// read with `dladdr`).
pub fn export_name_of(ptr: *const c_void) -> Option<&'static str> {
    static BY_ADDRESS: OnceLock<HashMap<usize, &'static str>> = OnceLock::new();
    let by_address = BY_ADDRESS.get_or_init(|| {
        all_exports()
            .into_iter()
            .filter_map(|name| Some((export_address(name)? as usize, name)))
            .collect()
    });
    by_address.get(&(ptr as usize)).copied()
}

/// The address of the export `name` of this driver, or `None` when this build has no such export.
pub fn export_address(name: &str) -> Option<*mut c_void> {
    exports::common_export_address(name)
        .or_else(|| build().export_address(name))
        .or_else(|| unsupported::address(name))
}

/// Whether `name` is an export this driver implements (not one of the [`unsupported`] stubs).
pub fn is_implemented(name: &str) -> bool {
    exports::common_export_address(name).is_some() || build().export_address(name).is_some()
}

/// `int cuda_entry_sim_implements(const char *name)`: 1 when `name` is an export this library
/// implements, 0 when it is one of the real driver's exports it only stubs (returning 801,
/// `CUDA_ERROR_NOT_SUPPORTED`), -1 when it is no export of the driver (or NULL).
///
/// # Safety
/// `name` must be NULL or point to a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuda_entry_sim_implements(name: *const c_char) -> c_int {
    if name.is_null() {
        return -1;
    }
    // SAFETY: non-NULL, and the caller promises a NUL-terminated string.
    let Ok(name) = unsafe { CStr::from_ptr(name) }.to_str() else {
        return -1;
    };
    if is_implemented(name) {
        1
    } else if unsupported::address(name).is_some() {
        0
    } else {
        -1
    }
}

/// Every export name of this driver: the simulated CUDA API and the unsupported stubs, without the
/// `cuda_entry_sim_*` instrumentation exports.
pub fn all_exports() -> Vec<&'static str> {
    exports::COMMON_EXPORTS
        .iter()
        .copied()
        .chain(build().export_names())
        .chain(unsupported::NAMES.iter().copied())
        .collect()
}

/// The base symbols (what a caller passes to `cuGetProcAddress*`) of which this driver implements
/// at least one variant.
pub fn implemented_symbols() -> Vec<&'static str> {
    table::SYMBOLS
        .iter()
        .filter(|s| s.variants.iter().any(|v| is_implemented(v.export)))
        .map(|s| s.name)
        .collect()
}

/// The base symbols this driver's `cuGetProcAddress*` resolves: every one driver 580.159.04
/// resolves (those whose exports this build has), implemented or not.
pub fn resolvable_symbols() -> Vec<&'static str> {
    table::SYMBOLS
        .iter()
        .filter(|s| {
            s.variants
                .iter()
                .any(|v| export_address(v.export).is_some())
        })
        .map(|s| s.name)
        .collect()
}
