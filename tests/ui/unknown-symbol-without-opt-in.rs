use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

#[cuda_entry(symbol = "cuFrobnicateEverything", version = 13080)]
pub unsafe extern "C" fn frobnicate(dptr: CUdeviceptr) -> CUresult;

fn main() {}
