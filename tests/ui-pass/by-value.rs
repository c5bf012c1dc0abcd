// What the by-value rule accepts: a field-less enum and a record of one deriving `ByValue`
// where C has an enum and `CUmemLocation` (the caller chose the values), a transparent newtype
// of `f32` for a C `float`, `Wrapping<u32>` for an `unsigned int`, a `u64` for a handle (any
// integer of its size carries one), a generic record, and proofs through a re-export.
#![deny(warnings)]

use std::ffi::c_void;
use std::num::Wrapping;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdevice, CUdeviceptr, CUresult};

#[allow(dead_code)]
#[repr(C)]
#[derive(Clone, Copy, cuda_entry::ByValue)]
pub enum LocationType {
    Invalid = 0,
    Device = 1,
}

#[repr(C)]
#[derive(Clone, Copy, cuda_entry::ByValue)]
pub struct Location {
    pub kind: LocationType,
    pub id: i32,
}

#[repr(C)]
#[derive(Clone, Copy, cuda_entry::ByValue)]
pub struct Pair<T> {
    pub kind: T,
    pub id: T,
}

#[allow(dead_code)]
#[repr(u32)]
#[derive(Clone, Copy, cuda_entry::ByValue)]
pub enum Attribute {
    ClockRate = 13,
}

#[repr(transparent)]
#[derive(Clone, Copy, cuda_entry::ByValue)]
pub struct Bias(pub f32);

mod reexport {
    pub use cuda_entry;
}

#[repr(transparent)]
#[derive(Clone, Copy, cuda_entry::ByValue)]
#[by_value(crate = "crate::reexport::cuda_entry")]
pub struct Device(pub CUdevice);

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuDeviceGetAttribute", version = 2000)]
    fn attribute(pi: *mut i32, attrib: Attribute, dev: Device) -> CUresult;
    #[cuda_entry(symbol = "cuMemAdvise", version = 12020)]
    fn advise(dev_ptr: CUdeviceptr, count: usize, advice: i32, location: Location) -> CUresult;
    #[cuda_entry(symbol = "cuMemPrefetchAsync", version = 12020)]
    fn prefetch(
        dev_ptr: CUdeviceptr,
        count: usize,
        location: Pair<i32>,
        flags: Wrapping<u32>,
        stream: u64,
    ) -> CUresult;
    #[cuda_entry(symbol = "cuTexRefSetMipmapLevelBias", version = 5000)]
    fn set_bias(tex_ref: *mut c_void, bias: Bias) -> CUresult;
}

fn main() {
    let _ = (attribute, advise, prefetch, set_bias);
}
