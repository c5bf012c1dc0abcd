//! A `macro_rules!` that declares entries from a list: every fragment kind a user may forward
//! (`literal`, `expr`, `vis`, `ident`, `ty`, `meta`), each arriving in an invisible group.
#![deny(warnings, missing_docs)]
//! Docs for the crate.

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

macro_rules! driver_functions {
    ($(
        $(#[$attr:meta])*
        $vis:vis fn $name:ident($($param:ident: $ty:ty),* $(,)?) -> $ret:ty
            = $symbol:literal @ $version:literal;
    )*) => {$(
        $(#[$attr])*
        #[cuda_entry(symbol = $symbol, version = $version)]
        $vis unsafe extern "C" fn $name($($param: $ty),*) -> $ret;
    )*};
}

driver_functions! {
    /// Allocates device memory.
    pub fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult = "cuMemAlloc" @ 3020;
    /// Frees device memory.
    pub fn mem_free(dptr: CUdeviceptr) -> CUresult = "cuMemFree" @ 3020;
}

macro_rules! with_expressions {
    ($name:ident, $symbol:expr, $version:expr, $stream:expr) => {
        /// Begins a stream capture on the per-thread default stream.
        #[cuda_entry(symbol = $symbol, version = $version, stream = $stream)]
        pub unsafe extern "C" fn $name(stream: cuda_entry::types::CUstream, mode: u32) -> CUresult;
    };
}

with_expressions!(begin_capture, "cuStreamBeginCapture", 10010, "per_thread");

fn main() {
    assert_eq!((mem_alloc::VERSION, mem_free::TYPEDEF), (3020, "PFN_cuMemFree_v3020"));
    assert_eq!(begin_capture::STREAM, cuda_entry::Stream::PerThread);
    let _ = (mem_alloc::pointer(), mem_free::pointer(), begin_capture::pointer());
}
