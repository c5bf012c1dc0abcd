//! Expansion: each declaration becomes a function returning `Result` and a module of the same
//! name holding its entry `static`, typed pointer, availability query, metadata, registration,
//! manifest record and the const assertions of its ABI. A rejected declaration becomes a stub of
//! the same shape with nothing registered (thiserror's fallback).

use std::ffi::CString;

use cuda_entry_table::manifest;
use cuda_entry_table::rules::{Argument, Checked, Declaration, DefaultStream, Resolver, is_c_type};
use proc_macro2::{Literal, Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Abi, Attribute, Ident, Type, Visibility};

/// The expansion of a declaration the rules accept.
pub(crate) fn declaration(checked: &Checked<'_>) -> TokenStream {
    let decl = checked.declaration;
    let types: Vec<&Type> = decl.params.iter().map(|p| &p.ty).collect();
    let Shape {
        function,
        alias,
        alias_name,
        cfgs,
        inner_vis,
    } = Shape::new(decl, &types, &decl.ret, &decl.abi, docs(checked));
    let (name, vis) = (&decl.ident, &decl.vis);

    let symbol = checked.symbol;
    // The rules accept C identifiers only: no NUL, so the fallback never happens.
    let symbol_c = Literal::c_string(&CString::new(symbol).unwrap_or_default());
    let version = checked.version.get();
    let stream = stream_path(if checked.per_thread() {
        DefaultStream::PerThread
    } else {
        DefaultStream::Legacy
    });
    let typedef_name = checked.typedef_name();
    // A declaration that names no stream and has a per-thread twin resolves one or the other by
    // the facade's `per-thread-default-stream` feature, decided where that feature is known.
    let (entry, version_const, stream_const, typedef_const) = match checked.twin {
        Some(twin) => {
            let twin_version = twin.version;
            let twin_name = twin.typedef_name();
            (
                quote!(::cuda_entry::__private::default_stream_entry(#symbol_c, #version, #twin_version)),
                quote!(::cuda_entry::__private::default_stream_version(#version, #twin_version)),
                quote!(::cuda_entry::__private::default_stream(#twin_version)),
                quote!(if ::cuda_entry::__private::PER_THREAD_DEFAULT { #twin_name } else { #typedef_name }),
            )
        }
        None => (
            quote!(::cuda_entry::__private::Entry::new(#symbol_c, #version, #stream)),
            quote!(#version),
            stream.clone(),
            quote!(#typedef_name),
        ),
    };
    let (entry, resolver) = match checked.resolver {
        Resolver::Driver => (entry, quote!(::cuda_entry::__private::Resolver::Driver)),
        Resolver::Runtime => (
            quote!(#entry.through(::cuda_entry::__private::Resolver::Runtime)),
            quote!(::cuda_entry::__private::Resolver::Runtime),
        ),
    };
    let unverified = checked.typedef.is_none();
    // The declaring package, as cargo tells the compiler of the crate being expanded.
    let package = std::env::var("CARGO_PKG_NAME").unwrap_or_default();
    let sections = link_sections();
    let retention = gnu_pe_retention();
    let checks = abi_assertions(checked, &typedef_name);
    let mod_doc = format!(
        " The driver entry behind `{name}()`: `{symbol}` at version {version} (`{typedef_name}`)."
    );
    quote! {
        #function

        #alias

        #(#cfgs)*
        const _: () = { #checks };

        #(#cfgs)*
        #[doc = #mod_doc]
        #[allow(dead_code, non_snake_case, clippy::module_name_repetitions)]
        #vis mod #name {
            /// The function pointer type, the signature of the typedef.
            #inner_vis type Pfn = super::#alias_name;
            /// The symbol passed to `cuGetProcAddress`.
            #inner_vis const SYMBOL: &str = #symbol;
            /// The typedef version passed to `cuGetProcAddress`.
            #inner_vis const VERSION: u32 = #version_const;
            /// The default-stream flavour, which selects the flag passed to `cuGetProcAddress`.
            #inner_vis const STREAM: ::cuda_entry::__private::Stream = #stream_const;
            /// The typedef the signature was checked against.
            #inner_vis const TYPEDEF: &str = #typedef_const;
            /// The entry: resolved on first use, cached for the life of the process.
            #inner_vis static ENTRY: ::cuda_entry::__private::Entry = #entry;

            /// The typed function pointer, for hot loops.
            ///
            /// # Errors
            ///
            /// The [`cuda_entry::Error`] of the resolution (cached).
            #[inline]
            #inner_vis fn pointer() -> ::cuda_entry::__private::Result<Pfn, ::cuda_entry::__private::Error> {
                // SAFETY: `Pfn` is the signature checked against the typedef this entry names.
                unsafe { ENTRY.resolve_as::<Pfn>() }
            }

            /// Whether the driver can serve this entry; resolves it (once) but never calls it.
            #[must_use]
            #inner_vis fn is_available() -> bool {
                ENTRY.is_available()
            }

            #[::cuda_entry::__private::linkme::distributed_slice(::cuda_entry::__private::ENTRIES)]
            #[linkme(crate = ::cuda_entry::__private::linkme)]
            static REGISTERED: &::cuda_entry::__private::Entry = &ENTRY;

            const RECORD: ::cuda_entry::__private::manifest::Record<'static> =
                ::cuda_entry::__private::manifest::Record {
                    symbol: SYMBOL,
                    version: VERSION,
                    stream: ::cuda_entry::__private::manifest_stream(STREAM),
                    resolver: ::cuda_entry::__private::manifest_resolver(#resolver),
                    unverified: #unverified,
                    package: #package,
                };
            /// The manifest record that `cuda-entry check BINARY` reads.
            #[used]
            #sections
            static MANIFEST_RECORD: [u8; ::cuda_entry::__private::manifest::record_len(&RECORD)] =
                ::cuda_entry::__private::manifest::encode(&RECORD);

            #retention
        }
    }
}

/// The stub of a rejected declaration: the function and the module items call sites name, with
/// the declared signature so they produce no follow-on errors. Nothing is registered or
/// recorded, and no constant states what the rules could not read.
pub(crate) fn stub(decl: &Declaration) -> TokenStream {
    let unit: Type = syn::parse_quote!(());
    // A type that cannot cross a C call is already reported; `()` keeps the stub well-formed.
    let c_type = |ty: &Type| {
        if is_c_type(ty) {
            ty.clone()
        } else {
            unit.clone()
        }
    };
    let types: Vec<Type> = decl.params.iter().map(|p| c_type(&p.ty)).collect();
    let ret = c_type(&decl.ret);
    let types: Vec<&Type> = types.iter().collect();
    let Shape {
        function,
        alias,
        alias_name,
        cfgs,
        inner_vis,
    } = Shape::new(
        decl,
        &types,
        &ret,
        &syn::parse_quote!(extern "C"),
        TokenStream::new(),
    );
    let (name, vis) = (&decl.ident, &decl.vis);
    let args = &decl.args;
    let symbol = args
        .symbol
        .value()
        .map(|symbol| quote!(#inner_vis const SYMBOL: &str = #symbol;));
    let version = args.version.value().map(|version| {
        let version = version.get();
        quote!(#inner_vis const VERSION: u32 = #version;)
    });
    let stream = match args.stream {
        Argument::Absent => Some(DefaultStream::Legacy),
        Argument::Given(_, stream) => Some(stream),
        Argument::Invalid => None,
    }
    .map(|stream| {
        let stream = stream_path(stream);
        quote!(#inner_vis const STREAM: ::cuda_entry::__private::Stream = #stream;)
    });
    quote! {
        #function

        #alias

        #(#cfgs)*
        #[allow(dead_code, non_snake_case, missing_docs, unreachable_pub)]
        #vis mod #name {
            #inner_vis type Pfn = super::#alias_name;
            #symbol
            #version
            #stream
            #inner_vis fn pointer() -> ::cuda_entry::__private::Result<Pfn, ::cuda_entry::__private::Error> {
                ::core::unreachable!()
            }
            #inner_vis fn is_available() -> bool {
                ::core::unreachable!()
            }
        }
    }
}

/// What the expansion and the stub share: the function, the pointer type's alias, the `cfg`s
/// that the items beside the function repeat, the module items' visibility.
struct Shape {
    function: TokenStream,
    alias: TokenStream,
    alias_name: Ident,
    cfgs: Vec<Attribute>,
    inner_vis: TokenStream,
}

impl Shape {
    /// `docs`: attributes added after the declaration's own (the function's generated docs).
    fn new(decl: &Declaration, types: &[&Type], ret: &Type, abi: &Abi, docs: TokenStream) -> Shape {
        let (name, vis, attrs) = (&decl.ident, &decl.vis, &decl.attrs);
        let names: Vec<&Ident> = decl.params.iter().map(|p| &p.name).collect();
        let cfgs: Vec<Attribute> = attrs
            .iter()
            .filter(|a| a.path().is_ident("cfg") || a.path().is_ident("cfg_attr"))
            .cloned()
            .collect();
        // The function pointer type is written where the user's types are in scope (the module
        // holds no glob import of its parent: with one per declaration, name resolution grows
        // quadratic).
        let alias_name = Ident::new(&format!("__cuda_entry_pfn_{}", name.unraw()), name.span());
        // Locals of the generated body, hygienic so a parameter named `pfn` or `error` is not
        // shadowed.
        let pfn = Ident::new("pfn", Span::mixed_site());
        let error = Ident::new("error", Span::mixed_site());
        let function = quote! {
            #(#attrs)*
            #docs
            #[inline]
            #[allow(clippy::too_many_arguments)] // the C signature's arity is not ours to change
            #vis unsafe fn #name(#(#names: #types),*)
                -> ::cuda_entry::__private::Result<#ret, ::cuda_entry::__private::Error>
            {
                match #name::pointer() {
                    ::cuda_entry::__private::Result::Ok(#pfn) => {
                        // SAFETY: the pointer has the signature checked against the typedef; the
                        // caller upholds the driver function's contract.
                        ::cuda_entry::__private::Result::Ok(unsafe { #pfn(#(#names),*) })
                    }
                    ::cuda_entry::__private::Result::Err(#error) => {
                        ::cuda_entry::__private::Result::Err(#error)
                    }
                }
            }
        };
        let alias = quote! {
            #(#cfgs)*
            #[doc(hidden)]
            #[allow(non_camel_case_types)]
            #vis type #alias_name = unsafe #abi fn(#(#types),*) -> #ret;
        };
        Shape {
            function,
            alias,
            alias_name,
            cfgs,
            inner_vis: inner_visibility(vis),
        }
    }
}

/// The function's `# Errors` and `# Safety`, after the user's docs.
fn docs(checked: &Checked<'_>) -> TokenStream {
    let (symbol, version) = (checked.symbol, checked.version.get());
    let typedef_name = checked.typedef_name();
    let doc = format!(
        " # Errors\n\n The driver entry's [`cuda_entry::Error`] when `{symbol}` at version \
         {version} cannot be resolved (resolved once, then cached).\n\n # Safety\n\n The \
         contract of the driver function `{symbol}` (`{typedef_name}`): valid pointers and \
         handles, as the CUDA driver API documentation states."
    );
    quote! {
        #[doc = ""]
        #[doc = #doc]
    }
}

fn stream_path(stream: DefaultStream) -> TokenStream {
    match stream {
        DefaultStream::Legacy => quote!(::cuda_entry::__private::Stream::Legacy),
        DefaultStream::PerThread => quote!(::cuda_entry::__private::Stream::PerThread),
    }
}

/// The manifest section of each object format, named by the format's one definition.
fn link_sections() -> TokenStream {
    let macho = format!("{},{}", manifest::SEGMENT_MACHO, manifest::SECTION_MACHO);
    let (pe, elf) = (manifest::SECTION_PE, manifest::SECTION_ELF);
    quote! {
        #[cfg_attr(target_vendor = "apple", unsafe(link_section = #macho))]
        #[cfg_attr(windows, unsafe(link_section = #pe))]
        #[cfg_attr(not(any(windows, target_vendor = "apple")), unsafe(link_section = #elf))]
    }
}

/// What keeps the registration and the manifest record in a windows-gnu program.
///
/// `#[used]` keeps them everywhere else: on ELF the sections are marked `SHF_GNU_RETAIN`, on
/// Mach-O `no_dead_strip`, and MSVC's and LLVM's COFF linkers collect only COMDAT sections, which
/// these are not. GNU ld on PE (the windows-gnu targets) reads no retain mark and, with rustc's
/// `--gc-sections`, drops every section nothing refers to: the program's own declarations went,
/// and a dependency's survived only while something else in its codegen unit's `.data` was used.
/// That linker never collects a section whose name starts with `.vectors` (nor what it refers
/// to), so this static, in one, refers to both.
fn gnu_pe_retention() -> TokenStream {
    // The name only needs the prefix; the rest keeps the output section apart from others.
    let section = ".vectors_cuentry";
    quote! {
        #[cfg(all(windows, target_env = "gnu"))]
        #[used]
        #[unsafe(link_section = #section)]
        static RETAINED: (&&::cuda_entry::__private::Entry, &[u8]) =
            (&REGISTERED, &MANIFEST_RECORD);
    }
}

/// The visibility of the generated module's items: as visible as the declared function.
fn inner_visibility(vis: &Visibility) -> TokenStream {
    match vis {
        Visibility::Public(_) => quote!(pub),
        Visibility::Inherited => quote!(pub(super)),
        Visibility::Restricted(r) => {
            let path = &r.path;
            let first = path.segments.first().map(|s| s.ident.to_string());
            match first.as_deref() {
                Some("crate") => quote!(#vis),
                Some("self") if path.segments.len() == 1 => quote!(pub(super)),
                _ => quote!(pub(in super::#path)),
            }
        }
    }
}

/// `const` assertions that each Rust type has the size and alignment of the C type on the target
/// being compiled (the table's figures are for 64-bit targets, where CUDA runs).
fn abi_assertions(checked: &Checked<'_>, typedef_name: &str) -> TokenStream {
    let Some(typedef) = checked.typedef else {
        return TokenStream::new();
    };
    let decl = checked.declaration;
    let mut out = TokenStream::new();
    for (i, (p, param)) in decl.params.iter().zip(typedef.params).enumerate() {
        if param.ty.size == 0 {
            continue;
        }
        let what = format!(
            "parameter {} `{}` of `{typedef_name}` is `{} {}` ({} bytes, align {})",
            i + 1,
            p.name,
            param.ty.spelling,
            param.name,
            param.ty.size,
            param.ty.align
        );
        out.extend(assertion(&p.ty, param.ty.size, param.ty.align, &what));
    }
    if typedef.ret.size != 0 {
        let what = format!(
            "the return type of `{typedef_name}` is `{}` ({} bytes, align {})",
            typedef.ret.spelling, typedef.ret.size, typedef.ret.align
        );
        out.extend(assertion(
            &decl.ret,
            typedef.ret.size,
            typedef.ret.align,
            &what,
        ));
    }
    out
}

fn assertion(ty: &Type, size: u32, align: u32, what: &str) -> TokenStream {
    let span: Span = ty.span();
    let size = size as usize;
    let align = align as usize;
    quote_spanned! {span=>
        #[cfg(target_pointer_width = "64")]
        const _: () = ::cuda_entry::__private::check_abi::<#ty>(#size, #align, #what);
    }
}
