#[doc = ""]
#[doc = " # Errors\n\n The driver entry's [`cuda_entry::Error`] when `cuMemAlloc` at version 0 cannot be resolved (resolved once, then cached).\n\n # Safety\n\n The contract of the driver function `cuMemAlloc` (`PFN_cuMemAlloc_v0 (unverified)`): valid pointers and handles, as the CUDA driver API documentation states."]
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
const _: () = {};
#[doc = " The driver entry behind `mem_alloc()`: `cuMemAlloc` at version 0 (`PFN_cuMemAlloc_v0 (unverified)`)."]
#[allow(dead_code, non_snake_case, clippy::module_name_repetitions)]
pub mod mem_alloc {
    #[doc = r" The function pointer type, the signature of the typedef."]
    pub type Pfn = super::__cuda_entry_pfn_mem_alloc;
    #[doc = r" The symbol passed to `cuGetProcAddress`."]
    pub const SYMBOL: &str = "cuMemAlloc";
    #[doc = r" The typedef version passed to `cuGetProcAddress`."]
    pub const VERSION: u32 = 0u32;
    #[doc = r" The default-stream flavour, which selects the flag passed to `cuGetProcAddress`."]
    pub const STREAM: ::cuda_entry::__private::Stream = ::cuda_entry::__private::Stream::Legacy;
    #[doc = r" The typedef the signature was checked against."]
    pub const TYPEDEF: &str = "PFN_cuMemAlloc_v0 (unverified)";
    #[doc = r" The entry: resolved on first use, cached for the life of the process."]
    pub static ENTRY: ::cuda_entry::__private::Entry = ::cuda_entry::__private::Entry::new(
        c"cuMemAlloc",
        0u32,
        ::cuda_entry::__private::Stream::Legacy,
    );
    #[doc = r" The typed function pointer, for hot loops."]
    #[doc = r""]
    #[doc = r" # Errors"]
    #[doc = r""]
    #[doc = r" The [`cuda_entry::Error`] of the resolution (cached)."]
    #[inline]
    pub fn pointer() -> ::cuda_entry::__private::Result<Pfn, ::cuda_entry::__private::Error> {
        unsafe { ENTRY.resolve_as::<Pfn>() }
    }
    #[doc = r" Whether the driver can serve this entry; resolves it (once) but never calls it."]
    #[must_use]
    pub fn is_available() -> bool {
        ENTRY.is_available()
    }
    #[::cuda_entry::__private::linkme::distributed_slice(::cuda_entry::__private::ENTRIES)]
    # [linkme (crate = :: cuda_entry :: __private :: linkme)]
    static REGISTERED: &::cuda_entry::__private::Entry = &ENTRY;
    ::cuda_entry::__private::manifest_record!(
        43usize,
        "cuMemAlloc",
        "cuda-entry-macros",
        0u32,
        0u32,
        0u8,
        1u8,
        true
    );
}
::core::compile_error! { "expected `version = <integer literal>`, found `version = CUDA_VERSION`: write the N of the `PFN_<symbol>_v<N>` typedef your signature was copied from; a constant such as CUDA_VERSION makes the driver return the newest variant, whose ABI changes when the toolkit or driver does" }
