//! What the pointee and class checks accept: any pointer shape, aliases of pointers, `c_void`
//! to leave a pointee unchecked, newtypes of the C layout, floats where C has `float`.
#![deny(warnings)]

use std::ffi::{c_char, c_void};
use std::ptr::NonNull;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUcontext, CUdevice, CUdeviceptr, CUresult};

type SizePtr = *mut usize;
type Opaque = c_void;

/// A newtype of the C `float`: its class is proven by the derive (a float), its layout checked.
#[repr(transparent)]
#[derive(Clone, Copy, cuda_entry::FromDriver, cuda_entry::ByValue)]
pub struct Bias(pub f32);

#[repr(C)]
#[derive(cuda_entry::FromDriver)]
pub struct ArrayDescriptor {
    pub width: usize,
    pub height: usize,
    pub format: i32,
    pub num_channels: u32,
}

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuMemGetInfo", version = 3020)]
    fn mem_get_info(free: SizePtr, total: &mut usize) -> CUresult;
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
    fn mem_alloc(dptr: Option<NonNull<CUdeviceptr>>, bytesize: usize) -> CUresult;
    #[cuda_entry(symbol = "cuMemGetInfo", version = 2000)]
    fn mem_get_info_v1(free: *mut c_void, total: *mut Opaque) -> CUresult;
    #[cuda_entry(symbol = "cuTexRefSetMipmapLevelBias", version = 5000)]
    fn set_bias(tex_ref: *mut c_void, bias: f32) -> CUresult;
    #[cuda_entry(symbol = "cuTexRefSetMipmapLevelClamp", version = 5000)]
    fn set_clamp(tex_ref: *mut c_void, min: Bias, max: Bias) -> CUresult;
    #[cuda_entry(symbol = "cuGetErrorString", version = 6000)]
    fn get_error_string(error: CUresult, text: *mut *const c_char) -> CUresult;
    #[cuda_entry(symbol = "cuGetErrorName", version = 6000)]
    fn get_error_name(error: CUresult, text: *mut c_void) -> CUresult;
    #[cuda_entry(symbol = "cuArrayCreate", version = 3020)]
    fn array_create(handle: *mut *mut c_void, descriptor: &ArrayDescriptor) -> CUresult;
    #[cuda_entry(symbol = "cuCtxCreate", version = 3020)]
    fn ctx_create(pctx: Option<&mut CUcontext>, flags: u32, dev: CUdevice) -> CUresult;
}

fn main() {
    let _ = (mem_get_info::pointer(), mem_alloc::pointer(), mem_get_info_v1::pointer());
    let _ = (set_bias::pointer(), set_clamp::pointer(), get_error_string::pointer());
    let _ = (get_error_name::pointer(), array_create::pointer(), ctx_create::pointer());
}
