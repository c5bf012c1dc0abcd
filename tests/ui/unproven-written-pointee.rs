// Where the driver writes, the pointee must be proven to hold every value it may store: an array
// or a wrapper of a type with invalid values is not, nor a `NonNull` newtype (the driver writes
// NULL when no context is current), nor a struct of the user's without the derive.
use std::cell::Cell;
use std::ffi::c_void;
use std::mem::ManuallyDrop;
use std::num::{NonZeroI32, NonZeroU64};
use std::ptr::NonNull;
use std::sync::atomic::AtomicBool;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

#[repr(transparent)]
pub struct Context(NonNull<c_void>);

/// 16 bytes, as `CUuuid`, but without the derive that would prove them.
#[repr(C)]
pub struct Uuid {
    pub bytes: [u8; 16],
}

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuMemcpyDtoH", version = 3020)]
    fn copy_out(dst: *mut [bool; 16], src: CUdeviceptr, bytes: usize) -> CUresult;
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
    fn alloc_array(dptr: *mut [NonZeroU64; 1], bytesize: usize) -> CUresult;
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
    fn alloc_wrapped(dptr: &mut ManuallyDrop<NonZeroU64>, bytesize: usize) -> CUresult;
    #[cuda_entry(symbol = "cuDeviceGetCount", version = 2000)]
    fn count(count: *mut Cell<NonZeroI32>) -> CUresult;
    #[cuda_entry(symbol = "cuDeviceGetLuid", version = 10000)]
    fn luid(luid: *mut AtomicBool, mask: *mut u32, dev: i32) -> CUresult;
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
    fn alloc_optional(dptr: *mut Option<&'static u64>, bytesize: usize) -> CUresult;
    #[cuda_entry(symbol = "cuCtxGetCurrent", version = 4000)]
    fn current(pctx: *mut Context) -> CUresult;
    #[cuda_entry(symbol = "cuDeviceGetUuid", version = 9020)]
    fn uuid(uuid: *mut Uuid, dev: i32) -> CUresult;
}

fn main() {}
