// The driver passes a callback's parameters: each must be proven to hold every value it may pass
// (`cuStreamAddCallback`'s callback gets the stream's status, 0 on success).
use std::ffi::c_void;
use std::num::NonZeroI32;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUresult, CUstream};

#[allow(dead_code)]
#[repr(i32)]
pub enum Status {
    Failed = 1,
}

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuStreamAddCallback", version = 5000)]
    fn add_callback_nonzero(
        stream: CUstream,
        callback: Option<unsafe extern "C" fn(CUstream, NonZeroI32, *mut c_void)>,
        user_data: *mut c_void,
        flags: u32,
    ) -> CUresult;
    #[cuda_entry(symbol = "cuStreamAddCallback", version = 5000)]
    fn add_callback_enum(
        stream: CUstream,
        callback: Option<unsafe extern "C" fn(CUstream, Status, *mut c_void)>,
        user_data: *mut c_void,
        flags: u32,
    ) -> CUresult;
}

fn main() {}
