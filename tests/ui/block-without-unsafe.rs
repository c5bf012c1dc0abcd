use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

#[cuda_entry]
extern "C" {
    #[cuda_entry(symbol = "cuMemFree", version = 3020)]
    fn mem_free(dptr: CUdeviceptr) -> CUresult;
}

fn main() {}
