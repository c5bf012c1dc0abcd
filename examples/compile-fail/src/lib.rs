//! A crate that declares the CUDA driver functions it calls with `#[cuda_entry]`, and proves with
//! compile-fail tests (tests/ui.rs, trybuild) that a declaration without its typedef version, or
//! with a signature other than that version's ABI, does not compile: the guarantee its users rely
//! on is checked by its own test suite, not only by cuda-entry's.

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUcontext, CUdevice, CUdeviceptr, CUresult};

#[cuda_entry]
unsafe extern "C" {
    /// `PFN_cuMemAlloc_v3020`: `CUresult (CUdeviceptr_v2 *dptr, size_t bytesize)`.
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
    pub fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;

    /// `PFN_cuCtxCreate_v3020`: `CUresult (CUcontext *pctx, unsigned int flags, CUdevice dev)`.
    #[cuda_entry(symbol = "cuCtxCreate", version = 3020)]
    pub fn ctx_create(pctx: *mut CUcontext, flags: u32, dev: CUdevice) -> CUresult;
}
