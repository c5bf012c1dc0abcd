//! Contexts: created, current per thread, the primary one retained and released.

use std::cell::Cell;
use std::ffi::{c_int, c_uint};

use super::{
    CURRENT, PRIMARY_CTX, alive, current_context, initialized, non_null, put, state, valid_device,
};
use crate::{CUcontext, CUctxCreateParams, CUdevice, CUexecAffinityParam, SimError, SimResult};

fn create_context(pctx: *mut CUcontext, dev: CUdevice) -> SimResult {
    initialized()?;
    non_null(pctx)?;
    valid_device(dev)?;
    let mut st = state();
    let ctx = st.handle();
    st.contexts.insert(ctx);
    // cuCtxCreate makes the new context current on the calling thread.
    CURRENT.with(|c| c.set(ctx));
    // SAFETY: `pctx` is non-NULL and the caller promises it is writable.
    unsafe { pctx.write(ctx as CUcontext) };
    Ok(())
}

/// `cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev)` (2.0 and `_v2`, 3.2: same
/// signature).
///
/// # Safety
///
/// `pctx` must be NULL or writable.
pub unsafe fn ctx_create(pctx: *mut CUcontext, _flags: c_uint, dev: CUdevice) -> SimResult {
    create_context(pctx, dev)
}

/// `cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *paramsArray, int numParams,
/// unsigned int flags, CUdevice dev)` (11.4).
///
/// # Safety
///
/// `pctx` must be NULL or writable; `params` NULL or readable for `num_params` elements.
pub unsafe fn ctx_create_v3(
    pctx: *mut CUcontext,
    params: *mut CUexecAffinityParam,
    num_params: c_int,
    _flags: c_uint,
    dev: CUdevice,
) -> SimResult {
    if num_params < 0 || (num_params > 0 && params.is_null()) {
        return Err(SimError::InvalidValue);
    }
    create_context(pctx, dev)
}

/// `cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags,
/// CUdevice dev)` (12.5). NULL params: a plain context; otherwise exactly one of
/// `execAffinityParams` and `cigParams` must be non-NULL (cuda.h).
///
/// # Safety
///
/// `pctx` must be NULL or writable; `params` NULL or readable.
pub unsafe fn ctx_create_v4(
    pctx: *mut CUcontext,
    params: *mut CUctxCreateParams,
    _flags: c_uint,
    dev: CUdevice,
) -> SimResult {
    if !params.is_null() {
        // SAFETY: non-NULL, and the caller promises it is readable.
        let p = unsafe { params.read() };
        if p.exec_affinity_params.is_null() == p.cig_params.is_null() {
            return Err(SimError::InvalidValue);
        }
    }
    create_context(pctx, dev)
}

/// `cuCtxDestroy(CUcontext ctx)` and `cuCtxDestroy_v2` (same signature).
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn ctx_destroy(ctx: CUcontext) -> SimResult {
    initialized()?;
    if !state().contexts.remove(&(ctx as usize)) {
        return Err(SimError::InvalidContext);
    }
    CURRENT.with(|c| {
        if c.get() == ctx as usize {
            c.set(0);
        }
    });
    Ok(())
}

/// `cuCtxGetCurrent(CUcontext *pctx)`: NULL when none.
///
/// # Safety
///
/// `pctx` must be NULL or writable.
pub unsafe fn ctx_get_current(pctx: *mut CUcontext) -> SimResult {
    initialized()?;
    let current = CURRENT.with(Cell::get) as CUcontext;
    // SAFETY: the caller's contract.
    unsafe { put(pctx, current) }
}

/// `cuCtxSetCurrent(CUcontext ctx)`: NULL unbinds.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn ctx_set_current(ctx: CUcontext) -> SimResult {
    initialized()?;
    if !ctx.is_null() {
        alive(ctx)?;
    }
    CURRENT.with(|c| c.set(ctx as usize));
    Ok(())
}

/// `cuCtxGetDevice(CUdevice *device)` (2.0): the device of the current context (the only device,
/// 0).
///
/// # Safety
///
/// `device` must be NULL or writable.
pub unsafe fn ctx_get_device(device: *mut CUdevice) -> SimResult {
    current_context()?;
    // SAFETY: the caller's contract.
    unsafe { put(device, 0) }
}

/// `cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)` (13.0): the device of `ctx`; NULL means
/// the current context.
///
/// # Safety
///
/// `device` must be NULL or writable.
pub unsafe fn ctx_get_device_v2(device: *mut CUdevice, ctx: CUcontext) -> SimResult {
    if ctx.is_null() {
        // SAFETY: the caller's contract.
        return unsafe { ctx_get_device(device) };
    }
    initialized()?;
    alive(ctx)?;
    // SAFETY: the caller's contract.
    unsafe { put(device, 0) }
}

/// `cuCtxSynchronize(void)` (2.0): the current context; its pending work is done.
///
/// # Safety
///
/// None.
pub unsafe fn ctx_synchronize() -> SimResult {
    current_context()?;
    crate::work::synchronized_all();
    Ok(())
}

/// `cuCtxSynchronize_v2(CUcontext ctx)` (13.0): NULL means the current context.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn ctx_synchronize_v2(ctx: CUcontext) -> SimResult {
    if ctx.is_null() {
        // SAFETY: no pointer is dereferenced.
        return unsafe { ctx_synchronize() };
    }
    initialized()?;
    alive(ctx)
}

/// `cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)`.
///
/// # Safety
///
/// `pctx` must be NULL or writable.
pub unsafe fn primary_ctx_retain(pctx: *mut CUcontext, dev: CUdevice) -> SimResult {
    initialized()?;
    valid_device(dev)?;
    // SAFETY: the caller's contract.
    unsafe { put(pctx, PRIMARY_CTX as CUcontext) }?;
    state().primary_refs += 1;
    Ok(())
}

/// `cuDevicePrimaryCtxRelease(CUdevice dev)` (7.0) and `cuDevicePrimaryCtxRelease_v2` (11.0, same
/// signature).
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn primary_ctx_release(dev: CUdevice) -> SimResult {
    initialized()?;
    valid_device(dev)?;
    let mut st = state();
    if st.primary_refs == 0 {
        return Err(SimError::InvalidContext);
    }
    st.primary_refs -= 1;
    Ok(())
}
