//! A simulated CUDA runtime for testing cuda-entry's runtime-API resolver without a GPU.
//!
//! Built as a cdylib it stands in for `libcudart.so.13`: its `cudaGetDriverEntryPointByVersion`
//! answers with the simulated driver's `cuGetProcAddress_v2` logic (libcudart.so.13 gave the real
//! driver's answers for every request tried, tests/ground-truth/README.md), and the pointers it
//! hands out are the simulated driver's exports, compiled into this same library from
//! `tests/simdriver/src/shared/` through `#[path]`, so a call through one works and is recorded by
//! the same instrumentation (`cuda_entry_sim_calls`), which also counts the `cuda*` exports.
//! Built as an rlib, the same exports and both configurations are callable in-process.
//!
//! This crate is the 12.5+ runtime (reports 13000). `cuda-entry-simruntime-old` compiles the same
//! `src/runtime/` without `cudaGetDriverEntryPointByVersion`. See README.md for the environment
//! variables and modes.

#[path = "../../simdriver/src/shared/mod.rs"]
pub mod shared;

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
/// when `CUDA_ENTRY_SIM_VERSION` is unset: 13000, as the driver simulator.
pub const DEFAULT_VERSION: i32 = 13000;

/// The version `cudaRuntimeGetVersion` reports when `CUDA_ENTRY_SIMRT_VERSION` is unset: the
/// runtime the ground truth was read with (libcudart.so.13, 13000).
pub const DEFAULT_RUNTIME_VERSION: i32 = 13000;

shared::exports::optional_exports!(cuGetProcAddress_v2, cuGetProcAddress);
runtime::optional_runtime_exports!(cudaGetDriverEntryPointByVersion);
