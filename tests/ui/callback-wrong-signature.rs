// `CUhostFn` is `void (*)(void *userData)`: one pointer parameter, no return value.
use std::ffi::c_void;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUresult, CUstream};

#[cuda_entry(symbol = "cuLaunchHostFunc", version = 10000)]
pub unsafe extern "C" fn launch_host_func(
    stream: CUstream,
    f: extern "C" fn(u8, f64, u128) -> f64,
    user_data: *mut c_void,
) -> CUresult;

fn main() {}
