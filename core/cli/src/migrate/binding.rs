//! A driver function a source binds without cuda-entry, as plain data (text and byte ranges, so
//! that it can leave the parser's thread): an `extern` block's function, a loaded struct's field
//! or a wrapper that loads its export by name.

use std::ops::Range;

use proc_macro2::Span;
use syn::{Attribute, FnArg, Pat, ReturnType, Safety};

use crate::source::linked::link_name;
use crate::source::text::Text;

/// A driver function bound without cuda-entry: an `extern` block's, or one loaded by name.
#[derive(Clone, Debug)]
pub(crate) struct Linked {
    pub(crate) line: usize,
    pub(crate) column: usize,
    /// Its bytes, from its first attribute (or the `//` comment lines right above it, which
    /// belong to it) to its `;`.
    pub(crate) range: Range<usize>,
    /// Those comment lines, as written (without their indentation).
    pub(crate) comments: Vec<String>,
    /// Its name, which call sites use.
    pub(crate) name: String,
    /// The export it links: its `#[link_name]`, or its name.
    pub(crate) export: String,
    /// Its visibility as written (`pub `, `pub(crate) `, or nothing).
    pub(crate) vis: String,
    /// Its attributes but `#[link_name]`, as written (docs, `cfg`, `deprecated`...).
    pub(crate) attrs: Vec<String>,
    /// Whether it is declared `safe fn` (in an `unsafe extern` block).
    pub(crate) safe: bool,
    pub(crate) params: Vec<Param>,
    /// The return type as written; `None` for none.
    pub(crate) ret: Option<String>,
    pub(crate) variadic: bool,
}

/// A parameter: its name (`None` for a `_` or another pattern) and its type as written.
#[derive(Clone, Debug)]
pub(crate) struct Param {
    pub(crate) name: Option<String>,
    pub(crate) ty: String,
}

/// A driver function declared by `attrs`, `vis` and `sig` (an extern item's, or a function's
/// that loads `export` by name), spanning `span`.
pub(crate) fn linked_of(
    text: &Text<'_>,
    attrs: &[Attribute],
    vis: &syn::Visibility,
    sig: &syn::Signature,
    span: Span,
    export: String,
) -> Linked {
    let at = sig.ident.span().start();
    let params = sig
        .inputs
        .iter()
        .filter_map(|input| match input {
            FnArg::Typed(pt) => Some(Param {
                name: match &*pt.pat {
                    Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => {
                        Some(p.ident.to_string())
                    }
                    _ => None,
                },
                ty: text.of(&pt.ty),
            }),
            FnArg::Receiver(_) => None,
        })
        .collect();
    let range = text.range(span);
    let (start, comments) = text.comments_above(range.start);
    Linked {
        line: at.line,
        column: at.column + 1,
        range: start..range.end,
        comments,
        name: sig.ident.to_string(),
        export,
        vis: match vis {
            syn::Visibility::Inherited => String::new(),
            vis => format!("{} ", text.of(vis)),
        },
        attrs: attrs
            .iter()
            .filter(|a| link_name(a).is_none())
            .map(|a| text.of(a))
            .collect(),
        safe: matches!(sig.safety, Safety::Safe(_)),
        params,
        ret: match &sig.output {
            ReturnType::Default => None,
            ReturnType::Type(_, ty) => Some(text.of(ty)),
        },
        variadic: sig.variadic.is_some(),
    }
}
