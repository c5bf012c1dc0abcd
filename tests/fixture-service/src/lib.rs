//! A service that reaches cuda-entry only through its company's crate, `gpu_sys`, which
//! re-exports it: every declaration names the re-export with `crate = ...`.

use gpu_sys::cuda_entry::cuda_entry;
use gpu_sys::cuda_entry::types::{CUdeviceptr, CUresult};

/// Allocates device memory.
#[cuda_entry(symbol = "cuMemAlloc", version = 3020, crate = "gpu_sys::cuda_entry")]
pub unsafe extern "C" fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;

// The block names the crate once for every declaration inside.
#[cuda_entry(crate = "gpu_sys::cuda_entry")]
unsafe extern "C" {
    /// Copies host memory to the device.
    #[cuda_entry(symbol = "cuMemcpyHtoD", version = 3020)]
    pub fn memcpy_htod(dst: CUdeviceptr, src: *const std::ffi::c_void, bytes: usize) -> CUresult;
}

gpu_sys::driver_entries! {
    /// Waits for the current context's work.
    pub fn ctx_synchronize() -> CUresult = "cuCtxSynchronize" @ 2000;
    /// The number of devices.
    pub fn device_get_count(count: *mut i32) -> CUresult = "cuDeviceGetCount" @ 2000;
}
