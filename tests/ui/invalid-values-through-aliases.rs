// The compiler sees through aliases what the tokens cannot: a `bool` written by the driver (a
// LUID is 8 arbitrary bytes), a `NonNull` where a context may be NULL, a float array where C has
// a record of integers.
use std::ffi::c_void;
use std::ptr::NonNull;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdevice, CUdeviceptr, CUresult};

type Flag = bool;
type Context = NonNull<c_void>;
type Location = [f32; 2];

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuDeviceGetLuid", version = 10000)]
    fn luid(luid: *mut Flag, mask: *mut u32, dev: CUdevice) -> CUresult;
    #[cuda_entry(symbol = "cuCtxGetCurrent", version = 4000)]
    fn current(pctx: *mut Context) -> CUresult;
    #[cuda_entry(symbol = "cuMemPrefetchAsync", version = 12020)]
    fn prefetch(
        dev_ptr: CUdeviceptr,
        count: usize,
        location: Location,
        flags: u32,
        stream: *mut c_void,
    ) -> CUresult;
}

fn main() {}
