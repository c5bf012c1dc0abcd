//! A simulated CUDA driver for testing cuda-entry without a GPU.
//!
//! Built as a cdylib it stands in for `libcuda.so.1`: the library under test loads it through its
//! driver-path override and resolves entries through its `cuGetProcAddress_v2`, which answers
//! exactly as driver 580.159.04 (CUDA 13000) did (tests/ground-truth/). Built as an rlib, the same
//! exports and a configuration API are callable in-process by the simulator's own tests.
//!
//! This crate is the 12.0+ driver: it has both `cuGetProcAddress_v2` and the 4-argument
//! `cuGetProcAddress`. `cuda-entry-simdriver-11x` and `cuda-entry-simdriver-old` compile the same
//! `src/shared/` without one or both. See README.md for the environment variables and modes.

pub mod shared;

pub use shared::config::{Config, Mode, reset_config, set_config, set_mode, set_version};
pub use shared::exports::*;
pub use shared::record::{
    calls, cuda_entry_sim_calls, cuda_entry_sim_last_call, cuda_entry_sim_reset, last_call, reset,
};
pub use shared::{all_exports, export_address, export_name_of, implemented_symbols};

/// The version `cuDriverGetVersion` reports when `CUDA_ENTRY_SIM_VERSION` is unset: the driver the
/// ground truth was read from (580.159.04 reports 13000).
pub const DEFAULT_VERSION: i32 = 13000;

shared::exports::optional_exports!(cuGetProcAddress_v2, cuGetProcAddress);
