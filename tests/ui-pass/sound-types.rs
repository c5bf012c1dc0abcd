// What the value rules accept: writable pointers where the driver writes (`&mut T`, `*mut T`,
// `Option<NonNull<T>>`, `MaybeUninit<T>` behind them), any pointer where it only reads, a status
// as `cuda_entry::types::CUresult`, `i32` or an alias of a primitive integer (but any 4-byte type
// where the caller passes a `CUresult`, proven `ByValue`), a record of integers deriving `ByValue`
// for a C record of integers, and the user's own `#[inline(never)]`.
#![deny(warnings)]

use std::ffi::{c_char, c_void};
use std::mem::MaybeUninit;
use std::ptr::NonNull;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdevice, CUdeviceptr, CUresult};

type Status = u32;

/// `CUmemLocation`: two integers, passed by value.
#[repr(C)]
#[derive(Clone, Copy, cuda_entry::ByValue)]
pub struct Location {
    kind: i32,
    id: i32,
}

/// A status as the caller passes it: an enum is fine where the driver only reads the value.
#[allow(dead_code)]
#[derive(Clone, Copy, cuda_entry::ByValue)]
#[repr(i32)]
pub enum Code {
    Success = 0,
}
type Written<'a> = &'a mut usize;

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuMemGetInfo", version = 3020)]
    fn mem_get_info(free: Written<'static>, total: Option<NonNull<usize>>) -> Status;
    #[cuda_entry(symbol = "cuMemcpyHtoD", version = 3020)]
    fn copy_in(dst: CUdeviceptr, src: &[u8; 16], bytes: usize) -> i32;
    #[cuda_entry(symbol = "cuGetErrorString", version = 6000)]
    fn error_string(error: Code, p_str: &mut *const c_char) -> CUresult;
    #[cuda_entry(symbol = "cuDeviceGetUuid", version = 9020)]
    fn uuid(uuid: *mut MaybeUninit<[u8; 16]>, dev: CUdevice) -> CUresult;
    #[cuda_entry(symbol = "cuCtxGetCurrent", version = 4000)]
    fn current(pctx: *mut Option<NonNull<c_void>>) -> std::ffi::c_int;
    #[cuda_entry(symbol = "cuMemAdvise", version = 12020)]
    fn advise(dev_ptr: CUdeviceptr, count: usize, advice: i32, location: Location) -> CUresult;
}

/// A cold path of the user's: its `#[inline(never)]` stands.
///
/// # Errors
/// As the driver's.
///
/// # Safety
/// As the driver's.
#[inline(never)]
#[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
pub unsafe extern "C" fn mem_alloc(dptr: &mut CUdeviceptr, bytesize: usize) -> CUresult;

fn main() {
    let _ = (mem_get_info::pointer, copy_in::pointer, error_string::pointer, uuid::pointer);
    let _ = (current::pointer, advise::pointer, mem_alloc::pointer);
}
