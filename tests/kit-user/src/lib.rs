//! A small library that calls the CUDA driver through cuda-entry, standing for a user's crate: its
//! tests (tests/driver.rs) run on the simulated driver of `cuda-entry-sim`, on a machine without
//! a GPU.

use std::ffi::c_void;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUcontext, CUdevice, CUdeviceptr, CUresult};

#[cuda_entry]
unsafe extern "C" {
    /// `PFN_cuInit_v2000`.
    #[cuda_entry(symbol = "cuInit", version = 2000)]
    fn init(flags: u32) -> CUresult;

    /// `PFN_cuDeviceGetCount_v2000`.
    #[cuda_entry(symbol = "cuDeviceGetCount", version = 2000)]
    fn device_get_count(count: *mut i32) -> CUresult;

    /// `PFN_cuDevicePrimaryCtxRetain_v7000`.
    #[cuda_entry(symbol = "cuDevicePrimaryCtxRetain", version = 7000)]
    fn primary_ctx_retain(pctx: *mut CUcontext, dev: CUdevice) -> CUresult;

    /// `PFN_cuCtxSetCurrent_v4000`.
    #[cuda_entry(symbol = "cuCtxSetCurrent", version = 4000)]
    fn ctx_set_current(ctx: CUcontext) -> CUresult;

    /// `PFN_cuMemAlloc_v3020`.
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
    fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;

    /// `PFN_cuMemcpyHtoD_v3020`.
    #[cuda_entry(symbol = "cuMemcpyHtoD", version = 3020)]
    fn memcpy_htod(dst: CUdeviceptr, src: *const c_void, bytes: usize) -> CUresult;

    /// `PFN_cuMemcpyDtoH_v3020`.
    #[cuda_entry(symbol = "cuMemcpyDtoH", version = 3020)]
    fn memcpy_dtoh(dst: *mut c_void, src: CUdeviceptr, bytes: usize) -> CUresult;

    /// `PFN_cuMemsetD2D32_v3020`.
    #[cuda_entry(symbol = "cuMemsetD2D32", version = 3020)]
    fn memset_d2d32(
        dst: CUdeviceptr,
        pitch: usize,
        value: u32,
        width: usize,
        height: usize,
    ) -> CUresult;

    /// `PFN_cuCtxCreate_v12050`: only drivers of CUDA 12.5 and newer have it.
    #[cuda_entry(symbol = "cuCtxCreate", version = 12050)]
    fn ctx_create_v4(
        pctx: *mut CUcontext,
        params: *mut c_void,
        flags: u32,
        dev: CUdevice,
    ) -> CUresult;

    /// `PFN_cuMemAlloc_v3020` through the CUDA runtime's `cudaGetDriverEntryPointByVersion`.
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020, resolver = "runtime")]
    fn mem_alloc_through_the_runtime(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;
}

/// How many devices the driver sees. One `?` per call: the entry could not be resolved, or the
/// driver answered a status other than `CUDA_SUCCESS` (`Error::driver_status` has it).
///
/// # Errors
/// The call that failed, as cuda-entry reports it.
pub fn device_count() -> Result<i32, cuda_entry::Error> {
    let mut count = 0;
    // SAFETY: flags 0 and a valid out-pointer.
    unsafe {
        init(0)?;
        device_get_count(&mut count)?;
    }
    Ok(count)
}

/// Copies `data` to the device and back through device 0's primary context.
///
/// # Errors
/// The call that failed, as cuda-entry reports it.
pub fn round_trip(data: &[f32]) -> Result<Vec<f32>, cuda_entry::Error> {
    let bytes = std::mem::size_of_val(data);
    let mut out = vec![0f32; data.len()];
    let mut ctx: CUcontext = std::ptr::null_mut();
    let mut dptr: CUdeviceptr = 0;
    // SAFETY: valid out-pointers; the copies stay within the allocation of `bytes` bytes.
    unsafe {
        init(0)?;
        primary_ctx_retain(&mut ctx, 0)?;
        ctx_set_current(ctx)?;
        mem_alloc(&mut dptr, bytes)?;
        memcpy_htod(dptr, data.as_ptr().cast(), bytes)?;
        memcpy_dtoh(out.as_mut_ptr().cast(), dptr, bytes)?;
    }
    Ok(out)
}

/// `CUDA_ERROR_OUT_OF_MEMORY`.
const OUT_OF_MEMORY: i32 = 2;

/// Allocates `bytes` of device memory in device 0's primary context; when the driver is out of
/// memory, calls `release` (a cache giving memory back) and tries once more.
///
/// # Errors
/// The call that failed, as cuda-entry reports it (the second out-of-memory included).
pub fn alloc_with_retry(
    bytes: usize,
    mut release: impl FnMut(),
) -> Result<CUdeviceptr, cuda_entry::Error> {
    let mut ctx: CUcontext = std::ptr::null_mut();
    let mut dptr: CUdeviceptr = 0;
    // SAFETY: flags 0 and valid out-pointers.
    unsafe {
        init(0)?;
        primary_ctx_retain(&mut ctx, 0)?;
        ctx_set_current(ctx)?;
    }
    // SAFETY: a valid out-pointer; a context is current.
    match unsafe { mem_alloc(&mut dptr, bytes) } {
        Err(e) if e.driver_status() == Some(OUT_OF_MEMORY) => {
            release();
            // SAFETY: as above.
            unsafe { mem_alloc(&mut dptr, bytes) }?;
        }
        other => other?,
    }
    Ok(dptr)
}

/// Fills `count` words at `dst` with `value`, as one row of a 2D memset (a function the simulator
/// does not implement).
///
/// # Errors
/// The call's failure, as cuda-entry reports it.
pub fn fill(dst: CUdeviceptr, value: u32, count: usize) -> Result<(), cuda_entry::Error> {
    // SAFETY: the caller's range; the simulator's stub reads nothing.
    unsafe { memset_d2d32(dst, count * 4, value, count, 1) }
}

/// Whether this driver can create contexts from `CUctxCreateParams` (CUDA 12.5+).
pub fn has_context_parameters() -> bool {
    ctx_create_v4::is_available()
}

/// Whether the CUDA runtime resolves `cuMemAlloc` at 3020 (`resolver = "runtime"`).
pub fn runtime_resolves_mem_alloc() -> bool {
    mem_alloc_through_the_runtime::is_available()
}
