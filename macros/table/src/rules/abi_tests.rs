//! The ABI rules of the signature, pinned: what the tokens decide, the typedef they name, and what
//! they leave to the compiler.

use proc_macro2::TokenStream;
use quote::quote;

use super::*;

/// The mistakes of one declaration (`version` of `symbol`), or its assertions when accepted.
fn judged(symbol: &str, version: u32, item: TokenStream) -> Result<Vec<String>, Vec<Mistake>> {
    let version = proc_macro2::Literal::u32_unsuffixed(version);
    let item = parse_item(quote!(symbol = #symbol, version = #version), item).expect("parses");
    let decl = item.declarations().next().expect("one declaration");
    decl.validate().map(|checked| {
        checked
            .assertions()
            .iter()
            .map(|a| format!("{a:?}"))
            .collect()
    })
}

fn mistakes(symbol: &str, version: u32, item: TokenStream) -> Vec<Mistake> {
    judged(symbol, version, item).expect_err("rejected")
}

fn kinds(mistakes: &[Mistake]) -> Vec<&'static str> {
    mistakes.iter().map(|m| m.kind().name()).collect()
}

#[test]
fn the_written_types_name_the_typedef_they_are_of() {
    let found = mistakes(
        "cuMemGetInfo",
        3020,
        quote!(
            unsafe extern "C" fn mem_get_info(free: *mut u32, total: *mut u32) -> CUresult;
        ),
    );
    assert_eq!(kinds(&found), ["pointee_mismatch", "pointee_mismatch"]);
    assert_eq!(
        found[0].message(),
        "parameter 1 `free` of `PFN_cuMemGetInfo_v3020` is `size_t *free`, a pointer to `size_t` \
         (8 bytes, align 8), but `*mut u32` points to 4 bytes, align 4: point to a type of the C \
         layout, or to `c_void` to leave it unchecked; this is the signature of \
         `PFN_cuMemGetInfo_v2000` (`version = 2000`)"
    );
    assert_eq!(
        found[0].notes(),
        [
            "the typedefs of `cuMemGetInfo`:\n    version = 2000: CUresult \
          PFN_cuMemGetInfo_v2000(unsigned int *free, unsigned int *total)\n    version = 3020: \
          CUresult PFN_cuMemGetInfo_v3020(size_t *free, size_t *total)"
        ]
    );
    // Said once, on the first.
    assert!(found[1].notes().is_empty());
    assert!(!found[1].message().contains("signature of"));
    // The compiler shows the notes after the message.
    let error = found[0].to_syn_error().to_string();
    assert!(error.ends_with("(size_t *free, size_t *total)"), "{error}");
}

#[test]
fn types_the_tokens_cannot_tell_make_a_guess_say_so() {
    let found = mistakes(
        "cuMemAlloc",
        3020,
        quote!(
            unsafe extern "C" fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: u32) -> CUresult;
        ),
    );
    assert_eq!(kinds(&found), ["layout_mismatch"]);
    assert!(found[0].message().ends_with(
        "; as far as its types can be read, this is the signature of `PFN_cuMemAlloc_v2000` \
         (`version = 2000`)"
    ));
    // No typedef has both: each mismatch names the typedef whose layout it has.
    let found = mistakes(
        "cuMemAlloc",
        3020,
        quote!(
            unsafe extern "C" fn mem_alloc(dptr: *mut u32, bytesize: usize) -> CUresult;
        ),
    );
    assert!(found[0].message().ends_with(
        "points to 4 bytes, align 4: point to a type of the C layout, or to `c_void` to leave it \
         unchecked; that is its layout in `PFN_cuMemAlloc_v2000` (`version = 2000`)"
    ));
}

#[test]
fn a_wrong_arity_names_the_typedef_of_that_arity() {
    let found = mistakes(
        "cuCtxCreate",
        12050,
        quote!(
            unsafe extern "C" fn ctx_create(pctx: *mut CUcontext, flags: u32, dev: i32)
            -> CUresult;
        ),
    );
    assert_eq!(kinds(&found), ["wrong_arity"]);
    assert!(
        found[0]
            .message()
            // The two have the same C types.
            .ends_with(
                "; this is the signature of `PFN_cuCtxCreate_v2000` (`version = 2000`) or \
                 `PFN_cuCtxCreate_v3020` (`version = 3020`)"
            ),
        "{}",
        found[0].message()
    );
}

#[test]
fn floats_pointers_slots_and_returns_are_checked() {
    let bias = |ty: TokenStream| {
        judged(
            "cuTexRefSetMipmapLevelBias",
            5000,
            quote!(unsafe extern "C" fn set_bias(t: *mut c_void, bias: #ty) -> CUresult;),
        )
    };
    let found = bias(quote!(u32)).expect_err("an integer for a float");
    assert_eq!(kinds(&found), ["float_mismatch"]);
    assert!(found[0].message().contains(
        "is `float bias`, passed in a floating-point register, but `u32` is an integer, passed \
         in an integer register: declare it `f32`"
    ));
    assert!(bias(quote!(f32)).is_ok());
    let found = mistakes(
        "cuMemAlloc",
        3020,
        quote!(
            unsafe extern "C" fn mem_alloc(dptr: *mut u64, bytesize: f64) -> CUresult;
        ),
    );
    assert_eq!(kinds(&found), ["float_mismatch"]);
    let found = mistakes(
        "cuGetErrorString",
        6000,
        quote!(
            unsafe extern "C" fn name(e: CUresult, s: *mut *const u16) -> CUresult;
        ),
    );
    assert_eq!(kinds(&found), ["pointee_mismatch"]);
    assert!(found[0].message().contains(
        "is `const char **pStr`, a pointer to a pointer to `const char` (1 bytes, align 1), but \
         `*mut *const u16` points to a pointer to 2 bytes, align 2"
    ));
    let found = mistakes(
        "cuMemAlloc",
        3020,
        quote!(
            unsafe extern "C" fn mem_alloc(dptr: *mut u64, bytesize: usize);
        ),
    );
    assert_eq!(kinds(&found), ["missing_return"]);
    assert!(
        found[0]
            .message()
            .starts_with("`PFN_cuMemAlloc_v3020` returns `CUresult`: add `-> CUresult`")
    );
}

#[test]
fn every_type_is_asserted_whatever_its_tokens_tell() {
    // `usize` and `c_void` may be names of the user's: the compiler is asked all the same, and the
    // command, which has no compiler, is told nothing is left to one.
    let item = parse_item(
        quote!(symbol = "cuMemGetInfo", version = 3020),
        quote!(
            unsafe extern "C" fn m(free: *mut usize, total: Option<&mut c_void>) -> i32;
        ),
    )
    .expect("parses");
    let decl = item.declarations().next().expect("one");
    let checked = decl.validate().expect("accepted");
    let assertions = checked.assertions();
    let places: Vec<&str> = assertions.iter().map(|a| a.place.as_str()).collect();
    assert_eq!(
        places,
        [
            "parameter 1 `free`",
            "parameter 2 `total`",
            "the return type"
        ]
    );
    let free = &assertions[0];
    assert!(free.pointer);
    assert_eq!(
        free.pointee.as_ref().map(|e| (e.size, e.align)),
        Some((8, 8))
    );
    assert!(free.writable.is_some() && free.valid.is_some());
    let ret = &assertions[2];
    assert_eq!(ret.layout.as_ref().map(|e| (e.size, e.align)), Some((4, 4)));
    assert!(ret.status.is_some() && ret.writable.is_none());
    assert!(checked.left_to_compiler().is_empty());
}

#[test]
fn what_the_tokens_leave_open_is_asserted() {
    let item = parse_item(
        quote!(symbol = "cuMemGetInfo", version = 3020),
        quote!(
            unsafe extern "C" fn m(free: SizePtr, total: *mut usize) -> CUresult;
        ),
    )
    .expect("parses");
    let decl = item.declarations().next().expect("one");
    let checked = decl.validate().expect("accepted");
    let assertions = checked.assertions();
    assert_eq!(assertions.len(), 3, "{assertions:?}");
    let free = &assertions[0];
    assert_eq!(free.place, "parameter 1 `free`");
    assert!(free.pointer && free.layout.is_none() && free.class.is_none());
    let pointee = free.pointee.as_ref().expect("the pointee is asserted");
    assert_eq!((pointee.size, pointee.align), (8, 8));
    assert_eq!(
        pointee.before,
        "parameter 1 `free` of `PFN_cuMemGetInfo_v3020` is `size_t *free`, a pointer to \
         `size_t` (8 bytes, align 8), but `SizePtr` points to "
    );
    assert_eq!(
        pointee.others,
        [(
            4,
            4,
            "; that is its layout in `PFN_cuMemGetInfo_v2000` (`version = 2000`)".to_owned()
        )]
    );
    assert!(
        checked
            .typedefs_lines()
            .starts_with("\nthe typedefs of `cuMemGetInfo`:")
    );
    assert!(free.second.is_none());
    let ret = &assertions[2];
    assert_eq!(ret.place, "the return type");
    assert!(!ret.pointer && ret.pointee.is_none());
    assert_eq!(ret.layout.as_ref().map(|e| (e.size, e.align)), Some((4, 4)));
    assert_eq!(
        checked.left_to_compiler(),
        [
            "parameter 1 `free`: what `SizePtr` points to",
            "the return type: the layout of `CUresult`"
        ]
    );
    // A status's check proves more than its class: the class is not asserted apart.
    assert!(ret.class.is_none());
    assert!(ret.status.is_some());
}

#[test]
fn a_pointer_to_a_pointer_asserts_both_levels() {
    let item = parse_item(
        quote!(symbol = "cuGetErrorString", version = 6000),
        quote!(
            unsafe extern "C" fn name(e: i32, s: *mut *const Char) -> i32;
        ),
    )
    .expect("parses");
    let decl = item.declarations().next().expect("one");
    let checked = decl.validate().expect("accepted");
    let assertions = checked.assertions();
    assert_eq!(assertions.len(), 3, "{assertions:?}");
    let s = &assertions[1];
    assert_eq!(s.place, "parameter 2 `s`");
    // `*const Char` may be fat: its layout is the compiler's to check, and then `Char`'s.
    assert_eq!(s.pointee.as_ref().map(|e| (e.size, e.align)), Some((8, 8)));
    assert_eq!(s.second.as_ref().map(|e| (e.size, e.align)), Some((1, 1)));
}
