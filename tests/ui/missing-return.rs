use cuda_entry::cuda_entry;
use cuda_entry::types::CUdeviceptr;

#[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
pub unsafe extern "C" fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize);

fn main() {}
