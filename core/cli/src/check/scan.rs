//! Finding the declarations of a Rust source file: every `#[cuda_entry(...)]`, the
//! single-function form and those in `#[cuda_entry] unsafe extern "C" { ... }` blocks, in nested
//! modules and function bodies too; and every `#[cuda_entry]` the parse cannot read (in a
//! macro's body, behind `cfg_attr`, in an `impl` or a trait), reported as not checked.
//!
//! The source is parsed as [`source::parse`](crate::source::parse) parses it, within the nesting
//! bound.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use cuda_entry_table::rules::{self, EntryItem, Mistake, is_cuda_entry, is_entry_attribute};
use proc_macro2::{TokenStream, TokenTree};
use syn::visit::{self, Visit};
use syn::{Attribute, ForeignItem, ForeignItemFn, Ident, ImplItemFn, Item, ItemFn, TraitItemFn};

mod modules;
mod shadowed;

use super::ruling;
use super::{Declaration, Scanned, Unchecked, Unversioned};
use crate::source::linked;
use crate::source::parse::parse;
use crate::source::tokens::{self, Context};

/// Reads one file's declarations, or a message naming the file.
pub(super) fn declarations(file: &Path, source: &str) -> Result<Scanned, String> {
    parse(file, source, |ast, attributes| scan(file, ast, attributes))
}

/// The scan of a parsed file, on the parser's thread.
fn scan(file: &Path, ast: &syn::File, attributes: Vec<tokens::Found>) -> Scanned {
    let mut finder = Finder {
        file,
        found: Vec::new(),
        read: HashSet::new(),
        never: Vec::new(),
        unversioned: Vec::new(),
        modules: modules::Modules::of(file),
        follow: Vec::new(),
        unread: Vec::new(),
        shadowed: shadowed::names(ast),
    };
    finder.visit_file(ast);
    let mut unchecked: Vec<Unchecked> = attributes
        .into_iter()
        .filter(|a| !finder.read.contains(&a.at))
        .map(|a| Unchecked {
            file: file.to_path_buf(),
            line: a.at.0,
            why: not_checked(a.cfg_attr, &a.context),
        })
        .collect();
    unchecked.append(&mut finder.unread);
    Scanned {
        declarations: finder.found,
        unchecked,
        unversioned: finder.unversioned,
        follow: finder.follow,
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
        Context::Impl => "in an `impl` block, where `#[cuda_entry]` cannot expand (the build \
                          fails): move the declaration to the module around it"
            .to_owned(),
        Context::Trait => "in a `trait`, where `#[cuda_entry]` cannot expand (the build fails): \
                           move the declaration to the module around it"
            .to_owned(),
        Context::Items => "not on a function declaration or an `extern` block, where the macro \
                           reads it"
            .to_owned(),
    }
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
    /// The driver functions of `extern` blocks.
    unversioned: Vec<Unversioned>,
    /// Where the modules declared here have their files.
    modules: modules::Modules,
    /// The files of the modules and `include!`s found, to read too.
    follow: Vec<PathBuf>,
    /// What this file brings in that cannot be read: an `include!` of a file named at build
    /// time, a module whose file is not there.
    unread: Vec<Unchecked>,
    /// The names this file gives its own items or `use` renames that the rules would read as
    /// standard types (`type u32 = u64;`): its declarations' names are then left to the
    /// compiler, as the macro leaves every name.
    shadowed: Vec<String>,
}

impl Finder<'_> {
    /// Records the declarations of an item the macro would see (`entries`), judged by its rules.
    fn record(&mut self, item: &Item, entries: &EntryItem) {
        let written = written(item);
        self.read.extend(written.entries);
        let item_attrs = written.attrs;
        let lines = written.lines;
        let enclosing =
            never_compiled(&item_attrs).or_else(|| self.never.iter().flatten().next().cloned());
        let block: Vec<Mistake> = entries.mistakes().cloned().collect();
        let mut any = false;
        for decl in entries.declarations() {
            any = true;
            let name = decl.ident.span().start();
            let line = lines
                .get(&(name.line, name.column))
                .copied()
                .unwrap_or(name.line);
            let mut notes: Vec<String> = never_compiled(&decl.attrs)
                .or_else(|| enclosing.clone())
                .into_iter()
                .collect();
            let judged = if self.shadowed.is_empty() {
                ruling::declaration(decl, &block)
            } else {
                notes.push(shadowed::note(&self.shadowed));
                rules::judged_by_the_compiler(|| ruling::declaration(decl, &block))
            };
            self.found.push(Declaration {
                file: self.file.to_path_buf(),
                line,
                function: decl.ident.to_string(),
                judged,
                notes,
            });
        }
        // A block the macro rejects that declares nothing: its mistakes still fail the build.
        if !any && !block.is_empty() {
            // The block's attribute, or (imported under another name) its first one.
            let line = item_attrs
                .iter()
                .find(|a| is_cuda_entry(a))
                .or(item_attrs.first())
                .map_or(0, |a| a.pound_token.spans[0].start().line);
            self.found.push(Declaration {
                file: self.file.to_path_buf(),
                line,
                function: "extern block".to_owned(),
                judged: ruling::block(&block),
                notes: enclosing.into_iter().collect(),
            });
        }
    }

    /// Notes the driver functions `block` links against libcuda, whose export the table knows.
    fn linked(&mut self, block: &syn::ItemForeignMod) {
        for (f, export) in linked::linked(block) {
            let Some(typedef) = cuda_entry_table::export(&export).and_then(|e| e.typedef()) else {
                continue;
            };
            self.unversioned.push(Unversioned {
                file: self.file.to_path_buf(),
                line: f.sig.ident.span().start().line,
                function: f.sig.ident.to_string(),
                export,
                symbol: typedef.symbol,
                version: typedef.version,
                per_thread: typedef.stream.is_per_thread(),
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

/// What the source says around an item's declarations that the rules' view of them does not
/// keep.
struct Written {
    /// The item's own attributes: the single form's, or the `extern` block's.
    attrs: Vec<Attribute>,
    /// Where every `#[cuda_entry...]` the rules read is: the line and column of its `#`.
    entries: Vec<(usize, usize)>,
    /// The line of each declaration's `#[cuda_entry(...)]`, by the position of its name.
    lines: HashMap<(usize, usize), usize>,
}

/// What is written around the declarations of `item`, which the macro would see. The rules read
/// the single form's attributes; in an `extern` block, those of every function of a
/// `#[cuda_entry]` block and of the marked ones of another, and those of the other items of a
/// `#[cuda_entry]` block (each a mistake of the block).
fn written(item: &Item) -> Written {
    let mut written = Written {
        attrs: Vec::new(),
        entries: Vec::new(),
        lines: HashMap::new(),
    };
    let mut inner = |name: Option<&Ident>, attrs: &[Attribute]| {
        // By name or, under a renamed import, by its arguments, as the rules recognise it.
        let mut marked = attrs.iter().filter(|a| is_entry_attribute(a));
        if let (Some(name), Some(first)) = (name, marked.clone().next()) {
            let at = name.span().start();
            let line = first.pound_token.spans[0].start().line;
            written.lines.insert((at.line, at.column), line);
        }
        for attr in marked.by_ref() {
            let at = attr.pound_token.spans[0].start();
            written.entries.push((at.line, at.column));
        }
    };
    match item {
        Item::Fn(f) => {
            inner(Some(&f.sig.ident), &f.attrs);
            written.attrs.clone_from(&f.attrs);
        }
        Item::Verbatim(tokens) => {
            if let Ok(f) = syn::parse2::<ForeignItemFn>(tokens.clone()) {
                inner(Some(&f.sig.ident), &f.attrs);
                written.attrs = f.attrs;
            }
        }
        Item::ForeignMod(block) => {
            let marked = block.attrs.iter().any(is_cuda_entry);
            let mut conditional_entries = Vec::new();
            inner(None, &block.attrs);
            for item in &block.items {
                match item {
                    ForeignItem::Fn(f) => {
                        inner(Some(&f.sig.ident), &f.attrs);
                        // The rules read a `cfg_attr` around the attribute in a marked block,
                        // and report it (`conditional_attribute`).
                        let conditional = f.attrs.iter().filter(|a| a.path().is_ident("cfg_attr"));
                        conditional_entries.extend(conditional.filter(|_| marked).map(|attr| {
                            let at = attr.pound_token.spans[0].start();
                            (at.line, at.column)
                        }));
                    }
                    ForeignItem::Static(s) if marked => inner(None, &s.attrs),
                    ForeignItem::Type(t) if marked => inner(None, &t.attrs),
                    ForeignItem::Macro(m) if marked => inner(None, &m.attrs),
                    _ => {}
                }
            }
            written.entries.extend(conditional_entries);
            written.attrs.clone_from(&block.attrs);
        }
        _ => {}
    }
    written
}

impl<'ast> Visit<'ast> for Finder<'_> {
    fn visit_file(&mut self, file: &'ast syn::File) {
        self.within(&file.attrs, |this| visit::visit_file(this, file));
    }

    fn visit_item(&mut self, item: &'ast Item) {
        if let Some(entries) = EntryItem::from_item(item) {
            self.record(item, &entries);
        }
        if let Item::Mod(m) = item {
            match &m.content {
                // `mod name;`: its file is read too, wherever it is (`#[path]`).
                None => {
                    let line = m.ident.span().start().line;
                    match self.modules.file_of(&m.ident.to_string(), &m.attrs) {
                        Ok(path) => self.follow.push(path),
                        Err(why) => self.unread.push(Unchecked {
                            file: self.file.to_path_buf(),
                            line,
                            why,
                        }),
                    }
                }
                // `mod name { ... }`: its own `mod x;` are under `name/`.
                Some(_) => {
                    self.modules.enter(&m.ident.to_string(), &m.attrs);
                    self.within(&m.attrs, |this| visit::visit_item(this, item));
                    self.modules.leave();
                    return;
                }
            }
        }
        if let Item::ForeignMod(block) = item {
            self.linked(block);
        }
        let attrs: &[Attribute] = match item {
            Item::Mod(i) => &i.attrs,
            Item::Impl(i) => &i.attrs,
            Item::Trait(i) => &i.attrs,
            Item::Const(i) => &i.attrs,
            Item::Static(i) => &i.attrs,
            Item::ForeignMod(i) => &i.attrs,
            _ => &[],
        };
        self.within(attrs, |this| visit::visit_item(this, item));
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        // `include!("file.rs")` reads that file in; one named at build time cannot be read here.
        if mac
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == "include")
        {
            let line = mac.path.segments[0].ident.span().start().line;
            match self.modules.included(&mac.tokens) {
                Ok(path) => self.follow.push(path),
                Err(why) => self.unread.push(Unchecked {
                    file: self.file.to_path_buf(),
                    line,
                    why,
                }),
            }
        }
        visit::visit_macro(self, mac);
    }

    fn visit_item_fn(&mut self, f: &'ast ItemFn) {
        self.within(&f.attrs, |this| visit::visit_item_fn(this, f));
    }

    fn visit_impl_item_fn(&mut self, f: &'ast ImplItemFn) {
        self.within(&f.attrs, |this| visit::visit_impl_item_fn(this, f));
    }

    fn visit_trait_item_fn(&mut self, f: &'ast TraitItemFn) {
        self.within(&f.attrs, |this| visit::visit_trait_item_fn(this, f));
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
    use crate::check::Judged;

    fn found(source: &str) -> Vec<Declaration> {
        declarations(Path::new("x.rs"), source)
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
        // `unrelated` has no `#[cuda_entry(...)]` in a `#[cuda_entry]` block: the macro rejects
        // it, listed at its name.
        assert_eq!(
            lines,
            [
                (3, "mem_alloc"),
                (9, "launch"),
                (11, "unrelated"),
                (14, "future")
            ]
        );
        let launch = found[1].request().expect("read");
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
            found[3]
                .request()
                .is_some_and(|r| r.unverified && r.runtime)
        );
        // `launch` has the wrong arity: the rules say so.
        let kinds: Vec<Vec<&str>> = found.iter().map(kinds).collect();
        assert_eq!(
            kinds,
            [
                vec![],
                vec!["wrong_arity"],
                vec!["missing_attribute"],
                vec![]
            ]
        );
    }

    /// The kinds of the mistakes the rules find in `d`.
    fn kinds(d: &Declaration) -> Vec<&'static str> {
        match &d.judged {
            Judged::Accepted { .. } => Vec::new(),
            Judged::Rejected { mistakes, .. } => mistakes.iter().map(|m| m.kind).collect(),
        }
    }

    #[test]
    fn rejected_arguments_and_forms_are_reported() {
        let found = found(
            r#"
#[cuda_entry(symbol = "cuInit", version = VERSION)]
unsafe extern "C" fn a(flags: u32) -> CUresult;
#[cuda_entry(symbol = "cuInit")]
unsafe extern "C" fn b(flags: u32) -> CUresult;
#[cuda_entry(symbol = "cuInit", version = 3021)]
unsafe extern "C" fn c(flags: u32) -> CUresult;
#[cuda_entry(symbol = "cuInit", version = 2000)]
unsafe extern "C" fn d(flags: u32) -> CUresult { CUresult(0) }
unsafe extern "C" {
    #[cuda_entry(symbol = "cuInit", version = 2000)]
    #[cuda_entry(symbol = "cuInit", version = 2000)]
    fn e(flags: u32) -> CUresult;
}
#[cuda_entry(symbol = "cuInit", version = 2000)]
unsafe extern "C" {
    static X: u8;
}
"#,
        );
        let kinds: Vec<(usize, &str, Vec<&str>)> = found
            .iter()
            .map(|d| (d.line, d.function.as_str(), kinds(d)))
            .collect();
        assert_eq!(
            kinds,
            [
                (2, "a", vec!["version_not_a_literal"]),
                (4, "b", vec!["missing_version"]),
                (6, "c", vec!["not_a_version"]),
                (8, "d", vec!["function_body"]),
                (
                    11,
                    "e",
                    vec!["block_without_attribute", "duplicate_attribute"]
                ),
                (
                    15,
                    "extern block",
                    vec!["arguments_on_block", "not_a_function"]
                ),
            ]
        );
        // A body is rejected, and what it asks for is still known.
        assert!(found[3].request().is_some_and(|r| r.version.get() == 2000));
        assert!(found[0].request().is_none());
    }

    #[test]
    fn a_shebang_or_a_bom_keeps_the_line_numbers() {
        let source = "\u{feff}#!/usr/bin/env cargo\n#[cuda_entry(symbol = \"cuInit\", version = 2000)]\nunsafe extern \"C\" fn init(flags: u32) -> CUresult;\n";
        let lines: Vec<usize> = found(source).iter().map(|d| d.line).collect();
        assert_eq!(lines, [2]);
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
