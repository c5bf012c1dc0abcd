//! The simulated CUDA driver as a pre-11.3 driver: no `cuGetProcAddress` of either kind (the
//! 4-argument one arrived with 11.3), so a library can only read `cuDriverGetVersion` and report
//! the driver too old. Everything else is `cuda-entry-simdriver-core`; see
//! core/sim/simdriver/README.md.

pub use cuda_entry_simdriver_core::{self as shared, *};

shared::build! {
    // CUDA 11.2.
    default_version: 11020,
    exports: [],
}
