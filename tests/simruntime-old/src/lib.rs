//! The simulated CUDA runtime as a CUDA 12.0-12.4 runtime: `cudaGetDriverEntryPoint` (resolving
//! at the runtime's own version) but no `cudaGetDriverEntryPointByVersion`, which arrived with
//! 12.5, so a library must find the missing symbol at load time. `cudaRuntimeGetVersion` reports
//! 12040 by default. Everything else is `cuda-entry-simruntime`'s source (and the driver
//! simulator's, embedded the same way), compiled here through `#[path]`; see its README.md.

#[path = "../../simdriver/src/shared/mod.rs"]
pub mod shared;

#[path = "../../simruntime/src/runtime/mod.rs"]
pub mod runtime;

pub use runtime::config::{
    RuntimeConfig, RuntimeMode, reset_runtime_config, set_runtime_config, set_runtime_mode,
    set_runtime_version,
};
pub use runtime::{
    CudaDriverEntryPointQueryResult, CudaError, all_runtime_exports, cudaDriverGetVersion,
    cudaGetDriverEntryPoint, cudaRuntimeGetVersion, error_of, runtime_export_address,
};
pub use shared::config::{Config, Mode, reset_config, set_config, set_mode, set_version};
pub use shared::exports::*;
pub use shared::record::{
    calls, cuda_entry_sim_calls, cuda_entry_sim_last_call, cuda_entry_sim_reset, last_call, reset,
};
pub use shared::{all_exports, export_address, export_name_of, implemented_symbols};

/// The version the embedded driver's `cuDriverGetVersion` (and so `cudaDriverGetVersion`) reports
/// when `CUDA_ENTRY_SIM_VERSION` is unset: 13000 (a new driver under an older runtime).
pub const DEFAULT_VERSION: i32 = 13000;

/// The version `cudaRuntimeGetVersion` reports when `CUDA_ENTRY_SIMRT_VERSION` is unset: CUDA
/// 12.4, the last runtime without `cudaGetDriverEntryPointByVersion`.
pub const DEFAULT_RUNTIME_VERSION: i32 = 12040;

shared::exports::optional_exports!(cuGetProcAddress_v2, cuGetProcAddress);
runtime::optional_runtime_exports!();
