// `&T` promises no write, but the driver writes the address through `CUdeviceptr_v2 *dptr`: a
// release build may keep reading the value from before the call.
use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

#[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
pub unsafe extern "C" fn mem_alloc(dptr: &CUdeviceptr, bytesize: usize) -> CUresult;

fn main() {}
