//! `crate = ...` names cuda-entry where a crate reaches it: through a dependency that re-exports
//! it (`gpu_sys`), through a module of this crate, unquoted, and once for a whole block.
#![deny(warnings)]

use cuda_entry::types::{CUdeviceptr, CUresult};

mod reexport {
    pub(crate) use gpu_sys::cuda_entry;
}

#[gpu_sys::cuda_entry::cuda_entry(symbol = "cuMemAlloc", version = 3020, crate = "gpu_sys::cuda_entry")]
unsafe extern "C" fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;

#[reexport::cuda_entry::cuda_entry(symbol = "cuMemFree", version = 3020, crate = "reexport::cuda_entry")]
unsafe extern "C" fn mem_free(dptr: CUdeviceptr) -> CUresult;

mod nested {
    use cuda_entry::types::CUresult;

    #[gpu_sys::cuda_entry::cuda_entry(crate = super::reexport::cuda_entry)]
    unsafe extern "C" {
        #[cuda_entry(symbol = "cuInit", version = 2000)]
        pub(crate) fn init(flags: u32) -> CUresult;
        #[cuda_entry(symbol = "cuCtxSynchronize", version = 2000, crate = "crate::reexport::cuda_entry")]
        pub(crate) fn ctx_synchronize() -> CUresult;
    }
}

gpu_sys::driver_entries! {
    /// From a company crate's `macro_rules!`, with `crate = $crate::cuda_entry`.
    fn device_get_count(count: *mut i32) -> CUresult = "cuDeviceGetCount" @ 2000;
}

fn main() {
    let _ = (mem_alloc::pointer(), mem_free::pointer(), device_get_count::pointer());
    let _ = (nested::init::pointer(), nested::ctx_synchronize::pointer());
    let error: Result<mem_alloc::Pfn, cuda_entry::Error> = mem_alloc::pointer();
    let _ = error;
}
