//! A `macro_rules!` forwarding `$version:expr`: a literal is read through the invisible group it
//! arrives in, a constant is named as written.
use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

const CUDA_VERSION: u32 = 13000;

macro_rules! declare {
    ($name:ident = $symbol:expr, $version:expr) => {
        #[cuda_entry(symbol = $symbol, version = $version)]
        pub unsafe extern "C" fn $name(dptr: CUdeviceptr) -> CUresult;
    };
}

declare!(mem_free = "cuMemFree", 3020);
declare!(mem_free_newest = "cuMemFree", CUDA_VERSION);

fn main() {}
