// `const char **pStr`: the driver stores a pointer to its own text, which is read through the
// declared pointer: its bytes are any `char`, not a `bool`.
use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

#[cuda_entry(symbol = "cuGetErrorString", version = 6000)]
pub unsafe extern "C" fn get_error_string(error: CUresult, text: *mut *const bool) -> CUresult;

fn main() {}
