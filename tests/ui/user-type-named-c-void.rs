// A type of the user's named `c_void` is not `core::ffi::c_void`: the pointee is checked.
use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

#[allow(non_camel_case_types)]
pub struct c_void(u8);

#[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
pub unsafe extern "C" fn mem_alloc(dptr: *mut c_void, bytesize: usize) -> CUresult;

fn main() {}
