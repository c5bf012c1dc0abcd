//! The `#[cuda_entry]` attribute. Use it through the `cuda-entry` crate, which re-exports it and
//! documents it; this crate is its implementation: the rules of `cuda_entry_table::rules` (parse,
//! validate), then `expand`.

use proc_macro::TokenStream;

mod by_value;
mod callback;
mod cargo_toml;
mod crate_path;
mod expand;
mod from_driver;
mod lint;
mod pipeline;
mod probes;
mod scope;
mod shape;
#[cfg(test)]
mod snapshots;
mod text;
#[cfg(test)]
mod toml_reference;

/// Declares CUDA driver entry points resolved through `cuGetProcAddress` at the exact typedef
/// version. See the `cuda-entry` crate for the documentation.
#[proc_macro_attribute]
pub fn cuda_entry(args: TokenStream, item: TokenStream) -> TokenStream {
    if let Some(error) = misplaced() {
        return error;
    }
    pipeline::cuda_entry(args.into(), item.into()).into()
}

/// One error where the attribute is written in an `impl` block or a `trait` (`scope`): the
/// expansion cannot be there, and rustc's errors for it would not say where it can.
fn misplaced() -> Option<TokenStream> {
    let at = proc_macro::Span::call_site();
    let block = scope::enclosing(&at.local_file()?, at.line(), at.column())?;
    let (place, what) = match block {
        scope::Block::Impl => ("an `impl` block", "a method"),
        scope::Block::Trait => ("a `trait`", "a provided method"),
    };
    let message = format!(
        "`#[cuda_entry]` expands to items of a module (a function, and a module of the same \
         name with its `pointer()` and its statics), which cannot be in {place}: move the \
         declaration out, to the module around it, and call it from {what}"
    );
    Some(
        syn::Error::new(proc_macro2::Span::call_site(), message)
            .into_compile_error()
            .into(),
    )
}

/// Proves that a `#[repr(C)]` or `#[repr(transparent)]` struct or union holds every value the
/// driver may store: implements `cuda_entry::FromDriver` when every field's type does. See the
/// `cuda-entry` crate for the documentation.
#[proc_macro_derive(FromDriver, attributes(from_driver))]
pub fn derive_from_driver(input: TokenStream) -> TokenStream {
    from_driver::derive(input.into()).into()
}

/// Proves how a `#[repr(C)]` struct or union, a `#[repr(transparent)]` struct or a field-less
/// enum with a C or integer `#[repr]` is passed by value: implements `cuda_entry::ByValue` from
/// its fields' classes. See the `cuda-entry` crate for the documentation.
#[proc_macro_derive(ByValue, attributes(by_value))]
pub fn derive_by_value(input: TokenStream) -> TokenStream {
    by_value::derive(input.into()).into()
}
