//! A simulated CUDA driver for testing cuda-entry without a GPU.
//!
//! Built as a cdylib it stands in for `libcuda.so.1`: the library under test loads it through its
//! driver-path override and resolves entries through its `cuGetProcAddress_v2`, which answers
//! exactly as driver 580.159.04 (CUDA 13000) did (tests/ground-truth/). Built as an rlib, the same
//! exports and a configuration API are callable in-process by the simulator's own tests.
//!
//! This crate is the 12.0+ driver: it has both `cuGetProcAddress_v2` and the 4-argument
//! `cuGetProcAddress`. Everything else is `cuda-entry-simdriver-core`, which
//! `cuda-entry-simdriver-11x` and `cuda-entry-simdriver-old` link too. See README.md for the
//! environment variables and modes. Tests of other crates use it through the kit,
//! `cuda-entry-sim`, which makes Cargo build it and points cuda-entry at it.
//!
#![doc = include_str!("../EXPORTS.md")]

pub use cuda_entry_simdriver_core::{self as shared, *};

shared::build! {
    // The driver the ground truth was read from (580.159.04 reports 13000).
    default_version: 13000,
    exports: [cuGetProcAddress_v2, cuGetProcAddress],
}
