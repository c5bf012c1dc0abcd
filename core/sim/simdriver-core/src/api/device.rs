//! Device queries and error names: the simulated device answers what the recorded H200 answered
//! (tests/ground-truth/device-0.tsv, compiled in as [`generated_device`](crate::generated_device)).

use std::ffi::{CStr, c_char, c_int, c_uint};

use super::{MEMORY_LIMIT, initialized, non_null, put, valid_device, with_context};
use crate::generated_device::{
    ATTRIBUTES, COMPUTE_CAPABILITY, ERRORS, NAME, PCI_BUS_ID, STREAM_PRIORITY_RANGE, TOTAL_MEM,
};
use crate::{CUdevice, CUresult, SimError, SimResult};

/// Copies `text` and its NUL into `out` (`len` bytes), truncated to `len - 1` bytes as the driver
/// truncates a name that does not fit.
///
/// # Safety
///
/// `out` must be NULL or writable for `len` bytes.
unsafe fn put_text(out: *mut c_char, len: c_int, text: &CStr) -> SimResult {
    non_null(out)?;
    let len = usize::try_from(len).map_err(|_| SimError::InvalidValue)?;
    if len == 0 {
        return Err(SimError::InvalidValue);
    }
    let bytes = text.to_bytes();
    let n = bytes.len().min(len - 1);
    // SAFETY: `out` is non-NULL and writable for `len` > n bytes (the caller's contract).
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr().cast::<c_char>(), out, n);
        out.add(n).write(0);
    }
    Ok(())
}

/// `cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)`: the recorded value;
/// an attribute the device did not know (0, 148 = one past CUDA 13.0's last, anything else)
/// answers 1 (`CUDA_ERROR_INVALID_VALUE`), as recorded.
///
/// # Safety
///
/// `pi` must be NULL or writable.
pub unsafe fn device_get_attribute(pi: *mut c_int, attrib: c_int, dev: CUdevice) -> SimResult {
    initialized()?;
    valid_device(dev)?;
    non_null(pi)?;
    let &(_, status, value) = ATTRIBUTES
        .iter()
        .find(|&&(a, _, _)| a == attrib)
        .ok_or(SimError::InvalidValue)?;
    if status != 0 {
        return Err(from_code(status));
    }
    // SAFETY: the caller's contract.
    unsafe { put(pi, value) }
}

/// A recorded non-zero status as the error the simulator returns.
fn from_code(status: CUresult) -> SimError {
    if status == SimError::InvalidValue.code() {
        SimError::InvalidValue
    } else {
        SimError::Injected(status)
    }
}

/// `cuDeviceGetName(char *name, int len, CUdevice dev)`: "NVIDIA H200", truncated to `len - 1`
/// bytes and a NUL.
///
/// # Safety
///
/// `name` must be NULL or writable for `len` bytes.
pub unsafe fn device_get_name(name: *mut c_char, len: c_int, dev: CUdevice) -> SimResult {
    initialized()?;
    valid_device(dev)?;
    // SAFETY: the caller's contract.
    unsafe { put_text(name, len, NAME) }
}

/// `cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)`: the recorded bus id
/// (`0000:00:06.0`), truncated as `cuDeviceGetName`.
///
/// # Safety
///
/// `bus_id` must be NULL or writable for `len` bytes.
pub unsafe fn device_get_pci_bus_id(bus_id: *mut c_char, len: c_int, dev: CUdevice) -> SimResult {
    initialized()?;
    valid_device(dev)?;
    // SAFETY: the caller's contract.
    unsafe { put_text(bus_id, len, PCI_BUS_ID) }
}

/// `cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)`: the recorded device's memory (the
/// simulator itself allocates at most 4 GiB at once, see [`mem_get_info`]).
///
/// # Safety
///
/// `bytes` must be NULL or writable.
pub unsafe fn device_total_mem(bytes: *mut usize, dev: CUdevice) -> SimResult {
    initialized()?;
    valid_device(dev)?;
    // SAFETY: the caller's contract.
    unsafe { put(bytes, TOTAL_MEM) }
}

/// `cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)` (deprecated, still
/// exported): 9.0.
///
/// # Safety
///
/// `major` and `minor` must be NULL or writable.
pub unsafe fn device_compute_capability(
    major: *mut c_int,
    minor: *mut c_int,
    dev: CUdevice,
) -> SimResult {
    initialized()?;
    valid_device(dev)?;
    non_null(major)?;
    non_null(minor)?;
    // SAFETY: both non-NULL, and the caller promises they are writable.
    unsafe {
        major.write(COMPUTE_CAPABILITY.0);
        minor.write(COMPUTE_CAPABILITY.1);
    }
    Ok(())
}

/// `cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority)`: (0, -5) as recorded;
/// either pointer may be NULL (cuda.h: "may be NULL", nothing is written there).
///
/// # Safety
///
/// Each pointer must be NULL or writable.
pub unsafe fn ctx_get_stream_priority_range(least: *mut c_int, greatest: *mut c_int) -> SimResult {
    drop(with_context()?);
    if !least.is_null() {
        // SAFETY: non-NULL, and the caller promises it is writable.
        unsafe { least.write(STREAM_PRIORITY_RANGE.0) };
    }
    if !greatest.is_null() {
        // SAFETY: as above.
        unsafe { greatest.write(STREAM_PRIORITY_RANGE.1) };
    }
    Ok(())
}

/// The priority a stream created with `priority` gets: clamped to the range, as cuda.h says.
pub(crate) fn clamp_priority(priority: c_int) -> c_int {
    let (least, greatest) = STREAM_PRIORITY_RANGE;
    priority.clamp(greatest, least)
}

/// `cuMemGetInfo_v2(size_t *free, size_t *total)`: `total` is the recorded device's memory,
/// `free` what the simulator can still allocate (4 GiB less what is in use, never above `total`).
///
/// # Safety
///
/// `free` and `total` must be NULL or writable.
pub unsafe fn mem_get_info(free: *mut usize, total: *mut usize) -> SimResult {
    let st = with_context()?;
    non_null(free)?;
    non_null(total)?;
    let available = (MEMORY_LIMIT - st.in_use).min(TOTAL_MEM);
    // SAFETY: both non-NULL, and the caller promises they are writable.
    unsafe {
        free.write(available);
        total.write(TOTAL_MEM);
    }
    Ok(())
}

/// The recorded (name, string) of `code`, if the driver names it.
fn error_texts(code: CUresult) -> Option<(&'static CStr, &'static CStr)> {
    ERRORS
        .iter()
        .find(|&&(c, _, _)| c == code)
        .map(|&(_, name, string)| (name, string))
}

/// Writes `text` (or NULL for a code the driver does not name, returning 1) to `*out`.
///
/// # Safety
///
/// `out` must be NULL or writable.
unsafe fn put_error_text(out: *mut *const c_char, text: Option<&'static CStr>) -> SimResult {
    non_null(out)?;
    match text {
        Some(text) => {
            // SAFETY: non-NULL, and the caller promises it is writable.
            unsafe { out.write(text.as_ptr()) };
            Ok(())
        }
        None => {
            // cuda.h: "If the error code is not recognized, CUDA_ERROR_INVALID_VALUE will be
            // returned and *pStr will be set to the NULL."
            // SAFETY: as above.
            unsafe { out.write(std::ptr::null()) };
            Err(SimError::InvalidValue)
        }
    }
}

/// `cuGetErrorName(CUresult error, const char **pStr)`: the recorded name (`CUDA_ERROR_...`),
/// static; a code the driver does not name: 1 with `*pStr` = NULL. Needs no `cuInit`.
///
/// # Safety
///
/// `out` must be NULL or writable.
pub unsafe fn get_error_name(error: CUresult, out: *mut *const c_char) -> SimResult {
    // SAFETY: the caller's contract.
    unsafe { put_error_text(out, error_texts(error).map(|(name, _)| name)) }
}

/// `cuGetErrorString(CUresult error, const char **pStr)`: the recorded description, static; a code
/// the driver does not name: 1 with `*pStr` = NULL. Needs no `cuInit`.
///
/// # Safety
///
/// `out` must be NULL or writable.
pub unsafe fn get_error_string(error: CUresult, out: *mut *const c_char) -> SimResult {
    // SAFETY: the caller's contract.
    unsafe { put_error_text(out, error_texts(error).map(|(_, string)| string)) }
}

/// `cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)`.
///
/// # Safety
///
/// `flags` and `active` must be NULL or writable.
pub unsafe fn primary_ctx_get_state(
    dev: CUdevice,
    flags: *mut c_uint,
    active: *mut c_int,
) -> SimResult {
    initialized()?;
    valid_device(dev)?;
    non_null(flags)?;
    non_null(active)?;
    let st = super::state();
    // SAFETY: both non-NULL, and the caller promises they are writable.
    unsafe {
        flags.write(st.primary_flags);
        active.write(c_int::from(st.primary_refs > 0));
    }
    Ok(())
}
