//! The property both targets check. Each target includes `modules.rs` at its root: the macro's
//! own modules, compiled here as plain Rust (a proc-macro crate cannot be linked into a fuzz
//! target).


use std::str::FromStr;

use proc_macro2::TokenStream;

/// Runs the macro on `args` and `item` (when both tokenize) and checks the one property every
/// input must have: no panic, and an output that is well-formed Rust items (the expansion, or
/// compile errors plus stubs).
pub fn check(args: &str, item: &str) {
    let (Ok(args), Ok(item)) = (TokenStream::from_str(args), TokenStream::from_str(item)) else {
        return;
    };
    let output = crate::pipeline::expand(args, item, crate::crate_path::without_manifest);
    if let Err(e) = syn::parse2::<syn::File>(output.clone()) {
        panic!("the expansion is not valid Rust: {e}\n{output}");
    }
}
