// Inside a block the attribute cannot be conditional: the block's macro runs before the
// `cfg_attr`, which would then apply `cuda_entry` to the bare function. One error, no others.
use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

#[cuda_entry]
unsafe extern "C" {
    #[cfg_attr(all(), cuda_entry(symbol = "cuMemFree", version = 3020))]
    fn mem_free(dptr: CUdeviceptr) -> CUresult;
}

fn main() {}
