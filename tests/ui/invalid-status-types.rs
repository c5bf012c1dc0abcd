// Status types with values the driver may return that they cannot hold: `NonZeroI32` (0 is
// success) and `char`.
use std::num::NonZeroI32;

use cuda_entry::cuda_entry;
use cuda_entry::types::CUdeviceptr;

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuMemFree", version = 3020)]
    fn mem_free(dptr: CUdeviceptr) -> NonZeroI32;
    #[cuda_entry(symbol = "cuCtxSynchronize", version = 2000)]
    fn synchronize() -> char;
}

fn main() {}
