// `const char **pStr`: the driver writes an 8-byte pointer into a 4-byte slot.
use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

#[cuda_entry(symbol = "cuGetErrorString", version = 6000)]
pub unsafe extern "C" fn get_error_string(error: CUresult, text: *mut u32) -> CUresult;

fn main() {}
