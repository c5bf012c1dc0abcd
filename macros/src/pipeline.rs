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
