use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

#[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
pub unsafe extern "C" fn mem_alloc<T>(dptr: *mut T, bytesize: usize) -> CUresult;

fn main() {}
