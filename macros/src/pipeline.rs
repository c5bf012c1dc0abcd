//! Parse, validate, expand: the whole macro on `proc_macro2` tokens, so the fuzz targets
//! (macros/fuzz) run exactly what the compiler runs.

use proc_macro2::TokenStream;

use crate::{expand, parse, validate};

/// The expansion of `#[cuda_entry(args)] item`. On any mistake: the compile errors plus a stub of
/// every declaration, so call sites show no follow-on errors. Never panics.
pub(crate) fn cuda_entry(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = parse::Errors::default();
    let Some(input) = parse::input(args, item, &mut errors) else {
        return errors
            .take()
            .map(syn::Error::into_compile_error)
            .unwrap_or_default();
    };
    let mut expanded = TokenStream::new();
    for decl in &input.decls {
        let mut own = parse::Errors::default();
        let params = parse::params(&decl.sig, &mut own);
        let ret = parse::return_type(&decl.sig, &mut own);
        let checked = validate::validate(decl, &params, &ret, &mut own);
        let ok = own.is_empty() && errors.is_empty();
        expanded.extend(expand::declaration(decl, &params, &ret, &checked, ok));
        if let Some(e) = own.take() {
            errors.push(e);
        }
    }
    if let Some(e) = errors.take() {
        expanded.extend(e.into_compile_error());
    }
    expanded
}
