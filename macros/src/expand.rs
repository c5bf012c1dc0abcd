//! Expansion: each declaration becomes a function returning `Result` and a module of the same
//! name holding its entry `static`, typed pointer, availability query, metadata and the const
//! assertions of its ABI.

use std::ffi::CString;

use proc_macro2::{Literal, Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Attribute, Ident, Type, Visibility};

use crate::parse::{Decl, StreamArg};
use crate::validate::Checked;

/// Expands one declaration. `assertions`: whether to emit the size/alignment checks (not after a
/// reported error, where they would only add noise).
pub(crate) fn declaration(
    decl: &Decl,
    params: &[(Ident, Type)],
    ret: &Type,
    checked: &Checked,
    assertions: bool,
) -> TokenStream {
    let name = &decl.sig.ident;
    let vis = &decl.vis;
    let abi = &decl.abi;
    let inner_vis = inner_visibility(vis);
    let cfgs: Vec<&Attribute> = decl
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("cfg") || a.path().is_ident("cfg_attr"))
        .collect();
    let attrs = &decl.attrs;
    let names: Vec<&Ident> = params.iter().map(|(n, _)| n).collect();
    let types: Vec<&Type> = params.iter().map(|(_, t)| t).collect();
    // The function pointer type is written where the user's types are in scope (the module holds
    // no glob import of its parent: with one per declaration, name resolution grows quadratic).
    let pfn_alias = Ident::new(&format!("__cuda_entry_pfn_{name}"), name.span());

    let symbol = &checked.symbol;
    // A symbol with a NUL was rejected; the placeholder keeps the expansion well-formed.
    let symbol_c = Literal::c_string(&CString::new(symbol.as_str()).unwrap_or_default());
    let version = checked.version;
    let stream = match checked.stream {
        StreamArg::Legacy => quote!(::cuda_entry::__private::Stream::Legacy),
        StreamArg::PerThread => quote!(::cuda_entry::__private::Stream::PerThread),
    };
    let typedef_name = match checked.typedef {
        Some(t) => t.typedef_name(),
        // Not in the table: name the typedef the declaration claims, saying it is unchecked.
        None => format!(
            "PFN_{symbol}_v{version}{} (unverified)",
            if checked.stream == StreamArg::PerThread {
                "_ptsz or _ptds"
            } else {
                ""
            }
        ),
    };
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
    let entry = if checked.runtime {
        quote!(#entry.through(::cuda_entry::__private::Resolver::Runtime))
    } else {
        entry
    };
    let registration = registration(checked);
    // Locals of the generated body, hygienic so a parameter named `pfn` or `error` is not shadowed.
    let pfn = Ident::new("pfn", Span::mixed_site());
    let error = Ident::new("error", Span::mixed_site());
    let checks = if assertions {
        abi_assertions(&typedef_name, params, ret, checked)
    } else {
        TokenStream::new()
    };
    let fn_doc = format!(
        " # Errors\n\n The driver entry's [`cuda_entry::Error`] when `{symbol}` at version \
         {version} cannot be resolved (resolved once, then cached).\n\n # Safety\n\n The \
         contract of the driver function `{symbol}` (`{typedef_name}`): valid pointers and \
         handles, as the CUDA driver API documentation states."
    );
    let mod_doc = format!(
        " The driver entry behind `{name}()`: `{symbol}` at version {version} (`{typedef_name}`)."
    );
    quote! {
        #(#attrs)*
        #[doc = ""]
        #[doc = #fn_doc]
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

        #(#cfgs)*
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        #vis type #pfn_alias = unsafe #abi fn(#(#types),*) -> #ret;

        #(#cfgs)*
        const _: () = { #checks };

        #(#cfgs)*
        #[doc = #mod_doc]
        #[allow(dead_code, non_snake_case, clippy::module_name_repetitions)]
        #vis mod #name {
            /// The function pointer type, the signature of the typedef.
            #inner_vis type Pfn = super::#pfn_alias;
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

            #registration
        }
    }
}

/// The entry's link-time registration and its manifest record (core/src/registry.rs).
fn registration(checked: &Checked) -> TokenStream {
    let symbol = &checked.symbol;
    // The declaring package, as cargo tells the compiler of the crate being expanded.
    let package = std::env::var("CARGO_PKG_NAME").unwrap_or_default();
    let len = 16 + symbol.len() + package.len();
    let version = checked.version;
    let twin = checked.twin.map_or(0, |t| t.version);
    let stream: u8 = match (checked.stream_written, checked.stream) {
        (false, _) => 0,
        (true, StreamArg::Legacy) => 1,
        (true, StreamArg::PerThread) => 2,
    };
    let resolver: u8 = if checked.runtime { 2 } else { 1 };
    let unverified = checked.typedef.is_none();
    quote! {
        #[::cuda_entry::__private::linkme::distributed_slice(::cuda_entry::__private::ENTRIES)]
        #[linkme(crate = ::cuda_entry::__private::linkme)]
        static REGISTERED: &::cuda_entry::__private::Entry = &ENTRY;

        ::cuda_entry::__private::manifest_record!(
            #len, #symbol, #package, #version, #twin, #stream, #resolver, #unverified
        );
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
fn abi_assertions(
    typedef_name: &str,
    params: &[(Ident, Type)],
    ret: &Type,
    checked: &Checked,
) -> TokenStream {
    let Some(typedef) = checked.typedef else {
        return TokenStream::new();
    };
    let mut out = TokenStream::new();
    for (i, ((ident, ty), param)) in params.iter().zip(typedef.params).enumerate() {
        if param.ty.size == 0 {
            continue;
        }
        let what = format!(
            "parameter {} `{ident}` of `{typedef_name}` is `{} {}` ({} bytes, align {})",
            i + 1,
            param.ty.spelling,
            param.name,
            param.ty.size,
            param.ty.align
        );
        out.extend(assertion(ty, param.ty.size, param.ty.align, &what));
    }
    if typedef.ret.size != 0 {
        let what = format!(
            "the return type of `{typedef_name}` is `{}` ({} bytes, align {})",
            typedef.ret.spelling, typedef.ret.size, typedef.ret.align
        );
        out.extend(assertion(ret, typedef.ret.size, typedef.ret.align, &what));
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
