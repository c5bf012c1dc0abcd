// `CUtensorMap` is 128 bytes aligned to 64 in CUDA 12.x and to 128 from 13.0: a struct aligned to
// 16 is the layout of no header, which the compiler finds through the alias.
use std::ffi::c_void;

use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

#[repr(C, align(16))]
pub struct TensorMap {
    pub opaque: [u64; 16],
}

type TensorMapPtr = *mut TensorMap;

#[cuda_entry(symbol = "cuTensorMapReplaceAddress", version = 12000)]
pub unsafe extern "C" fn tensor_map_replace_address(
    map: TensorMapPtr,
    address: *mut c_void,
) -> CUresult;

fn main() {}
