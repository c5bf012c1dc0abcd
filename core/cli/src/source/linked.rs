//! The driver functions of a linked `extern` block: those a source binds against libcuda at link
//! time rather than through `#[cuda_entry]`, named by their export (`cuMemAlloc_v2`). `check`
//! notes them, `migrate` rewrites them.

use cuda_entry_table::rules::is_cuda_entry;
use syn::{Attribute, Expr, ForeignItem, ForeignItemFn, ItemForeignMod};

/// Whether `name` is a driver function's: `cu` and an uppercase letter (the runtime's are
/// `cuda...`).
pub(crate) fn is_driver_name(name: &str) -> bool {
    name.strip_prefix("cu")
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
}

/// The export a foreign function links: its `#[link_name = "..."]`, or its name.
pub(crate) fn export_of(f: &ForeignItemFn) -> String {
    f.attrs
        .iter()
        .find_map(link_name)
        .unwrap_or_else(|| f.sig.ident.to_string())
}

/// The export a `#[link_name = "..."]` attribute names.
pub(crate) fn link_name(attr: &Attribute) -> Option<String> {
    let syn::Meta::NameValue(nv) = &attr.meta else {
        return None;
    };
    if !nv.path.is_ident("link_name") {
        return None;
    }
    match &nv.value {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(s.value()),
        _ => None,
    }
}

/// The driver functions of an `extern` block that is no `#[cuda_entry]` one, with their export;
/// functions carrying `#[cuda_entry(...)]` are declarations (misplaced), not bindings.
pub(crate) fn linked(block: &ItemForeignMod) -> Vec<(&ForeignItemFn, String)> {
    if block.attrs.iter().any(is_cuda_entry) {
        return Vec::new();
    }
    block
        .items
        .iter()
        .filter_map(|item| match item {
            ForeignItem::Fn(f) if !f.attrs.iter().any(is_cuda_entry) => {
                let export = export_of(f);
                is_driver_name(&export).then_some((f, export))
            }
            _ => None,
        })
        .collect()
}
