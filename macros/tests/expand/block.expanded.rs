#[doc = ""]
#[doc = " # Errors\n\n The driver entry's [`cuda_entry::Error`] when `cuLaunchKernel` at version 4000 cannot be resolved (resolved once, then cached).\n\n # Safety\n\n The contract of the driver function `cuLaunchKernel` (`PFN_cuLaunchKernel_v4000`): valid pointers and handles, as the CUDA driver API documentation states."]
#[inline]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn launch(
    f: CUfunction,
    gx: u32,
    gy: u32,
    gz: u32,
    bx: u32,
    by: u32,
    bz: u32,
    shared: u32,
    stream: CUstream,
    params: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> ::cuda_entry::__private::Result<CUresult, ::cuda_entry::__private::Error> {
    match launch::pointer() {
        ::cuda_entry::__private::Result::Ok(pfn) => ::cuda_entry::__private::Result::Ok(unsafe {
            pfn(f, gx, gy, gz, bx, by, bz, shared, stream, params, extra)
        }),
        ::cuda_entry::__private::Result::Err(error) => ::cuda_entry::__private::Result::Err(error),
    }
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
pub(crate) type __cuda_entry_pfn_launch = unsafe extern "C" fn(
    CUfunction,
    u32,
    u32,
    u32,
    u32,
    u32,
    u32,
    u32,
    CUstream,
    *mut *mut c_void,
    *mut *mut c_void,
) -> CUresult;
const _: () = {
    #[cfg(target_pointer_width = "64")]
    const _: () = ::cuda_entry::__private::check_abi::<CUfunction>(
        8usize,
        8usize,
        "parameter 1 `f` of `PFN_cuLaunchKernel_v4000` is `CUfunction f` (8 bytes, align 8)",
    );
    #[cfg(target_pointer_width = "64")]
    const _: () = ::cuda_entry::__private::check_abi::<u32>(
        4usize,
        4usize,
        "parameter 2 `gx` of `PFN_cuLaunchKernel_v4000` is `unsigned int gridDimX` (4 bytes, align 4)",
    );
    #[cfg(target_pointer_width = "64")]
    const _: () = ::cuda_entry::__private::check_abi::<u32>(
        4usize,
        4usize,
        "parameter 3 `gy` of `PFN_cuLaunchKernel_v4000` is `unsigned int gridDimY` (4 bytes, align 4)",
    );
    #[cfg(target_pointer_width = "64")]
    const _: () = ::cuda_entry::__private::check_abi::<u32>(
        4usize,
        4usize,
        "parameter 4 `gz` of `PFN_cuLaunchKernel_v4000` is `unsigned int gridDimZ` (4 bytes, align 4)",
    );
    #[cfg(target_pointer_width = "64")]
    const _: () = ::cuda_entry::__private::check_abi::<u32>(
        4usize,
        4usize,
        "parameter 5 `bx` of `PFN_cuLaunchKernel_v4000` is `unsigned int blockDimX` (4 bytes, align 4)",
    );
    #[cfg(target_pointer_width = "64")]
    const _: () = ::cuda_entry::__private::check_abi::<u32>(
        4usize,
        4usize,
        "parameter 6 `by` of `PFN_cuLaunchKernel_v4000` is `unsigned int blockDimY` (4 bytes, align 4)",
    );
    #[cfg(target_pointer_width = "64")]
    const _: () = ::cuda_entry::__private::check_abi::<u32>(
        4usize,
        4usize,
        "parameter 7 `bz` of `PFN_cuLaunchKernel_v4000` is `unsigned int blockDimZ` (4 bytes, align 4)",
    );
    #[cfg(target_pointer_width = "64")]
    const _: () = ::cuda_entry::__private::check_abi::<u32>(
        4usize,
        4usize,
        "parameter 8 `shared` of `PFN_cuLaunchKernel_v4000` is `unsigned int sharedMemBytes` (4 bytes, align 4)",
    );
    #[cfg(target_pointer_width = "64")]
    const _: () = ::cuda_entry::__private::check_abi::<CUstream>(
        8usize,
        8usize,
        "parameter 9 `stream` of `PFN_cuLaunchKernel_v4000` is `CUstream hStream` (8 bytes, align 8)",
    );
    #[cfg(target_pointer_width = "64")]
    const _: () = ::cuda_entry::__private::check_abi::<*mut *mut c_void>(
        8usize,
        8usize,
        "parameter 10 `params` of `PFN_cuLaunchKernel_v4000` is `void ** kernelParams` (8 bytes, align 8)",
    );
    #[cfg(target_pointer_width = "64")]
    const _: () = ::cuda_entry::__private::check_abi::<*mut *mut c_void>(
        8usize,
        8usize,
        "parameter 11 `extra` of `PFN_cuLaunchKernel_v4000` is `void ** extra` (8 bytes, align 8)",
    );
    #[cfg(target_pointer_width = "64")]
    const _: () = ::cuda_entry::__private::check_abi::<CUresult>(
        4usize,
        4usize,
        "the return type of `PFN_cuLaunchKernel_v4000` is `CUresult` (4 bytes, align 4)",
    );
};
#[doc = " The driver entry behind `launch()`: `cuLaunchKernel` at version 4000 (`PFN_cuLaunchKernel_v4000`)."]
#[allow(dead_code, non_snake_case, clippy::module_name_repetitions)]
pub(crate) mod launch {
    #[doc = r" The function pointer type, the signature of the typedef."]
    pub(crate) type Pfn = super::__cuda_entry_pfn_launch;
    #[doc = r" The symbol passed to `cuGetProcAddress`."]
    pub(crate) const SYMBOL: &str = "cuLaunchKernel";
    #[doc = r" The typedef version passed to `cuGetProcAddress`."]
    pub(crate) const VERSION: u32 =
        ::cuda_entry::__private::default_stream_version(4000u32, 7000u32);
    #[doc = r" The default-stream flavour, which selects the flag passed to `cuGetProcAddress`."]
    pub(crate) const STREAM: ::cuda_entry::__private::Stream =
        ::cuda_entry::__private::default_stream(7000u32);
    #[doc = r" The typedef the signature was checked against."]
    pub(crate) const TYPEDEF: &str = if ::cuda_entry::__private::PER_THREAD_DEFAULT {
        "PFN_cuLaunchKernel_v7000_ptsz"
    } else {
        "PFN_cuLaunchKernel_v4000"
    };
    #[doc = r" The entry: resolved on first use, cached for the life of the process."]
    pub(crate) static ENTRY: ::cuda_entry::__private::Entry =
        ::cuda_entry::__private::default_stream_entry(c"cuLaunchKernel", 4000u32, 7000u32);
    #[doc = r" The typed function pointer, for hot loops."]
    #[doc = r""]
    #[doc = r" # Errors"]
    #[doc = r""]
    #[doc = r" The [`cuda_entry::Error`] of the resolution (cached)."]
    #[inline]
    pub(crate) fn pointer() -> ::cuda_entry::__private::Result<Pfn, ::cuda_entry::__private::Error>
    {
        unsafe { ENTRY.resolve_as::<Pfn>() }
    }
    #[doc = r" Whether the driver can serve this entry; resolves it (once) but never calls it."]
    #[must_use]
    pub(crate) fn is_available() -> bool {
        ENTRY.is_available()
    }
    #[::cuda_entry::__private::linkme::distributed_slice(::cuda_entry::__private::ENTRIES)]
    # [linkme (crate = :: cuda_entry :: __private :: linkme)]
    static REGISTERED: &::cuda_entry::__private::Entry = &ENTRY;
    const RECORD: ::cuda_entry::__private::manifest::Record<'static> =
        ::cuda_entry::__private::manifest::Record {
            symbol: SYMBOL,
            version: VERSION,
            stream: ::cuda_entry::__private::manifest_stream(STREAM),
            resolver: ::cuda_entry::__private::manifest_resolver(
                ::cuda_entry::__private::Resolver::Driver,
            ),
            unverified: false,
            package: "cuda-entry-macros",
        };
    #[doc = r" The manifest record that `cuda-entry check BINARY` reads."]
    #[used]
    #[cfg_attr(target_vendor = "apple", unsafe(link_section = "__DATA,__cuda_entry"))]
    #[cfg_attr(windows, unsafe(link_section = ".cuentry"))]
    #[cfg_attr(
        not(any(windows, target_vendor = "apple")),
        unsafe(link_section = "cuda_entry")
    )]
    static MANIFEST_RECORD: [u8; ::cuda_entry::__private::manifest::record_len(&RECORD)] =
        ::cuda_entry::__private::manifest::encode(&RECORD);
    #[cfg(all(windows, target_env = "gnu"))]
    #[used]
    #[unsafe(link_section = ".vectors_cuentry")]
    static RETAINED: (&&::cuda_entry::__private::Entry, &[u8]) = (&REGISTERED, &MANIFEST_RECORD);
}
#[cfg(unix)]
#[doc = ""]
#[doc = " # Errors\n\n The driver entry's [`cuda_entry::Error`] when `cuMemFree` at version 3020 cannot be resolved (resolved once, then cached).\n\n # Safety\n\n The contract of the driver function `cuMemFree` (`PFN_cuMemFree_v3020`): valid pointers and handles, as the CUDA driver API documentation states."]
#[inline]
#[allow(clippy::too_many_arguments)]
unsafe fn mem_free(
    dptr: CUdeviceptr,
) -> ::cuda_entry::__private::Result<CUresult, ::cuda_entry::__private::Error> {
    match mem_free::pointer() {
        ::cuda_entry::__private::Result::Ok(pfn) => {
            ::cuda_entry::__private::Result::Ok(unsafe { pfn(dptr) })
        }
        ::cuda_entry::__private::Result::Err(error) => ::cuda_entry::__private::Result::Err(error),
    }
}
#[cfg(unix)]
#[doc(hidden)]
#[allow(non_camel_case_types)]
type __cuda_entry_pfn_mem_free = unsafe extern "C" fn(CUdeviceptr) -> CUresult;
#[cfg(unix)]
const _: () = {
    #[cfg(target_pointer_width = "64")]
    const _: () = ::cuda_entry::__private::check_abi::<CUdeviceptr>(
        8usize,
        8usize,
        "parameter 1 `dptr` of `PFN_cuMemFree_v3020` is `CUdeviceptr_v2 dptr` (8 bytes, align 8)",
    );
    #[cfg(target_pointer_width = "64")]
    const _: () = ::cuda_entry::__private::check_abi::<CUresult>(
        4usize,
        4usize,
        "the return type of `PFN_cuMemFree_v3020` is `CUresult` (4 bytes, align 4)",
    );
};
#[cfg(unix)]
#[doc = " The driver entry behind `mem_free()`: `cuMemFree` at version 3020 (`PFN_cuMemFree_v3020`)."]
#[allow(dead_code, non_snake_case, clippy::module_name_repetitions)]
mod mem_free {
    #[doc = r" The function pointer type, the signature of the typedef."]
    pub(super) type Pfn = super::__cuda_entry_pfn_mem_free;
    #[doc = r" The symbol passed to `cuGetProcAddress`."]
    pub(super) const SYMBOL: &str = "cuMemFree";
    #[doc = r" The typedef version passed to `cuGetProcAddress`."]
    pub(super) const VERSION: u32 = 3020u32;
    #[doc = r" The default-stream flavour, which selects the flag passed to `cuGetProcAddress`."]
    pub(super) const STREAM: ::cuda_entry::__private::Stream =
        ::cuda_entry::__private::Stream::Legacy;
    #[doc = r" The typedef the signature was checked against."]
    pub(super) const TYPEDEF: &str = "PFN_cuMemFree_v3020";
    #[doc = r" The entry: resolved on first use, cached for the life of the process."]
    pub(super) static ENTRY: ::cuda_entry::__private::Entry = ::cuda_entry::__private::Entry::new(
        c"cuMemFree",
        3020u32,
        ::cuda_entry::__private::Stream::Legacy,
    )
    .through(::cuda_entry::__private::Resolver::Runtime);
    #[doc = r" The typed function pointer, for hot loops."]
    #[doc = r""]
    #[doc = r" # Errors"]
    #[doc = r""]
    #[doc = r" The [`cuda_entry::Error`] of the resolution (cached)."]
    #[inline]
    pub(super) fn pointer() -> ::cuda_entry::__private::Result<Pfn, ::cuda_entry::__private::Error>
    {
        unsafe { ENTRY.resolve_as::<Pfn>() }
    }
    #[doc = r" Whether the driver can serve this entry; resolves it (once) but never calls it."]
    #[must_use]
    pub(super) fn is_available() -> bool {
        ENTRY.is_available()
    }
    #[::cuda_entry::__private::linkme::distributed_slice(::cuda_entry::__private::ENTRIES)]
    # [linkme (crate = :: cuda_entry :: __private :: linkme)]
    static REGISTERED: &::cuda_entry::__private::Entry = &ENTRY;
    const RECORD: ::cuda_entry::__private::manifest::Record<'static> =
        ::cuda_entry::__private::manifest::Record {
            symbol: SYMBOL,
            version: VERSION,
            stream: ::cuda_entry::__private::manifest_stream(STREAM),
            resolver: ::cuda_entry::__private::manifest_resolver(
                ::cuda_entry::__private::Resolver::Runtime,
            ),
            unverified: false,
            package: "cuda-entry-macros",
        };
    #[doc = r" The manifest record that `cuda-entry check BINARY` reads."]
    #[used]
    #[cfg_attr(target_vendor = "apple", unsafe(link_section = "__DATA,__cuda_entry"))]
    #[cfg_attr(windows, unsafe(link_section = ".cuentry"))]
    #[cfg_attr(
        not(any(windows, target_vendor = "apple")),
        unsafe(link_section = "cuda_entry")
    )]
    static MANIFEST_RECORD: [u8; ::cuda_entry::__private::manifest::record_len(&RECORD)] =
        ::cuda_entry::__private::manifest::encode(&RECORD);
    #[cfg(all(windows, target_env = "gnu"))]
    #[used]
    #[unsafe(link_section = ".vectors_cuentry")]
    static RETAINED: (&&::cuda_entry::__private::Entry, &[u8]) = (&REGISTERED, &MANIFEST_RECORD);
}
