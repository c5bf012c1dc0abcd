// A declaration inside an `impl` block: the attribute's tokens are those of a declaration at
// module level, but its expansion (a function, a module, statics) cannot be in an `impl`. rustc
// said "module is not supported in `trait`s or `impl`s", "`const` items in this context need a
// name" and three more, none saying where to put it.
use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

pub struct Allocator;

impl Allocator {
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
    pub unsafe extern "C" fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;
}

fn main() {}
