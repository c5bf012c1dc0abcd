// rustc's `improper_ctypes` lint sees the declared signature as it sees a plain `extern "C"`
// block: a struct without `#[repr(C)]` has no layout C can rely on, though its size and
// alignment are those of `CUmemLocation` today.
#![deny(improper_ctypes)]

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

pub struct Location {
    pub kind: i32,
    pub id: i32,
}

#[cuda_entry(symbol = "cuMemAdvise", version = 12020)]
pub unsafe extern "C" fn mem_advise(
    dev_ptr: CUdeviceptr,
    count: usize,
    advice: i32,
    location: Location,
) -> CUresult;

fn main() {}
