// `&mut str` is two words (a pointer and a length) where C has `char *`: the crate's message,
// not rustc's unsized-type error.
use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdevice, CUresult};

#[cuda_entry(symbol = "cuDeviceGetName", version = 2000)]
pub unsafe extern "C" fn device_name(name: &mut str, len: i32, dev: CUdevice) -> CUresult;

fn main() {}
