// A name is not a type: `ffi::u64` and `ffi::usize` are 4 bytes, whatever their names say, and
// the driver would write 8 bytes into a 4-byte slot.
use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

#[allow(non_camel_case_types)]
mod ffi {
    pub type u64 = u32;
    pub type usize = u32;
}

#[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
pub unsafe extern "C" fn mem_alloc(dptr: *mut ffi::u64, bytesize: ffi::usize) -> CUresult;

fn main() {}
