//! Device memory: allocations backed by host buffers, copies to and from them.

use std::ffi::{c_uint, c_void};

use super::{non_null, with_context};
use crate::{CUdeviceptr, CUdeviceptrV1, SimError, SimResult};

fn mem_alloc(size: usize, limit: u64) -> SimResult<u64> {
    with_context()?.alloc(size, limit)
}

/// `cuMemAlloc(CUdeviceptr_v1 *dptr, unsigned int bytesize)`: the CUDA 2.0 ABI, 32-bit pointer
/// and size.
///
/// # Safety
///
/// `dptr` must be NULL or writable.
pub unsafe fn mem_alloc_v1(dptr: *mut CUdeviceptrV1, bytesize: c_uint) -> SimResult {
    non_null(dptr)?;
    let p = mem_alloc(bytesize as usize, u64::from(u32::MAX))?;
    // SAFETY: non-NULL, the caller promises it is writable; p fits (limit above).
    unsafe { dptr.write(p as CUdeviceptrV1) };
    Ok(())
}

/// `cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)`.
///
/// # Safety
///
/// `dptr` must be NULL or writable.
pub unsafe fn mem_alloc_v2(dptr: *mut CUdeviceptr, bytesize: usize) -> SimResult {
    non_null(dptr)?;
    let p = mem_alloc(bytesize, u64::MAX)?;
    // SAFETY: non-NULL, and the caller promises it is writable.
    unsafe { dptr.write(p) };
    Ok(())
}

/// `cuMemFree(CUdeviceptr_v1 dptr)`.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn mem_free_v1(dptr: CUdeviceptrV1) -> SimResult {
    // SAFETY: no pointer is dereferenced.
    unsafe { mem_free_v2(CUdeviceptr::from(dptr)) }
}

/// `cuMemFree_v2(CUdeviceptr dptr)`: `dptr` must be an allocation's base.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn mem_free_v2(dptr: CUdeviceptr) -> SimResult {
    with_context()?.free(dptr)
}

/// `cuMemcpyHtoD(CUdeviceptr_v1, const void *, unsigned int)`.
///
/// # Safety
///
/// `src` must be readable for `count` bytes.
pub unsafe fn memcpy_htod_v1(dst: CUdeviceptrV1, src: *const c_void, count: c_uint) -> SimResult {
    // SAFETY: the caller's contract.
    unsafe { memcpy_htod_v2(CUdeviceptr::from(dst), src, count as usize) }
}

/// `cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)` (and
/// `_v2_ptds`): copies into the host buffer behind the allocation.
///
/// # Safety
///
/// `src` must be readable for `count` bytes.
pub unsafe fn memcpy_htod_v2(dst: CUdeviceptr, src: *const c_void, count: usize) -> SimResult {
    let mut st = with_context()?;
    if count == 0 {
        return Ok(());
    }
    non_null(src)?;
    let (buf, offset) = st.find(dst, count).ok_or(SimError::InvalidValue)?;
    // SAFETY: the caller promises `src` is readable for `count` bytes; `find` checked the
    // destination range lies in `buf`; a host pointer cannot alias the simulator's own buffer.
    unsafe {
        std::ptr::copy_nonoverlapping(src.cast::<u8>(), buf.as_mut_ptr().add(offset), count);
    }
    Ok(())
}

/// `cuMemcpyDtoH(void *, CUdeviceptr_v1, unsigned int)`.
///
/// # Safety
///
/// `dst` must be writable for `count` bytes.
pub unsafe fn memcpy_dtoh_v1(dst: *mut c_void, src: CUdeviceptrV1, count: c_uint) -> SimResult {
    // SAFETY: the caller's contract.
    unsafe { memcpy_dtoh_v2(dst, CUdeviceptr::from(src), count as usize) }
}

/// `cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)` (and `_v2_ptds`).
///
/// # Safety
///
/// `dst` must be writable for `count` bytes.
pub unsafe fn memcpy_dtoh_v2(dst: *mut c_void, src: CUdeviceptr, count: usize) -> SimResult {
    let mut st = with_context()?;
    if count == 0 {
        return Ok(());
    }
    non_null(dst)?;
    let (buf, offset) = st.find(src, count).ok_or(SimError::InvalidValue)?;
    // SAFETY: `find` checked the source range; the caller promises `dst` is writable for `count`
    // bytes and it cannot alias the simulator's own buffer.
    unsafe { std::ptr::copy_nonoverlapping(buf.as_ptr().add(offset), dst.cast::<u8>(), count) };
    Ok(())
}
