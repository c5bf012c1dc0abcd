// What the driver does at each level of a pointer parameter is a fact of that parameter
// (cuda_entry_table::Access), not of its C type: `void **` is an address stored
// (cuMemAllocHost, cuGetProcAddress), an address to the driver's own memory (cuLinkComplete),
// read at both levels (cuLaunchKernel) or written through the caller's pointers
// (cuPointerGetAttributes). A C `T *` to an array of `T` takes a Rust array of `T`.
#![allow(dead_code)]
use std::ffi::{c_char, c_void};
use std::mem::MaybeUninit;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdevice, CUdeviceptr, CUresult};

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuGetProcAddress", version = 12000)]
    fn get_proc_address(
        symbol: *const c_char,
        pfn: *mut Option<unsafe extern "C" fn()>,
        version: i32,
        flags: u64,
        status: *mut i32,
    ) -> CUresult;
    #[cuda_entry(symbol = "cuLinkComplete", version = 5050)]
    fn link_complete(state: *mut c_void, cubin: *mut *const u8, size: *mut usize) -> CUresult;
    #[cuda_entry(symbol = "cuMemAllocHost", version = 3020)]
    fn mem_alloc_host(pp: &mut MaybeUninit<*mut c_void>, bytesize: usize) -> CUresult;
    #[cuda_entry(symbol = "cuGetErrorString", version = 6000)]
    fn get_error_string(error: CUresult, text: &mut MaybeUninit<*const c_char>) -> CUresult;
    #[cuda_entry(symbol = "cuLaunchKernel", version = 4000)]
    fn launch_kernel(
        f: *mut c_void,
        gx: u32,
        gy: u32,
        gz: u32,
        bx: u32,
        by: u32,
        bz: u32,
        shared: u32,
        stream: *mut c_void,
        params: *const *const c_void,
        extra: *const *const c_void,
    ) -> CUresult;
    #[cuda_entry(symbol = "cuPointerGetAttributes", version = 7000)]
    fn pointer_get_attributes(
        count: u32,
        attributes: *mut i32,
        data: *const *mut u64,
        ptr: CUdeviceptr,
    ) -> CUresult;
    #[cuda_entry(symbol = "cuDeviceGetLuid", version = 10000)]
    fn device_get_luid(luid: &mut [c_char; 8], mask: &mut u32, dev: CUdevice) -> CUresult;
    #[cuda_entry(symbol = "cuTexRefGetBorderColor", version = 8000)]
    fn tex_ref_get_border_color(color: &mut [f32; 4], tex: *mut c_void) -> CUresult;
}

fn main() {}
