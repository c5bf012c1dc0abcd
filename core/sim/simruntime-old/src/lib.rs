//! The simulated CUDA runtime as a CUDA 12.0-12.4 runtime: `cudaGetDriverEntryPoint` (resolving
//! at the runtime's own version) but no `cudaGetDriverEntryPointByVersion`, which arrived with
//! 12.5, so a library must find the missing symbol at load time. Everything else is
//! `cuda-entry-simruntime-core` (and the driver simulator's core it embeds); see
//! core/sim/simruntime/README.md.

pub use cuda_entry_simruntime_core::{self as runtime, *};

shared::build! {
    // The embedded driver: 13000 (a new driver under an older runtime).
    default_version: 13000,
    exports: [cuGetProcAddress_v2, cuGetProcAddress],
}

runtime::runtime_build! {
    // CUDA 12.4, the last runtime without `cudaGetDriverEntryPointByVersion`.
    default_version: 12040,
    exports: [],
}
