//! Callback parameters (`CUhostFn`, `CUstreamCallback`, `CUoccupancyB2DSize`) declared as
//! function pointers the driver can call: `Option<unsafe extern "C" fn(..)>` and the other C
//! shapes, spelled out or through aliases (cudarc's `sys::CUhostFn` is one), which the compiler
//! judges. No lint fires: the signatures are FFI-safe.
#![deny(warnings)]

use std::ffi::c_void;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUfunction, CUresult, CUstream};

/// As bindgen (and cudarc) declares `CUhostFn`.
#[allow(non_camel_case_types, non_snake_case)]
pub type CUhostFn = Option<unsafe extern "C" fn(userData: *mut c_void)>;
/// As bindgen declares `CUstreamCallback`.
#[allow(non_camel_case_types, non_snake_case)]
pub type CUstreamCallback =
    Option<unsafe extern "C" fn(hStream: CUstream, status: CUresult, userData: *mut c_void)>;
type BlockSizeToSharedMemory = extern "C" fn(block_size: i32) -> usize;

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuLaunchHostFunc", version = 10000)]
    fn launch_host_func(stream: CUstream, f: CUhostFn, user_data: *mut c_void) -> CUresult;
    #[cuda_entry(symbol = "cuLaunchHostFunc", version = 10000)]
    fn launch_host_func_spelled(
        stream: CUstream,
        f: Option<unsafe extern "C" fn(*mut c_void)>,
        user_data: *mut c_void,
    ) -> CUresult;
    #[cuda_entry(symbol = "cuLaunchHostFunc", version = 10000)]
    fn launch_host_func_plain(
        stream: CUstream,
        f: unsafe extern "C" fn(*mut c_void),
        user_data: *mut c_void,
    ) -> CUresult;
    #[cuda_entry(symbol = "cuLaunchHostFunc", version = 10000)]
    fn launch_host_func_system(
        stream: CUstream,
        f: Option<extern "system" fn(user_data: *mut u8)>,
        user_data: *mut c_void,
    ) -> CUresult;
    #[cuda_entry(symbol = "cuStreamAddCallback", version = 5000)]
    fn stream_add_callback(
        stream: CUstream,
        callback: CUstreamCallback,
        user_data: *mut c_void,
        flags: u32,
    ) -> CUresult;
    #[cuda_entry(symbol = "cuOccupancyMaxPotentialBlockSize", version = 6050)]
    fn occupancy_max_potential_block_size(
        min_grid_size: *mut i32,
        block_size: *mut i32,
        func: CUfunction,
        block_size_to_dynamic_smem_size: Option<BlockSizeToSharedMemory>,
        dynamic_smem_size: usize,
        block_size_limit: i32,
    ) -> CUresult;
}

unsafe extern "C" fn done(_user_data: *mut c_void) {}

fn main() {
    // SAFETY: never run; a valid callback and a null stream.
    let _ = unsafe { launch_host_func(std::ptr::null_mut(), Some(done), std::ptr::null_mut()) };
    let _ = (
        launch_host_func_spelled::pointer(),
        launch_host_func_plain::pointer(),
        launch_host_func_system::pointer(),
        stream_add_callback::pointer(),
        occupancy_max_potential_block_size::pointer(),
    );
}
