// By value, a type must be proven to travel as the C type does (`cuda_entry::ByValue`), whatever
// its size: a transparent newtype of `u32` is an integer where C has `float` (the driver would
// read a garbage bias from a floating-point register); a struct of two `f32` is floats where
// `CUmemLocation` is two `int`s; `Option<&u64>` is a pointer where `CUdeviceptr` is an
// integer; a struct that does not derive `ByValue` is not proven at all.
use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult, CUstream};
use std::ffi::c_void;

#[repr(transparent)]
#[derive(Clone, Copy, cuda_entry::ByValue)]
pub struct Bias(u32);

#[repr(C)]
#[derive(Clone, Copy, cuda_entry::ByValue)]
pub struct FloatLocation {
    kind: f32,
    id: f32,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct Location {
    kind: i32,
    id: i32,
}

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuTexRefSetMipmapLevelBias", version = 5000)]
    fn set_bias(tex_ref: *mut c_void, bias: Bias) -> CUresult;
    #[cuda_entry(symbol = "cuMemPrefetchAsync", version = 12020)]
    fn prefetch(
        dev_ptr: CUdeviceptr,
        count: usize,
        location: FloatLocation,
        flags: u32,
        stream: CUstream,
    ) -> CUresult;
    #[cuda_entry(symbol = "cuMemFree", version = 3020)]
    fn free(dptr: Option<&'static u64>) -> CUresult;
    #[cuda_entry(symbol = "cuMemAdvise", version = 12020)]
    fn advise(dev_ptr: CUdeviceptr, count: usize, advice: i32, location: Location) -> CUresult;
}

fn main() {}
