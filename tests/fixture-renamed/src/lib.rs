//! Entries declared through a renamed dependency (`cuda = { package = "cuda-entry", ... }`) and a
//! renamed attribute import, an optional entry with its fallback, and a declaration inside a
//! function body (tests/declaring.rs checks what they register and call).

use std::ffi::c_void;

use cuda::cuda_entry as driver_fn;
use cuda::types::{CUcontext, CUdevice, CUdeviceptr, CUresult};

/// Initialises the driver: the single form, by the attribute's full path.
#[cuda::cuda_entry(symbol = "cuInit", version = 2000)]
pub unsafe extern "C" fn init(flags: u32) -> CUresult;

// The block form under the imported name: the functions' attributes are recognised by their
// arguments.
#[driver_fn]
unsafe extern "C" {
    /// `PFN_cuCtxCreate_v12050`, optional: [`ctx_create`] falls back to the 3020 ABI.
    #[driver_fn(symbol = "cuCtxCreate", version = 12050, optional)]
    pub fn ctx_create_v4(
        pctx: *mut CUcontext,
        params: *mut c_void,
        flags: u32,
        dev: CUdevice,
    ) -> CUresult;
    /// `PFN_cuCtxCreate_v3020`.
    #[driver_fn(symbol = "cuCtxCreate", version = 3020)]
    pub fn ctx_create_v2(pctx: *mut CUcontext, flags: u32, dev: CUdevice) -> CUresult;
    /// `PFN_cuMemFree_v3020`.
    #[driver_fn(symbol = "cuMemFree", version = 3020)]
    pub fn mem_free(dptr: CUdeviceptr) -> CUresult;
}

/// Creates a context with the newest ABI the driver serves: `cuCtxCreate` 12050, else 3020.
///
/// # Errors
/// The older entry's [`cuda::Error`] when neither can be resolved, or the driver's status.
///
/// # Safety
/// `pctx` is valid for a write; `dev` is a device ordinal.
pub unsafe fn ctx_create(
    pctx: *mut CUcontext,
    flags: u32,
    dev: CUdevice,
) -> Result<(), cuda::Error> {
    if ctx_create_v4::is_available() {
        // SAFETY: the caller's contract; no creation parameters.
        unsafe { ctx_create_v4(pctx, std::ptr::null_mut(), flags, dev) }
    } else {
        // SAFETY: the caller's contract.
        unsafe { ctx_create_v2(pctx, flags, dev) }
    }
}

/// The number of devices and the driver's answer, through a declaration inside this function.
///
/// # Errors
/// The entry's [`cuda::Error`] when `cuDeviceGetCount` cannot be resolved.
pub fn device_count() -> Result<i32, cuda::Error> {
    #[cuda::cuda_entry(symbol = "cuDeviceGetCount", version = 2000)]
    unsafe extern "C" fn device_get_count(count: *mut i32) -> CUresult;
    let mut count = 0;
    // SAFETY: a valid out-pointer.
    unsafe { device_get_count(&mut count) }?;
    Ok(count)
}
