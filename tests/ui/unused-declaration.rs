//! An unused private declaration is reported as an unused function is; one used only through its
//! module's `pointer()` or `is_available()` is used.
#![deny(dead_code)]

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

#[cuda_entry(symbol = "cuMemFree", version = 3020)]
unsafe extern "C" fn mem_free(dptr: CUdeviceptr) -> CUresult;

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
    fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;
    #[cuda_entry(symbol = "cuCtxSynchronize", version = 2000)]
    fn ctx_synchronize() -> CUresult;
}

fn main() {
    let _ = mem_alloc::pointer();
    let _ = ctx_synchronize::is_available();
}
