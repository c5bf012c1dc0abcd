use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

// `try` is a keyword from edition 2018 on: a crate of that name is `r#try`.
#[cuda_entry(symbol = "cuMemFree", version = 3020, crate = "try::cuda_entry")]
pub unsafe extern "C" fn mem_free(dptr: CUdeviceptr) -> CUresult;

fn main() {}
