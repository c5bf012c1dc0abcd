use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

const CUDA_VERSION: u32 = 13000;

#[cuda_entry(symbol = "cuMemAlloc", version = CUDA_VERSION)]
pub unsafe extern "C" fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;

fn main() {}
