//! The simulated CUDA driver as a CUDA 11.3-11.8 driver: it exports the 4-argument
//! `cuGetProcAddress` but no `cuGetProcAddress_v2` at all (that export arrived with 12.0), so a
//! library must find the missing symbol at load time and fall back. Everything else is
//! `cuda-entry-simdriver`'s source, compiled here through `#[path]`; see its README.md.

#[path = "../../simdriver/src/shared/mod.rs"]
pub mod shared;

pub use shared::config::{Config, Mode, reset_config, set_config, set_mode, set_version};
pub use shared::exports::*;
pub use shared::record::{
    calls, cuda_entry_sim_calls, cuda_entry_sim_last_call, cuda_entry_sim_reset, last_call, reset,
};
pub use shared::{all_exports, export_address, export_name_of, implemented_symbols};

/// The version `cuDriverGetVersion` reports when `CUDA_ENTRY_SIM_VERSION` is unset: CUDA 11.8.
pub const DEFAULT_VERSION: i32 = 11080;

shared::exports::optional_exports!(cuGetProcAddress);
