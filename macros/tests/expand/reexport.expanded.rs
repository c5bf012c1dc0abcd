#[doc = r" Creates a context with creation parameters."]
#[doc = ""]
#[doc = " # Errors\n\n The driver entry's [`Error`](gpu_sys::cuda_entry::Error) when `cuCtxCreate` at version 12050 cannot be resolved (resolved once, then cached). The same error, of kind `DriverStatus`, when the driver function returns a status other than `CUDA_SUCCESS` (`Error::driver_status` gives the code).\n\n # Safety\n\n The contract of the driver function `cuCtxCreate` (`PFN_cuCtxCreate_v12050`): valid pointers and handles, as the CUDA driver API documentation states."]
#[inline]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn ctx_create_v4(
    pctx: *mut CUcontext,
    params: *mut c_void,
    flags: u32,
    dev: CUdevice,
) -> gpu_sys::cuda_entry::__private::Result<(), gpu_sys::cuda_entry::__private::Error> {
    match ctx_create_v4::ENTRY.resolve() {
        gpu_sys::cuda_entry::__private::Result::Ok(pfn) => {
            gpu_sys::cuda_entry::__private::checked_status(
                unsafe {
                    gpu_sys::cuda_entry::__private::transmute::<
                        _,
                        <() as ctx_create_v4::Signature>::Status,
                    >(pfn)(pctx, params, flags, dev)
                },
                &ctx_create_v4::ENTRY,
            )
        }
        gpu_sys::cuda_entry::__private::Result::Err(error) => {
            gpu_sys::cuda_entry::__private::Result::Err(error)
        }
    }
}
#[allow(deprecated)]
impl ctx_create_v4::Signature for () {
    type Pfn = unsafe extern "C" fn(
        pctx: *mut CUcontext,
        params: *mut c_void,
        flags: u32,
        dev: CUdevice,
    ) -> CUresult;
    type Status = unsafe extern "C" fn(
        pctx: *mut CUcontext,
        params: *mut c_void,
        flags: u32,
        dev: CUdevice,
    ) -> gpu_sys::cuda_entry::__private::c_int;
    const LINK: () = {
        let _ = ctx_create_v4;
    };
}
const _: () = {
    #[allow(dead_code)]
    unsafe extern "C" {
        #[allow(clashing_extern_declarations)]
        fn __cuda_entry_lint_ctx_create_v4(
            _: *mut CUcontext,
            _: *mut c_void,
            _: u32,
            _: CUdevice,
        ) -> CUresult;
    }
    #[allow(unused_imports)]
    use gpu_sys::cuda_entry::__private as __cuda_entry;
    #[allow(unused_imports)]
    use gpu_sys::cuda_entry::__private::fallbacks::*;
    #[allow(unused_variables)]
    let __cuda_entry_typedefs: &str = "\nthe typedefs of `cuCtxCreate`:\n    version = 2000: CUresult PFN_cuCtxCreate_v2000(CUcontext *pctx, unsigned int flags, CUdevice_v1 dev)\n    version = 3020: CUresult PFN_cuCtxCreate_v3020(CUcontext *pctx, unsigned int flags, CUdevice_v1 dev)\n    version = 11040: CUresult PFN_cuCtxCreate_v11040(CUcontext *pctx, CUexecAffinityParam *paramsArray, int numParams, unsigned int flags, CUdevice_v1 dev)\n    version = 12050: CUresult PFN_cuCtxCreate_v12050(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags, CUdevice dev)";
    {
        #[cfg(target_pointer_width = "64")]
        {
            __cuda_entry::raw_pointee::<<*mut CUcontext as __cuda_entry::CPointer>::Pointee>(
                __cuda_entry::Probe::<<*mut CUcontext as __cuda_entry::CPointer>::Pointee>::POINTEE,
                __cuda_entry::Expect {
                    size: 8usize,
                    align: 8usize,
                    also: __cuda_entry::NO_LAYOUTS,
                    before: "parameter 1 `pctx` of `PFN_cuCtxCreate_v12050` is `CUcontext *pctx`, a pointer to `CUcontext` (8 bytes, align 8), but `*mut CUcontext` points to ",
                    after: ": point to a type of the C layout, or to `c_void` to leave it unchecked",
                    others: __cuda_entry::NO_OTHERS,
                },
                __cuda_entry_typedefs,
            );
        }
        __cuda_entry::writable(
            __cuda_entry::AccessProbe::<*mut CUcontext>::READ_ONLY,
            "parameter 1 `pctx` of `PFN_cuCtxCreate_v12050` is `CUcontext *pctx`, which the driver writes through (its pointee is not `const`), but `*mut CUcontext` promises no write: declare `*mut T` or `&mut T` (`Option<&mut T>` where NULL is allowed)",
        );
        __cuda_entry :: valid ((__cuda_entry :: Proven :: < < * mut CUcontext as __cuda_entry :: CPointer > :: Pointee > :: FROM_DRIVER , __cuda_entry :: ValueProbe :: < < * mut CUcontext as __cuda_entry :: CPointer > :: Pointee > :: INVALID) , "parameter 1 `pctx` of `PFN_cuCtxCreate_v12050` is `CUcontext *pctx`, which the driver writes through, but `*mut CUcontext` points to " , ": point to a raw pointer (`*mut T`, `*const T`), or an `Option<NonNull<T>>`: NULL is a value the driver stores" , __cuda_entry_typedefs) ;
    }
    {
        #[cfg(target_pointer_width = "64")]
        {
            __cuda_entry::raw_pointee::<<*mut c_void as __cuda_entry::CPointer>::Pointee>(
                __cuda_entry::Probe::<<*mut c_void as __cuda_entry::CPointer>::Pointee>::POINTEE,
                __cuda_entry::Expect {
                    size: 24usize,
                    align: 8usize,
                    also: __cuda_entry::NO_LAYOUTS,
                    before: "parameter 2 `params` of `PFN_cuCtxCreate_v12050` is `CUctxCreateParams *ctxCreateParams`, a pointer to `CUctxCreateParams` (24 bytes, align 8), but `*mut c_void` points to ",
                    after: ": point to a type of the C layout, or to `c_void` to leave it unchecked",
                    others: __cuda_entry::NO_OTHERS,
                },
                __cuda_entry_typedefs,
            );
        }
        __cuda_entry::writable(
            __cuda_entry::AccessProbe::<*mut c_void>::READ_ONLY,
            "parameter 2 `params` of `PFN_cuCtxCreate_v12050` is `CUctxCreateParams *ctxCreateParams`, which the driver writes through (its pointee is not `const`), but `*mut c_void` promises no write: declare `*mut T` or `&mut T` (`Option<&mut T>` where NULL is allowed)",
        );
        __cuda_entry :: valid ((__cuda_entry :: Proven :: < < * mut c_void as __cuda_entry :: CPointer > :: Pointee > :: FROM_DRIVER , __cuda_entry :: ValueProbe :: < < * mut c_void as __cuda_entry :: CPointer > :: Pointee > :: INVALID) , "parameter 2 `params` of `PFN_cuCtxCreate_v12050` is `CUctxCreateParams *ctxCreateParams`, which the driver writes through, but `*mut c_void` points to " , ": point to a type of the C layout whose every value is valid, or `MaybeUninit<T>` (or `c_void` to leave it unchecked)" , __cuda_entry_typedefs) ;
    }
    {
        #[cfg(target_pointer_width = "64")]
        {
            __cuda_entry::value::<u32>(
                __cuda_entry::Expect {
                    size: 4usize,
                    align: 4usize,
                    also: __cuda_entry::NO_LAYOUTS,
                    before: "parameter 3 `flags` of `PFN_cuCtxCreate_v12050` is `unsigned int flags` (4 bytes, align 4), but `u32` is ",
                    after: ": declare it with a type of the C layout",
                    others: __cuda_entry::NO_OTHERS,
                },
                (
                    __cuda_entry::Passed::<u32>::CLASSES,
                    __cuda_entry::c_classes::INTEGER_4,
                ),
                "parameter 3 `flags` of `PFN_cuCtxCreate_v12050` is `unsigned int flags`, passed in an integer register, but `u32` is ",
                ": declare it with an integer type of 4 bytes (`u32` or `i32`), or a field-less enum of yours with `#[repr(C)]` that derives `cuda_entry::ByValue`",
                __cuda_entry_typedefs,
            );
        }
    }
    {
        #[cfg(target_pointer_width = "64")]
        {
            __cuda_entry::value::<CUdevice>(
                __cuda_entry::Expect {
                    size: 4usize,
                    align: 4usize,
                    also: __cuda_entry::NO_LAYOUTS,
                    before: "parameter 4 `dev` of `PFN_cuCtxCreate_v12050` is `CUdevice dev` (4 bytes, align 4), but `CUdevice` is ",
                    after: ": declare it with a type of the C layout",
                    others: __cuda_entry::NO_OTHERS,
                },
                (
                    __cuda_entry::Passed::<CUdevice>::CLASSES,
                    __cuda_entry::c_classes::INTEGER_4,
                ),
                "parameter 4 `dev` of `PFN_cuCtxCreate_v12050` is `CUdevice dev`, passed in an integer register, but `CUdevice` is ",
                ": declare it with an integer type of 4 bytes (`u32` or `i32`), or a field-less enum of yours with `#[repr(C)]` that derives `cuda_entry::ByValue`",
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
                    before: "the return type of `PFN_cuCtxCreate_v12050` is `CUresult` (4 bytes, align 4), but `CUresult` is ",
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
            "the return type of `PFN_cuCtxCreate_v12050` is `CUresult`, a status the driver may set to any `int`, but `CUresult` is ",
            ": declare `-> cuda_entry::types::CUresult`, or `-> i32` (or an alias of a primitive integer); the function returns `Result<(), Error>` either way",
            __cuda_entry_typedefs,
        );
    }
};
#[doc = " The driver entry behind `ctx_create_v4()`: `cuCtxCreate` at version 12050 (`PFN_cuCtxCreate_v12050`), optional: the program runs without it."]
#[allow(non_snake_case, clippy::module_name_repetitions)]
pub(crate) mod ctx_create_v4 {
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
    #[doc = " The function pointer type, the signature of `PFN_cuCtxCreate_v12050`:\n\n ```text\n unsafe extern \"C\" fn(pctx: *mut CUcontext, params: *mut c_void, flags: u32, dev: CUdevice) -> CUresult\n ```"]
    pub(crate) type Pfn = <() as Signature>::Pfn;
    use gpu_sys::cuda_entry::__private as __cuda_entry;
    #[doc = r" The symbol passed to `cuGetProcAddress`."]
    pub(crate) const SYMBOL: &str = {
        let () = <() as Signature>::LINK;
        "cuCtxCreate"
    };
    #[doc = r" The typedef version passed to `cuGetProcAddress`."]
    pub(crate) const VERSION: u32 = {
        let () = <() as Signature>::LINK;
        12050u32
    };
    #[doc = r" The default-stream flavour, which selects the flag passed to `cuGetProcAddress`."]
    pub(crate) const STREAM: __cuda_entry::Stream = {
        let () = <() as Signature>::LINK;
        __cuda_entry::Stream::Legacy
    };
    #[doc = r" The typedef the signature was checked against."]
    pub(crate) const TYPEDEF: &str = {
        let () = <() as Signature>::LINK;
        "PFN_cuCtxCreate_v12050"
    };
    #[doc = r" The entry: resolved on first use, cached for the life of the process."]
    pub(crate) static ENTRY: __cuda_entry::Entry =
        __cuda_entry::Entry::new(c"cuCtxCreate", 12050u32, __cuda_entry::Stream::Legacy).optional();
    #[doc = r" The typed function pointer, for hot loops."]
    #[doc = r""]
    #[doc = r" # Errors"]
    #[doc = r""]
    #[doc = " The [`Error`](gpu_sys::cuda_entry::Error) of the resolution (cached)."]
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
    static MANIFEST_RECORD: [u8; 44usize] =
        *b"CUEN\x01\x01\x01\x02\x12/\0\0\x0B\0\x11\0cuCtxCreatecuda-entry-macros";
    #[cfg(all(windows, target_env = "gnu"))]
    #[used]
    #[unsafe(link_section = ".vectors_cuentry")]
    static RETAINED: (&__cuda_entry::Registered, &[u8]) = (&REGISTERED, &MANIFEST_RECORD);
}
