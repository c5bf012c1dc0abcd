//! The simulated CUDA runtime, compiled once for both runtime builds.
//!
//! `cuda-entry-simruntime` (a 12.5+ runtime with `cudaGetDriverEntryPointByVersion`) and
//! `cuda-entry-simruntime-old` (a 12.0-12.4 runtime without it) are this crate plus the driver
//! simulator's core, `cuda-entry-simdriver-core`, which it embeds and re-exports (`shared`). It
//! defines the `cuda*` exports both runtimes have (`#[no_mangle]` here, so each cdylib linking it
//! exports them); a runtime's crate root adds what makes it that build, with one
//! [`runtime_build!`] invocation (the version `cudaRuntimeGetVersion` reports by default and
//! whether it has `cudaGetDriverEntryPointByVersion`) besides the embedded driver's `build!`. See
//! core/sim/simruntime/README.md.
//!
//! The entry-point exports answer through the embedded driver's own `cuGetProcAddress_v2` logic
//! (`shared::gpa::get_proc_address_v2`, called as a function, so it is not recorded as a
//! `cuGetProcAddress_v2` call), and the pointers they hand out are the embedded driver's exports:
//! a call through one reaches the simulated driver in this same library and is recorded.

pub mod config;
pub mod exports;

use std::ffi::c_int;

use linkme::distributed_slice;

pub use config::{
    RuntimeConfig, RuntimeMode, cuda_entry_simrt_configure, reset_runtime_config,
    set_runtime_config, set_runtime_mode, set_runtime_version,
};
/// The embedded driver, whole: a runtime's crate root re-exports this crate and so both.
pub use cuda_entry_simdriver_core::{self as shared, *};
pub use exports::{
    COMMON_RUNTIME_EXPORTS, all_runtime_exports, cudaDriverGetVersion, cudaGetDriverEntryPoint,
    cudaRuntimeGetVersion, get_driver_entry_point_by_version, runtime_export_address,
};

/// `cudaError_t`: a C enum, returned as `int`.
pub type CudaError = c_int;
/// `cudaDriverEntryPointQueryResult`: a C enum, written as `int`.
pub type CudaDriverEntryPointQueryResult = c_int;

/// The `cudaError_t` values the simulated runtime returns (values from driver_types.h): each is
/// the twin of a driver code, see [`error_of`].
pub mod error {
    use super::CudaError;
    /// `cudaSuccess`.
    pub const SUCCESS: CudaError = 0;
    /// `cudaErrorInvalidValue`.
    pub const INVALID_VALUE: CudaError = 1;
    /// `cudaErrorInitializationError`.
    pub const INITIALIZATION_ERROR: CudaError = 3;
    /// `cudaErrorStubLibrary`.
    pub const STUB_LIBRARY: CudaError = 34;
    /// `cudaErrorSymbolNotFound`.
    pub const SYMBOL_NOT_FOUND: CudaError = 500;
}

/// `cudaGetDriverEntryPointFlags` (the same values as the driver's `CU_GET_PROC_ADDRESS_*`).
pub mod flags {
    /// `cudaEnableDefault`.
    pub const ENABLE_DEFAULT: u64 = 0;
    /// `cudaEnableLegacyStream`.
    pub const ENABLE_LEGACY_STREAM: u64 = 1;
    /// `cudaEnablePerThreadDefaultStream`.
    pub const ENABLE_PER_THREAD_DEFAULT_STREAM: u64 = 2;
}

/// `cudaDriverEntryPointQueryResult` values (the same as the driver's
/// `CUdriverProcAddressQueryResult`).
pub mod query {
    use super::CudaDriverEntryPointQueryResult;
    /// `cudaDriverEntryPointSuccess`.
    pub const SUCCESS: CudaDriverEntryPointQueryResult = 0;
    /// `cudaDriverEntryPointSymbolNotFound`.
    pub const SYMBOL_NOT_FOUND: CudaDriverEntryPointQueryResult = 1;
    /// `cudaDriverEntryPointVersionNotSufficent` (sic, driver_types.h).
    pub const VERSION_NOT_SUFFICIENT: CudaDriverEntryPointQueryResult = 2;
}

/// The `cudaError_t` the runtime returns for a `CUresult` of the embedded driver.
///
/// `CUDA_ERROR_INVALID_VALUE` (1) is `cudaErrorInvalidValue` (1), the only failure the real
/// runtime was seen to pass on (versions above the driver, flags 99). The other codes the
/// simulated driver can produce have runtime twins with the same number
/// (`CUDA_ERROR_NOT_INITIALIZED` 3 / `cudaErrorInitializationError`, `CUDA_ERROR_STUB_LIBRARY` 34
/// / `cudaErrorStubLibrary`, `CUDA_ERROR_NOT_FOUND` 500 / `cudaErrorSymbolNotFound`); anything
/// else (a driver in `rc=<N>` mode) passes through unchanged.
pub fn error_of(code: CUresult) -> CudaError {
    match code {
        rc::SUCCESS => error::SUCCESS,
        rc::INVALID_VALUE => error::INVALID_VALUE,
        rc::NOT_INITIALIZED => error::INITIALIZATION_ERROR,
        rc::STUB_LIBRARY => error::STUB_LIBRARY,
        rc::NOT_FOUND => error::SYMBOL_NOT_FOUND,
        other => other,
    }
}

/// The runtime builds linked into this image: exactly one (as the driver's `BUILDS`).
#[distributed_slice]
pub static RUNTIME_BUILDS: [Build];

/// The runtime build this library is.
pub fn runtime_build() -> &'static Build {
    Build::only(
        &RUNTIME_BUILDS,
        "cuda_entry_simruntime_core::runtime_build!",
    )
}

/// Declares the crate root's runtime build: the version `cudaRuntimeGetVersion` reports by
/// default (also defined as `DEFAULT_RUNTIME_VERSION`) and its versioned entry-point exports,
/// which this defines.
///
/// ```text
/// cuda_entry_simruntime_core::runtime_build! {
///     default_version: 13000,
///     exports: [cudaGetDriverEntryPointByVersion],
/// }
/// ```
///
/// `exports` lists `cudaGetDriverEntryPointByVersion` or nothing. The crate root also declares
/// the embedded driver's build (`shared::build!`).
#[macro_export]
macro_rules! runtime_build {
    (default_version: $version:expr, exports: [$($name:ident),* $(,)?] $(,)?) => {
        $($crate::runtime_build!(@export $name);)*

        /// The version `cudaRuntimeGetVersion` reports when `CUDA_ENTRY_SIMRT_VERSION` is unset.
        pub const DEFAULT_RUNTIME_VERSION: i32 = $version;

        $crate::shared::register_build!(
            RUNTIME_BUILD in $crate::RUNTIME_BUILDS: DEFAULT_RUNTIME_VERSION, [$($name),*]
        );
    };
    (@export cudaGetDriverEntryPointByVersion) => {
        /// The simulated `cudaGetDriverEntryPointByVersion` export (CUDA 12.5+): the embedded
        /// driver's `cuGetProcAddress_v2` answer; see
        /// [`get_driver_entry_point_by_version`]($crate::get_driver_entry_point_by_version).
        ///
        /// # Safety
        ///
        /// `symbol` must be NULL or a NUL-terminated string; `func_ptr` NULL or writable;
        /// `driver_status` NULL or writable. (NULL `symbol`/`func_ptr` abort the process.)
        #[unsafe(no_mangle)]
        #[allow(non_snake_case)]
        pub unsafe extern "C" fn cudaGetDriverEntryPointByVersion(
            symbol: *const ::std::ffi::c_char,
            func_ptr: *mut *mut ::std::ffi::c_void,
            cuda_version: ::std::ffi::c_uint,
            flags: ::std::ffi::c_ulonglong,
            driver_status: *mut $crate::CudaDriverEntryPointQueryResult,
        ) -> $crate::CudaError {
            // SAFETY: the caller upholds this export's C contract, which is exactly the
            // implementation's contract (same arguments, forwarded unchanged).
            unsafe {
                $crate::get_driver_entry_point_by_version(
                    symbol,
                    func_ptr,
                    cuda_version,
                    flags,
                    driver_status,
                )
            }
        }
    };
}
