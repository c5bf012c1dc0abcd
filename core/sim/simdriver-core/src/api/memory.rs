//! Device memory: allocations backed by host buffers, copies to and from them, memsets.
//!
//! The asynchronous forms (`cuMemAllocAsync`, `cuMemcpyHtoDAsync_v2`, `cuMemsetD8Async`...) do
//! their work at the call, in call order, like the synchronous ones; they check the stream, and
//! leave it pending for `CUDA_ENTRY_SIM_PENDING` queries, as a launch does.

use std::ffi::{c_uchar, c_uint, c_ushort, c_void};

use super::{State, non_null, valid_stream, with_context};
use crate::{CUdeviceptr, CUdeviceptrV1, CUstream, SimError, SimResult};

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
    // SAFETY: the caller's contract.
    unsafe { htod(&mut st, dst, src, count) }
}

/// Copies `count` bytes from host `src` to device `dst` (an allocation, or page-locked host
/// memory by its device address).
///
/// # Safety
///
/// `src` must be readable for `count` bytes.
unsafe fn htod(st: &mut State, dst: CUdeviceptr, src: *const c_void, count: usize) -> SimResult {
    if count == 0 {
        return Ok(());
    }
    non_null(src)?;
    let to = st.region(dst, count).ok_or(SimError::InvalidValue)?;
    // SAFETY: the caller promises `src` is readable for `count` bytes; `region` checked the
    // destination range. `ptr::copy`: pinned memory may be both source and destination.
    unsafe { std::ptr::copy(src.cast::<u8>(), to, count) };
    Ok(())
}

/// Copies `count` bytes from device `src` to host `dst`.
///
/// # Safety
///
/// `dst` must be writable for `count` bytes.
unsafe fn dtoh(st: &mut State, dst: *mut c_void, src: CUdeviceptr, count: usize) -> SimResult {
    if count == 0 {
        return Ok(());
    }
    non_null(dst)?;
    let from = st.region(src, count).ok_or(SimError::InvalidValue)?;
    // SAFETY: `region` checked the source range; the caller promises `dst` is writable for
    // `count` bytes.
    unsafe { std::ptr::copy(from, dst.cast::<u8>(), count) };
    Ok(())
}

/// Copies `count` bytes from device `src` to device `dst` (overlapping ranges as `memmove`).
fn dtod(st: &mut State, dst: CUdeviceptr, src: CUdeviceptr, count: usize) -> SimResult {
    if count == 0 {
        return Ok(());
    }
    let from = st.region(src, count).ok_or(SimError::InvalidValue)?;
    let to = st.region(dst, count).ok_or(SimError::InvalidValue)?;
    // SAFETY: `region` checked both ranges, which stay valid while the state is locked.
    unsafe { std::ptr::copy(from, to, count) };
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
    // SAFETY: the caller's contract.
    unsafe { dtoh(&mut st, dst, src, count) }
}

/// Runs `work` with the state, after checking the context and `stream`; then the stream is
/// pending (an asynchronous call's work is done at the call).
fn on_stream<T>(stream: CUstream, work: impl FnOnce(&mut State) -> SimResult<T>) -> SimResult<T> {
    let mut st = with_context()?;
    valid_stream(stream)?;
    let out = work(&mut st)?;
    drop(st);
    super::work::launched(stream);
    Ok(out)
}

/// `cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount,
/// CUstream hStream)` (and `_v2_ptsz`).
///
/// # Safety
///
/// `src` must be readable for `count` bytes.
pub unsafe fn memcpy_htod_async(
    dst: CUdeviceptr,
    src: *const c_void,
    count: usize,
    stream: CUstream,
) -> SimResult {
    // SAFETY: the caller's contract.
    on_stream(stream, |st| unsafe { htod(st, dst, src, count) })
}

/// `cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount,
/// CUstream hStream)` (and `_v2_ptsz`).
///
/// # Safety
///
/// `dst` must be writable for `count` bytes.
pub unsafe fn memcpy_dtoh_async(
    dst: *mut c_void,
    src: CUdeviceptr,
    count: usize,
    stream: CUstream,
) -> SimResult {
    // SAFETY: the caller's contract.
    on_stream(stream, |st| unsafe { dtoh(st, dst, src, count) })
}

/// `cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)` (and
/// `_v2_ptds`).
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn memcpy_dtod(dst: CUdeviceptr, src: CUdeviceptr, count: usize) -> SimResult {
    dtod(&mut *with_context()?, dst, src, count)
}

/// `cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
/// CUstream hStream)` (and `_v2_ptsz`).
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn memcpy_dtod_async(
    dst: CUdeviceptr,
    src: CUdeviceptr,
    count: usize,
    stream: CUstream,
) -> SimResult {
    on_stream(stream, |st| dtod(st, dst, src, count))
}

/// Where a unified address points for `cuMemcpy`: a device allocation or page-locked memory, or
/// else (outside the range device pointers are handed out from) pageable host memory, as the
/// driver's unified addressing treats it.
fn unified(st: &mut State, ptr: CUdeviceptr, count: usize) -> SimResult<*mut u8> {
    if ptr == 0 {
        return Err(SimError::InvalidValue);
    }
    match st.region(ptr, count) {
        Some(p) => Ok(p),
        None if st.in_device_window(ptr) => Err(SimError::InvalidValue),
        None => Ok(ptr as *mut u8),
    }
}

/// `cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)` (and `_ptds`): unified
/// addressing, each side a device pointer or a host pointer (see `unified`).
///
/// # Safety
///
/// A host pointer must be valid for `count` bytes (`src` readable, `dst` writable).
pub unsafe fn memcpy(dst: CUdeviceptr, src: CUdeviceptr, count: usize) -> SimResult {
    let mut st = with_context()?;
    // SAFETY: the caller's contract.
    unsafe { unified_copy(&mut st, dst, src, count) }
}

/// # Safety
///
/// As [`memcpy`].
unsafe fn unified_copy(
    st: &mut State,
    dst: CUdeviceptr,
    src: CUdeviceptr,
    count: usize,
) -> SimResult {
    if count == 0 {
        return Ok(());
    }
    let from = unified(st, src, count)?;
    let to = unified(st, dst, count)?;
    // SAFETY: device ranges were checked; the caller promises host ranges are valid.
    unsafe { std::ptr::copy(from, to, count) };
    Ok(())
}

/// `cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream)` (and
/// `_ptsz`).
///
/// # Safety
///
/// As [`memcpy`].
pub unsafe fn memcpy_async(
    dst: CUdeviceptr,
    src: CUdeviceptr,
    count: usize,
    stream: CUstream,
) -> SimResult {
    // SAFETY: the caller's contract.
    on_stream(stream, |st| unsafe { unified_copy(st, dst, src, count) })
}

/// Sets `count` elements of `N` bytes from `dst` to `value`; `dst` must be aligned to `N`.
fn memset<const N: usize>(
    st: &mut State,
    dst: CUdeviceptr,
    value: [u8; N],
    count: usize,
) -> SimResult {
    if !dst.is_multiple_of(N as u64) {
        return Err(SimError::InvalidValue);
    }
    if count == 0 {
        return Ok(());
    }
    let bytes = count.checked_mul(N).ok_or(SimError::InvalidValue)?;
    let to = st.region(dst, bytes).ok_or(SimError::InvalidValue)?;
    // SAFETY: `region` checked the range.
    let out = unsafe { std::slice::from_raw_parts_mut(to, bytes) };
    for chunk in out.chunks_exact_mut(N) {
        chunk.copy_from_slice(&value);
    }
    Ok(())
}

/// `cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N)` (and `_v2_ptds`).
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn memset_d8(dst: CUdeviceptr, value: c_uchar, count: usize) -> SimResult {
    memset(&mut *with_context()?, dst, [value], count)
}

/// `cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N)` (and `_v2_ptds`):
/// `dstDevice` must be 2-byte aligned.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn memset_d16(dst: CUdeviceptr, value: c_ushort, count: usize) -> SimResult {
    memset(&mut *with_context()?, dst, value.to_ne_bytes(), count)
}

/// `cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N)` (and `_v2_ptds`):
/// `dstDevice` must be 4-byte aligned.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn memset_d32(dst: CUdeviceptr, value: c_uint, count: usize) -> SimResult {
    memset(&mut *with_context()?, dst, value.to_ne_bytes(), count)
}

/// `cuMemsetD8Async(CUdeviceptr, unsigned char, size_t, CUstream)` (and `_ptsz`).
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn memset_d8_async(
    dst: CUdeviceptr,
    value: c_uchar,
    count: usize,
    stream: CUstream,
) -> SimResult {
    on_stream(stream, |st| memset(st, dst, [value], count))
}

/// `cuMemsetD16Async(CUdeviceptr, unsigned short, size_t, CUstream)` (and `_ptsz`).
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn memset_d16_async(
    dst: CUdeviceptr,
    value: c_ushort,
    count: usize,
    stream: CUstream,
) -> SimResult {
    on_stream(stream, |st| memset(st, dst, value.to_ne_bytes(), count))
}

/// `cuMemsetD32Async(CUdeviceptr, unsigned int, size_t, CUstream)` (and `_ptsz`).
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn memset_d32_async(
    dst: CUdeviceptr,
    value: c_uint,
    count: usize,
    stream: CUstream,
) -> SimResult {
    on_stream(stream, |st| memset(st, dst, value.to_ne_bytes(), count))
}

/// `cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)` (and `_ptsz`): from
/// the device's pool (`cuDeviceGetDefaultMemPool`), at the call.
///
/// # Safety
///
/// `dptr` must be NULL or writable.
pub unsafe fn mem_alloc_async(
    dptr: *mut CUdeviceptr,
    bytesize: usize,
    stream: CUstream,
) -> SimResult {
    non_null(dptr)?;
    let p = on_stream(stream, |st| {
        let p = st.alloc(bytesize, u64::MAX)?;
        st.pool_allocated(p, bytesize as u64);
        Ok(p)
    })?;
    // SAFETY: non-NULL, and the caller promises it is writable.
    unsafe { dptr.write(p) };
    Ok(())
}

/// `cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream)` (and `_ptsz`): any allocation's base
/// (`cuMemAlloc`'s too), freed at the call.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn mem_free_async(dptr: CUdeviceptr, stream: CUstream) -> SimResult {
    on_stream(stream, |st| st.free(dptr))
}
