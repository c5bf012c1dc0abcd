// The same mistake through an alias: the compiler sees `Bias` is `u32`.
use std::ffi::c_void;

use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

type Bias = u32;

#[cuda_entry(symbol = "cuTexRefSetMipmapLevelBias", version = 5000)]
pub unsafe extern "C" fn set_bias(tex_ref: *mut c_void, bias: Bias) -> CUresult;

fn main() {}
