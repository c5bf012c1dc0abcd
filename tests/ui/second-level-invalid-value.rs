// `void **data` of cuPointerGetAttributes: the driver stores each attribute's value through
// `data[i]` (CU_MEMORYTYPE_DEVICE is 2), so what those point to must hold every value: a `bool`
// does not.
use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

#[cuda_entry(symbol = "cuPointerGetAttributes", version = 7000)]
pub unsafe extern "C" fn pointer_get_attributes(
    count: u32,
    attributes: *mut i32,
    data: *mut *mut bool,
    ptr: CUdeviceptr,
) -> CUresult;

fn main() {}
