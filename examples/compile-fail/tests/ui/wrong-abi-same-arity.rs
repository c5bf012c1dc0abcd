// The 3.2 signature of cuMemAlloc under the 2.0 version: the same two parameters, but
// `PFN_cuMemAlloc_v2000` takes a 32-bit `CUdeviceptr_v1 *` and an `unsigned int` size, so the
// driver would write 4 bytes of the 8-byte pointer and read half the size.
use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

#[cuda_entry(symbol = "cuMemAlloc", version = 2000)]
unsafe extern "C" fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;

fn main() {}
