// `&c_void` where C has `const CUDA_MEMCPY2D *pCopy`: a reference claims one byte, and the driver
// reads the whole descriptor through it. Only a raw pointer to `c_void` leaves it unchecked.
use std::ffi::c_void;

use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

#[cuda_entry(symbol = "cuMemcpy2D", version = 3020)]
pub unsafe extern "C" fn memcpy_2d(copy: &c_void) -> CUresult;

fn main() {}
