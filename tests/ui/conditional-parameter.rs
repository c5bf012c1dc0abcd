use std::ffi::c_void;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

// Per-target parameter types: the macro cannot see which `#[cfg]` holds.
#[cuda_entry(symbol = "cuMemcpyHtoD", version = 3020)]
pub unsafe extern "C" fn copy_to_device(
    dst: CUdeviceptr,
    #[cfg(not(windows))] src: *const c_void,
    #[cfg(windows)] src: *const u8,
    bytes: usize,
) -> CUresult;

fn main() {}
