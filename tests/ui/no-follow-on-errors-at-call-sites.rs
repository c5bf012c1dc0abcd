use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

#[cuda_entry(symbol = "cuMemAlloc", version = CUDA_VERSION)]
pub unsafe extern "C" fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;

fn main() {
    let mut dptr: CUdeviceptr = 0;
    // The declaration is rejected, yet these compile: the only error is the one above.
    let _ = unsafe { mem_alloc(&mut dptr, 16) };
    let _ = mem_alloc::is_available();
    let _ = mem_alloc::pointer();
}
