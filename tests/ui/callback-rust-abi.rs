// `CUhostFn` is a C function pointer: a Rust-ABI `fn` is called by the driver with the C
// convention.
use std::ffi::c_void;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUresult, CUstream};

#[cuda_entry(symbol = "cuLaunchHostFunc", version = 10000)]
pub unsafe extern "C" fn launch_host_func(
    stream: CUstream,
    f: Option<fn(*mut c_void)>,
    user_data: *mut c_void,
) -> CUresult;

fn main() {}
