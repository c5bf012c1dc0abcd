// An alias of a pointer is followed: `SizePtr` points to 4 bytes where C has `size_t *`.
use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

type SizePtr = *mut u32;

#[cuda_entry(symbol = "cuMemGetInfo", version = 3020)]
pub unsafe extern "C" fn mem_get_info(free: SizePtr, total: SizePtr) -> CUresult;

fn main() {}
