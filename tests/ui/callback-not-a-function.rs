// An 8-byte integer is no function pointer, though it has the layout of one.
use std::ffi::c_void;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUresult, CUstream};

#[cuda_entry(symbol = "cuLaunchHostFunc", version = 10000)]
pub unsafe extern "C" fn launch_host_func(stream: CUstream, f: u64, user_data: *mut c_void)
-> CUresult;

fn main() {}
