//! An optional entry and its fallback: the newest ABI the driver serves, else the older one.
#![deny(warnings)]

use std::ffi::c_void;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUcontext, CUdevice, CUresult};

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuCtxCreate", version = 12050, optional)]
    fn ctx_create_v4(pctx: *mut CUcontext, params: *mut c_void, flags: u32, dev: CUdevice) -> CUresult;
    #[cuda_entry(symbol = "cuCtxCreate", version = 3020)]
    fn ctx_create_v2(pctx: *mut CUcontext, flags: u32, dev: CUdevice) -> CUresult;
}

#[cuda_entry(symbol = "cuFutureFunction", version = 14000, unverified, optional)]
unsafe extern "C" fn future_function() -> CUresult;

unsafe fn ctx_create(pctx: *mut CUcontext, flags: u32, dev: CUdevice) -> Result<(), cuda_entry::Error> {
    if ctx_create_v4::is_available() {
        // SAFETY: the caller's contract.
        unsafe { ctx_create_v4(pctx, std::ptr::null_mut(), flags, dev) }
    } else {
        // SAFETY: the caller's contract.
        unsafe { ctx_create_v2(pctx, flags, dev) }
    }
}

fn main() {
    assert!(ctx_create_v4::ENTRY.is_optional() && future_function::ENTRY.is_optional());
    assert!(!ctx_create_v2::ENTRY.is_optional());
    let required = cuda_entry::requirements();
    assert_eq!(required.minimum_driver, 3020);
    assert_eq!(required.optional.len(), 2);
    let _ = future_function::is_available();
    let mut ctx: CUcontext = std::ptr::null_mut();
    // SAFETY: a valid out-pointer (without a driver, both entries fail to resolve).
    let _ = unsafe { ctx_create(&mut ctx, 0, 0) };
}
