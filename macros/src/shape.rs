//! What the expansion and the stub share: the function, the impl that gives the module its
//! pointer type, the `cfg`s that the items beside the function repeat, the module items'
//! visibility.
//!
//! The pointer type is written where the declaration is, so its types resolve there, in a module
//! or in a function body alike (a module nested in a block cannot name the block's items by path,
//! and a glob import of the parent per declaration makes name resolution quadratic). The module
//! declares a trait, `Signature`, and the expansion implements it beside the function; the
//! module's `Pfn` is the impl's type. The impl's `LINK` names the function, so that using the
//! module (`name::pointer()`) counts as using the declaration and an unused one gets its
//! `dead_code` warning; the function's first and last tokens carry the declaration's span for
//! rustc to report it, as it reports nothing inside an expansion.

use cuda_entry_table::rules::{Declaration, tokens_text};
use proc_macro2::{Delimiter, Group, Literal, Span, TokenStream, TokenTree};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Abi, Attribute, Ident, Type, Visibility};

use crate::crate_path::Paths;
use crate::text::{PathCode, Text};

/// How a function whose C return type is `CUresult` reports the driver's status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    /// Through `name::ENTRY`: `Ok(())` for `CUDA_SUCCESS`, else the status as an `Error`.
    Checked,
    /// A rejected declaration's stub: the same return type, a body that never runs.
    Stub,
}

pub(crate) struct Shape {
    pub(crate) function: TokenStream,
    /// `impl name::Signature for ()`.
    pub(crate) signature: TokenStream,
    /// The module's `Signature` trait and `Pfn`, as text the module's other items follow.
    pub(crate) module_items: Text,
    pub(crate) cfgs: Vec<Attribute>,
    pub(crate) inner_vis: PathCode,
}

/// The function's documentation beyond the user's: where the generated `# Errors` and `# Safety`
/// go, and the pointer type's.
pub(crate) struct Docs {
    /// `# Errors` and `# Safety`, added after the user's docs when there are any.
    pub(crate) function: String,
    /// `Pfn`'s.
    pub(crate) pfn: String,
}

impl Shape {
    /// `status`: the function returns `Result<(), Error>` with the driver's status checked, the
    /// entry being `name::ENTRY` (`None` in a stub, whose body never runs).
    pub(crate) fn new(
        decl: &Declaration,
        (types, stub_params): (&[&Type], Option<&[&Type]>),
        ret: &Type,
        abi: &Abi,
        docs: Option<Docs>,
        status: Option<Status>,
        paths: &Paths,
    ) -> Shape {
        let (name, vis, attrs) = (&decl.ident, &decl.vis, &decl.attrs);
        let names: Vec<&Ident> = decl.params.iter().map(|p| &p.name).collect();
        let cfgs: Vec<Attribute> = attrs.iter().filter_map(configuration).collect();
        let private = paths.private();
        // Locals of the generated body, hygienic so a parameter named `pfn` or `error` is not
        // shadowed.
        let pfn = Ident::new("pfn", Span::mixed_site());
        let error = Ident::new("error", Span::mixed_site());
        let call = match status {
            Some(Status::Checked) => quote! {
                // SAFETY: `Status` is the signature checked against the typedef, with the C
                // return type, `int`; the caller upholds the driver function's contract.
                unsafe { #private::transmute::<_, <() as #name::Signature>::Status>(#pfn)(#(#names),*) }
            },
            _ => quote! {
                // SAFETY: the pointer has the signature checked against the typedef; the caller
                // upholds the driver function's contract.
                unsafe { #pfn(#(#names),*) }
            },
        };
        let answer = match status {
            None => quote!(#private::Result::Ok(#call)),
            // One compare and a branch not taken more than the raw call.
            Some(Status::Checked) => quote!(#private::checked_status(#call, &#name::ENTRY)),
            Some(Status::Stub) => quote! {{
                let _ = #call;
                #private::Result::Ok(())
            }},
        };
        // A checked call reads the status as the C `int` it is, whatever type was declared for
        // it: a status the declared type cannot hold is an error, never an invalid value.
        let pointer = match status {
            // The resolution is the same non-generic function for every declaration; only the
            // transmute to this signature's pointer type is the declaration's own.
            Some(Status::Checked) => quote!(#name::ENTRY.resolve()),
            _ => quote!(#name::pointer()),
        };
        // A stub whose declared types were not all C types takes whatever a call passes there (no
        // follow-on error at call sites): a generic function, which nothing else names.
        let params = stub_params.unwrap_or(types);
        let link = match stub_params {
            Some(_) => quote!(()),
            None => quote!({ let _ = #name; }),
        };
        let dead = stub_params.map(|_| quote!(#[allow(dead_code)]));
        let mut body = Group::new(
            Delimiter::Brace,
            match stub_params {
                Some(_) => quote! {
                    let _ = (#(#names,)*);
                    #private::never()
                },
                None => quote! {
                    match #pointer {
                        #private::Result::Ok(#pfn) => #answer,
                        #private::Result::Err(#error) => #private::Result::Err(#error),
                    }
                },
            },
        );
        // The declaration's span on the item's first and last tokens, and on the signature's
        // (those of the return type): rustc's `dead_code` and `missing_docs` speak of an item only
        // when it is the user's, and point at its signature.
        body.set_span(name.span());
        let unsafe_fn = quote_spanned!(name.span()=> unsafe fn);
        // Only the closing `>`: a path of the user's would be linted as theirs
        // (`unused_qualifications` on `cuda_entry::__private::Result`).
        let close = respan(quote!(>), name.span());
        let returns = match status {
            None => quote!(#private::Result<#ret, #private::Error #close),
            Some(_) => quote!(#private::Result<(), #private::Error #close),
        };
        let documented = attrs.iter().any(is_doc_comment);
        let (pfn_doc, docs) = match docs {
            // At the declaration, so that clippy reads the sections as the user's docs.
            Some(Docs { function, pfn }) if documented => {
                let mut function = Literal::string(&function);
                function.set_span(name.span());
                (
                    pfn,
                    quote_spanned!(name.span()=> #[doc = ""] #[doc = #function]),
                )
            }
            Some(Docs { pfn, .. }) => (
                pfn,
                // Undocumented: `missing_docs` says so, as for a plain function; clippy's demand
                // for the sections would come on top of it.
                quote!(#[allow(clippy::missing_errors_doc, clippy::missing_safety_doc)]),
            ),
            None => (String::new(), TokenStream::new()),
        };
        // The user's own `#[inline(...)]` wins (`#[inline(never)]` for a cold path).
        let inline =
            (!attrs.iter().any(|a| a.path().is_ident("inline"))).then(|| quote!(#[inline]));
        let function = quote! {
            #(#attrs)*
            #docs
            #inline
            #[allow(clippy::too_many_arguments)] // the C signature's arity is not ours to change
            #dead
            #vis #unsafe_fn #name(#(#names: #params),*) -> #returns
            #body
        };
        let signature = quote! {
            #(#cfgs)*
            #[allow(deprecated)]
            impl #name::Signature for () {
                type Pfn = unsafe #abi fn(#(#names: #types),*) -> #ret;
                type Status = unsafe #abi fn(#(#names: #types),*) -> #private::c_int;
                const LINK: () = #link;
            }
        };
        let inner_vis = inner_visibility(vis);
        let mut module_items = Text::new();
        module_items.code(concat!(
            "#[doc = r\" The pointer type's definition, written where the declaration is.\"]\n",
            "#[doc(hidden)]\n"
        ));
        module_items.path(&inner_vis).code(concat!(
            " trait Signature {\n",
            "#[doc = r\" The function pointer type.\"]\ntype Pfn: Copy;\n",
            "#[doc = r\" The function pointer type with the C status type, `int`, as its return ",
            "type.\"]\ntype Status: Copy;\n",
            "#[doc = r\" Names the declared function.\"]\nconst LINK: ();\n}\n"
        ));
        if !pfn_doc.is_empty() {
            module_items.code("#[doc = ").str(&pfn_doc).code("]\n");
        }
        module_items
            .path(&inner_vis)
            .code(" type Pfn = <() as Signature>::Pfn;\n");
        Shape {
            function,
            signature,
            module_items,
            cfgs,
            inner_vis,
        }
    }
}

/// What of `attr` decides whether the declaration exists, for the items generated beside the
/// function: a `#[cfg(...)]` as it is; of a `#[cfg_attr(predicate, attrs...)]`, only the `cfg`s
/// (and nested `cfg_attr`s holding one) among its attributes, under the same predicate, since the
/// others (`inline`, `deprecated`, `doc`) are the function's and would be refused, or warn, on an
/// impl, a constant or a module; `None` when nothing is left.
fn configuration(attr: &Attribute) -> Option<Attribute> {
    if attr.path().is_ident("cfg") {
        return Some(attr.clone());
    }
    if !attr.path().is_ident("cfg_attr") {
        return None;
    }
    let parser = syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated;
    // rustc reports a malformed `cfg_attr` at the function, which keeps it.
    let metas = attr.parse_args_with(parser).ok()?;
    let mut metas = metas.into_iter();
    let predicate = metas.next()?;
    let kept: Vec<syn::Meta> = metas
        .filter(|meta| {
            let inner: Attribute = syn::parse_quote!(#[#meta]);
            configuration(&inner).is_some()
        })
        .map(|meta| {
            let inner: Attribute = syn::parse_quote!(#[#meta]);
            configuration(&inner).map_or(meta, |a| a.meta)
        })
        .collect();
    if kept.is_empty() {
        return None;
    }
    let mut configured: Attribute = syn::parse_quote!(#[cfg_attr(#predicate, #(#kept),*)]);
    configured.pound_token = attr.pound_token;
    Some(configured)
}

/// Whether `attr` is a doc comment (`///`, `#[doc = "..."]`), not `#[doc(hidden)]` or an alias.
fn is_doc_comment(attr: &Attribute) -> bool {
    matches!(&attr.meta, syn::Meta::NameValue(nv) if nv.path.is_ident("doc"))
}

/// The signature as code text for the docs: `unsafe extern "C" fn(dptr: *mut CUdeviceptr, n:
/// usize) -> CUresult`, spaced as rustfmt would.
pub(crate) fn signature_text(abi: &Abi, decl: &Declaration) -> String {
    let params = decl.params.iter().map(|p| {
        let (name, ty) = (&p.name, &p.ty);
        quote!(#name: #ty)
    });
    let ret = &decl.ret;
    tokens_text(quote!(unsafe #abi fn(#(#params),*) -> #ret))
}

/// The visibility of the generated module's items: as visible as the declared function. A
/// path the user wrote keeps its tokens.
fn inner_visibility(vis: &Visibility) -> PathCode {
    let text = |text: &str| PathCode::Text(text.to_owned());
    match vis {
        Visibility::Public(_) => text("pub"),
        Visibility::Inherited => text("pub(super)"),
        Visibility::Restricted(r) => {
            let path = &r.path;
            let first = path.segments.first().map(|s| s.ident.to_string());
            match first.as_deref() {
                Some("crate") if path.segments.len() == 1 => text("pub(crate)"),
                Some("crate") => PathCode::Tokens(vis.to_token_stream()),
                Some("self") if path.segments.len() == 1 => text("pub(super)"),
                _ => PathCode::Tokens(quote!(pub(in super::#path))),
            }
        }
    }
}

/// `tokens` at `span`, resolved as there too: but `$crate`, which names the crate of the
/// `macro_rules!` that wrote it by its own span's resolution, only moves.
pub(crate) fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            match &token {
                TokenTree::Group(g) => {
                    let mut group = Group::new(g.delimiter(), respan(g.stream(), span));
                    group.set_span(span);
                    return TokenTree::Group(group);
                }
                TokenTree::Ident(i) if i == "$crate" => token.set_span(i.span().located_at(span)),
                _ => token.set_span(span),
            }
            token
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use cuda_entry_table::rules::parse_item;
    use quote::quote;

    use super::signature_text;

    #[test]
    fn signatures_read_as_written() {
        let cases = [
            (
                quote!(
                    unsafe extern "C" fn f(dptr: *mut CUdeviceptr, n: usize) -> CUresult;
                ),
                r#"unsafe extern "C" fn(dptr: *mut CUdeviceptr, n: usize) -> CUresult"#,
            ),
            (
                quote!(
                    unsafe extern "system" fn f(
                        x: Option<&mut *const ::std::ffi::c_void>,
                        y: [u8; 4],
                    );
                ),
                r#"unsafe extern "system" fn(x: Option<&mut *const ::std::ffi::c_void>, y: [u8; 4]) -> ()"#,
            ),
        ];
        for (item, expected) in cases {
            let item = parse_item(quote!(), item).expect("a declaration");
            let decl = item.declarations().next().expect("one");
            assert_eq!(signature_text(&decl.abi, decl), expected);
        }
    }
}

/// The first and last token of a declared type: a call whose path is at the first and whose
/// parentheses are at the last is reported over the whole type (a span cannot be joined on
/// stable, so rustc joins the expression's ends).
#[derive(Clone, Copy)]
pub(crate) struct At {
    pub(crate) first: Span,
    last: Span,
}

impl At {
    pub(crate) fn of(ty: &Type) -> At {
        let mut tokens = ty.to_token_stream().into_iter();
        let first = tokens.next().map_or_else(|| ty.span(), |t| t.span());
        let last = tokens.last().map_or(first, |t| t.span());
        At { first, last }
    }

    /// `function(args);`, the call spanning the type: the checks are `#[track_caller]`, so a
    /// failure points at it. `function`, and the arguments that name the type, are made at
    /// [`At::first`] (`quote_spanned!`: the declared type's own tokens keep their spans, which are
    /// the type's); the rest (literals, the expected layouts) can fail nothing and keep theirs.
    pub(crate) fn call(self, function: TokenStream, args: TokenStream) -> TokenStream {
        let mut group = Group::new(Delimiter::Parenthesis, args);
        group.set_span(self.last);
        quote_spanned!(self.first=> #function #group;)
    }
}
