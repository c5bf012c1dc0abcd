//! `CUresult` codes in messages. The codes, names and descriptions come from one place, the
//! table generated from cuda.h (`cuda_entry_table::status`); the loader names the few it tests
//! for through the constants of [`CUresult`].

use std::fmt;

use crate::types::CUresult;

/// Success.
pub(crate) const SUCCESS: i32 = CUresult::SUCCESS.0;
/// What every export of the toolkit's stub libcuda returns.
pub(crate) const STUB_LIBRARY: i32 = CUresult::ERROR_STUB_LIBRARY.0;
/// The 4-argument `cuGetProcAddress`'s only "no" answer.
pub(crate) const NOT_FOUND: i32 = CUresult::ERROR_NOT_FOUND.0;

/// A `CUresult` by name: `CUDA_ERROR_NOT_FOUND (500)`; a code no header defines as
/// `CUresult 12345`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Status(pub(crate) i32);

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match cuda_entry_table::status(self.0) {
            Some(status) => write!(f, "{} ({})", status.name, self.0),
            None => write!(f, "CUresult {}", self.0),
        }
    }
}

// A `CUresult` with its meaning: `CUDA_ERROR_INVALID_VALUE (1): This indicates that ...` (the
// `Display` of `CUresult`, which owns it: `types` needs nothing of this module).
pub(crate) use crate::types::CUresult as Described;
