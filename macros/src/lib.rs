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
    pipeline::cuda_entry(args.into(), item.into()).into()
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
