// C passes `float bias` in a floating-point register; a `u32` goes in an integer one.
use std::ffi::c_void;

use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

#[cuda_entry(symbol = "cuTexRefSetMipmapLevelBias", version = 5000)]
pub unsafe extern "C" fn set_bias(tex_ref: *mut c_void, bias: u32) -> CUresult;

fn main() {}
