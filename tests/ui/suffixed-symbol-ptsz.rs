use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

use std::ffi::c_void;
use cuda_entry::types::{CUfunction, CUstream};

#[cuda_entry(symbol = "cuLaunchKernel_ptsz", version = 7000)]
pub unsafe extern "C" fn launch(
    f: CUfunction, gx: u32, gy: u32, gz: u32, bx: u32, by: u32, bz: u32,
    shared: u32, stream: CUstream, params: *mut *mut c_void, extra: *mut *mut c_void,
) -> CUresult;

fn main() {}
