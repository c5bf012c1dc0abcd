// A primitive's name shadowed through a glob import: `u32` is `names::u32`, a `u64`, so
// `bytesize: u32` is a `size_t`. The macro leaves every name to the compiler, which resolves it.
// (`cuda-entry check` sees the alias because it is in this file; one brought in by a glob from
// another file it does not see, and it would refuse the declaration by the name's usual meaning.)
pub mod names {
    #[allow(non_camel_case_types)]
    pub type u32 = u64;
}

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};
use names::*;

#[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
pub unsafe extern "C" fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: u32) -> CUresult;

fn main() {
    let _ = mem_alloc::pointer;
}
