//! Parse, validate, expand: the whole macro on `proc_macro2` tokens, so the fuzz targets
//! (macros/fuzz) run exactly what the compiler runs. The rules live in
//! `cuda_entry_table::rules`, shared with the `cuda-entry` command.

use cuda_entry_table::rules::{self, Mistake};
use proc_macro2::{Span, TokenStream};

use crate::crate_path::{self, Paths};
use crate::expand;

/// The expansion of `#[cuda_entry(args)] item`. On any mistake: every mistake as a compile error,
/// in source order, and a stub of every declaration, so call sites show no follow-on errors.
/// Never panics.
pub(crate) fn cuda_entry(args: TokenStream, item: TokenStream) -> TokenStream {
    expand(args, item, crate_path::locate)
}

/// [`cuda_entry`] with `locate` finding the crate of each declaration (the tests and fuzz targets
/// pass `crate_path::without_manifest`).
pub(crate) fn expand(
    args: TokenStream,
    item: TokenStream,
    locate: fn(Option<&syn::Path>) -> Result<Paths, String>,
) -> TokenStream {
    let item = match rules::parse_item(args, item) {
        Ok(item) => item,
        Err(mistake) => return mistake.to_compile_error(),
    };
    // Where the crate is, for each declaration (a block's may name it on each function).
    let mut paths = Vec::new();
    for decl in item.declarations() {
        match locate(decl.args.crate_path.value().map(|c| &c.0)) {
            Ok(found) => paths.push(found),
            // Nothing can name the crate: the one message says how to name it.
            Err(message) => {
                return syn::Error::new(Span::call_site(), message).into_compile_error();
            }
        }
    }
    // Names are the compiler's to resolve (`type u32 = u64;`): the rules read only what no item
    // can shadow, and the expansion's assertions judge every type as it resolves.
    match rules::judged_by_the_compiler(|| item.validate()) {
        Ok(declarations) => declarations
            .iter()
            .zip(&paths)
            .map(|(checked, paths)| expand::declaration(checked, paths))
            .collect(),
        Err(mistakes) => item
            .declarations()
            .zip(&paths)
            .map(|(decl, paths)| expand::stub(decl, paths))
            .chain(mistakes.iter().map(Mistake::to_compile_error))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use crate::crate_path::without_manifest;

    fn cuda_entry(
        args: proc_macro2::TokenStream,
        item: proc_macro2::TokenStream,
    ) -> proc_macro2::TokenStream {
        super::expand(args, item, without_manifest)
    }

    /// The property the fuzz targets check, on inputs that once panicked or might: the output is
    /// always well-formed items.
    #[test]
    fn odd_declarations_expand_to_well_formed_items() {
        let cases = [
            (
                quote!(
                    symbol = "cuMemAlloc",
                    version = 3020,
                    optiona,
                    crlate = l,
                    crate = "try"
                ),
                quote!(
                    pub unsafe extern "C" fn mem_alloc(dptr: *mut u64, bytesize: usize) -> i32;
                ),
            ),
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
            well_formed(args, item);
        }
    }

    /// The fuzz targets' seed corpus (macros/fuzz/corpus), run as the targets run it.
    #[test]
    fn the_fuzz_corpus_expands_to_well_formed_items() {
        let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
        let mut seen = 0;
        for target in ["args", "declaration"] {
            for file in std::fs::read_dir(corpus.join(target)).expect("the corpus") {
                let text = std::fs::read_to_string(file.expect("an entry").path()).expect("text");
                let (args, item) = match target {
                    "args" => (
                        text.as_str(),
                        "pub unsafe extern \"C\" fn mem_alloc(dptr: *mut u64, bytesize: usize) \
                         -> i32;",
                    ),
                    _ => text.split_once('\n').unwrap_or(("", &text)),
                };
                let (Ok(args), Ok(item)) = (args.parse(), item.parse()) else {
                    continue;
                };
                well_formed(args, item);
                seen += 1;
            }
        }
        assert!(seen >= 5, "only {seen} corpus entries tokenize");
    }

    fn well_formed(args: proc_macro2::TokenStream, item: proc_macro2::TokenStream) {
        let output = cuda_entry(args, item);
        if let Err(e) = syn::parse2::<syn::File>(output.clone()) {
            panic!("not valid Rust: {e}\n{output}");
        }
    }
}
