//! An undocumented public declaration is reported as an undocumented public function is.
#![deny(missing_docs)]

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

#[cuda_entry(symbol = "cuMemFree", version = 3020)]
pub unsafe extern "C" fn mem_free(dptr: CUdeviceptr) -> CUresult;

/// Documented: nothing to report.
#[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
pub unsafe extern "C" fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;

fn main() {}
