// A declaration inside a `trait`: as in an `impl` block, one message saying where to put it.
use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

pub trait Driver {
    #[cuda_entry(symbol = "cuInit", version = 2000)]
    unsafe extern "C" fn init(flags: u32) -> CUresult;
}

fn main() {}
