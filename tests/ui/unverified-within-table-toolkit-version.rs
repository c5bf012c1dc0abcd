// The toolkit's version instead of the typedef's, with the CUDA 2.0 signature: at 12000 the driver
// returns `PFN_cuMemAlloc_v3020`'s ABI (a `size_t` size, a 64-bit address), not this one.
use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

#[cuda_entry(symbol = "cuMemAlloc", version = 12000, unverified)]
pub unsafe extern "C" fn mem_alloc(dptr: *mut u32, bytesize: u32) -> CUresult;

fn main() {}
