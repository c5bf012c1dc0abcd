//! The rules that matter most for soundness, pinned: the per-thread twin and pointer-ness.

use proc_macro2::TokenStream;
use quote::quote;

use super::validate::twin_among;
use super::*;
use crate::{CType, Class, Flavour, Param, Typedef, find};

/// The kinds of the mistakes of `#[cuda_entry(args)] item`, in the order reported.
fn kinds(args: TokenStream, item: TokenStream) -> Vec<&'static str> {
    let item = parse_item(args, item).expect("a declaration");
    match item.validate() {
        Ok(_) => Vec::new(),
        Err(mistakes) => mistakes.iter().map(|m| m.kind().name()).collect(),
    }
}

fn mem_alloc_with(dptr: TokenStream) -> Vec<&'static str> {
    kinds(
        quote!(symbol = "cuMemAlloc", version = 3020),
        quote!(pub unsafe extern "C" fn mem_alloc(dptr: #dptr, bytesize: usize) -> CUresult;),
    )
}

#[test]
fn a_value_where_c_has_a_pointer_is_rejected() {
    // `PFN_cuMemAlloc_v3020`'s first parameter is `CUdeviceptr_v2 *`; a `u64` is 8 bytes like a
    // pointer, so only the pointer rule catches it.
    assert_eq!(mem_alloc_with(quote!(u64)), ["not_a_pointer"]);
    assert_eq!(mem_alloc_with(quote!([u8; 8])), ["not_a_pointer"]);
    assert_eq!(mem_alloc_with(quote!(c_void)), ["not_a_pointer"]);
    // A path may be an alias of a pointer: the compiler judges it (`CPointer`).
    assert_eq!(mem_alloc_with(quote!(CUdeviceptr)), Vec::<&str>::new());
    let item = parse_item(
        quote!(symbol = "cuMemAlloc", version = 3020),
        quote!(
            pub unsafe extern "C" fn mem_alloc(dptr: u64, bytesize: usize) -> CUresult;
        ),
    )
    .unwrap();
    let mistakes = item.validate().unwrap_err();
    assert_eq!(
        mistakes[0].message(),
        "parameter 1 `dptr` of `PFN_cuMemAlloc_v3020` is `CUdeviceptr_v2 *dptr`, a pointer, but \
         `u64` is not one: write a pointer type here (`*mut T`, `*const T`, `&T`, `&mut T`, \
         `NonNull<T>`, or an `Option` of a reference or a `NonNull`)"
    );
}

#[test]
fn pointers_references_options_and_non_null_are_pointers() {
    for ty in [
        quote!(*mut CUdeviceptr),
        quote!(&mut CUdeviceptr),
        quote!(Option<&mut CUdeviceptr>),
        quote!(core::ptr::NonNull<CUdeviceptr>),
        quote!(Option<core::ptr::NonNull<CUdeviceptr>>),
        quote!((*mut CUdeviceptr)),
    ] {
        assert_eq!(mem_alloc_with(ty.clone()), Vec::<&str>::new(), "{ty}");
    }
    // The driver writes the address: a pointer that promises no write is refused, whatever it
    // points to.
    assert_eq!(
        mem_alloc_with(quote!(*const CUdeviceptr)),
        ["read_only_pointer"]
    );
    // Whether a shared reference may be written through depends on what the name it points to
    // is (`Cell`, an atomic): left to the expansion's assertion, which the compiler evaluates.
    for ty in [quote!(&CUdeviceptr), quote!(Option<&CUdeviceptr>)] {
        assert_eq!(mem_alloc_with(ty.clone()), Vec::<&str>::new(), "{ty}");
    }
}

#[test]
fn twins_pair_on_exact_c_types() {
    // CUDA 2.0's `cuMemcpy2D` takes a `CUDA_MEMCPY2D_v1 *`, the per-thread one a
    // `CUDA_MEMCPY2D_v2 *`: both pointers, the same size and alignment, not the same ABI.
    let legacy = find("cuMemcpy2D", 2000, false).unwrap();
    let ptds = find("cuMemcpy2D", 7000, true).unwrap();
    assert_eq!(legacy.params[0].ty.spelling, "const CUDA_MEMCPY2D_v1 *");
    assert_eq!(ptds.params[0].ty.spelling, "const CUDA_MEMCPY2D_v2 *");
    let size_only = |a: &CType, b: &CType| a.size == b.size && a.align == b.align;
    assert!(
        size_only(&legacy.params[0].ty, &ptds.params[0].ty) && size_only(&legacy.ret, &ptds.ret),
        "a comparison of sizes would pair them"
    );
    assert_eq!(twin(legacy), None);
    // The 3.2 ABI is the per-thread one's.
    let v3020 = find("cuMemcpy2D", 3020, false).unwrap();
    assert_eq!(
        twin(v3020).map(|t| (t.version, t.stream)),
        Some((7000, Flavour::Ptds))
    );

    let launch = find("cuLaunchKernel", 4000, false).unwrap();
    let found = twin(launch).unwrap();
    assert_eq!((found.version, found.stream), (7000, Flavour::Ptsz));
    // A per-thread typedef has no twin of its own.
    assert_eq!(twin(found), None);
}

const fn c(spelling: &'static str, size: u32) -> CType {
    CType {
        spelling,
        pointer: false,
        size,
        align: size,
        class: Class::Integer,
        pointee: None,
        layouts: &[],
        callback: None,
    }
}

const fn typedef(version: u32, stream: Flavour, params: &'static [Param]) -> Typedef {
    Typedef {
        symbol: "cuSynthetic",
        version,
        stream,
        ret: c("CUresult", 4),
        params,
        header: "test",
        first_toolkit: 12000,
        last_toolkit: 12000,
    }
}

static SIGNED: &[Param] = &[Param {
    name: "n",
    ty: c("int", 4),
}];
static UNSIGNED: &[Param] = &[Param {
    name: "n",
    ty: c("unsigned int", 4),
}];
static SYNTHETIC: &[Typedef] = &[
    typedef(3000, Flavour::Legacy, SIGNED),
    typedef(7000, Flavour::Ptsz, UNSIGNED),
    typedef(8000, Flavour::Ptsz, SIGNED),
    typedef(9000, Flavour::Ptsz, SIGNED),
];

#[test]
fn a_twin_is_the_first_same_typed_one_at_or_above_the_legacy_version() {
    let legacy = &SYNTHETIC[0];
    // 7000 has the same sizes and is nearest, but `unsigned int` is not `int`.
    let found = twin_among(legacy, SYNTHETIC).unwrap();
    assert_eq!(found.version, 8000);
    static ONLY_SIZES_MATCH: &[Typedef] = &[
        typedef(3000, Flavour::Legacy, SIGNED),
        typedef(7000, Flavour::Ptsz, UNSIGNED),
    ];
    assert_eq!(twin_among(&ONLY_SIZES_MATCH[0], ONLY_SIZES_MATCH), None);
    // None at or above: the newest below.
    let late = typedef(9500, Flavour::Legacy, SIGNED);
    assert_eq!(twin_among(&late, SYNTHETIC).unwrap().version, 9000);
}

#[test]
fn only_a_declaration_naming_no_stream_gets_a_twin() {
    let launch = quote! {
        unsafe extern "C" fn launch(
            f: CUfunction, gx: u32, gy: u32, gz: u32, bx: u32, by: u32, bz: u32,
            shared: u32, stream: CUstream, params: *mut *mut c_void, extra: *mut *mut c_void,
        ) -> CUresult;
    };
    let twin_of = |args: TokenStream| {
        let item = parse_item(args, launch.clone()).unwrap();
        let checked = item.validate().unwrap();
        checked[0].twin.map(|t| t.version)
    };
    assert_eq!(
        twin_of(quote!(symbol = "cuLaunchKernel", version = 4000)),
        Some(7000)
    );
    assert_eq!(
        twin_of(quote!(
            symbol = "cuLaunchKernel",
            version = 4000,
            stream = "legacy"
        )),
        None
    );
}

#[test]
fn mistakes_come_in_source_order() {
    let item = parse_item(
        quote!(),
        quote! {
            unsafe extern "C" {
                #[cuda_entry(symbol = "cuMemAloc", version = 3020)]
                fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;
                #[cuda_entry(version = CUDA_VERSION, symbol = "cuMemFree_v2")]
                async fn mem_free(dptr: CUdeviceptr) -> CUresult;
                #[cuda_entry(symbol = "cuMemFree", version = 3020, stream = "per_thread")]
                fn mem_free_again(dptr: CUdeviceptr) -> impl Copy;
            }
        },
    )
    .unwrap();
    let mistakes = item.validate().unwrap_err();
    let kinds: Vec<&str> = mistakes.iter().map(|m| m.kind().name()).collect();
    assert_eq!(
        kinds,
        [
            "unknown_symbol",
            "version_not_a_literal",
            "suffixed_symbol",
            "async_function",
            "no_per_thread_variant",
            "not_a_c_type",
        ]
    );
}

#[test]
fn an_invalid_argument_silences_the_rules_that_need_it() {
    // A stream that is neither flavour: no guess at which typedef 7000 should have been.
    let launch = quote!(
        unsafe extern "C" fn launch() -> CUresult;
    );
    assert_eq!(
        kinds(
            quote!(symbol = "cuLaunchKernel", version = 7000, stream = "ptsz"),
            launch.clone()
        ),
        ["wrong_stream"]
    );
    // Unparsable arguments: one mistake, no "missing symbol".
    assert_eq!(
        kinds(quote!(symbol "cuMemAlloc"), launch.clone()),
        ["malformed_arguments"]
    );
    // `unverified = true` was meant as `unverified`: no "unknown symbol" on top.
    assert_eq!(
        kinds(
            quote!(symbol = "cuFoo", version = 13000, unverified = true),
            launch.clone()
        ),
        ["unverified_with_value"]
    );
    // A version mistake does not hide the symbol's.
    assert_eq!(
        kinds(quote!(symbol = "cuMemAloc", version = 3025), launch),
        ["unknown_symbol", "not_a_version"]
    );
}

#[test]
fn a_file_scanner_sees_what_the_macro_sees() {
    let file = syn::parse_file(
        r#"
        #[cuda_entry(symbol = "cuMemFree", version = 3020)]
        unsafe extern "C" fn with_body(dptr: u64) -> i32 { 0 }

        unsafe extern "C" {
            #[cuda_entry(symbol = "cuMemFree", version = 3020)]
            fn not_expanded(dptr: u64) -> i32;
            fn unrelated();
        }

        unsafe extern "C" {
            fn plain();
        }

        #[cuda_entry(symbol = "cuMemFree", version = 3020)]
        #[cuda_entry(symbol = "cuMemFree", version = 3020)]
        unsafe extern "C" fn twice(dptr: u64) -> i32;
        "#,
    )
    .unwrap();
    let found: Vec<Vec<&str>> = file
        .items
        .iter()
        .filter_map(EntryItem::from_item)
        .map(|item| match item.validate() {
            Ok(_) => Vec::new(),
            Err(mistakes) => mistakes.iter().map(|m| m.kind().name()).collect(),
        })
        .collect();
    assert_eq!(
        found,
        [
            vec!["function_body"],
            vec!["block_without_attribute"],
            vec!["duplicate_attribute"],
        ]
    );
}

#[test]
fn kind_names_are_snake_case() {
    for kind in [
        MistakeKind::UnknownSymbol,
        MistakeKind::NotATypedef,
        MistakeKind::NotACType,
        MistakeKind::WrongStreamFlavour,
    ] {
        let name = kind.name();
        assert!(
            name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
            "{name}"
        );
        assert_eq!(kind.to_string(), name);
    }
    assert_eq!(MistakeKind::UnknownSymbol.name(), "unknown_symbol");
    assert_eq!(MistakeKind::NotATypedef.name(), "not_a_typedef");
}

#[test]
fn misspellings_find_the_nearest_symbol() {
    let message = unknown_symbol("cuMemAloc", Reader::Declaration);
    assert!(message.contains("did you mean `cuMemAlloc`?"), "{message}");
    let message = unknown_symbol("somethingElseEntirely", Reader::Declaration);
    assert!(!message.contains("did you mean"), "{message}");
}

/// `tokens` in an invisible group, as a `macro_rules!` fragment (`$x:literal`, `$x:expr`)
/// forwards them.
fn invisible(tokens: TokenStream) -> TokenStream {
    let group = proc_macro2::Group::new(proc_macro2::Delimiter::None, tokens);
    proc_macro2::TokenTree::Group(group).into()
}

#[test]
fn values_in_invisible_groups_are_read_as_written() {
    let (symbol, version) = (invisible(quote!("cuLaunchKernel")), invisible(quote!(7000)));
    let stream = invisible(quote!("per_thread"));
    let resolver = invisible(invisible(quote!("runtime")));
    let item = parse_item(
        quote!(symbol = #symbol, version = #version, stream = #stream, resolver = #resolver),
        quote!(
            unsafe extern "C" fn launch(
                f: u64,
                gx: u32,
                gy: u32,
                gz: u32,
                bx: u32,
                by: u32,
                bz: u32,
                shared: u32,
                stream: *mut u8,
                params: *mut *mut u8,
                extra: *mut *mut u8,
            ) -> i32;
        ),
    )
    .unwrap();
    let checked = item.validate().expect("accepted");
    assert_eq!(
        (checked[0].symbol, checked[0].version.get()),
        ("cuLaunchKernel", 7000)
    );
    assert_eq!(checked[0].resolver, Resolver::Runtime);
    assert!(checked[0].per_thread());
    // What is wrong inside a group is named as written, without the group.
    let constant = invisible(quote!(CUDA_VERSION));
    let item = parse_item(
        quote!(symbol = "cuMemFree", version = #constant),
        quote!(
            unsafe extern "C" fn mem_free(dptr: u64) -> i32;
        ),
    )
    .unwrap();
    let mistakes = item.validate().unwrap_err();
    assert_eq!(mistakes[0].kind(), MistakeKind::VersionNotALiteral);
    assert!(
        mistakes[0]
            .message()
            .contains("found `version = CUDA_VERSION`")
    );
    let negative = invisible(quote!(-3020));
    let kinds = kinds(
        quote!(symbol = "cuMemFree", version = #negative),
        quote!(
            unsafe extern "C" fn mem_free(dptr: u64) -> i32;
        ),
    );
    assert_eq!(kinds, ["not_a_version"]);
}

#[test]
fn an_attribute_is_recognised_by_name_by_arguments_or_by_its_blocks_path() {
    let attr = |tokens: TokenStream| -> syn::Attribute { syn::parse_quote!(#[#tokens]) };
    for (tokens, ours) in [
        (quote!(cuda_entry), true),
        (quote!(cuda_entry::cuda_entry(symbol = "cuMemFree")), true),
        (
            quote!(driver_fn(symbol = "cuMemFree", version = 3020, optional)),
            true,
        ),
        (quote!(driver_fn(version = 3020)), true),
        (quote!(driver_fn), false),
        (
            quote!(driver_fn(symbol = "cuMemFree", since = "1.0")),
            false,
        ),
        (quote!(driver_fn(optional)), false),
        (quote!(deprecated(symbol = "x")), false),
        (quote!(doc(alias = "cuMemFree")), false),
    ] {
        assert_eq!(is_entry_attribute(&attr(tokens.clone())), ours, "{tokens}");
    }
    let file = syn::parse_file(
        r#"
        #[driver_fn]
        unsafe extern "C" {
            #[driver_fn(symbol = "cuMemAlloc", version = 3020)]
            fn mem_alloc(dptr: *mut u64, bytesize: usize) -> i32;
            #[driver_fn(symbol = "cuMemFree", verison = 3020)]
            fn mem_free(dptr: u64) -> i32;
        }
        "#,
    )
    .unwrap();
    let item = EntryItem::from_item(&file.items[0]).expect("the block, by its functions' path");
    assert_eq!(
        item.mistakes().count(),
        0,
        "the block's own attribute is taken"
    );
    let names: Vec<String> = item.declarations().map(|d| d.ident.to_string()).collect();
    assert_eq!(names, ["mem_alloc", "mem_free"]);
    let kinds: Vec<&str> = item
        .validate()
        .unwrap_err()
        .iter()
        .map(|m| m.kind().name())
        .collect();
    assert_eq!(kinds, ["missing_version", "unknown_argument"]);
}

#[test]
fn crate_is_a_path_quoted_or_not() {
    let decl = |args: TokenStream| {
        let item = parse_item(
            args,
            quote!(
                unsafe extern "C" fn mem_free(dptr: u64) -> i32;
            ),
        );
        item.expect("a declaration")
    };
    for (value, path) in [
        (quote!("gpu_sys::cuda_entry"), "gpu_sys :: cuda_entry"),
        (quote!(gpu_sys::cuda_entry), "gpu_sys :: cuda_entry"),
        (quote!("::cuda"), ":: cuda"),
        (quote!("r#try::cuda_entry"), "r#try :: cuda_entry"),
        (invisible(quote!(crate::reexport)), "crate :: reexport"),
    ] {
        let item = decl(quote!(symbol = "cuMemFree", version = 3020, crate = #value));
        let d = item.declarations().next().unwrap();
        let given = d
            .args
            .crate_path
            .value()
            .map(|c| quote::ToTokens::to_token_stream(&c.0));
        assert_eq!(given.map(|t| t.to_string()).as_deref(), Some(path));
        assert!(item.validate().is_ok());
    }
    for (value, kind) in [
        (quote!(= 42), "wrong_crate_path"),
        (quote!(= "gpu sys"), "wrong_crate_path"),
        (quote!(= "x::<y>"), "wrong_crate_path"),
        (quote!(= "try"), "wrong_crate_path"),
        (quote!(= "gpu::gen::cuda_entry"), "wrong_crate_path"),
        (quote!(), "argument_without_value"),
    ] {
        let found = kinds(
            quote!(symbol = "cuMemFree", version = 3020, crate #value),
            quote!(
                unsafe extern "C" fn mem_free(dptr: u64) -> i32;
            ),
        );
        assert_eq!(found, [kind], "{value}");
    }
}

#[test]
fn a_block_names_the_crate_once_for_every_declaration() {
    let block = quote!(
        unsafe extern "C" {
            #[cuda_entry(symbol = "cuMemFree", version = 3020)]
            fn mem_free(dptr: u64) -> i32;
            #[cuda_entry(symbol = "cuInit", version = 2000, crate = "other")]
            fn init(flags: u32) -> i32;
        }
    );
    let item = parse_item(quote!(crate = "gpu_sys::cuda_entry"), block.clone()).unwrap();
    let crates: Vec<String> = item
        .declarations()
        .map(|d| match &d.args.crate_path {
            Argument::Given(_, c) => quote::ToTokens::to_token_stream(&c.0).to_string(),
            _ => String::new(),
        })
        .collect();
    assert_eq!(crates, ["gpu_sys :: cuda_entry", "other"]);
    assert!(item.validate().is_ok());
    let item = parse_item(quote!(crate = "x", symbol = "cuMemFree"), block).unwrap();
    let kinds: Vec<&str> = item
        .validate()
        .unwrap_err()
        .iter()
        .map(|m| m.kind().name())
        .collect();
    assert_eq!(kinds, ["arguments_on_block"]);
}

#[test]
fn optional_is_a_flag() {
    let decl = quote!(
        unsafe extern "C" fn mem_free(dptr: u64) -> i32;
    );
    let item = parse_item(
        quote!(symbol = "cuMemFree", version = 3020, optional),
        decl.clone(),
    );
    let item = item.unwrap();
    assert!(item.validate().expect("accepted")[0].optional);
    let item = parse_item(quote!(symbol = "cuMemFree", version = 3020), decl.clone()).unwrap();
    assert!(!item.validate().expect("accepted")[0].optional);
    let found = kinds(
        quote!(symbol = "cuMemFree", version = 3020, optional = true),
        decl,
    );
    assert_eq!(found, ["optional_with_value"]);
}
