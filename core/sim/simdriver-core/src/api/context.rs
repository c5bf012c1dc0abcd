//! Contexts: created, current per thread, the primary one retained and released.

use std::cell::Cell;
use std::ffi::{c_int, c_uint};

use super::{
    BELOW, CURRENT, PRIMARY_CTX, alive, current_context, initialized, non_null, put, state,
    valid_device, with_context,
};
use crate::{CUcontext, CUctxCreateParams, CUdevice, CUexecAffinityParam, SimError, SimResult};

/// The context flags cuda.h defines: `CU_CTX_SCHED_MASK` (0x07), `CU_CTX_MAP_HOST` (0x08),
/// `CU_CTX_LMEM_RESIZE_TO_MAX` (0x10), `CU_CTX_COREDUMP_ENABLE` (0x20),
/// `CU_CTX_USER_COREDUMP_ENABLE` (0x40), `CU_CTX_SYNC_MEMOPS` (0x80).
const CTX_FLAGS: c_uint = 0xff;

/// Makes `ctx` (non-zero) current, pushing the current one (if any) down the thread's stack.
fn push(ctx: usize) {
    let below = CURRENT.with(|c| c.replace(ctx));
    if below != 0 {
        BELOW.with(|b| b.borrow_mut().push(below));
    }
}

/// Pops the current context: the one below becomes current (none when the stack empties).
fn pop() -> usize {
    let next = BELOW.with(|b| b.borrow_mut().pop()).unwrap_or(0);
    CURRENT.with(|c| c.replace(next))
}

fn create_context(pctx: *mut CUcontext, flags: c_uint, dev: CUdevice) -> SimResult {
    initialized()?;
    non_null(pctx)?;
    valid_device(dev)?;
    if flags & !CTX_FLAGS != 0 {
        return Err(SimError::InvalidValue);
    }
    let mut st = state();
    let ctx = st.handle();
    st.contexts.insert(ctx);
    st.ctx_flags.insert(ctx, flags);
    // cuCtxCreate pushes the new context on the calling thread's stack: it is current.
    push(ctx);
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
pub unsafe fn ctx_create(pctx: *mut CUcontext, flags: c_uint, dev: CUdevice) -> SimResult {
    create_context(pctx, flags, dev)
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
    flags: c_uint,
    dev: CUdevice,
) -> SimResult {
    if num_params < 0 || (num_params > 0 && params.is_null()) {
        return Err(SimError::InvalidValue);
    }
    create_context(pctx, flags, dev)
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
    flags: c_uint,
    dev: CUdevice,
) -> SimResult {
    if !params.is_null() {
        // SAFETY: non-NULL, and the caller promises it is readable.
        let p = unsafe { params.read() };
        if p.exec_affinity_params.is_null() == p.cig_params.is_null() {
            return Err(SimError::InvalidValue);
        }
    }
    create_context(pctx, flags, dev)
}

/// `cuCtxDestroy(CUcontext ctx)` and `cuCtxDestroy_v2` (same signature): a context current on the
/// calling thread is popped from its stack.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn ctx_destroy(ctx: CUcontext) -> SimResult {
    initialized()?;
    let mut st = state();
    if !st.contexts.remove(&(ctx as usize)) {
        return Err(SimError::InvalidContext);
    }
    st.ctx_flags.remove(&(ctx as usize));
    drop(st);
    if CURRENT.with(Cell::get) == ctx as usize {
        pop();
    }
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

/// `cuCtxSetCurrent(CUcontext ctx)`: replaces the top of the calling thread's context stack;
/// NULL pops it (cuda.h: "equivalent to popping ... or a no-op if ... empty").
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn ctx_set_current(ctx: CUcontext) -> SimResult {
    initialized()?;
    if ctx.is_null() {
        pop();
    } else {
        alive(ctx)?;
        CURRENT.with(|c| c.set(ctx as usize));
    }
    Ok(())
}

/// `cuCtxPushCurrent(CUcontext ctx)` (`_v2`, 4.0): `ctx` becomes current, above the one that was.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn ctx_push_current(ctx: CUcontext) -> SimResult {
    initialized()?;
    alive(ctx)?;
    push(ctx as usize);
    Ok(())
}

/// `cuCtxPopCurrent(CUcontext *pctx)` (`_v2`, 4.0): pops the current context, written to `*pctx`
/// unless `pctx` is NULL; 201 (INVALID_CONTEXT) when there is none.
///
/// # Safety
///
/// `pctx` must be NULL or writable.
pub unsafe fn ctx_pop_current(pctx: *mut CUcontext) -> SimResult {
    initialized()?;
    if CURRENT.with(Cell::get) == 0 {
        return Err(SimError::InvalidContext);
    }
    let popped = pop();
    if !pctx.is_null() {
        // SAFETY: non-NULL, and the caller promises it is writable.
        unsafe { pctx.write(popped as CUcontext) };
    }
    Ok(())
}

/// `cuCtxGetFlags(unsigned int *flags)` (7.0): the current context's flags.
///
/// # Safety
///
/// `flags` must be NULL or writable.
pub unsafe fn ctx_get_flags(flags: *mut c_uint) -> SimResult {
    let st = with_context()?;
    let ctx = CURRENT.with(Cell::get);
    let value = if ctx == PRIMARY_CTX {
        st.primary_flags
    } else {
        st.ctx_flags.get(&ctx).copied().unwrap_or(0)
    };
    drop(st);
    // SAFETY: the caller's contract.
    unsafe { put(flags, value) }
}

/// `cuCtxSetFlags(unsigned int flags)` (12.1): replaces the current context's flags; flags cuda.h
/// does not define answer 1.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn ctx_set_flags(flags: c_uint) -> SimResult {
    let mut st = with_context()?;
    if flags & !CTX_FLAGS != 0 {
        return Err(SimError::InvalidValue);
    }
    let ctx = CURRENT.with(Cell::get);
    if ctx == PRIMARY_CTX {
        st.primary_flags = flags;
    } else {
        st.ctx_flags.insert(ctx, flags);
    }
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
    super::work::synchronized_all();
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

/// `cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags)` (7.0) and `_v2` (11.0, same
/// signature; allowed while the context is active, as since 11.0).
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn primary_ctx_set_flags(dev: CUdevice, flags: c_uint) -> SimResult {
    initialized()?;
    valid_device(dev)?;
    if flags & !CTX_FLAGS != 0 {
        return Err(SimError::InvalidValue);
    }
    state().primary_flags = flags;
    Ok(())
}
