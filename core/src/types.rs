//! The few CUDA driver types the examples need, with the C sizes and layouts of `cuda.h`.
//!
//! Nothing in this crate requires them: declarations may use any type of the right size and
//! alignment (cudarc's `sys` types, hand-written ones); `#[cuda_entry]` checks that at compile time.
#![allow(non_camel_case_types)]

use std::ffi::c_char;
use std::fmt;

use crate::status;

/// `CUresult`: a driver function's status code. A C enum, kept as its `int` so that a code this
/// crate does not know is still a valid value.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CUresult(pub i32);

impl CUresult {
    /// `CUDA_SUCCESS`.
    pub const SUCCESS: CUresult = CUresult(status::SUCCESS);
    /// `CUDA_ERROR_INVALID_VALUE`.
    pub const ERROR_INVALID_VALUE: CUresult = CUresult(status::INVALID_VALUE);
    /// `CUDA_ERROR_NOT_INITIALIZED`.
    pub const ERROR_NOT_INITIALIZED: CUresult = CUresult(status::NOT_INITIALIZED);
    /// `CUDA_ERROR_STUB_LIBRARY`.
    pub const ERROR_STUB_LIBRARY: CUresult = CUresult(status::STUB_LIBRARY);
    /// `CUDA_ERROR_NO_DEVICE`.
    pub const ERROR_NO_DEVICE: CUresult = CUresult(status::NO_DEVICE);
    /// `CUDA_ERROR_NOT_FOUND`.
    pub const ERROR_NOT_FOUND: CUresult = CUresult(status::NOT_FOUND);

    /// Whether this is `CUDA_SUCCESS`.
    pub const fn is_success(self) -> bool {
        self.0 == 0
    }

    /// `Ok(())` for `CUDA_SUCCESS`, else `Err(self)`: for `?` in code that calls the driver.
    ///
    /// # Errors
    /// `self` when it is not `CUDA_SUCCESS`.
    pub const fn ok(self) -> Result<(), CUresult> {
        if self.is_success() { Ok(()) } else { Err(self) }
    }
}

impl fmt::Debug for CUresult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CUresult({})", self.0)
    }
}

impl fmt::Display for CUresult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&crate::status::Status(self.0), f)
    }
}

impl std::error::Error for CUresult {}

/// `CUdevice`: a device ordinal handle (`int`).
pub type CUdevice = i32;

/// `CUdeviceptr`: a device address (`unsigned long long` on 64-bit targets).
pub type CUdeviceptr = u64;

macro_rules! opaque_handle {
    ($(#[$doc:meta] $handle:ident => $target:ident;)*) => {$(
        #[doc = concat!("The opaque driver object a [`", stringify!($handle), "`] points at.")]
        #[repr(C)]
        #[derive(Debug)]
        pub struct $target {
            _opaque: [u8; 0],
        }
        #[$doc]
        pub type $handle = *mut $target;
    )*};
}

opaque_handle! {
    /// `CUcontext`: a context handle.
    CUcontext => CUctx_st;
    /// `CUmodule`: a loaded module handle.
    CUmodule => CUmod_st;
    /// `CUfunction`: a kernel handle.
    CUfunction => CUfunc_st;
    /// `CUstream`: a stream handle (NULL is the default stream).
    CUstream => CUstream_st;
    /// `CUevent`: an event handle.
    CUevent => CUevent_st;
}

/// `CUuuid`: a device's 16-byte UUID.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CUuuid {
    /// The bytes, as `char bytes[16]`.
    pub bytes: [c_char; 16],
}
