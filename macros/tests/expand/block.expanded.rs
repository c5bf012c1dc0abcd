#[allow(clippy::missing_errors_doc, clippy::missing_safety_doc)]
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
) -> ::cuda_entry::__private::Result<(), ::cuda_entry::__private::Error> {
    match launch::ENTRY.resolve() {
        ::cuda_entry::__private::Result::Ok(pfn) => ::cuda_entry::__private::checked_status(
            unsafe {
                ::cuda_entry::__private::transmute::<_, <() as launch::Signature>::Status>(pfn)(
                    f, gx, gy, gz, bx, by, bz, shared, stream, params, extra,
                )
            },
            &launch::ENTRY,
        ),
        ::cuda_entry::__private::Result::Err(error) => ::cuda_entry::__private::Result::Err(error),
    }
}
#[allow(deprecated)]
impl launch::Signature for () {
    type Pfn = unsafe extern "C" fn(
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
    ) -> CUresult;
    type Status = unsafe extern "C" fn(
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
    ) -> ::cuda_entry::__private::c_int;
    const LINK: () = {
        let _ = launch;
    };
}
const _: () = {
    #[allow(dead_code)]
    unsafe extern "C" {
        #[allow(clashing_extern_declarations)]
        fn __cuda_entry_lint_launch(
            _: CUfunction,
            _: u32,
            _: u32,
            _: u32,
            _: u32,
            _: u32,
            _: u32,
            _: u32,
            _: CUstream,
            _: *mut *mut c_void,
            _: *mut *mut c_void,
        ) -> CUresult;
    }
    #[allow(unused_imports)]
    use ::cuda_entry::__private as __cuda_entry;
    #[allow(unused_imports)]
    use ::cuda_entry::__private::fallbacks::*;
    #[allow(unused_variables)]
    let __cuda_entry_typedefs: &str = "\nthe typedefs of `cuLaunchKernel`:\n    version = 4000: CUresult PFN_cuLaunchKernel_v4000(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)";
    {
        #[cfg(target_pointer_width = "64")]
        {
            __cuda_entry::value::<CUfunction>(
                __cuda_entry::Expect {
                    size: 8usize,
                    align: 8usize,
                    also: __cuda_entry::NO_LAYOUTS,
                    before: "parameter 1 `f` of `PFN_cuLaunchKernel_v4000` is `CUfunction f` (8 bytes, align 8), but `CUfunction` is ",
                    after: ": declare it with a type of the C layout",
                    others: __cuda_entry::NO_OTHERS,
                },
                (
                    __cuda_entry::Passed::<CUfunction>::CLASSES,
                    __cuda_entry::c_classes::HANDLE,
                ),
                "parameter 1 `f` of `PFN_cuLaunchKernel_v4000` is `CUfunction f`, passed in an integer register, but `CUfunction` is ",
                ": declare it with a pointer type, or an integer of 8 bytes",
                __cuda_entry_typedefs,
            );
        }
    }
    {
        #[cfg(target_pointer_width = "64")]
        {
            __cuda_entry::value::<u32>(
                __cuda_entry::Expect {
                    size: 4usize,
                    align: 4usize,
                    also: __cuda_entry::NO_LAYOUTS,
                    before: "parameter 2 `gx` of `PFN_cuLaunchKernel_v4000` is `unsigned int gridDimX` (4 bytes, align 4), but `u32` is ",
                    after: ": declare it with a type of the C layout",
                    others: __cuda_entry::NO_OTHERS,
                },
                (
                    __cuda_entry::Passed::<u32>::CLASSES,
                    __cuda_entry::c_classes::INTEGER_4,
                ),
                "parameter 2 `gx` of `PFN_cuLaunchKernel_v4000` is `unsigned int gridDimX`, passed in an integer register, but `u32` is ",
                ": declare it with an integer type of 4 bytes (`u32` or `i32`), or a field-less enum of yours with `#[repr(C)]` that derives `cuda_entry::ByValue`",
                __cuda_entry_typedefs,
            );
        }
    }
    {
        #[cfg(target_pointer_width = "64")]
        {
            __cuda_entry::value::<u32>(
                __cuda_entry::Expect {
                    size: 4usize,
                    align: 4usize,
                    also: __cuda_entry::NO_LAYOUTS,
                    before: "parameter 3 `gy` of `PFN_cuLaunchKernel_v4000` is `unsigned int gridDimY` (4 bytes, align 4), but `u32` is ",
                    after: ": declare it with a type of the C layout",
                    others: __cuda_entry::NO_OTHERS,
                },
                (
                    __cuda_entry::Passed::<u32>::CLASSES,
                    __cuda_entry::c_classes::INTEGER_4,
                ),
                "parameter 3 `gy` of `PFN_cuLaunchKernel_v4000` is `unsigned int gridDimY`, passed in an integer register, but `u32` is ",
                ": declare it with an integer type of 4 bytes (`u32` or `i32`), or a field-less enum of yours with `#[repr(C)]` that derives `cuda_entry::ByValue`",
                __cuda_entry_typedefs,
            );
        }
    }
    {
        #[cfg(target_pointer_width = "64")]
        {
            __cuda_entry::value::<u32>(
                __cuda_entry::Expect {
                    size: 4usize,
                    align: 4usize,
                    also: __cuda_entry::NO_LAYOUTS,
                    before: "parameter 4 `gz` of `PFN_cuLaunchKernel_v4000` is `unsigned int gridDimZ` (4 bytes, align 4), but `u32` is ",
                    after: ": declare it with a type of the C layout",
                    others: __cuda_entry::NO_OTHERS,
                },
                (
                    __cuda_entry::Passed::<u32>::CLASSES,
                    __cuda_entry::c_classes::INTEGER_4,
                ),
                "parameter 4 `gz` of `PFN_cuLaunchKernel_v4000` is `unsigned int gridDimZ`, passed in an integer register, but `u32` is ",
                ": declare it with an integer type of 4 bytes (`u32` or `i32`), or a field-less enum of yours with `#[repr(C)]` that derives `cuda_entry::ByValue`",
                __cuda_entry_typedefs,
            );
        }
    }
    {
        #[cfg(target_pointer_width = "64")]
        {
            __cuda_entry::value::<u32>(
                __cuda_entry::Expect {
                    size: 4usize,
                    align: 4usize,
                    also: __cuda_entry::NO_LAYOUTS,
                    before: "parameter 5 `bx` of `PFN_cuLaunchKernel_v4000` is `unsigned int blockDimX` (4 bytes, align 4), but `u32` is ",
                    after: ": declare it with a type of the C layout",
                    others: __cuda_entry::NO_OTHERS,
                },
                (
                    __cuda_entry::Passed::<u32>::CLASSES,
                    __cuda_entry::c_classes::INTEGER_4,
                ),
                "parameter 5 `bx` of `PFN_cuLaunchKernel_v4000` is `unsigned int blockDimX`, passed in an integer register, but `u32` is ",
                ": declare it with an integer type of 4 bytes (`u32` or `i32`), or a field-less enum of yours with `#[repr(C)]` that derives `cuda_entry::ByValue`",
                __cuda_entry_typedefs,
            );
        }
    }
    {
        #[cfg(target_pointer_width = "64")]
        {
            __cuda_entry::value::<u32>(
                __cuda_entry::Expect {
                    size: 4usize,
                    align: 4usize,
                    also: __cuda_entry::NO_LAYOUTS,
                    before: "parameter 6 `by` of `PFN_cuLaunchKernel_v4000` is `unsigned int blockDimY` (4 bytes, align 4), but `u32` is ",
                    after: ": declare it with a type of the C layout",
                    others: __cuda_entry::NO_OTHERS,
                },
                (
                    __cuda_entry::Passed::<u32>::CLASSES,
                    __cuda_entry::c_classes::INTEGER_4,
                ),
                "parameter 6 `by` of `PFN_cuLaunchKernel_v4000` is `unsigned int blockDimY`, passed in an integer register, but `u32` is ",
                ": declare it with an integer type of 4 bytes (`u32` or `i32`), or a field-less enum of yours with `#[repr(C)]` that derives `cuda_entry::ByValue`",
                __cuda_entry_typedefs,
            );
        }
    }
    {
        #[cfg(target_pointer_width = "64")]
        {
            __cuda_entry::value::<u32>(
                __cuda_entry::Expect {
                    size: 4usize,
                    align: 4usize,
                    also: __cuda_entry::NO_LAYOUTS,
                    before: "parameter 7 `bz` of `PFN_cuLaunchKernel_v4000` is `unsigned int blockDimZ` (4 bytes, align 4), but `u32` is ",
                    after: ": declare it with a type of the C layout",
                    others: __cuda_entry::NO_OTHERS,
                },
                (
                    __cuda_entry::Passed::<u32>::CLASSES,
                    __cuda_entry::c_classes::INTEGER_4,
                ),
                "parameter 7 `bz` of `PFN_cuLaunchKernel_v4000` is `unsigned int blockDimZ`, passed in an integer register, but `u32` is ",
                ": declare it with an integer type of 4 bytes (`u32` or `i32`), or a field-less enum of yours with `#[repr(C)]` that derives `cuda_entry::ByValue`",
                __cuda_entry_typedefs,
            );
        }
    }
    {
        #[cfg(target_pointer_width = "64")]
        {
            __cuda_entry::value::<u32>(
                __cuda_entry::Expect {
                    size: 4usize,
                    align: 4usize,
                    also: __cuda_entry::NO_LAYOUTS,
                    before: "parameter 8 `shared` of `PFN_cuLaunchKernel_v4000` is `unsigned int sharedMemBytes` (4 bytes, align 4), but `u32` is ",
                    after: ": declare it with a type of the C layout",
                    others: __cuda_entry::NO_OTHERS,
                },
                (
                    __cuda_entry::Passed::<u32>::CLASSES,
                    __cuda_entry::c_classes::INTEGER_4,
                ),
                "parameter 8 `shared` of `PFN_cuLaunchKernel_v4000` is `unsigned int sharedMemBytes`, passed in an integer register, but `u32` is ",
                ": declare it with an integer type of 4 bytes (`u32` or `i32`), or a field-less enum of yours with `#[repr(C)]` that derives `cuda_entry::ByValue`",
                __cuda_entry_typedefs,
            );
        }
    }
    {
        #[cfg(target_pointer_width = "64")]
        {
            __cuda_entry::value::<CUstream>(
                __cuda_entry::Expect {
                    size: 8usize,
                    align: 8usize,
                    also: __cuda_entry::NO_LAYOUTS,
                    before: "parameter 9 `stream` of `PFN_cuLaunchKernel_v4000` is `CUstream hStream` (8 bytes, align 8), but `CUstream` is ",
                    after: ": declare it with a type of the C layout",
                    others: __cuda_entry::NO_OTHERS,
                },
                (
                    __cuda_entry::Passed::<CUstream>::CLASSES,
                    __cuda_entry::c_classes::HANDLE,
                ),
                "parameter 9 `stream` of `PFN_cuLaunchKernel_v4000` is `CUstream hStream`, passed in an integer register, but `CUstream` is ",
                ": declare it with a pointer type, or an integer of 8 bytes",
                __cuda_entry_typedefs,
            );
        }
    }
    {
        #[cfg(target_pointer_width = "64")]
        {
            __cuda_entry :: raw_pointee :: < < * mut * mut c_void as __cuda_entry :: CPointer > :: Pointee > (__cuda_entry :: Probe :: < < * mut * mut c_void as __cuda_entry :: CPointer > :: Pointee > :: POINTEE , __cuda_entry :: Expect { size : 8usize , align : 8usize , also : __cuda_entry :: NO_LAYOUTS , before : "parameter 10 `params` of `PFN_cuLaunchKernel_v4000` is `void **kernelParams`, a pointer to `void *` (8 bytes, align 8), but `*mut *mut c_void` points to " , after : ": point to a type of the C layout, or to `c_void` to leave it unchecked" , others : __cuda_entry :: NO_OTHERS , } , __cuda_entry_typedefs) ;
        }
        __cuda_entry::slot::<<*mut *mut c_void as __cuda_entry::CPointer>::Pointee>();
    }
    {
        #[cfg(target_pointer_width = "64")]
        {
            __cuda_entry :: raw_pointee :: < < * mut * mut c_void as __cuda_entry :: CPointer > :: Pointee > (__cuda_entry :: Probe :: < < * mut * mut c_void as __cuda_entry :: CPointer > :: Pointee > :: POINTEE , __cuda_entry :: Expect { size : 8usize , align : 8usize , also : __cuda_entry :: NO_LAYOUTS , before : "parameter 11 `extra` of `PFN_cuLaunchKernel_v4000` is `void **extra`, a pointer to `void *` (8 bytes, align 8), but `*mut *mut c_void` points to " , after : ": point to a type of the C layout, or to `c_void` to leave it unchecked" , others : __cuda_entry :: NO_OTHERS , } , __cuda_entry_typedefs) ;
        }
        __cuda_entry::slot::<<*mut *mut c_void as __cuda_entry::CPointer>::Pointee>();
    }
    {
        #[cfg(target_pointer_width = "64")]
        {
            __cuda_entry::layout::<CUresult>(
                false,
                __cuda_entry::Expect {
                    size: 4usize,
                    align: 4usize,
                    also: __cuda_entry::NO_LAYOUTS,
                    before: "the return type of `PFN_cuLaunchKernel_v4000` is `CUresult` (4 bytes, align 4), but `CUresult` is ",
                    after: ": declare it with a type of the C layout",
                    others: __cuda_entry::NO_OTHERS,
                },
                __cuda_entry_typedefs,
            );
        }
        __cuda_entry::status(
            (
                __cuda_entry::ClassProbe::<CUresult>::CLASS,
                __cuda_entry::ValueProbe::<CUresult>::INVALID,
            ),
            "the return type of `PFN_cuLaunchKernel_v4000` is `CUresult`, a status the driver may set to any `int`, but `CUresult` is ",
            ": declare `-> cuda_entry::types::CUresult`, or `-> i32` (or an alias of a primitive integer); the function returns `Result<(), Error>` either way",
            __cuda_entry_typedefs,
        );
    }
};
#[doc = " The driver entry behind `launch()`: `cuLaunchKernel` at version 4000 (`PFN_cuLaunchKernel_v4000`)."]
#[allow(non_snake_case, clippy::module_name_repetitions)]
pub(crate) mod launch {
    #[doc = r" The pointer type's definition, written where the declaration is."]
    #[doc(hidden)]
    pub(crate) trait Signature {
        #[doc = r" The function pointer type."]
        type Pfn: Copy;
        #[doc = r" The function pointer type with the C status type, `int`, as its return type."]
        type Status: Copy;
        #[doc = r" Names the declared function."]
        const LINK: ();
    }
    #[doc = " The function pointer type, the signature of `PFN_cuLaunchKernel_v4000`:\n\n ```text\n unsafe extern \"C\" fn(f: CUfunction, gx: u32, gy: u32, gz: u32, bx: u32, by: u32, bz: u32, shared: u32, stream: CUstream, params: *mut *mut c_void, extra: *mut *mut c_void) -> CUresult\n ```"]
    pub(crate) type Pfn = <() as Signature>::Pfn;
    use ::cuda_entry::__private as __cuda_entry;
    #[doc = r" The symbol passed to `cuGetProcAddress`."]
    pub(crate) const SYMBOL: &str = {
        let () = <() as Signature>::LINK;
        "cuLaunchKernel"
    };
    #[doc = r" The typedef version passed to `cuGetProcAddress`."]
    pub(crate) const VERSION: u32 = {
        let () = <() as Signature>::LINK;
        __cuda_entry::default_stream_version(4000u32, 7000u32)
    };
    #[doc = r" The default-stream flavour, which selects the flag passed to `cuGetProcAddress`."]
    pub(crate) const STREAM: __cuda_entry::Stream = {
        let () = <() as Signature>::LINK;
        __cuda_entry::default_stream(7000u32)
    };
    #[doc = r" The typedef the signature was checked against."]
    pub(crate) const TYPEDEF: &str = {
        let () = <() as Signature>::LINK;
        if __cuda_entry::PER_THREAD_DEFAULT {
            "PFN_cuLaunchKernel_v7000_ptsz"
        } else {
            "PFN_cuLaunchKernel_v4000"
        }
    };
    #[doc = r" The entry: resolved on first use, cached for the life of the process."]
    pub(crate) static ENTRY: __cuda_entry::Entry =
        __cuda_entry::default_stream_entry(c"cuLaunchKernel", 4000u32, 7000u32);
    #[doc = r" The typed function pointer, for hot loops."]
    #[doc = r""]
    #[doc = r" # Errors"]
    #[doc = r""]
    #[doc = " The [`Error`](cuda_entry::Error) of the resolution (cached)."]
    #[inline]
    pub(crate) fn pointer() -> __cuda_entry::Result<Pfn, __cuda_entry::Error> {
        let () = <() as Signature>::LINK;
        unsafe { ENTRY.resolve_as::<Pfn>() }
    }
    #[doc = r" Whether the driver can serve this entry; resolves it (once) but never calls it."]
    #[inline]
    #[must_use]
    pub(crate) fn is_available() -> bool {
        let () = <() as Signature>::LINK;
        ENTRY.is_available()
    }
    #[used]
    #[cfg_attr(
        target_vendor = "apple",
        unsafe(link_section = "__DATA,__cuentry_reg01")
    )]
    #[cfg_attr(windows, unsafe(link_section = ".cureg01$b"))]
    #[cfg_attr(
        not(any(windows, target_vendor = "apple")),
        unsafe(link_section = "set_cuda_entry_registry_0_1")
    )]
    static REGISTERED: __cuda_entry::Registered = __cuda_entry::Registered::Some(&ENTRY);
    #[doc = r" The manifest record that `cuda-entry check BINARY` reads."]
    #[used]
    #[cfg_attr(target_vendor = "apple", unsafe(link_section = "__DATA,__cuda_entry"))]
    #[cfg_attr(windows, unsafe(link_section = ".cuentry"))]
    #[cfg_attr(
        not(any(windows, target_vendor = "apple")),
        unsafe(link_section = "cuda_entry")
    )]
    static MANIFEST_RECORD: [u8; 47usize] = if __cuda_entry::PER_THREAD_DEFAULT {
        *b"CUEN\x01\x02\x01\0X\x1B\0\0\x0E\0\x11\0cuLaunchKernelcuda-entry-macros"
    } else {
        *b"CUEN\x01\x01\x01\0\xA0\x0F\0\0\x0E\0\x11\0cuLaunchKernelcuda-entry-macros"
    };
    #[cfg(all(windows, target_env = "gnu"))]
    #[used]
    #[unsafe(link_section = ".vectors_cuentry")]
    static RETAINED: (&__cuda_entry::Registered, &[u8]) = (&REGISTERED, &MANIFEST_RECORD);
}
#[cfg(unix)]
#[allow(clippy::missing_errors_doc, clippy::missing_safety_doc)]
#[inline]
#[allow(clippy::too_many_arguments)]
unsafe fn mem_free(
    dptr: CUdeviceptr,
) -> ::cuda_entry::__private::Result<(), ::cuda_entry::__private::Error> {
    match mem_free::ENTRY.resolve() {
        ::cuda_entry::__private::Result::Ok(pfn) => ::cuda_entry::__private::checked_status(
            unsafe {
                ::cuda_entry::__private::transmute::<_, <() as mem_free::Signature>::Status>(pfn)(
                    dptr,
                )
            },
            &mem_free::ENTRY,
        ),
        ::cuda_entry::__private::Result::Err(error) => ::cuda_entry::__private::Result::Err(error),
    }
}
#[cfg(unix)]
#[allow(deprecated)]
impl mem_free::Signature for () {
    type Pfn = unsafe extern "C" fn(dptr: CUdeviceptr) -> CUresult;
    type Status = unsafe extern "C" fn(dptr: CUdeviceptr) -> ::cuda_entry::__private::c_int;
    const LINK: () = {
        let _ = mem_free;
    };
}
#[cfg(unix)]
const _: () = {
    #[allow(dead_code)]
    unsafe extern "C" {
        #[allow(clashing_extern_declarations)]
        fn __cuda_entry_lint_mem_free(_: CUdeviceptr) -> CUresult;
    }
    #[allow(unused_imports)]
    use ::cuda_entry::__private as __cuda_entry;
    #[allow(unused_imports)]
    use ::cuda_entry::__private::fallbacks::*;
    #[allow(unused_variables)]
    let __cuda_entry_typedefs: &str = "\nthe typedefs of `cuMemFree`:\n    version = 2000: CUresult PFN_cuMemFree_v2000(CUdeviceptr_v1 dptr)\n    version = 3020: CUresult PFN_cuMemFree_v3020(CUdeviceptr_v2 dptr)";
    {
        #[cfg(target_pointer_width = "64")]
        {
            __cuda_entry::value::<CUdeviceptr>(
                __cuda_entry::Expect {
                    size: 8usize,
                    align: 8usize,
                    also: __cuda_entry::NO_LAYOUTS,
                    before: "parameter 1 `dptr` of `PFN_cuMemFree_v3020` is `CUdeviceptr_v2 dptr` (8 bytes, align 8), but `CUdeviceptr` is ",
                    after: ": declare it with a type of the C layout",
                    others: &[(
                        4usize,
                        4usize,
                        "; that is its layout in `PFN_cuMemFree_v2000` (`version = 2000`)",
                    )],
                },
                (
                    __cuda_entry::Passed::<CUdeviceptr>::CLASSES,
                    __cuda_entry::c_classes::INTEGER_8,
                ),
                "parameter 1 `dptr` of `PFN_cuMemFree_v3020` is `CUdeviceptr_v2 dptr`, passed in an integer register, but `CUdeviceptr` is ",
                ": declare it with an integer type of 8 bytes (`u64` or `i64`), or a field-less enum of yours with `#[repr(C)]` that derives `cuda_entry::ByValue`",
                __cuda_entry_typedefs,
            );
        }
    }
    {
        #[cfg(target_pointer_width = "64")]
        {
            __cuda_entry::layout::<CUresult>(
                false,
                __cuda_entry::Expect {
                    size: 4usize,
                    align: 4usize,
                    also: __cuda_entry::NO_LAYOUTS,
                    before: "the return type of `PFN_cuMemFree_v3020` is `CUresult` (4 bytes, align 4), but `CUresult` is ",
                    after: ": declare it with a type of the C layout",
                    others: __cuda_entry::NO_OTHERS,
                },
                __cuda_entry_typedefs,
            );
        }
        __cuda_entry::status(
            (
                __cuda_entry::ClassProbe::<CUresult>::CLASS,
                __cuda_entry::ValueProbe::<CUresult>::INVALID,
            ),
            "the return type of `PFN_cuMemFree_v3020` is `CUresult`, a status the driver may set to any `int`, but `CUresult` is ",
            ": declare `-> cuda_entry::types::CUresult`, or `-> i32` (or an alias of a primitive integer); the function returns `Result<(), Error>` either way",
            __cuda_entry_typedefs,
        );
    }
};
#[cfg(unix)]
#[doc = " The driver entry behind `mem_free()`: `cuMemFree` at version 3020 (`PFN_cuMemFree_v3020`)."]
#[allow(non_snake_case, clippy::module_name_repetitions)]
mod mem_free {
    #[doc = r" The pointer type's definition, written where the declaration is."]
    #[doc(hidden)]
    pub(super) trait Signature {
        #[doc = r" The function pointer type."]
        type Pfn: Copy;
        #[doc = r" The function pointer type with the C status type, `int`, as its return type."]
        type Status: Copy;
        #[doc = r" Names the declared function."]
        const LINK: ();
    }
    #[doc = " The function pointer type, the signature of `PFN_cuMemFree_v3020`:\n\n ```text\n unsafe extern \"C\" fn(dptr: CUdeviceptr) -> CUresult\n ```"]
    pub(super) type Pfn = <() as Signature>::Pfn;
    use ::cuda_entry::__private as __cuda_entry;
    #[doc = r" The symbol passed to `cuGetProcAddress`."]
    pub(super) const SYMBOL: &str = {
        let () = <() as Signature>::LINK;
        "cuMemFree"
    };
    #[doc = r" The typedef version passed to `cuGetProcAddress`."]
    pub(super) const VERSION: u32 = {
        let () = <() as Signature>::LINK;
        3020u32
    };
    #[doc = r" The default-stream flavour, which selects the flag passed to `cuGetProcAddress`."]
    pub(super) const STREAM: __cuda_entry::Stream = {
        let () = <() as Signature>::LINK;
        __cuda_entry::Stream::Legacy
    };
    #[doc = r" The typedef the signature was checked against."]
    pub(super) const TYPEDEF: &str = {
        let () = <() as Signature>::LINK;
        "PFN_cuMemFree_v3020"
    };
    #[doc = r" The entry: resolved on first use, cached for the life of the process."]
    pub(super) static ENTRY: __cuda_entry::Entry =
        __cuda_entry::Entry::new(c"cuMemFree", 3020u32, __cuda_entry::Stream::Legacy)
            .through(__cuda_entry::Resolver::Runtime);
    #[doc = r" The typed function pointer, for hot loops."]
    #[doc = r""]
    #[doc = r" # Errors"]
    #[doc = r""]
    #[doc = " The [`Error`](cuda_entry::Error) of the resolution (cached)."]
    #[inline]
    pub(super) fn pointer() -> __cuda_entry::Result<Pfn, __cuda_entry::Error> {
        let () = <() as Signature>::LINK;
        unsafe { ENTRY.resolve_as::<Pfn>() }
    }
    #[doc = r" Whether the driver can serve this entry; resolves it (once) but never calls it."]
    #[inline]
    #[must_use]
    pub(super) fn is_available() -> bool {
        let () = <() as Signature>::LINK;
        ENTRY.is_available()
    }
    #[used]
    #[cfg_attr(
        target_vendor = "apple",
        unsafe(link_section = "__DATA,__cuentry_reg01")
    )]
    #[cfg_attr(windows, unsafe(link_section = ".cureg01$b"))]
    #[cfg_attr(
        not(any(windows, target_vendor = "apple")),
        unsafe(link_section = "set_cuda_entry_registry_0_1")
    )]
    static REGISTERED: __cuda_entry::Registered = __cuda_entry::Registered::Some(&ENTRY);
    #[doc = r" The manifest record that `cuda-entry check BINARY` reads."]
    #[used]
    #[cfg_attr(target_vendor = "apple", unsafe(link_section = "__DATA,__cuda_entry"))]
    #[cfg_attr(windows, unsafe(link_section = ".cuentry"))]
    #[cfg_attr(
        not(any(windows, target_vendor = "apple")),
        unsafe(link_section = "cuda_entry")
    )]
    static MANIFEST_RECORD: [u8; 42usize] =
        *b"CUEN\x01\x01\x02\0\xCC\x0B\0\0\t\0\x11\0cuMemFreecuda-entry-macros";
    #[cfg(all(windows, target_env = "gnu"))]
    #[used]
    #[unsafe(link_section = ".vectors_cuentry")]
    static RETAINED: (&__cuda_entry::Registered, &[u8]) = (&REGISTERED, &MANIFEST_RECORD);
}
