//! A `cfg_attr` on a declaration in a block applies its attributes to the function only: the
//! items generated beside it (the impl, the constants, the module) take its `cfg`s, not
//! `inline` or `deprecated`, which would be refused or warn there. Under deny(warnings).
#![deny(warnings)]

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

#[cuda_entry]
unsafe extern "C" {
    #[cfg_attr(unix, inline(never))]
    #[cfg_attr(windows, inline(never))]
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
    pub fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;

    #[cfg_attr(all(), deprecated = "use mem_alloc")]
    #[cuda_entry(symbol = "cuMemAlloc", version = 2000)]
    pub fn mem_alloc_32(dptr: *mut u32, bytesize: u32) -> CUresult;

    // A `cfg` inside a `cfg_attr` still decides whether the declaration exists, beside it too.
    #[cfg_attr(all(), cfg(any()), doc = "never compiled")]
    #[cuda_entry(symbol = "cuMemFree", version = 3020)]
    pub fn mem_free(dptr: CUdeviceptr) -> CUresult;
}

fn main() {
    let _ = mem_alloc::SYMBOL;
    #[allow(deprecated)]
    let _ = mem_alloc_32::pointer;
}
