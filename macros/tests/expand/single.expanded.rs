#[doc = r" Allocates device memory."]
#[doc = ""]
#[doc = " # Errors\n\n The driver entry's [`Error`](cuda_entry::Error) when `cuMemAlloc` at version 3020 cannot be resolved (resolved once, then cached). The same error, of kind `DriverStatus`, when the driver function returns a status other than `CUDA_SUCCESS` (`Error::driver_status` gives the code).\n\n # Safety\n\n The contract of the driver function `cuMemAlloc` (`PFN_cuMemAlloc_v3020`): valid pointers and handles, as the CUDA driver API documentation states."]
#[inline]
#[allow(clippy::too_many_arguments)]
pub unsafe fn mem_alloc(
    dptr: *mut CUdeviceptr,
    bytesize: usize,
) -> ::cuda_entry::__private::Result<(), ::cuda_entry::__private::Error> {
    match mem_alloc::ENTRY.resolve() {
        ::cuda_entry::__private::Result::Ok(pfn) => ::cuda_entry::__private::checked_status(
            unsafe {
                ::cuda_entry::__private::transmute::<_, <() as mem_alloc::Signature>::Status>(pfn)(
                    dptr, bytesize,
                )
            },
            &mem_alloc::ENTRY,
        ),
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
const _: () = {
    #[allow(dead_code)]
    unsafe extern "C" {
        #[allow(clashing_extern_declarations)]
        fn __cuda_entry_lint_mem_alloc(_: *mut CUdeviceptr, _: usize) -> CUresult;
    }
    #[allow(unused_imports)]
    use ::cuda_entry::__private as __cuda_entry;
    #[allow(unused_imports)]
    use ::cuda_entry::__private::fallbacks::*;
    #[allow(unused_variables)]
    let __cuda_entry_typedefs: &str = "\nthe typedefs of `cuMemAlloc`:\n    version = 2000: CUresult PFN_cuMemAlloc_v2000(CUdeviceptr_v1 *dptr, unsigned int bytesize)\n    version = 3020: CUresult PFN_cuMemAlloc_v3020(CUdeviceptr_v2 *dptr, size_t bytesize)";
    {
        #[cfg(target_pointer_width = "64")]
        {
            __cuda_entry :: raw_pointee :: < < * mut CUdeviceptr as __cuda_entry :: CPointer > :: Pointee > (__cuda_entry :: Probe :: < < * mut CUdeviceptr as __cuda_entry :: CPointer > :: Pointee > :: POINTEE , __cuda_entry :: Expect { size : 8usize , align : 8usize , also : __cuda_entry :: NO_LAYOUTS , before : "parameter 1 `dptr` of `PFN_cuMemAlloc_v3020` is `CUdeviceptr_v2 *dptr`, a pointer to `CUdeviceptr_v2` (8 bytes, align 8), but `*mut CUdeviceptr` points to " , after : ": point to a type of the C layout, or to `c_void` to leave it unchecked" , others : & [(4usize , 4usize , "; that is its layout in `PFN_cuMemAlloc_v2000` (`version = 2000`)")] , } , __cuda_entry_typedefs) ;
        }
        __cuda_entry::writable(
            __cuda_entry::AccessProbe::<*mut CUdeviceptr>::READ_ONLY,
            "parameter 1 `dptr` of `PFN_cuMemAlloc_v3020` is `CUdeviceptr_v2 *dptr`, which the driver writes through (its pointee is not `const`), but `*mut CUdeviceptr` promises no write: declare `*mut T` or `&mut T` (`Option<&mut T>` where NULL is allowed)",
        );
        __cuda_entry :: valid ((__cuda_entry :: Proven :: < < * mut CUdeviceptr as __cuda_entry :: CPointer > :: Pointee > :: FROM_DRIVER , __cuda_entry :: ValueProbe :: < < * mut CUdeviceptr as __cuda_entry :: CPointer > :: Pointee > :: INVALID) , "parameter 1 `dptr` of `PFN_cuMemAlloc_v3020` is `CUdeviceptr_v2 *dptr`, which the driver writes through, but `*mut CUdeviceptr` points to " , ": point to an integer type of 8 bytes (`u64` or `i64`)" , __cuda_entry_typedefs) ;
    }
    {
        #[cfg(target_pointer_width = "64")]
        {
            __cuda_entry::value::<usize>(
                __cuda_entry::Expect {
                    size: 8usize,
                    align: 8usize,
                    also: __cuda_entry::NO_LAYOUTS,
                    before: "parameter 2 `bytesize` of `PFN_cuMemAlloc_v3020` is `size_t bytesize` (8 bytes, align 8), but `usize` is ",
                    after: ": declare it with a type of the C layout",
                    others: &[(
                        4usize,
                        4usize,
                        "; that is its layout in `PFN_cuMemAlloc_v2000` (`version = 2000`)",
                    )],
                },
                (
                    __cuda_entry::Passed::<usize>::CLASSES,
                    __cuda_entry::c_classes::INTEGER_8,
                ),
                "parameter 2 `bytesize` of `PFN_cuMemAlloc_v3020` is `size_t bytesize`, passed in an integer register, but `usize` is ",
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
                    before: "the return type of `PFN_cuMemAlloc_v3020` is `CUresult` (4 bytes, align 4), but `CUresult` is ",
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
            "the return type of `PFN_cuMemAlloc_v3020` is `CUresult`, a status the driver may set to any `int`, but `CUresult` is ",
            ": declare `-> cuda_entry::types::CUresult`, or `-> i32` (or an alias of a primitive integer); the function returns `Result<(), Error>` either way",
            __cuda_entry_typedefs,
        );
    }
};
#[doc = " The driver entry behind `mem_alloc()`: `cuMemAlloc` at version 3020 (`PFN_cuMemAlloc_v3020`)."]
#[allow(non_snake_case, clippy::module_name_repetitions)]
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
    #[doc = " The function pointer type, the signature of `PFN_cuMemAlloc_v3020`:\n\n ```text\n unsafe extern \"C\" fn(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult\n ```"]
    pub type Pfn = <() as Signature>::Pfn;
    use ::cuda_entry::__private as __cuda_entry;
    #[doc = r" The symbol passed to `cuGetProcAddress`."]
    pub const SYMBOL: &str = {
        let () = <() as Signature>::LINK;
        "cuMemAlloc"
    };
    #[doc = r" The typedef version passed to `cuGetProcAddress`."]
    pub const VERSION: u32 = {
        let () = <() as Signature>::LINK;
        3020u32
    };
    #[doc = r" The default-stream flavour, which selects the flag passed to `cuGetProcAddress`."]
    pub const STREAM: __cuda_entry::Stream = {
        let () = <() as Signature>::LINK;
        __cuda_entry::Stream::Legacy
    };
    #[doc = r" The typedef the signature was checked against."]
    pub const TYPEDEF: &str = {
        let () = <() as Signature>::LINK;
        "PFN_cuMemAlloc_v3020"
    };
    #[doc = r" The entry: resolved on first use, cached for the life of the process."]
    pub static ENTRY: __cuda_entry::Entry =
        __cuda_entry::Entry::new(c"cuMemAlloc", 3020u32, __cuda_entry::Stream::Legacy);
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
    static MANIFEST_RECORD: [u8; 43usize] =
        *b"CUEN\x01\x01\x01\0\xCC\x0B\0\0\n\0\x11\0cuMemAlloccuda-entry-macros";
    #[cfg(all(windows, target_env = "gnu"))]
    #[used]
    #[unsafe(link_section = ".vectors_cuentry")]
    static RETAINED: (&__cuda_entry::Registered, &[u8]) = (&REGISTERED, &MANIFEST_RECORD);
}
