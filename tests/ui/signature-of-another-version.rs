// `PFN_cuMemGetInfo_v2000` took `unsigned int *`, `PFN_cuMemGetInfo_v3020` takes `size_t *`.
use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

#[cuda_entry(symbol = "cuMemGetInfo", version = 3020)]
pub unsafe extern "C" fn mem_get_info(free: *mut u32, total: *mut u32) -> CUresult;

fn main() {}
