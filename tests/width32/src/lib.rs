//! Declarations checked where pointers have 32 bits (tests/width32.rs). The table's sizes and
//! alignments are those of 64-bit targets and are asserted only there; everything else is
//! asserted on every target: that a pointer is one, that the driver may write where it writes,
//! that what it writes or passes is valid for the declared type, that a status holds every `int`.
//! Each feature adds one declaration, written through an alias so that only the compiler can
//! judge it, that must not compile.

use std::ffi::c_void;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUcontext, CUdeviceptr, CUresult, CUstream};

#[cuda_entry(symbol = "cuCtxGetCurrent", version = 4000)]
pub unsafe extern "C" fn ctx_get_current(pctx: *mut CUcontext) -> CUresult;

#[cuda_entry(symbol = "cuMemcpyDtoH", version = 3020)]
pub unsafe extern "C" fn memcpy_dtoh(dst: *mut c_void, src: CUdeviceptr, bytes: usize)
-> CUresult;

/// What the driver calls: a C function of the user data pointer.
pub type HostFn = Option<unsafe extern "C" fn(*mut c_void)>;

#[cuda_entry(symbol = "cuLaunchHostFunc", version = 10000)]
pub unsafe extern "C" fn launch_host_func(
    stream: CUstream,
    f: HostFn,
    user_data: *mut c_void,
) -> CUresult;

/// Bytes the driver writes, declared as `bool`s: byte 3 is not a valid `bool`.
#[cfg(feature = "bad-valid")]
pub type Flags = [bool; 16];

#[cfg(feature = "bad-valid")]
#[cuda_entry(symbol = "cuMemcpyDtoH", version = 3020)]
pub unsafe extern "C" fn bad_valid(dst: *mut Flags, src: CUdeviceptr, bytes: usize) -> CUresult;

/// A pointer that promises no write, where the driver writes the current context.
#[cfg(feature = "bad-writable")]
pub type ReadOnly = *const CUcontext;

#[cfg(feature = "bad-writable")]
#[cuda_entry(symbol = "cuCtxGetCurrent", version = 4000)]
pub unsafe extern "C" fn bad_writable(pctx: ReadOnly) -> CUresult;

/// A status as an enum: the driver returns codes it does not list.
#[cfg(feature = "bad-status")]
#[repr(i32)]
#[derive(Clone, Copy)]
pub enum Status {
    Success = 0,
}

#[cfg(feature = "bad-status")]
#[cuda_entry(symbol = "cuInit", version = 2000)]
pub unsafe extern "C" fn bad_status(flags: u32) -> Status;

/// A callback with the Rust ABI, which C cannot call.
#[cfg(feature = "bad-callback-abi")]
pub type RustFn = Option<fn(*mut c_void)>;

#[cfg(feature = "bad-callback-abi")]
#[cuda_entry(symbol = "cuLaunchHostFunc", version = 10000)]
pub unsafe extern "C" fn bad_callback_abi(
    stream: CUstream,
    f: RustFn,
    user_data: *mut c_void,
) -> CUresult;

/// A callback whose parameter cannot be NULL, where the driver passes the user's pointer as is.
#[cfg(feature = "bad-callback-value")]
pub type NonNullFn = Option<unsafe extern "C" fn(std::ptr::NonNull<c_void>)>;

#[cfg(feature = "bad-callback-value")]
#[cuda_entry(symbol = "cuLaunchHostFunc", version = 10000)]
pub unsafe extern "C" fn bad_callback_value(
    stream: CUstream,
    f: NonNullFn,
    user_data: *mut c_void,
) -> CUresult;
