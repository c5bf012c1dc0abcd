//! rustc's FFI lints on the declared signature. The expansion calls the driver through a function
//! pointer type, which `improper_ctypes` does not look at: a declaration would lose the warnings
//! a plain `extern "C"` block gets (a callback with the Rust ABI, an array by value, a struct
//! without `#[repr(C)]`). So the signature is also declared in an `extern` block of its own,
//! never called: rustc lints it at the user's types, as their lint levels say, and an unused
//! foreign function costs nothing (no symbol is referenced, nothing is linked).

use cuda_entry_table::rules::Declaration;
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};

/// `unsafe extern "C" { fn __cuda_entry_lint_NAME(_: T, ..) -> R; }` in a `const` block.
pub(crate) fn signature(decl: &Declaration) -> TokenStream {
    let abi = &decl.abi;
    let name = format_ident!(
        "__cuda_entry_lint_{}",
        decl.ident,
        span = Span::mixed_site()
    );
    let types = decl.params.iter().map(|p| &p.ty);
    let ret = &decl.ret;
    quote! {
        #[allow(dead_code)]
        unsafe #abi {
            // Two declarations of one name in different modules may differ.
            #[allow(clashing_extern_declarations)]
            fn #name(#(_: #types),*) -> #ret;
        }
    }
}
