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

    /// `PFN_cuMemsetD32_v3020`.
    #[cuda_entry(symbol = "cuMemsetD32", version = 3020)]
    fn memset_d32(dst: CUdeviceptr, value: u32, count: usize) -> CUresult;

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

/// What went wrong: the entry could not be resolved, or the driver returned an error code.
#[derive(Debug)]
pub enum Failure {
    /// cuda-entry could not resolve the entry.
    Entry(cuda_entry::Error),
    /// The driver's `CUresult`.
    Driver(i32),
}

impl From<cuda_entry::Error> for Failure {
    fn from(error: cuda_entry::Error) -> Failure {
        Failure::Entry(error)
    }
}

fn check(rc: CUresult) -> Result<(), Failure> {
    if rc == CUresult::SUCCESS {
        Ok(())
    } else {
        Err(Failure::Driver(rc.0))
    }
}

/// How many devices the driver sees.
pub fn device_count() -> Result<i32, Failure> {
    let mut count = 0;
    // SAFETY: flags 0 and a valid out-pointer.
    unsafe {
        check(init(0)?)?;
        check(device_get_count(&mut count)?)?;
    }
    Ok(count)
}

/// Copies `data` to the device and back through device 0's primary context.
pub fn round_trip(data: &[f32]) -> Result<Vec<f32>, Failure> {
    let bytes = std::mem::size_of_val(data);
    let mut out = vec![0f32; data.len()];
    let mut ctx: CUcontext = std::ptr::null_mut();
    let mut dptr: CUdeviceptr = 0;
    // SAFETY: valid out-pointers; the copies stay within the allocation of `bytes` bytes.
    unsafe {
        check(init(0)?)?;
        check(primary_ctx_retain(&mut ctx, 0)?)?;
        check(ctx_set_current(ctx)?)?;
        check(mem_alloc(&mut dptr, bytes)?)?;
        check(memcpy_htod(dptr, data.as_ptr().cast(), bytes)?)?;
        check(memcpy_dtoh(out.as_mut_ptr().cast(), dptr, bytes)?)?;
    }
    Ok(out)
}

/// Fills `count` words at `dst` with `value` (a function the simulator does not implement).
pub fn fill(dst: CUdeviceptr, value: u32, count: usize) -> Result<(), Failure> {
    // SAFETY: the caller's range; the simulator's stub reads nothing.
    unsafe { check(memset_d32(dst, value, count)?) }
}

/// Whether this driver can create contexts from `CUctxCreateParams` (CUDA 12.5+).
pub fn has_context_parameters() -> bool {
    ctx_create_v4::ENTRY.is_available()
}

/// Whether the CUDA runtime resolves `cuMemAlloc` at 3020 (`resolver = "runtime"`).
pub fn runtime_resolves_mem_alloc() -> bool {
    mem_alloc_through_the_runtime::ENTRY.is_available()
}
