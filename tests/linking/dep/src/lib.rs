//! A dependency of the staticlibs: one declaration they call, one nothing calls.

use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

#[cuda_entry(symbol = "cuCtxCreate", version = 12050)]
pub unsafe extern "C" fn ctx_create(
    pctx: *mut cuda_entry::types::CUcontext,
    params: *mut core::ffi::c_void,
    flags: u32,
    dev: i32,
) -> CUresult;

#[cuda_entry(symbol = "cuMemGetInfo", version = 3020)]
pub unsafe extern "C" fn mem_get_info(free: *mut usize, total: *mut usize) -> CUresult;

/// Calls `ctx_create` (never at run time: the flag is 0 in the tests).
pub fn create_if(really: bool) -> bool {
    really && unsafe { ctx_create(core::ptr::null_mut(), core::ptr::null_mut(), 0, 0) }.is_ok()
}
