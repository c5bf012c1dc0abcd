//! The `CUresult` codes the loader itself meets, in one place: what `cuDriverGetVersion` and
//! `cuGetProcAddress` can answer, with their names from `cuda.h` for messages.

use std::fmt;

/// `CUDA_SUCCESS`.
pub(crate) const SUCCESS: i32 = 0;
/// `CUDA_ERROR_INVALID_VALUE`.
pub(crate) const INVALID_VALUE: i32 = 1;
/// `CUDA_ERROR_NOT_INITIALIZED`.
pub(crate) const NOT_INITIALIZED: i32 = 3;
/// `CUDA_ERROR_STUB_LIBRARY`: what every export of the toolkit's stub libcuda returns.
pub(crate) const STUB_LIBRARY: i32 = 34;
/// `CUDA_ERROR_NO_DEVICE`.
pub(crate) const NO_DEVICE: i32 = 100;
/// `CUDA_ERROR_NOT_FOUND`: the 4-argument `cuGetProcAddress`'s only "no" answer.
pub(crate) const NOT_FOUND: i32 = 500;

/// The names of the codes above and of the few others a loader can meet.
const NAMES: &[(i32, &str)] = &[
    (SUCCESS, "CUDA_SUCCESS"),
    (INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE"),
    (2, "CUDA_ERROR_OUT_OF_MEMORY"),
    (NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED"),
    (4, "CUDA_ERROR_DEINITIALIZED"),
    (STUB_LIBRARY, "CUDA_ERROR_STUB_LIBRARY"),
    (35, "CUDA_ERROR_INSUFFICIENT_DRIVER"),
    (NO_DEVICE, "CUDA_ERROR_NO_DEVICE"),
    (NOT_FOUND, "CUDA_ERROR_NOT_FOUND"),
    (999, "CUDA_ERROR_UNKNOWN"),
];

/// The `cuda.h` name of `code`, where it is one of the codes above.
pub(crate) fn name(code: i32) -> Option<&'static str> {
    NAMES.iter().find(|(c, _)| *c == code).map(|(_, n)| *n)
}

/// A `CUresult` displayed with its name where known: `CUDA_ERROR_NOT_FOUND (500)`, else
/// `CUresult 719`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Status(pub(crate) i32);

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match name(self.0) {
            Some(name) => write!(f, "{name} ({})", self.0),
            None => write!(f, "CUresult {}", self.0),
        }
    }
}
