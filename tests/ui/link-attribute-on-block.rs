// bindgen's `#[link(name = "cuda")]` on the block: the fix is to delete it, nothing is linked.
use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

#[link(name = "cuda")]
#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuInit", version = 2000)]
    fn init(flags: u32) -> CUresult;
}

fn main() {}
