//! Page-locked ("pinned") host memory: allocated by the simulator (`cuMemHostAlloc`,
//! `cuMemAllocHost`) or registered (`cuMemHostRegister`). Nothing is really locked; what a caller
//! sees is the driver's bookkeeping: the memory is usable as a copy's source or destination on
//! either side, and its device address (`cuMemHostGetDevicePointer`) is its host address, as
//! under unified addressing.

use std::alloc::Layout;
use std::ffi::{c_uint, c_void};

use super::{HostRange, State, non_null, with_context};
use crate::{CUdeviceptr, SimError, SimResult};

/// The alignment of page-locked allocations: a page, as the driver's.
const PAGE: usize = 4096;

/// `CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_WRITECOMBINED`.
const HOST_ALLOC_FLAGS: c_uint = 0x7;
/// `CU_MEMHOSTREGISTER_PORTABLE | _DEVICEMAP | _IOMEMORY | _READ_ONLY`.
const HOST_REGISTER_FLAGS: c_uint = 0xf;

impl State {
    /// Whether `[base, base + len)` overlaps a page-locked or registered range.
    fn host_overlaps(&self, base: usize, len: usize) -> bool {
        let end = base.saturating_add(len);
        self.host
            .range(..end)
            .next_back()
            .is_some_and(|(&b, r)| b.saturating_add(r.len) > base)
    }
}

/// Allocates `bytesize` page-locked bytes and writes their address to `*pp`.
///
/// # Safety
///
/// `pp` must be NULL or writable.
unsafe fn host_alloc(pp: *mut *mut c_void, bytesize: usize) -> SimResult {
    let mut st = with_context()?;
    non_null(pp)?;
    if bytesize == 0 {
        return Err(SimError::InvalidValue);
    }
    let layout = Layout::from_size_align(bytesize, PAGE).map_err(|_| SimError::OutOfMemory)?;
    // SAFETY: the layout's size is non-zero.
    let ptr = unsafe { std::alloc::alloc(layout) };
    if ptr.is_null() {
        return Err(SimError::OutOfMemory);
    }
    st.host.insert(
        ptr as usize,
        HostRange {
            len: bytesize,
            layout: Some(layout),
        },
    );
    // SAFETY: non-NULL, and the caller promises it is writable.
    unsafe { pp.write(ptr.cast()) };
    Ok(())
}

/// `cuMemAllocHost_v2(void **pp, size_t bytesize)`.
///
/// # Safety
///
/// `pp` must be NULL or writable.
pub unsafe fn mem_alloc_host(pp: *mut *mut c_void, bytesize: usize) -> SimResult {
    // SAFETY: the caller's contract.
    unsafe { host_alloc(pp, bytesize) }
}

/// `cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)`: flags other than
/// `PORTABLE`, `DEVICEMAP` and `WRITECOMBINED` answer 1.
///
/// # Safety
///
/// `pp` must be NULL or writable.
pub unsafe fn mem_host_alloc(pp: *mut *mut c_void, bytesize: usize, flags: c_uint) -> SimResult {
    if flags & !HOST_ALLOC_FLAGS != 0 {
        drop(with_context()?);
        return Err(SimError::InvalidValue);
    }
    // SAFETY: the caller's contract.
    unsafe { host_alloc(pp, bytesize) }
}

/// `cuMemFreeHost(void *p)`: `p` must be what `cuMemHostAlloc`/`cuMemAllocHost` returned (1
/// otherwise).
///
/// # Safety
///
/// No other thread may still use the memory.
pub unsafe fn mem_free_host(p: *mut c_void) -> SimResult {
    let mut st = with_context()?;
    let layout = match st.host.get(&(p as usize)) {
        Some(HostRange {
            layout: Some(layout),
            ..
        }) => *layout,
        _ => return Err(SimError::InvalidValue),
    };
    st.host.remove(&(p as usize));
    // SAFETY: allocated by `host_alloc` with this layout, and removed from the table.
    unsafe { std::alloc::dealloc(p.cast(), layout) };
    Ok(())
}

/// `cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags)`: `Flags` must
/// be 0 and `p` inside page-locked or registered memory; the device address is the host address.
///
/// # Safety
///
/// `pdptr` must be NULL or writable.
pub unsafe fn mem_host_get_device_pointer(
    pdptr: *mut CUdeviceptr,
    p: *mut c_void,
    flags: c_uint,
) -> SimResult {
    let mut st = with_context()?;
    non_null(pdptr)?;
    if flags != 0
        || p.is_null()
        || st.region(p as u64, 1).is_none()
        || st.find(p as u64, 1).is_some()
    {
        return Err(SimError::InvalidValue);
    }
    // SAFETY: non-NULL, and the caller promises it is writable.
    unsafe { pdptr.write(p as CUdeviceptr) };
    Ok(())
}

/// `cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags)`: 712
/// (HOST_MEMORY_ALREADY_REGISTERED) when the range overlaps one already page-locked.
///
/// # Safety
///
/// `[p, p + bytesize)` must stay valid until `cuMemHostUnregister`.
pub unsafe fn mem_host_register(p: *mut c_void, bytesize: usize, flags: c_uint) -> SimResult {
    let mut st = with_context()?;
    if p.is_null() || bytesize == 0 || flags & !HOST_REGISTER_FLAGS != 0 {
        return Err(SimError::InvalidValue);
    }
    if st.host_overlaps(p as usize, bytesize) {
        return Err(SimError::HostMemoryAlreadyRegistered);
    }
    st.host.insert(
        p as usize,
        HostRange {
            len: bytesize,
            layout: None,
        },
    );
    Ok(())
}

/// `cuMemHostUnregister(void *p)`: 713 (HOST_MEMORY_NOT_REGISTERED) unless `p` is the base of a
/// registered range.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn mem_host_unregister(p: *mut c_void) -> SimResult {
    let mut st = with_context()?;
    match st.host.get(&(p as usize)) {
        Some(HostRange { layout: None, .. }) => {
            st.host.remove(&(p as usize));
            Ok(())
        }
        _ => Err(SimError::HostMemoryNotRegistered),
    }
}
