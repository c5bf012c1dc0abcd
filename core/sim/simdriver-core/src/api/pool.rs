//! The device's memory pool: one, the default (`cuDeviceGetDefaultMemPool`), that
//! `cuMemAllocAsync` and `cuMemAllocFromPoolAsync` allocate from. Pools cannot be created
//! (`cuMemPoolCreate` is not simulated); memory freed goes straight back (nothing is kept in
//! reserve, so a trim has nothing to release).

use std::ffi::c_void;

use super::{State, initialized, non_null, put, valid_device, valid_stream, with_context};
use crate::{CUdevice, CUdeviceptr, CUmemoryPool, CUstream, SimError, SimResult};

/// The default pool's handle.
const DEFAULT_POOL: usize = 0x7c7e_0000_0000;

/// `CUmemPool_attribute` values (cuda.h).
mod attr {
    pub(super) const REUSE_FOLLOW_EVENT_DEPENDENCIES: i32 = 1;
    pub(super) const REUSE_ALLOW_INTERNAL_DEPENDENCIES: i32 = 3;
    pub(super) const RELEASE_THRESHOLD: i32 = 4;
    pub(super) const RESERVED_MEM_CURRENT: i32 = 5;
    pub(super) const RESERVED_MEM_HIGH: i32 = 6;
    pub(super) const USED_MEM_CURRENT: i32 = 7;
    pub(super) const USED_MEM_HIGH: i32 = 8;
}

impl State {
    /// `size` bytes at `base` were allocated from the pool.
    pub(super) fn pool_allocated(&mut self, base: u64, size: u64) {
        let pool = &mut self.pool;
        pool.allocations.insert(base, size);
        pool.used += size;
        pool.used_high = pool.used_high.max(pool.used);
        pool.reserved_high = pool.reserved_high.max(pool.used);
    }
}

fn valid_pool(pool: CUmemoryPool) -> SimResult {
    if pool as usize == DEFAULT_POOL {
        Ok(())
    } else {
        Err(SimError::InvalidHandle)
    }
}

/// `cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev)` (11.2).
///
/// # Safety
///
/// `pool_out` must be NULL or writable.
pub unsafe fn device_get_default_mem_pool(pool_out: *mut CUmemoryPool, dev: CUdevice) -> SimResult {
    initialized()?;
    valid_device(dev)?;
    // SAFETY: the caller's contract.
    unsafe { put(pool_out, DEFAULT_POOL as CUmemoryPool) }
}

/// `cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev)` (11.2): the current pool, always the
/// default one.
///
/// # Safety
///
/// `pool` must be NULL or writable.
pub unsafe fn device_get_mem_pool(pool: *mut CUmemoryPool, dev: CUdevice) -> SimResult {
    // SAFETY: the caller's contract.
    unsafe { device_get_default_mem_pool(pool, dev) }
}

/// `cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)` (11.2): the
/// reuse flags (`int`) and the release threshold (`cuuint64_t`) are kept; the high-water marks
/// (`cuuint64_t`) may only be reset to 0; the current sizes are read-only (1).
///
/// # Safety
///
/// `value` must be NULL or readable for the attribute's type.
pub unsafe fn mem_pool_set_attribute(
    pool: CUmemoryPool,
    attribute: i32,
    value: *mut c_void,
) -> SimResult {
    let mut st = with_context()?;
    valid_pool(pool)?;
    non_null(value)?;
    let p = &mut st.pool;
    match attribute {
        attr::REUSE_FOLLOW_EVENT_DEPENDENCIES..=attr::REUSE_ALLOW_INTERNAL_DEPENDENCIES => {
            // SAFETY: non-NULL; the caller promises an int for these attributes.
            let v = unsafe { value.cast::<i32>().read_unaligned() };
            p.reuse[(attribute - 1) as usize] = v;
        }
        attr::RELEASE_THRESHOLD | attr::RESERVED_MEM_HIGH | attr::USED_MEM_HIGH => {
            // SAFETY: non-NULL; the caller promises a cuuint64_t for these attributes.
            let v = unsafe { value.cast::<u64>().read_unaligned() };
            match attribute {
                attr::RELEASE_THRESHOLD => p.release_threshold = v,
                _ if v != 0 => return Err(SimError::InvalidValue),
                attr::RESERVED_MEM_HIGH => p.reserved_high = p.used,
                _ => p.used_high = p.used,
            }
        }
        _ => return Err(SimError::InvalidValue),
    }
    Ok(())
}

/// `cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)` (11.2).
///
/// # Safety
///
/// `value` must be NULL or writable for the attribute's type (`int` for the reuse flags,
/// `cuuint64_t` for the others).
pub unsafe fn mem_pool_get_attribute(
    pool: CUmemoryPool,
    attribute: i32,
    value: *mut c_void,
) -> SimResult {
    let st = with_context()?;
    valid_pool(pool)?;
    non_null(value)?;
    let p = &st.pool;
    let wide = match attribute {
        attr::REUSE_FOLLOW_EVENT_DEPENDENCIES..=attr::REUSE_ALLOW_INTERNAL_DEPENDENCIES => {
            let v = p.reuse[(attribute - 1) as usize];
            // SAFETY: non-NULL; the caller promises an int for these attributes.
            unsafe { value.cast::<i32>().write_unaligned(v) };
            return Ok(());
        }
        attr::RELEASE_THRESHOLD => p.release_threshold,
        attr::RESERVED_MEM_CURRENT | attr::USED_MEM_CURRENT => p.used,
        attr::RESERVED_MEM_HIGH => p.reserved_high,
        attr::USED_MEM_HIGH => p.used_high,
        _ => return Err(SimError::InvalidValue),
    };
    // SAFETY: non-NULL; the caller promises a cuuint64_t for these attributes.
    unsafe { value.cast::<u64>().write_unaligned(wide) };
    Ok(())
}

/// `cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep)` (11.2): nothing is kept in
/// reserve, so nothing to release.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn mem_pool_trim_to(pool: CUmemoryPool, _min_bytes_to_keep: usize) -> SimResult {
    drop(with_context()?);
    valid_pool(pool)
}

/// `cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool,
/// CUstream hStream)` (11.2, and `_ptsz`).
///
/// # Safety
///
/// `dptr` must be NULL or writable.
pub unsafe fn mem_alloc_from_pool_async(
    dptr: *mut CUdeviceptr,
    bytesize: usize,
    pool: CUmemoryPool,
    stream: CUstream,
) -> SimResult {
    {
        let _st = with_context()?;
        valid_pool(pool)?;
        valid_stream(stream)?;
    }
    // SAFETY: the caller's contract.
    unsafe { super::mem_alloc_async(dptr, bytesize, stream) }
}
