use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

#[cuda_entry(symbol = "cuMemcpy_ptds", version = 7000)]
pub unsafe extern "C" fn memcpy(dst: CUdeviceptr, src: CUdeviceptr, bytes: usize) -> CUresult;

fn main() {}
