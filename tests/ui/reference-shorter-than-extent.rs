// `char *luid`: the driver writes the 8 bytes of the LUID, whatever the caller passes. A
// reference to one `c_char` claims one byte.
use std::ffi::c_char;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdevice, CUresult};

#[cuda_entry(symbol = "cuDeviceGetLuid", version = 10000)]
pub unsafe extern "C" fn device_get_luid(
    luid: &mut c_char,
    node_mask: &mut u32,
    dev: CUdevice,
) -> CUresult;

fn main() {}
