// A parameter that is not a C type is reported once: a call passing a value there shows no
// follow-on error.
use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

#[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
pub unsafe extern "C" fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: impl Copy) -> CUresult;

fn main() {
    let mut dptr = 0;
    let _ = unsafe { mem_alloc(&mut dptr, 1usize << 20) };
}
