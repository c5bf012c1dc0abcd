use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

#[cuda_entry(symbol = "cuMemFree", version = 3020, optional = true)]
pub unsafe extern "C" fn mem_free(dptr: CUdeviceptr) -> CUresult;

fn main() {}
