#[inline]
#[allow(clippy::too_many_arguments)]
pub unsafe fn mem_alloc(
    dptr: *mut CUdeviceptr,
    bytesize: usize,
) -> ::cuda_entry::__private::Result<(), ::cuda_entry::__private::Error> {
    match mem_alloc::pointer() {
        ::cuda_entry::__private::Result::Ok(pfn) => {
            let _ = unsafe { pfn(dptr, bytesize) };
            ::cuda_entry::__private::Result::Ok(())
        }
        ::cuda_entry::__private::Result::Err(error) => ::cuda_entry::__private::Result::Err(error),
    }
}
#[allow(deprecated)]
impl mem_alloc::Signature for () {
    type Pfn = unsafe extern "C" fn(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;
    type Status = unsafe extern "C" fn(
        dptr: *mut CUdeviceptr,
        bytesize: usize,
    ) -> ::cuda_entry::__private::c_int;
    const LINK: () = {
        let _ = mem_alloc;
    };
}
#[allow(dead_code, non_snake_case, missing_docs, unreachable_pub)]
pub mod mem_alloc {
    #[doc = r" The pointer type's definition, written where the declaration is."]
    #[doc(hidden)]
    pub trait Signature {
        #[doc = r" The function pointer type."]
        type Pfn: Copy;
        #[doc = r" The function pointer type with the C status type, `int`, as its return type."]
        type Status: Copy;
        #[doc = r" Names the declared function."]
        const LINK: ();
    }
    pub type Pfn = <() as Signature>::Pfn;
    pub const SYMBOL: &str = "cuMemAlloc";
    pub const STREAM: ::cuda_entry::__private::Stream = ::cuda_entry::__private::Stream::Legacy;
    pub fn pointer() -> ::cuda_entry::__private::Result<Pfn, ::cuda_entry::__private::Error> {
        ::cuda_entry::__private::never()
    }
    pub fn is_available() -> bool {
        ::cuda_entry::__private::never()
    }
}
::core::compile_error! { "expected `version = <integer literal>`, found `version = CUDA_VERSION`: write the N of the `PFN_<symbol>_v<N>` typedef your signature was copied from; a constant such as CUDA_VERSION makes the driver return the newest variant, whose ABI changes when the toolkit or driver does" }
