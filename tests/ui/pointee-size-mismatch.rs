// The 3.2 driver writes a 64-bit `CUdeviceptr_v2` through `dptr`: 4 bytes past the `u32`.
use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

#[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
pub unsafe extern "C" fn mem_alloc(dptr: *mut u32, bytesize: usize) -> CUresult;

fn main() {}
