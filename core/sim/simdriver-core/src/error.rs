//! The simulated driver's one error type, and the `CUresult` values it stands for.
//!
//! Every simulated API function returns a [`SimResult`]; the `extern "C"` export turns it into
//! its `CUresult` once ([`SimError::code`], through `exports::answer`). An `Err` always means
//! "return this code and write nothing".

use super::CUresult;

/// The `CUresult` values the simulator returns (values from cuda.h).
pub mod rc {
    use super::CUresult;
    /// `CUDA_SUCCESS`.
    pub const SUCCESS: CUresult = 0;
    /// `CUDA_ERROR_INVALID_VALUE`.
    pub const INVALID_VALUE: CUresult = 1;
    /// `CUDA_ERROR_OUT_OF_MEMORY`.
    pub const OUT_OF_MEMORY: CUresult = 2;
    /// `CUDA_ERROR_NOT_INITIALIZED`.
    pub const NOT_INITIALIZED: CUresult = 3;
    /// `CUDA_ERROR_STUB_LIBRARY`: what every export of the toolkit's `lib64/stubs/libcuda.so`
    /// returns.
    pub const STUB_LIBRARY: CUresult = 34;
    /// `CUDA_ERROR_INVALID_DEVICE`.
    pub const INVALID_DEVICE: CUresult = 101;
    /// `CUDA_ERROR_INVALID_CONTEXT`.
    pub const INVALID_CONTEXT: CUresult = 201;
    /// `CUDA_ERROR_INVALID_HANDLE`.
    pub const INVALID_HANDLE: CUresult = 400;
    /// `CUDA_ERROR_NOT_FOUND`: the 4-argument `cuGetProcAddress` answer for an unknown symbol or
    /// a version below the first typedef (measured, legacy TSV).
    pub const NOT_FOUND: CUresult = 500;
    /// `CUDA_ERROR_NOT_READY`: a queried stream or event has work pending.
    pub const NOT_READY: CUresult = 600;
    /// `CUDA_ERROR_ILLEGAL_ADDRESS`.
    pub const ILLEGAL_ADDRESS: CUresult = 700;
    /// `CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED`.
    pub const HOST_MEMORY_ALREADY_REGISTERED: CUresult = 712;
    /// `CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED`.
    pub const HOST_MEMORY_NOT_REGISTERED: CUresult = 713;
    /// `CUDA_ERROR_NOT_SUPPORTED`: what every export the simulator does not implement returns.
    pub const NOT_SUPPORTED: CUresult = 801;
    /// `CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED`.
    pub const STREAM_CAPTURE_UNSUPPORTED: CUresult = 900;
}

/// Why a simulated call returns without doing its work: the code it returns, nothing written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimError {
    /// `CUDA_ERROR_INVALID_VALUE` (1): a NULL output, bad flags, a version above the driver's.
    InvalidValue,
    /// `CUDA_ERROR_OUT_OF_MEMORY` (2).
    OutOfMemory,
    /// `CUDA_ERROR_NOT_INITIALIZED` (3): no `cuInit(0)` yet, or mode `version-fails`.
    NotInitialized,
    /// `CUDA_ERROR_STUB_LIBRARY` (34): mode `stub`.
    StubLibrary,
    /// `CUDA_ERROR_INVALID_DEVICE` (101): a device other than 0.
    InvalidDevice,
    /// `CUDA_ERROR_INVALID_CONTEXT` (201): no live current context, or a dead one named.
    InvalidContext,
    /// `CUDA_ERROR_INVALID_HANDLE` (400): an unknown module, function, stream, event or pool; an
    /// event without timing (or not recorded) given to `cuEventElapsedTime`.
    InvalidHandle,
    /// `CUDA_ERROR_NOT_FOUND` (500).
    NotFound,
    /// `CUDA_ERROR_NOT_READY` (600): a queried stream or event has work pending.
    NotReady,
    /// `CUDA_ERROR_ILLEGAL_ADDRESS` (700): a kernel touched memory outside an allocation.
    IllegalAddress,
    /// `CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED` (712): `cuMemHostRegister` of a range that
    /// overlaps a registered or pinned one.
    HostMemoryAlreadyRegistered,
    /// `CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED` (713): `cuMemHostUnregister` of a pointer
    /// `cuMemHostRegister` did not register.
    HostMemoryNotRegistered,
    /// `CUDA_ERROR_NOT_SUPPORTED` (801): an export of the real driver that the simulator does not
    /// implement (`unsupported.rs`).
    NotSupported,
    /// `CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED` (900).
    StreamCaptureUnsupported,
    /// Mode `rc=<N>`, or a status injected into the function (`CUDA_ENTRY_SIM_STATUS`): the
    /// configured code, whatever it is (0 included).
    Injected(CUresult),
}

impl SimError {
    /// The `CUresult` the export returns.
    pub const fn code(self) -> CUresult {
        match self {
            SimError::InvalidValue => rc::INVALID_VALUE,
            SimError::OutOfMemory => rc::OUT_OF_MEMORY,
            SimError::NotInitialized => rc::NOT_INITIALIZED,
            SimError::StubLibrary => rc::STUB_LIBRARY,
            SimError::InvalidDevice => rc::INVALID_DEVICE,
            SimError::InvalidContext => rc::INVALID_CONTEXT,
            SimError::InvalidHandle => rc::INVALID_HANDLE,
            SimError::NotFound => rc::NOT_FOUND,
            SimError::NotReady => rc::NOT_READY,
            SimError::IllegalAddress => rc::ILLEGAL_ADDRESS,
            SimError::HostMemoryAlreadyRegistered => rc::HOST_MEMORY_ALREADY_REGISTERED,
            SimError::HostMemoryNotRegistered => rc::HOST_MEMORY_NOT_REGISTERED,
            SimError::NotSupported => rc::NOT_SUPPORTED,
            SimError::StreamCaptureUnsupported => rc::STREAM_CAPTURE_UNSUPPORTED,
            SimError::Injected(code) => code,
        }
    }

    /// The `CUresult` of a whole call: `CUDA_SUCCESS` or the error's code.
    pub const fn result_code(result: SimResult) -> CUresult {
        match result {
            Ok(()) => rc::SUCCESS,
            Err(error) => error.code(),
        }
    }
}

/// What a simulated API function returns.
pub type SimResult<T = ()> = Result<T, SimError>;
