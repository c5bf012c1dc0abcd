//! The few CUDA driver types the examples need, with the C sizes and layouts of `cuda.h`.
//!
//! Nothing in this crate requires them: declarations may use any type of the right size and
//! alignment (cudarc's `sys` types, hand-written ones); `#[cuda_entry]` checks that at compile time.
#![allow(non_camel_case_types)]

use std::ffi::c_char;
use std::fmt;

/// `CUresult`: a driver function's status code. A C enum, kept as its `int` so that a code this
/// crate does not know is still a valid value. Its constants are every code of cuda.h (CUDA 11.7
/// and newer); `Display` gives the name and the header's description:
/// `CUDA_ERROR_INVALID_VALUE (1): This indicates that one or more of the parameters ...`.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CUresult(pub i32);

/// One constant per code of cuda.h, from the generated table.
macro_rules! codes {
    ($(($code:literal, $ident:ident, $name:literal, $description:literal)),* $(,)?) => {
        impl CUresult {
            $(
                #[doc = concat!("`", $name, "` (", stringify!($code), "): ", $description)]
                pub const $ident: CUresult = CUresult($code);
            )*
        }
    };
}
cuda_entry_table::for_each_status!(codes);

impl CUresult {
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
        match cuda_entry_table::status(self.0) {
            Some(status) => write!(f, "{} ({}): {}", status.name, self.0, status.description),
            None => {
                let toolkits = cuda_entry_table::TOOLKITS;
                write!(f, "CUresult {} (a code no cuda.h defines", self.0)?;
                if let (Some(first), Some(last)) = (toolkits.first(), toolkits.last()) {
                    write!(
                        f,
                        " from {} to {}",
                        cuda_entry_table::Cuda(*first),
                        cuda_entry_table::Cuda(*last)
                    )?;
                }
                f.write_str(")")
            }
        }
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

/// `CUmemLocation`: where memory lives, passed by value (`cuMemAdvise`, `cuMemPrefetchAsync` of
/// CUDA 12.2 on): `CUmemLocationType type; int id;`, the enum as its `int`. `cuda-entry decl
/// --types c` and `migrate` declare a bindings crate's by-value record as this type, which
/// proves how it is passed ([`ByValue`](crate::ByValue)); the binding's value is transmuted into
/// it (the same size, checked by `transmute`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CUmemLocation {
    /// `CUmemLocationType type` (`CU_MEM_LOCATION_TYPE_DEVICE` is 1).
    pub type_: core::ffi::c_int,
    /// The device ordinal, NUMA node or host id `type_` names.
    pub id: core::ffi::c_int,
}

/// `CUipcMemHandle`: an interprocess memory handle, passed by value to `cuIpcOpenMemHandle`:
/// `char reserved[64]`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CUipcMemHandle {
    /// The handle's bytes.
    pub reserved: [c_char; 64],
}

/// `CUipcEventHandle`: an interprocess event handle, passed by value to `cuIpcOpenEventHandle`:
/// `char reserved[64]`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CUipcEventHandle {
    /// The handle's bytes.
    pub reserved: [c_char; 64],
}

/// `CUeglFrame`: an EGL frame, passed by value to `cuEGLStreamProducerPresentFrame`: a union of
/// three `CUarray`s or three pitched pointers, six `unsigned int`s, three enums as `int`s.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CUeglFrame {
    /// `union { CUarray pArray[3]; void *pPitch[3]; } frame`: pointers either way.
    pub frame: [*mut core::ffi::c_void; 3],
    /// Width of the first plane.
    pub width: core::ffi::c_uint,
    /// Height of the first plane.
    pub height: core::ffi::c_uint,
    /// Depth of the first plane.
    pub depth: core::ffi::c_uint,
    /// Pitch of the first plane.
    pub pitch: core::ffi::c_uint,
    /// Number of planes.
    pub plane_count: core::ffi::c_uint,
    /// Number of channels of the plane.
    pub num_channels: core::ffi::c_uint,
    /// `CUeglFrameType frameType`.
    pub frame_type: core::ffi::c_int,
    /// `CUeglColorFormat eglColorFormat`.
    pub egl_color_format: core::ffi::c_int,
    /// `CUarray_format cuFormat`.
    pub cu_format: core::ffi::c_int,
}
