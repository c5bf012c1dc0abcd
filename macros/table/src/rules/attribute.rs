//! Which attributes are `#[cuda_entry(...)]`. A proc macro does not see the name it was invoked
//! by, so an attribute imported under another name (`use cuda_entry::cuda_entry as driver_fn;`)
//! is recognised by what it says: an attribute is ours when its path ends in `cuda_entry`, when
//! its arguments are ours (`name` or `name = value`, every name one of this attribute's, `symbol`
//! or `version` among them), or, in a block, when it has the path of another function's attribute
//! recognised so.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::{Attribute, ForeignItem, Meta};

use super::arguments::{are_entry_arguments, ends, only_crate};
use super::mistake::{Found, Mistake, MistakeKind, place};

/// Attributes that are the language's own, never ours whatever their arguments.
const BUILTIN: [&str; 6] = ["cfg", "cfg_attr", "doc", "deprecated", "link", "link_name"];

/// Whether `attr` is `#[cuda_entry...]` by name (any path ending in `cuda_entry`).
pub fn is_cuda_entry(attr: &Attribute) -> bool {
    attr.path()
        .segments
        .last()
        .is_some_and(|s| s.ident == "cuda_entry")
}

/// Whether `attr` is a `#[cuda_entry(...)]` declaration attribute, by name or, under any name, by
/// its arguments (`#[driver_fn(symbol = "cuMemFree", version = 3020)]`).
pub fn is_entry_attribute(attr: &Attribute) -> bool {
    is_cuda_entry(attr)
        || match &attr.meta {
            Meta::List(list) => {
                !BUILTIN.iter().any(|b| attr.path().is_ident(b))
                    && are_entry_arguments(list.tokens.clone())
            }
            _ => false,
        }
}

fn path_text(attr: &Attribute) -> String {
    attr.path().to_token_stream().to_string()
}

/// The recognition rule of one item: [`is_entry_attribute`], and in a block also the paths of the
/// attributes recognised so on its other functions.
#[derive(Default)]
pub(crate) struct Recognised {
    paths: Vec<String>,
}

impl Recognised {
    /// For the functions of a block.
    pub(crate) fn in_block(items: &[ForeignItem]) -> Recognised {
        let paths = items
            .iter()
            .filter_map(|item| match item {
                ForeignItem::Fn(f) => Some(&f.attrs),
                _ => None,
            })
            .flatten()
            .filter(|a| is_entry_attribute(a))
            .map(path_text)
            .collect();
        Recognised { paths }
    }

    /// Whether `attr` is ours.
    pub(crate) fn is_entry(&self, attr: &Attribute) -> bool {
        is_entry_attribute(attr) || self.paths.contains(&path_text(attr))
    }

    /// Whether `attr` can be the block's own attribute: `#[cuda_entry]` by name, or an attribute
    /// without arguments (or with `crate = ...` alone) under the path its functions' use.
    pub(crate) fn is_block_attribute(&self, attr: &Attribute) -> bool {
        let bare = match &attr.meta {
            Meta::Path(_) => true,
            Meta::List(list) => only_crate(list.tokens.clone()),
            Meta::NameValue(_) => false,
        };
        is_cuda_entry(attr) || (bare && self.paths.contains(&path_text(attr)))
    }

    /// The first attribute of `attrs` that is ours, and the attributes without it.
    pub(crate) fn take(&self, attrs: &[Attribute]) -> Option<(Attribute, Vec<Attribute>)> {
        let at = attrs.iter().position(|a| self.is_entry(a))?;
        let mut rest = attrs.to_vec();
        let attr = rest.remove(at);
        Some((attr, rest))
    }

    /// The first `#[cfg_attr(predicate, ...)]` of `attrs` that holds an attribute of ours, and the
    /// attributes without it. Inside a block the attribute cannot be conditional: the block's
    /// macro expands the declarations before any `cfg_attr` is.
    pub(crate) fn take_conditional(
        &self,
        attrs: &[Attribute],
    ) -> Option<(Attribute, Vec<Attribute>)> {
        let holds_ours = |attr: &Attribute| {
            if !attr.path().is_ident("cfg_attr") {
                return false;
            }
            let parser = syn::punctuated::Punctuated::<Meta, syn::Token![,]>::parse_terminated;
            let Ok(metas) = attr.parse_args_with(parser) else {
                return false;
            };
            metas.iter().skip(1).any(|meta| {
                let inner: Attribute = syn::parse_quote!(#[#meta]);
                self.is_entry(&inner)
            })
        };
        let at = attrs.iter().position(holds_ours)?;
        let mut rest = attrs.to_vec();
        let attr = rest.remove(at);
        Some((attr, rest))
    }

    /// `attrs` without the attributes that are ours, each of which is a duplicate (the first was
    /// taken already).
    pub(crate) fn duplicates(&self, attrs: Vec<Attribute>, found: &mut Found) -> Vec<Attribute> {
        let (duplicates, attrs): (Vec<Attribute>, Vec<Attribute>) =
            attrs.into_iter().partition(|a| self.is_entry(a));
        for attr in duplicates {
            found.push(
                place::ATTRIBUTE,
                Mistake::new(
                    MistakeKind::DuplicateAttribute,
                    &attr,
                    "duplicate `#[cuda_entry(...)]`: give it once",
                ),
            );
        }
        attrs
    }
}

/// An argument list and where a missing argument is reported when it is empty.
pub(crate) struct Args {
    pub(crate) tokens: TokenStream,
    pub(crate) empty: (Span, Span),
}

/// The arguments of a `#[cuda_entry...]` attribute (none for `#[cuda_entry]`).
pub(crate) fn arguments_of(attr: &Attribute) -> Args {
    let empty = ends(attr).unwrap_or((attr.span(), attr.span()));
    let tokens = match &attr.meta {
        Meta::List(list) => list.tokens.clone(),
        Meta::Path(_) => TokenStream::new(),
        // `#[cuda_entry = ...]`: rustc rejects it before a macro runs; here it does not parse.
        Meta::NameValue(nv) => {
            let value = &nv.value;
            quote::quote!(= #value)
        }
    };
    Args { tokens, empty }
}
