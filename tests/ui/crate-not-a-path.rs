use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

#[cuda_entry(symbol = "cuMemFree", version = 3020, crate = "gpu_sys::<cuda_entry>")]
pub unsafe extern "C" fn mem_free(dptr: CUdeviceptr) -> CUresult;

fn main() {}
