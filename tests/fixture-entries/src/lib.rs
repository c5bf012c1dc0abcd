//! Entries declared in a dependency: the registry and the manifest must list them as well as the
//! program's own (tests/registry.rs).

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUcontext, CUdevice, CUresult};

#[cuda_entry]
unsafe extern "C" {
    /// The newest requirement of the fixture program: CUDA 13.0.
    #[cuda_entry(symbol = "cuCtxGetDevice", version = 13000)]
    pub fn ctx_get_device(device: *mut CUdevice, ctx: CUcontext) -> CUresult;
    /// CUDA 12.5.
    #[cuda_entry(symbol = "cuCtxCreate", version = 12050)]
    pub fn ctx_create(
        pctx: *mut CUcontext,
        params: *mut std::ffi::c_void,
        flags: u32,
        dev: CUdevice,
    ) -> CUresult;
}

/// A declaration nothing names, private to this crate: the registry and the manifest list it
/// all the same. (On windows-gnu, GNU ld dropped such a dependency's records: a dependency's
/// survived only while something in their codegen unit was used.)
mod never_named {
    use cuda_entry::cuda_entry;
    use cuda_entry::types::CUresult;

    #[cuda_entry]
    unsafe extern "C" {
        /// CUDA 2.0.
        #[cuda_entry(symbol = "cuCtxSynchronize", version = 2000)]
        #[allow(dead_code)]
        fn ctx_synchronize() -> CUresult;
    }
}
