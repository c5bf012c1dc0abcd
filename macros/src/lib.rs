//! The `#[cuda_entry]` attribute. Use it through the `cuda-entry` crate, which re-exports it and
//! documents it; this crate is its implementation: `parse` -> `validate` -> `expand`.

use proc_macro::TokenStream;

mod expand;
mod parse;
mod validate;

/// Declares CUDA driver entry points resolved through `cuGetProcAddress` at the exact typedef
/// version. See the `cuda-entry` crate for the documentation.
#[proc_macro_attribute]
pub fn cuda_entry(args: TokenStream, item: TokenStream) -> TokenStream {
    entry(args.into(), item.into()).into()
}

/// Parse, validate, expand; on any mistake, the compile errors plus a stub of every declaration,
/// so call sites show no follow-on errors.
fn entry(
    args: proc_macro2::TokenStream,
    item: proc_macro2::TokenStream,
) -> proc_macro2::TokenStream {
    let mut errors = parse::Errors::default();
    let Some(input) = parse::input(args, item, &mut errors) else {
        return errors
            .take()
            .map(|e| e.into_compile_error())
            .unwrap_or_default();
    };
    let mut expanded = Vec::new();
    for decl in &input.decls {
        let mut own = parse::Errors::default();
        let params = parse::params(&decl.sig, &mut own);
        let ret = parse::return_type(&decl.sig);
        let checked = validate::validate(decl, &params, &ret, &mut own);
        let ok = own.is_empty() && errors.is_empty();
        expanded.push(expand::declaration(decl, &params, &ret, &checked, ok));
        if let Some(e) = own.take() {
            errors.push(e);
        }
    }
    let mut out: proc_macro2::TokenStream = expanded.into_iter().collect();
    if let Some(e) = errors.take() {
        out.extend(e.into_compile_error());
    }
    out
}
