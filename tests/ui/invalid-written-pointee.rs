// What the driver writes must be valid for every value it may write: not `NonZeroI32` (an
// attribute may be 0), not `char`, not `bool` (a LUID is 8 arbitrary bytes), not `NonNull` (a
// context may be NULL).
use std::ffi::c_void;
use std::num::NonZeroI32;
use std::ptr::NonNull;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdevice, CUresult};

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuDeviceGetAttribute", version = 2000)]
    fn attribute(pi: *mut NonZeroI32, attrib: i32, dev: CUdevice) -> CUresult;
    #[cuda_entry(symbol = "cuDeviceGetCount", version = 2000)]
    fn count(count: &mut char) -> CUresult;
    #[cuda_entry(symbol = "cuDeviceGetLuid", version = 10000)]
    fn luid(luid: *mut bool, mask: *mut u32, dev: CUdevice) -> CUresult;
    #[cuda_entry(symbol = "cuCtxGetCurrent", version = 4000)]
    fn current(pctx: *mut NonNull<c_void>) -> CUresult;
}

fn main() {}
