//! The simulated CUDA driver as a CUDA 11.3-11.8 driver: it exports the 4-argument
//! `cuGetProcAddress` but no `cuGetProcAddress_v2` at all (that export arrived with 12.0), so a
//! library must find the missing symbol at load time and fall back. Everything else is
//! `cuda-entry-simdriver-core`; see core/sim/simdriver/README.md.

pub use cuda_entry_simdriver_core::{self as shared, *};

shared::build! {
    // CUDA 11.8.
    default_version: 11080,
    exports: [cuGetProcAddress],
}
