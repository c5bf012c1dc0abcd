#[allow(clippy::missing_errors_doc, clippy::missing_safety_doc)]
#[inline]
#[allow(clippy::too_many_arguments)]
pub unsafe fn launch_host_func(
    stream: CUstream,
    f: CUhostFn,
    user_data: *mut c_void,
) -> ::cuda_entry::__private::Result<(), ::cuda_entry::__private::Error> {
    match launch_host_func::ENTRY.resolve() {
        ::cuda_entry::__private::Result::Ok(pfn) => ::cuda_entry::__private::checked_status(
            unsafe {
                ::cuda_entry::__private::transmute::<_, <() as launch_host_func::Signature>::Status>(
                    pfn,
                )(stream, f, user_data)
            },
            &launch_host_func::ENTRY,
        ),
        ::cuda_entry::__private::Result::Err(error) => ::cuda_entry::__private::Result::Err(error),
    }
}
#[allow(deprecated)]
impl launch_host_func::Signature for () {
    type Pfn =
        unsafe extern "C" fn(stream: CUstream, f: CUhostFn, user_data: *mut c_void) -> CUresult;
    type Status = unsafe extern "C" fn(
        stream: CUstream,
        f: CUhostFn,
        user_data: *mut c_void,
    ) -> ::cuda_entry::__private::c_int;
    const LINK: () = {
        let _ = launch_host_func;
    };
}
const _: () = {
    #[allow(dead_code)]
    unsafe extern "C" {
        #[allow(clashing_extern_declarations)]
        fn __cuda_entry_lint_launch_host_func(_: CUstream, _: CUhostFn, _: *mut c_void)
        -> CUresult;
    }
    #[allow(unused_imports)]
    use ::cuda_entry::__private as __cuda_entry;
    #[allow(unused_imports)]
    use ::cuda_entry::__private::fallbacks::*;
    #[allow(unused_variables)]
    let __cuda_entry_typedefs: &str = "\nthe typedefs of `cuLaunchHostFunc`:\n    version = 10000: CUresult PFN_cuLaunchHostFunc_v10000(CUstream hStream, CUhostFn fn, void *userData)\n    version = 13010: CUresult PFN_cuLaunchHostFunc_v13010(CUstream hStream, CUhostFn fn, void *userData, unsigned int syncMode)";
    {
        #[cfg(target_pointer_width = "64")]
        {
            __cuda_entry::value::<CUstream>(
                __cuda_entry::Expect {
                    size: 8usize,
                    align: 8usize,
                    also: __cuda_entry::NO_LAYOUTS,
                    before: "parameter 1 `stream` of `PFN_cuLaunchHostFunc_v10000` is `CUstream hStream` (8 bytes, align 8), but `CUstream` is ",
                    after: ": declare it with a type of the C layout",
                    others: __cuda_entry::NO_OTHERS,
                },
                (
                    __cuda_entry::Passed::<CUstream>::CLASSES,
                    __cuda_entry::c_classes::HANDLE,
                ),
                "parameter 1 `stream` of `PFN_cuLaunchHostFunc_v10000` is `CUstream hStream`, passed in an integer register, but `CUstream` is ",
                ": declare it with a pointer type, or an integer of 8 bytes",
                __cuda_entry_typedefs,
            );
        }
    }
    {
        #[cfg(target_pointer_width = "64")]
        {
            __cuda_entry::layout::<CUhostFn>(
                false,
                __cuda_entry::Expect {
                    size: 8usize,
                    align: 8usize,
                    also: __cuda_entry::NO_LAYOUTS,
                    before: "parameter 2 `f` of `PFN_cuLaunchHostFunc_v10000` is `CUhostFn fn` (8 bytes, align 8), but `CUhostFn` is ",
                    after: ": declare it with a type of the C layout",
                    others: __cuda_entry::NO_OTHERS,
                },
                __cuda_entry_typedefs,
            );
        }
    }
    {
        __cuda_entry::pointer::<*mut c_void>();
        __cuda_entry::writable(
            __cuda_entry::AccessProbe::<*mut c_void>::READ_ONLY,
            "parameter 3 `user_data` of `PFN_cuLaunchHostFunc_v10000` is `void *userData`, which the driver writes through (its pointee is not `const`), but `*mut c_void` promises no write: declare `*mut T` or `&mut T` (`Option<&mut T>` where NULL is allowed)",
        );
        __cuda_entry :: valid ((__cuda_entry :: Proven :: < < * mut c_void as __cuda_entry :: CPointer > :: Pointee > :: FROM_DRIVER , __cuda_entry :: ValueProbe :: < < * mut c_void as __cuda_entry :: CPointer > :: Pointee > :: INVALID) , "parameter 3 `user_data` of `PFN_cuLaunchHostFunc_v10000` is `void *userData`, which the driver writes through, but `*mut c_void` points to " , ": point to a type of the C layout whose every value is valid, or `MaybeUninit<T>` (or `c_void` to leave it unchecked)" , __cuda_entry_typedefs) ;
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
                    before: "the return type of `PFN_cuLaunchHostFunc_v10000` is `CUresult` (4 bytes, align 4), but `CUresult` is ",
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
            "the return type of `PFN_cuLaunchHostFunc_v10000` is `CUresult`, a status the driver may set to any `int`, but `CUresult` is ",
            ": declare `-> cuda_entry::types::CUresult`, or `-> i32` (or an alias of a primitive integer); the function returns `Result<(), Error>` either way",
            __cuda_entry_typedefs,
        );
    }
    {
        #[cfg(target_pointer_width = "64")]
        {
            __cuda_entry::callback::<CUhostFn>(
                __cuda_entry::CCallback {
                    params: &[__cuda_entry::CValue {
                        size: 8usize,
                        align: 8usize,
                        also: &[],
                        classes: __cuda_entry::c_classes::POINTER,
                        words: ", where C has `void *userData` (8 bytes, align 8, passed in an integer register)",
                    }],
                    ret: ::core::option::Option::None,
                    before: "parameter 2 `f` of `PFN_cuLaunchHostFunc_v10000` is `CUhostFn fn`, a callback `void (*)(void *userData)`, but `CUhostFn` ",
                    after: ": declare it `Option<unsafe extern \"C\" fn(*mut c_void)>`",
                },
                (
                    &[__cuda_entry::Passed::<<CUhostFn as __cuda_entry::CFn>::A0>::CLASSES],
                    &[__cuda_entry::Proven::<<CUhostFn as __cuda_entry::CFn>::A0>::FROM_DRIVER],
                ),
                __cuda_entry::Passed::<<CUhostFn as __cuda_entry::CFn>::Ret>::CLASSES,
                __cuda_entry_typedefs,
            );
        }
        #[cfg(not(target_pointer_width = "64"))]
        {
            __cuda_entry::callback_portable::<CUhostFn>(
                __cuda_entry::CCallback {
                    params: &[__cuda_entry::CValue {
                        size: 8usize,
                        align: 8usize,
                        also: &[],
                        classes: __cuda_entry::c_classes::POINTER,
                        words: ", where C has `void *userData` (8 bytes, align 8, passed in an integer register)",
                    }],
                    ret: ::core::option::Option::None,
                    before: "parameter 2 `f` of `PFN_cuLaunchHostFunc_v10000` is `CUhostFn fn`, a callback `void (*)(void *userData)`, but `CUhostFn` ",
                    after: ": declare it `Option<unsafe extern \"C\" fn(*mut c_void)>`",
                },
                &[__cuda_entry::Proven::<<CUhostFn as __cuda_entry::CFn>::A0>::FROM_DRIVER],
                __cuda_entry_typedefs,
            );
        }
    }
};
#[doc = " The driver entry behind `launch_host_func()`: `cuLaunchHostFunc` at version 10000 (`PFN_cuLaunchHostFunc_v10000`)."]
#[allow(non_snake_case, clippy::module_name_repetitions)]
pub mod launch_host_func {
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
    #[doc = " The function pointer type, the signature of `PFN_cuLaunchHostFunc_v10000`:\n\n ```text\n unsafe extern \"C\" fn(stream: CUstream, f: CUhostFn, user_data: *mut c_void) -> CUresult\n ```"]
    pub type Pfn = <() as Signature>::Pfn;
    use ::cuda_entry::__private as __cuda_entry;
    #[doc = r" The symbol passed to `cuGetProcAddress`."]
    pub const SYMBOL: &str = {
        let () = <() as Signature>::LINK;
        "cuLaunchHostFunc"
    };
    #[doc = r" The typedef version passed to `cuGetProcAddress`."]
    pub const VERSION: u32 = {
        let () = <() as Signature>::LINK;
        __cuda_entry::default_stream_version(10000u32, 10000u32)
    };
    #[doc = r" The default-stream flavour, which selects the flag passed to `cuGetProcAddress`."]
    pub const STREAM: __cuda_entry::Stream = {
        let () = <() as Signature>::LINK;
        __cuda_entry::default_stream(10000u32)
    };
    #[doc = r" The typedef the signature was checked against."]
    pub const TYPEDEF: &str = {
        let () = <() as Signature>::LINK;
        if __cuda_entry::PER_THREAD_DEFAULT {
            "PFN_cuLaunchHostFunc_v10000_ptsz"
        } else {
            "PFN_cuLaunchHostFunc_v10000"
        }
    };
    #[doc = r" The entry: resolved on first use, cached for the life of the process."]
    pub static ENTRY: __cuda_entry::Entry =
        __cuda_entry::default_stream_entry(c"cuLaunchHostFunc", 10000u32, 10000u32);
    #[doc = r" The typed function pointer, for hot loops."]
    #[doc = r""]
    #[doc = r" # Errors"]
    #[doc = r""]
    #[doc = " The [`Error`](cuda_entry::Error) of the resolution (cached)."]
    #[inline]
    pub fn pointer() -> __cuda_entry::Result<Pfn, __cuda_entry::Error> {
        let () = <() as Signature>::LINK;
        unsafe { ENTRY.resolve_as::<Pfn>() }
    }
    #[doc = r" Whether the driver can serve this entry; resolves it (once) but never calls it."]
    #[inline]
    #[must_use]
    pub fn is_available() -> bool {
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
    static MANIFEST_RECORD: [u8; 49usize] = if __cuda_entry::PER_THREAD_DEFAULT {
        *b"CUEN\x01\x02\x01\0\x10'\0\0\x10\0\x11\0cuLaunchHostFunccuda-entry-macros"
    } else {
        *b"CUEN\x01\x01\x01\0\x10'\0\0\x10\0\x11\0cuLaunchHostFunccuda-entry-macros"
    };
    #[cfg(all(windows, target_env = "gnu"))]
    #[used]
    #[unsafe(link_section = ".vectors_cuentry")]
    static RETAINED: (&__cuda_entry::Registered, &[u8]) = (&REGISTERED, &MANIFEST_RECORD);
}
