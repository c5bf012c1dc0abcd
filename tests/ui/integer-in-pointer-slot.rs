// `void **pp` of cuMemAllocHost: the driver stores an address there. An integer of its size
// holds it, but the slot is a pointer in C: declare one (or `*mut c_void` to leave it unchecked).
use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

type Address = u64;

#[cuda_entry(symbol = "cuMemAllocHost", version = 3020)]
pub unsafe extern "C" fn mem_alloc_host(pp: *mut Address, bytesize: usize) -> CUresult;

fn main() {}
