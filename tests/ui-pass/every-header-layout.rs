//! A struct that changed layout under one typedef version is accepted with the layout of any
//! header of that typedef's toolkits: `CUdevResource` (144 bytes, aligned to 4 up to CUDA 13.0,
//! to 8 from 13.1) and `CUtensorMap` (128 bytes, aligned to 64 in 12.x, to 128 from 13.0), as
//! bindings generated from CUDA 12.8 or 13.0 (cudarc's `cuda-12080`, `cuda-13000`) declare them.
#![deny(warnings)]

use std::ffi::c_void;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUcontext, CUresult};

/// `CUdevResource` as CUDA 12.4 to 13.0 declare it.
#[repr(C, align(4))]
#[derive(cuda_entry::FromDriver)]
pub struct DevResource12 {
    pub bytes: [u8; 144],
}

/// `CUdevResource` as CUDA 13.1 and later declare it.
#[repr(C, align(8))]
#[derive(cuda_entry::FromDriver)]
pub struct DevResource13 {
    pub bytes: [u8; 144],
}

/// `CUtensorMap` as CUDA 12.x declares it.
#[repr(C, align(64))]
#[derive(cuda_entry::FromDriver)]
pub struct TensorMap12 {
    pub opaque: [u64; 16],
}

/// `CUtensorMap` as CUDA 13.0 and later declare it.
#[repr(C, align(128))]
#[derive(cuda_entry::FromDriver)]
pub struct TensorMap13 {
    pub opaque: [u64; 16],
}

type Resource12Ptr = *mut DevResource12;

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuCtxGetDevResource", version = 12040)]
    fn ctx_get_dev_resource_12(ctx: CUcontext, resource: Resource12Ptr, kind: i32) -> CUresult;
    #[cuda_entry(symbol = "cuCtxGetDevResource", version = 12040)]
    fn ctx_get_dev_resource_13(ctx: CUcontext, resource: *mut DevResource13, kind: i32)
    -> CUresult;
    // The tokens tell these layouts: judged by the macro.
    #[cuda_entry(symbol = "cuCtxGetDevResource", version = 12040)]
    fn ctx_get_dev_resource_words(ctx: CUcontext, resource: *mut [u32; 36], kind: i32)
    -> CUresult;
    #[cuda_entry(symbol = "cuTensorMapReplaceAddress", version = 12000)]
    fn tensor_map_replace_address_12(map: *mut TensorMap12, address: *mut c_void) -> CUresult;
    #[cuda_entry(symbol = "cuTensorMapReplaceAddress", version = 12000)]
    fn tensor_map_replace_address_13(map: *mut TensorMap13, address: *mut c_void) -> CUresult;
}

fn main() {
    let _ = (
        ctx_get_dev_resource_12::pointer(),
        ctx_get_dev_resource_13::pointer(),
        ctx_get_dev_resource_words::pointer(),
        tensor_map_replace_address_12::pointer(),
        tensor_map_replace_address_13::pointer(),
    );
}
