// rustc's `improper_ctypes` lint sees the declared signature as it sees a plain `extern "C"`
// block: a struct without `#[repr(C)]` has no layout C can rely on, though its size and
// alignment are those of `CUmemLocation` today, and a hand-written `unsafe impl ByValue` (which
// the derive would refuse) claims the C type's classes.
#![deny(improper_ctypes)]

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

pub struct Location {
    pub kind: i32,
    pub id: i32,
}

// SAFETY: not sound: Rust promises no field order without `#[repr(C)]`. The lint says so.
unsafe impl cuda_entry::ByValue for Location {
    const CLASSES: cuda_entry::Classes = cuda_entry::Classes::record(8)
        .field(0, <i32 as cuda_entry::ByValue>::CLASSES)
        .field(4, <i32 as cuda_entry::ByValue>::CLASSES);
}

#[cuda_entry(symbol = "cuMemAdvise", version = 12020)]
pub unsafe extern "C" fn mem_advise(
    dev_ptr: CUdeviceptr,
    count: usize,
    advice: i32,
    location: Location,
) -> CUresult;

fn main() {}
