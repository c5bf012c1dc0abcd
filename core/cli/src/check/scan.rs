//! Finding the declarations of a Rust source file: every `#[cuda_entry(...)]`, the
//! single-function form and those in `#[cuda_entry] unsafe extern "C" { ... }` blocks, in nested
//! modules and function bodies too; and every `#[cuda_entry]` the parse cannot read (in a
//! macro's body, behind `cfg_attr`, in an `impl` or a trait), reported as not checked.
//!
//! The source is measured first ([`tokens`]: a nesting bound, so that syn's recursive parser
//! cannot overflow its stack), then parsed on a thread of its own with a [`PARSE_STACK`] stack.

use std::collections::HashSet;
use std::path::Path;

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::{self, Visit};
use syn::{Attribute, ForeignItem, Ident, ImplItemFn, Item, ItemFn, ItemForeignMod, TraitItemFn};

use super::rules::{self, Form};
use super::tokens::{self, Context, NESTING_LIMIT};
use super::{Declaration, Scanned, Unchecked};
use crate::shown;

/// The parser thread's stack: 256 MiB of address space, of which a source at the nesting limit
/// uses under 16 MiB in a debug build (memory is committed only as it is used).
#[cfg(not(fuzzing))]
pub(super) const PARSE_STACK: usize = 256 << 20;
/// Under the fuzzer, a stack just above what a source at the nesting limit needs there: a
/// construct the measure under-counts then overflows it, where the fuzzer sees it.
#[cfg(fuzzing)]
pub(super) const PARSE_STACK: usize = 8 << 20;

/// Reads one file's declarations, or a message naming the file.
pub(super) fn declarations(file: &Path, source: &str) -> Result<Scanned, String> {
    let named = |e: String| format!("{}: {e}", shown::path(file));
    std::thread::scope(|scope| {
        let parser = std::thread::Builder::new()
            .name("cuda-entry-parse".to_owned())
            .stack_size(PARSE_STACK)
            .spawn_scoped(scope, || scan(file, source))
            .map_err(|e| named(format!("cannot start the parser: {e}")))?;
        parser
            .join()
            .unwrap_or_else(|_| Err(named("the parser stopped unexpectedly".to_owned())))
    })
}

/// The scan itself, on the parser's thread.
fn scan(file: &Path, source: &str) -> Result<Scanned, String> {
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
    let mut finder = Finder {
        file,
        found: Vec::new(),
        read: HashSet::new(),
        never: Vec::new(),
    };
    finder.visit_file(&ast);
    let unchecked = attributes
        .into_iter()
        .filter(|a| !finder.read.contains(&a.at))
        .map(|a| Unchecked {
            file: file.to_path_buf(),
            line: a.at.0,
            why: not_checked(a.cfg_attr, &a.context),
        })
        .collect();
    Ok(Scanned {
        declarations: finder.found,
        unchecked,
    })
}

/// `source` as syn's `parse_file` reads it: without a byte-order mark, and with a `#!` line
/// (that is no `#![attribute]`) left out, its line break kept so that lines keep their numbers.
fn without_shebang(source: &str) -> &str {
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    match source.strip_prefix("#!") {
        Some(rest) if !rest.trim_start().starts_with('[') => {
            &source[source.find('\n').unwrap_or(source.len())..]
        }
        _ => source,
    }
}

/// Why an attribute the parse did not read is not checked.
fn not_checked(cfg_attr: bool, context: &Context) -> String {
    if cfg_attr {
        return "behind `cfg_attr`: it applies only under a build configuration the command does \
                not evaluate; write the `#[cuda_entry(...)]` itself to have it checked"
            .to_owned();
    }
    match context {
        Context::Macro(name) => format!(
            "in the body of `{name}`: the command does not expand macros, so it cannot read this \
             declaration"
        ),
        Context::Impl => "in an `impl` block: the command reads declarations among items and in \
                          `extern` blocks, not associated functions"
            .to_owned(),
        Context::Trait => "in a trait: the command reads declarations among items and in `extern` \
                           blocks, not trait functions"
            .to_owned(),
        Context::Items => "not on a function declaration or an `extern` block, where the macro \
                           reads it"
            .to_owned(),
    }
}

fn is_cuda_entry(attr: &Attribute) -> bool {
    attr.path()
        .segments
        .last()
        .is_some_and(|s| s.ident == "cuda_entry")
}

/// The note for a declaration under a `#[cfg(...)]` that can never hold (`any()`, `not(all())`,
/// `false`): the compiler never sees it, the command judges it all the same.
fn never_compiled(attrs: &[Attribute]) -> Option<String> {
    let attr = attrs.iter().find(|a| {
        a.path().is_ident("cfg")
            && matches!(&a.meta, syn::Meta::List(list) if cfg_value(list.tokens.clone()) == Some(false))
    })?;
    let written = attr
        .bracket_token
        .span
        .join()
        .source_text()
        .unwrap_or_else(|| "[cfg(...)]".to_owned());
    Some(format!(
        "never compiled: under `#{written}`, which is always false; judged all the same"
    ))
}

/// The value of a `cfg` predicate when it is known without a build configuration: `any()` is
/// false, `all()` true, `true` and `false` are themselves; `None` for anything that depends on
/// the target or the features.
fn cfg_value(predicate: TokenStream) -> Option<bool> {
    let mut tokens = predicate.into_iter();
    let (first, second, rest) = (tokens.next(), tokens.next(), tokens.next());
    let TokenTree::Ident(word) = first? else {
        return None;
    };
    match (word.to_string().as_str(), second, rest) {
        ("true", None, None) => Some(true),
        ("false", None, None) => Some(false),
        (op @ ("any" | "all" | "not"), Some(TokenTree::Group(args)), None) => {
            let mut values = Vec::new();
            let mut current = TokenStream::new();
            for token in
                args.stream()
                    .into_iter()
                    .chain(Some(TokenTree::Punct(proc_macro2::Punct::new(
                        ',',
                        proc_macro2::Spacing::Alone,
                    ))))
            {
                if matches!(&token, TokenTree::Punct(p) if p.as_char() == ',') {
                    if !current.is_empty() {
                        values.push(cfg_value(std::mem::take(&mut current)));
                    }
                } else {
                    current.extend(Some(token));
                }
            }
            match op {
                "any" if values.contains(&Some(true)) => Some(true),
                "any" => values.iter().all(|v| *v == Some(false)).then_some(false),
                "all" if values.contains(&Some(false)) => Some(false),
                "all" => values.iter().all(|v| *v == Some(true)).then_some(true),
                _ => match values[..] {
                    [Some(value)] => Some(!value),
                    _ => None,
                },
            }
        }
        _ => None,
    }
}

/// Walks a file's items, nested modules and function bodies included.
struct Finder<'a> {
    file: &'a Path,
    found: Vec<Declaration>,
    /// Where the `#[cuda_entry]` attributes read are: line and column of their `#`.
    read: HashSet<(usize, usize)>,
    /// The never-compiled notes of the enclosing items, innermost last.
    never: Vec<Option<String>>,
}

impl Finder<'_> {
    /// Records each `#[cuda_entry...]` among `attrs` (more than one is itself a mistake).
    fn record(&mut self, attrs: &[Attribute], ident: &Ident, form: Form) {
        let note = never_compiled(attrs).or_else(|| self.never.iter().flatten().next().cloned());
        let entries = attrs.iter().filter(|a| is_cuda_entry(a));
        for (i, attr) in entries.enumerate() {
            let form = if i > 0 { Form::Repeated } else { form };
            let declared = rules::declared(attr, form);
            let at = attr.pound_token.spans[0].start();
            self.read.insert((at.line, at.column));
            self.found.push(Declaration {
                file: self.file.to_path_buf(),
                line: at.line,
                function: ident.to_string(),
                request: declared.request,
                form: declared.form,
                notes: note.iter().cloned().collect(),
            });
        }
    }

    /// Visits what is inside an item with `attrs`, under its `#[cfg]`.
    fn within(&mut self, attrs: &[Attribute], visit: impl FnOnce(&mut Self)) {
        self.never.push(never_compiled(attrs));
        visit(self);
        self.never.pop();
    }
}

impl<'ast> Visit<'ast> for Finder<'_> {
    fn visit_file(&mut self, file: &'ast syn::File) {
        self.within(&file.attrs, |this| visit::visit_file(this, file));
    }

    fn visit_item(&mut self, item: &'ast Item) {
        // `unsafe extern "C" fn f(...) -> R;` is not an item Rust has, so syn keeps it verbatim:
        // it is the attribute's single-declaration form.
        if let Item::Verbatim(tokens) = item
            && let Ok(f) = syn::parse2::<syn::ForeignItemFn>(tokens.clone())
        {
            self.record(&f.attrs, &f.sig.ident, Form::Declaration);
        }
        let attrs: &[Attribute] = match item {
            Item::Mod(i) => &i.attrs,
            Item::Impl(i) => &i.attrs,
            Item::Trait(i) => &i.attrs,
            Item::Const(i) => &i.attrs,
            Item::Static(i) => &i.attrs,
            _ => &[],
        };
        self.within(attrs, |this| visit::visit_item(this, item));
    }

    fn visit_item_fn(&mut self, f: &'ast ItemFn) {
        self.record(&f.attrs, &f.sig.ident, Form::WithBody);
        self.within(&f.attrs, |this| visit::visit_item_fn(this, f));
    }

    fn visit_impl_item_fn(&mut self, f: &'ast ImplItemFn) {
        self.within(&f.attrs, |this| visit::visit_impl_item_fn(this, f));
    }

    fn visit_trait_item_fn(&mut self, f: &'ast TraitItemFn) {
        self.within(&f.attrs, |this| visit::visit_trait_item_fn(this, f));
    }

    fn visit_item_foreign_mod(&mut self, block: &'ast ItemForeignMod) {
        let marked = block.attrs.iter().filter(|a| is_cuda_entry(a));
        for attr in marked {
            let at = attr.pound_token.spans[0].start();
            self.read.insert((at.line, at.column));
        }
        let form = if block.attrs.iter().any(is_cuda_entry) {
            Form::Declaration
        } else {
            Form::InUnmarkedBlock
        };
        self.within(&block.attrs, |this| {
            for item in &block.items {
                if let ForeignItem::Fn(f) = item {
                    this.record(&f.attrs, &f.sig.ident, form);
                }
            }
            visit::visit_item_foreign_mod(this, block);
        });
    }
}

/// Scans `source` as `check` scans a file, for the fuzz target: whatever the text, an answer,
/// never a panic or a stack overflow.
pub(super) fn fuzz(source: &str) {
    let _ = declarations(Path::new("fuzz.rs"), source);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(source: &str) -> Vec<Declaration> {
        scan(Path::new("x.rs"), source)
            .expect("scanned")
            .declarations
    }

    #[test]
    fn finds_both_forms_in_nested_modules() {
        let found = found(
            r#"
use cuda_entry::cuda_entry;
#[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
pub unsafe extern "C" fn mem_alloc(dptr: *mut u64, bytesize: usize) -> CUresult;

mod inner {
    #[cuda_entry::cuda_entry]
    unsafe extern "C" {
        #[cuda_entry(symbol = "cuLaunchKernel", version = 7000, stream = "per_thread")]
        fn launch(f: CUfunction) -> CUresult;
        fn unrelated();
    }
    fn body() {
        #[cuda_entry(symbol = "cuFuture", version = 14000, unverified, resolver = "runtime")]
        unsafe extern "C" fn future() -> CUresult;
    }
}
"#,
        );
        let lines: Vec<(usize, &str)> = found
            .iter()
            .map(|d| (d.line, d.function.as_str()))
            .collect();
        assert_eq!(lines, [(3, "mem_alloc"), (9, "launch"), (14, "future")]);
        let launch = found[1].request.as_ref().expect("read");
        assert_eq!(
            (
                launch.symbol.as_str(),
                launch.version.get(),
                launch.per_thread
            ),
            ("cuLaunchKernel", 7000, true)
        );
        assert!(!launch.runtime && !launch.unverified);
        assert!(
            found[2]
                .request
                .as_ref()
                .is_ok_and(|r| r.unverified && r.runtime)
        );
        assert!(found.iter().all(|d| d.form.is_none()));
    }

    #[test]
    fn rejected_arguments_and_forms_are_reported() {
        let found = found(
            r#"
#[cuda_entry(symbol = "cuMemAlloc", version = VERSION)]
unsafe extern "C" fn a() -> CUresult;
#[cuda_entry(symbol = "cuMemAlloc")]
unsafe extern "C" fn b() -> CUresult;
#[cuda_entry(symbol = "cuMemAlloc", version = 3021)]
unsafe extern "C" fn c() -> CUresult;
#[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
unsafe extern "C" fn d() -> CUresult { CUresult(0) }
unsafe extern "C" {
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
    fn e() -> CUresult;
}
"#,
        );
        assert_eq!(found.len(), 6);
        let arguments = |i: usize| found[i].request.as_ref().map_err(|m| m.message.as_str());
        let form = |i: usize| found[i].form.as_ref().map(|m| m.message.as_str());
        assert!(arguments(0).is_err());
        assert!(arguments(1).is_err_and(|m| m.contains("version")));
        assert!(arguments(2).is_err_and(|m| m.contains("3021")));
        // A body is refused, and what it asks for is still known.
        assert!(form(3).is_some_and(|m| m.contains("body")));
        assert!(arguments(3).is_ok());
        assert!(form(4).is_some_and(|m| m.contains("no `#[cuda_entry]`")));
        assert!(form(5).is_some_and(|m| m.contains("duplicate")));
    }

    #[test]
    fn a_shebang_or_a_bom_keeps_the_line_numbers() {
        let source = "\u{feff}#!/usr/bin/env cargo\n#[cuda_entry(symbol = \"cuInit\", version = 2000)]\nunsafe extern \"C\" fn init(flags: u32) -> CUresult;\n";
        let lines: Vec<usize> = found(source).iter().map(|d| d.line).collect();
        assert_eq!(lines, [2]);
        assert_eq!(
            without_shebang("#![allow(x)]\nfn f() {}"),
            "#![allow(x)]\nfn f() {}"
        );
    }

    #[test]
    fn cfg_predicates_known_without_a_configuration() {
        let value = |p: &str| cfg_value(p.parse().expect("lexes"));
        assert_eq!(value("any()"), Some(false));
        assert_eq!(value("all()"), Some(true));
        assert_eq!(value("not(all())"), Some(false));
        assert_eq!(value("all(unix, any())"), Some(false));
        assert_eq!(value("any(unix, all())"), Some(true));
        assert_eq!(value("false"), Some(false));
        assert_eq!(value("unix"), None);
        assert_eq!(value("any(unix)"), None);
        assert_eq!(value("feature = \"x\""), None);
    }
}
