//! Under another name, a block's attribute is recognised by its arguments, or by the name its
//! other functions' attributes use: a misspelled argument is reported as such.
use cuda_entry::cuda_entry as driver_fn;
use cuda_entry::types::{CUdeviceptr, CUresult};

#[driver_fn]
unsafe extern "C" {
    #[driver_fn(symbol = "cuMemAlloc", version = 3020)]
    fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;
    #[driver_fn(symbol = "cuMemFree", verison = 3020)]
    fn mem_free(dptr: CUdeviceptr) -> CUresult;
}

fn main() {}
