//! Where the driver writes, a shared reference to what may be written through one (`Cell`,
//! `UnsafeCell`, the atomics, arrays of them) is proven writable like `*mut T` and `&mut T`; at
//! the second level of a `void **` the driver writes through, `*mut *mut T` and `*mut c_void`.
#![deny(warnings)]

use std::cell::{Cell, UnsafeCell};
use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, AtomicUsize};

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};

type Slot = Cell<u64>;

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
    fn mem_alloc_cell(dptr: &Cell<CUdeviceptr>, bytesize: usize) -> CUresult;
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
    fn mem_alloc_atomic(dptr: &AtomicU64, bytesize: usize) -> CUresult;
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
    fn mem_alloc_alias(dptr: Option<&Slot>, bytesize: usize) -> CUresult;
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
    fn mem_alloc_unsafe_cell(dptr: &UnsafeCell<u64>, bytesize: usize) -> CUresult;
    #[cuda_entry(symbol = "cuMemGetInfo", version = 3020)]
    fn mem_get_info(free: &AtomicUsize, total: &[Cell<usize>; 1]) -> CUresult;
    #[cuda_entry(symbol = "cuPointerGetAttributes", version = 7000)]
    fn pointer_get_attributes(
        count: u32,
        attributes: *mut i32,
        data: *mut *mut c_void,
        ptr: CUdeviceptr,
    ) -> CUresult;
    #[cuda_entry(symbol = "cuPointerGetAttributes", version = 7000)]
    fn pointer_get_attributes_unchecked(
        count: u32,
        attributes: *mut i32,
        data: *mut c_void,
        ptr: CUdeviceptr,
    ) -> CUresult;
}

fn main() {
    let _ = (mem_alloc_cell::SYMBOL, mem_alloc_atomic::SYMBOL, mem_alloc_alias::SYMBOL);
    let _ = (mem_alloc_unsafe_cell::SYMBOL, mem_get_info::SYMBOL);
    let _ = (pointer_get_attributes::SYMBOL, pointer_get_attributes_unchecked::SYMBOL);
}
