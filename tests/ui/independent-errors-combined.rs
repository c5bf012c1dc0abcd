use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuMemAloc", version = 3020)]
    fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;
    #[cuda_entry(symbol = "cuMemFree", version = CUDA_VERSION)]
    fn mem_free(dptr: CUdeviceptr) -> CUresult;
    #[cuda_entry(symbol = "cuMemFree", version = 3020, stream = "per_thread", unverified)]
    fn mem_free_again(dptr: CUdeviceptr) -> CUresult;
}

fn main() {}
