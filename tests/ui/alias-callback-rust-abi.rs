// An alias hides a Rust-ABI `fn` from the macro's reading; the compiler sees through it.
use std::ffi::c_void;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUresult, CUstream};

type HostFn = Option<fn(*mut c_void)>;

#[cuda_entry(symbol = "cuLaunchHostFunc", version = 10000)]
pub unsafe extern "C" fn launch_host_func(stream: CUstream, f: HostFn, user_data: *mut c_void)
-> CUresult;

fn main() {}
