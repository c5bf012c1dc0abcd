use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
    fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;
    fn mem_free(dptr: CUdeviceptr) -> CUresult;
}

fn main() {
    let mut dptr: CUdeviceptr = 0;
    // Only `mem_free` is rejected, yet every call compiles: the only error is its own.
    let _ = unsafe { mem_alloc(&mut dptr, 16) };
    let _ = unsafe { mem_free(dptr) };
    let _ = mem_free::is_available();
    let _: Result<mem_free::Pfn, _> = mem_free::pointer();
    let _ = mem_alloc::VERSION;
}
