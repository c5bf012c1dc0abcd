//! Parse, validate, expand: the whole macro on `proc_macro2` tokens, so the fuzz targets
//! (macros/fuzz) run exactly what the compiler runs. The rules live in
//! `cuda_entry_table::rules`, shared with the `cuda-entry` command.

use cuda_entry_table::rules::{self, Mistake};
use proc_macro2::TokenStream;

use crate::expand;

/// The expansion of `#[cuda_entry(args)] item`. On any mistake: every mistake as a compile error,
/// in source order, and a stub of every declaration, so call sites show no follow-on errors.
/// Never panics.
pub(crate) fn cuda_entry(args: TokenStream, item: TokenStream) -> TokenStream {
    let item = match rules::parse_item(args, item) {
        Ok(item) => item,
        Err(mistake) => return mistake.to_compile_error(),
    };
    match item.validate() {
        Ok(declarations) => declarations.iter().map(expand::declaration).collect(),
        Err(mistakes) => item
            .declarations()
            .map(expand::stub)
            .chain(mistakes.iter().map(Mistake::to_compile_error))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::cuda_entry;

    /// The property the fuzz targets check, on inputs that once panicked or might: the output is
    /// always well-formed items.
    #[test]
    fn odd_declarations_expand_to_well_formed_items() {
        let cases = [
            (
                quote!(symbol = "cuMemFree", version = 3020),
                quote!(
                    unsafe extern "C" fn r#type(dptr: u64) -> i32;
                ),
            ),
            (
                quote!(symbol = "cuMemFree", version = CUDA_VERSION),
                quote!(
                    unsafe extern "C" fn r#type(&self, _: impl Copy, ...) -> !;
                ),
            ),
            (
                quote!(symbol =),
                quote!(
                    struct NotAFunction;
                ),
            ),
            (
                quote!(),
                quote!(
                    extern "C" {
                        static X: u8;
                        fn f();
                        #[cuda_entry(x)]
                        safe fn g();
                    }
                ),
            ),
        ];
        for (args, item) in cases {
            let output = cuda_entry(args, item);
            if let Err(e) = syn::parse2::<syn::File>(output.clone()) {
                panic!("not valid Rust: {e}\n{output}");
            }
        }
    }
}
