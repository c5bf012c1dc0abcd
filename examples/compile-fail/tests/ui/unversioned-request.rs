// A request without the typedef's version: the driver would answer with whatever ABI is newest at
// the version it is asked for, so the declaration must say which typedef it was written from.
use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

#[cuda_entry(symbol = "cuMemAlloc")]
unsafe extern "C" fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;

fn main() {}
