// A reference among a callback's parameters: its lifetime is the function pointer's own generic
// parameter, which no C caller can promise anything about (rustc said "implementation of ... is
// not general enough", twice, naming a private trait). The driver passes an address: a raw
// pointer carries it.
use std::ffi::c_void;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUresult, CUstream};

#[cuda_entry(symbol = "cuLaunchHostFunc", version = 10000)]
pub unsafe extern "C" fn launch_host_func(
    stream: CUstream,
    f: Option<unsafe extern "C" fn(&mut u64)>,
    user_data: *mut c_void,
) -> CUresult;

fn main() {}
