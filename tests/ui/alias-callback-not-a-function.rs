// An alias of an integer where C has a callback: no function pointer at all.
use std::ffi::c_void;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUresult, CUstream};

type HostFn = usize;

#[cuda_entry(symbol = "cuLaunchHostFunc", version = 10000)]
pub unsafe extern "C" fn launch_host_func(stream: CUstream, f: HostFn, user_data: *mut c_void)
-> CUresult;

fn main() {}
