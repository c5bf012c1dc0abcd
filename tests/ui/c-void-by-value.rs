// `c_void` leaves a pointee unchecked, but only behind a pointer: `*mut c_void`.
use std::ffi::c_void;

use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

#[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
pub unsafe extern "C" fn mem_alloc(dptr: c_void, bytesize: usize) -> CUresult;

fn main() {}
