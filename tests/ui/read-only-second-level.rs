// `void **data` of cuPointerGetAttributes: the driver writes each attribute through the pointer
// `data[i]`, so the pointers it points to must not promise otherwise.
use std::ffi::c_void;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

#[cuda_entry(symbol = "cuPointerGetAttributes", version = 7000)]
pub unsafe extern "C" fn pointer_get_attributes(
    count: u32,
    attributes: *mut i32,
    data: *mut *const c_void,
    ptr: CUdeviceptr,
) -> CUresult;

fn main() {}
