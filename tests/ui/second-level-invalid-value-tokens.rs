// The same where the tokens show it (a path through the standard library, which no item of the
// crate can shadow): the macro's own error, before the compiler's.
use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

#[cuda_entry(symbol = "cuPointerGetAttributes", version = 7000)]
pub unsafe extern "C" fn pointer_get_attributes(
    count: u32,
    attributes: *mut i32,
    data: *mut *mut std::num::NonZeroU32,
    ptr: CUdeviceptr,
) -> CUresult;

fn main() {}
