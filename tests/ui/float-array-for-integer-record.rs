// `CUmemLocation_v1` is two `int`s, passed in an integer register; `[f32; 2]` has its size and
// alignment but travels in a floating-point register.
use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuMemAdvise", version = 12020)]
    fn advise(dev_ptr: CUdeviceptr, count: usize, advice: i32, location: [f32; 2]) -> CUresult;
}

fn main() {}
