//! The attribute imported under another name: the single form, the block form (its functions'
//! attributes recognised by their arguments), and the block's own `crate = ...`.
#![deny(warnings)]

use cuda_entry::cuda_entry as driver_fn;
use cuda_entry::types::{CUcontext, CUdevice, CUdeviceptr, CUresult};

#[driver_fn(symbol = "cuMemAlloc", version = 3020)]
unsafe extern "C" fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;

#[driver_fn]
unsafe extern "C" {
    #[driver_fn(symbol = "cuMemFree", version = 3020)]
    fn mem_free(dptr: CUdeviceptr) -> CUresult;
    #[driver_fn(version = 3020, symbol = "cuCtxCreate", stream = "legacy")]
    fn ctx_create(pctx: *mut CUcontext, flags: u32, dev: CUdevice) -> CUresult;
    // The attribute by its own name still counts.
    #[cuda_entry::cuda_entry(symbol = "cuCtxSynchronize", version = 2000)]
    fn ctx_synchronize() -> CUresult;
}

mod inner {
    use cuda_entry::cuda_entry as entry;
    use cuda_entry::types::CUresult;

    #[entry(crate = "::cuda_entry")]
    unsafe extern "C" {
        #[entry(symbol = "cuInit", version = 2000)]
        pub(crate) fn init(flags: u32) -> CUresult;
    }
}

fn main() {
    let _ = (mem_alloc::pointer(), mem_free::pointer(), ctx_synchronize::pointer());
    assert_eq!(ctx_create::TYPEDEF, "PFN_cuCtxCreate_v3020");
    assert_eq!(inner::init::SYMBOL, "cuInit");
    assert!(inner::init::is_available() || !inner::init::is_available());
}
