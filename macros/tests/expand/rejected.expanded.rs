#[inline]
#[allow(clippy::too_many_arguments)]
pub unsafe fn mem_alloc(
    dptr: *mut CUdeviceptr,
    bytesize: usize,
) -> ::cuda_entry::__private::Result<CUresult, ::cuda_entry::__private::Error> {
    match mem_alloc::pointer() {
        ::cuda_entry::__private::Result::Ok(pfn) => {
            ::cuda_entry::__private::Result::Ok(unsafe { pfn(dptr, bytesize) })
        }
        ::cuda_entry::__private::Result::Err(error) => ::cuda_entry::__private::Result::Err(error),
    }
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
pub type __cuda_entry_pfn_mem_alloc = unsafe extern "C" fn(*mut CUdeviceptr, usize) -> CUresult;
#[allow(dead_code, non_snake_case, missing_docs, unreachable_pub)]
pub mod mem_alloc {
    pub type Pfn = super::__cuda_entry_pfn_mem_alloc;
    pub const SYMBOL: &str = "cuMemAlloc";
    pub const STREAM: ::cuda_entry::__private::Stream = ::cuda_entry::__private::Stream::Legacy;
    pub fn pointer() -> ::cuda_entry::__private::Result<Pfn, ::cuda_entry::__private::Error> {
        ::core::unreachable!()
    }
    pub fn is_available() -> bool {
        ::core::unreachable!()
    }
}
::core::compile_error! { "expected `version = <integer literal>`, found `version = CUDA_VERSION`: write the N of the `PFN_<symbol>_v<N>` typedef your signature was copied from; a constant such as CUDA_VERSION makes the driver return the newest variant, whose ABI changes when the toolkit or driver does" }
