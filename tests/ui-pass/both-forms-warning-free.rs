//! Both forms, every argument, attributes and visibilities kept, under deny(warnings).
#![deny(warnings, missing_docs, unreachable_pub, unsafe_op_in_unsafe_fn)]

use std::ffi::c_void;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUfunction, CUresult, CUstream};

/// Allocates device memory.
#[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
pub unsafe extern "C" fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;

/// The CUDA 2.0 ABI, kept for the test of `deprecated`.
#[deprecated = "use mem_alloc"]
#[cuda_entry(symbol = "cuMemAlloc", version = 2000)]
pub unsafe extern "C" fn mem_alloc_32(dptr: *mut u32, bytesize: u32) -> CUresult;

mod inner {
    use super::*;

    type Bytes = usize;

    #[cuda_entry]
    unsafe extern "system" {
        /// Legacy stream launch.
        #[cuda_entry(symbol = "cuLaunchKernel", version = 4000, stream = "legacy")]
        pub(crate) fn launch(
            f: CUfunction,
            grid_x: u32,
            grid_y: u32,
            grid_z: u32,
            block_x: u32,
            block_y: u32,
            block_z: u32,
            shared_bytes: u32,
            stream: CUstream,
            params: *mut *mut c_void,
            extra: *mut *mut c_void,
        ) -> CUresult;
        /// Per-thread default stream launch: the `_ptsz` typedef's own version.
        #[cuda_entry(symbol = "cuLaunchKernel", version = 7000, stream = "per_thread")]
        pub(super) fn launch_ptsz(
            f: CUfunction,
            grid_x: u32,
            grid_y: u32,
            grid_z: u32,
            block_x: u32,
            block_y: u32,
            block_z: u32,
            shared_bytes: u32,
            stream: CUstream,
            params: *mut *mut c_void,
            extra: Option<&mut *mut c_void>,
        ) -> CUresult;
        /// A new ABI of a known symbol, newer than the table's headers.
        #[cuda_entry(symbol = "cuMemAlloc", version = 13080, unverified)]
        fn mem_alloc_future(dptr: *mut super::CUdeviceptr, bytesize: self::Bytes) -> CUresult;
        /// A new ABI at the first version above the newest header the table read (CUDA 13.5).
        #[cuda_entry(symbol = "cuCtxCreate", version = 13060, unverified)]
        fn ctx_create_next(
            pctx: *mut cuda_entry::types::CUcontext,
            flags: u32,
            dev: cuda_entry::types::CUdevice,
        ) -> CUresult;
        /// A driver API newer than the table's headers.
        #[cuda_entry(symbol = "cuFrobnicateEverything", version = 13080, unverified)]
        fn frobnicate(dptr: CUdeviceptr) -> CUresult;
        #[cfg(any())]
        #[cuda_entry(symbol = "cuMemFree", version = 3020)]
        fn gone(dptr: CUdeviceptr) -> CUresult;
    }

    pub(crate) fn private_use() -> bool {
        frobnicate::is_available()
            && frobnicate::TYPEDEF == "PFN_cuFrobnicateEverything_v13080 (unverified)"
            && mem_alloc_future::VERSION == 13080
            && ctx_create_next::VERSION == 13060
    }
}

fn main() {
    assert_eq!(mem_alloc::SYMBOL, "cuMemAlloc");
    assert_eq!(mem_alloc::VERSION, 3020);
    assert_eq!(mem_alloc::TYPEDEF, "PFN_cuMemAlloc_v3020");
    assert_eq!(mem_alloc::STREAM, cuda_entry::Stream::Legacy);
    assert_eq!(inner::launch_ptsz::TYPEDEF, "PFN_cuLaunchKernel_v7000_ptsz");
    assert_eq!(inner::launch_ptsz::STREAM, cuda_entry::Stream::PerThread);
    assert_eq!(inner::launch::VERSION, 4000);
    let _: Option<inner::launch::Pfn> = inner::launch::pointer().ok();
    let _ = inner::private_use();
    let _ = mem_alloc::pointer();
    let _ = cuda_entry::preload(&[&mem_alloc::ENTRY, &inner::launch::ENTRY]);
    #[allow(deprecated)]
    let _ = mem_alloc_32::is_available();
}

/// Parameters named like the generated body's locals are not shadowed.
#[cuda_entry(symbol = "cuGetProcAddress", version = 12000)]
pub unsafe extern "C" fn get_proc_address(
    symbol: *const std::ffi::c_char,
    pfn: *mut *mut c_void,
    cuda_version: i32,
    flags: u64,
    symbol_status: *mut i32,
) -> CUresult;
