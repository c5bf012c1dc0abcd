//! A simulated CUDA runtime for testing cuda-entry's runtime-API resolver without a GPU.
//!
//! Built as a cdylib it stands in for `libcudart.so.13`: its `cudaGetDriverEntryPointByVersion`
//! answers with the simulated driver's `cuGetProcAddress_v2` logic (libcudart.so.13 gave the real
//! driver's answers for every request tried, tests/ground-truth/README.md), and the pointers it
//! hands out are the simulated driver's exports, linked into this same library from
//! `cuda-entry-simdriver-core`, so a call through one works and is recorded by the same
//! instrumentation (`cuda_entry_sim_calls`), which also counts the `cuda*` exports. Built as an
//! rlib, the same exports and both configurations are callable in-process.
//!
//! This crate is the 12.5+ runtime (reports 13000). Everything else is
//! `cuda-entry-simruntime-core`, which `cuda-entry-simruntime-old` links too. See README.md for
//! the environment variables and modes.

pub use cuda_entry_simruntime_core::{self as runtime, *};

shared::build! {
    // The embedded driver: 13000, as the driver simulator.
    default_version: 13000,
    exports: [cuGetProcAddress_v2, cuGetProcAddress],
}

runtime::runtime_build! {
    // The runtime the ground truth was read with (libcudart.so.13, 13000).
    default_version: 13000,
    exports: [cudaGetDriverEntryPointByVersion],
}
