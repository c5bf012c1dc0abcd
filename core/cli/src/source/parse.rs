//! Parsing a Rust source as syn's `parse_file` does, within a nesting bound: the source is
//! measured first ([`tokens`]: so that syn's recursive parser cannot overflow its stack), then
//! parsed on a thread of its own with a [`PARSE_STACK`] stack. `check` and `migrate` both parse
//! through [`parse`].

use std::path::Path;

use proc_macro2::TokenStream;

use super::tokens::{self, NESTING_LIMIT};
use crate::shown;

/// The parser thread's stack: 256 MiB of address space, of which a source at the nesting limit
/// uses under 16 MiB in a debug build (memory is committed only as it is used).
#[cfg(not(fuzzing))]
pub(crate) const PARSE_STACK: usize = 256 << 20;
/// Under the fuzzer, a stack just above what a source at the nesting limit needs there: a
/// construct the measure under-counts then overflows it, where the fuzzer sees it.
#[cfg(fuzzing)]
pub(crate) const PARSE_STACK: usize = 8 << 20;

/// Parses `source` (`file` in messages) as syn's `parse_file` does, within the nesting bound, on
/// a thread with a [`PARSE_STACK`] stack, and hands the file and every `#[cuda_entry]` attribute
/// the token pass found to `read`, on that thread (syn's trees cannot leave it). Line numbers are
/// the source's; columns too, but on a first line after a byte-order mark.
pub(crate) fn parse<T: Send>(
    file: &Path,
    source: &str,
    read: impl FnOnce(&syn::File, Vec<tokens::Found>) -> T + Send,
) -> Result<T, String> {
    let named = |e: String| format!("{}: {e}", shown::path(file));
    std::thread::scope(|scope| {
        let parser = std::thread::Builder::new()
            .name("cuda-entry-parse".to_owned())
            .stack_size(PARSE_STACK)
            .spawn_scoped(scope, || {
                parse_here(file, source).map(|(ast, found)| read(&ast, found))
            })
            .map_err(|e| named(format!("cannot start the parser: {e}")))?;
        parser
            .join()
            .unwrap_or_else(|_| Err(named("the parser stopped unexpectedly".to_owned())))
    })
}

/// The parse itself, on the parser's thread.
fn parse_here(file: &Path, source: &str) -> Result<(syn::File, Vec<tokens::Found>), String> {
    let invalid = |at: proc_macro2::LineColumn, e: &dyn std::fmt::Display| {
        format!(
            "{}:{}:{}: not valid Rust, cannot look for declarations: {e}",
            shown::path(file),
            at.line,
            at.column + 1
        )
    };
    let tokens: TokenStream = without_shebang(source)
        .parse()
        .map_err(|e: proc_macro2::LexError| invalid(e.span().start(), &e))?;
    let attributes = tokens::pass(tokens.clone()).map_err(|at| {
        format!(
            "{}:{}:{}: nested more than {NESTING_LIMIT} levels deep (brackets, generics, prefix \
             operators, closures): refused, the parser could run out of stack",
            shown::path(file),
            at.line,
            at.column
        )
    })?;
    let ast: syn::File = syn::parse2(tokens).map_err(|e| invalid(e.span().start(), &e))?;
    Ok((ast, attributes))
}

/// `source` as syn's `parse_file` reads it: without a byte-order mark, and with a `#!` line
/// (that is no `#![attribute]`) left out, its line break kept so that lines keep their numbers.
pub(crate) fn without_shebang(source: &str) -> &str {
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    match source.strip_prefix("#!") {
        Some(rest) if !rest.trim_start().starts_with('[') => {
            &source[source.find('\n').unwrap_or(source.len())..]
        }
        _ => source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shebang_is_left_out_and_an_inner_attribute_kept() {
        assert_eq!(
            without_shebang("\u{feff}#!/usr/bin/env cargo\nfn f() {}"),
            "\nfn f() {}"
        );
        assert_eq!(
            without_shebang("#![allow(x)]\nfn f() {}"),
            "#![allow(x)]\nfn f() {}"
        );
    }

    #[test]
    fn too_deep_a_source_is_refused_before_the_parse() {
        let deep = format!("const X: u8 = {}0{};", "(".repeat(300), ")".repeat(300));
        let e = parse(Path::new("deep.rs"), &deep, |_, _| ()).expect_err("refused");
        assert!(e.starts_with("deep.rs:1:"), "{e}");
        assert!(e.contains("nested more than 256 levels deep"), "{e}");
    }
}
