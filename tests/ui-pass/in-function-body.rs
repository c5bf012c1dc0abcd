//! Declarations inside function bodies, with types imported there: both forms, used.
#![deny(warnings)]

fn device_count() -> Option<i32> {
    use cuda_entry::cuda_entry;
    use cuda_entry::types::CUresult;

    #[cuda_entry(symbol = "cuDeviceGetCount", version = 2000)]
    unsafe extern "C" fn device_get_count(count: *mut i32) -> CUresult;

    let mut count = 0;
    // SAFETY: a valid out-pointer.
    match unsafe { device_get_count(&mut count) } {
        Ok(()) => Some(count),
        _ => None,
    }
}

fn main() {
    use cuda_entry::types::{CUdeviceptr, CUresult};

    type Bytes = usize;

    #[cuda_entry::cuda_entry]
    unsafe extern "C" {
        #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
        fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: Bytes) -> CUresult;
        #[cuda_entry(symbol = "cuMemFree", version = 3020, optional)]
        pub(crate) fn mem_free(dptr: CUdeviceptr) -> CUresult;
    }

    let _: Option<mem_alloc::Pfn> = mem_alloc::pointer().ok();
    assert!(mem_free::ENTRY.is_optional() && !mem_alloc::ENTRY.is_optional());
    let _ = mem_free::is_available();
    let _ = device_count();
}
