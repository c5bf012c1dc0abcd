// A descriptor laid out like `CUDA_ARRAY_DESCRIPTOR_v1` (16 bytes) handed to the 3.2
// `cuArrayCreate`, which reads a 24-byte `CUDA_ARRAY_DESCRIPTOR_v2`.
use std::ffi::c_void;

use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

#[repr(C)]
pub struct ArrayDescriptor {
    pub width: u32,
    pub height: u32,
    pub format: i32,
    pub num_channels: u32,
}

#[cuda_entry(symbol = "cuArrayCreate", version = 3020)]
pub unsafe extern "C" fn array_create(
    handle: *mut *mut c_void,
    descriptor: *const ArrayDescriptor,
) -> CUresult;

fn main() {}
