//! Finding the declarations of a Rust source file: every `#[cuda_entry(...)]`, the
//! single-function form and those in `#[cuda_entry] unsafe extern "C" { ... }` blocks, in nested
//! modules and function bodies too.

use std::fs;
use std::path::Path;

use syn::visit::{self, Visit};
use syn::{Attribute, ForeignItem, Ident, Item, ItemFn, ItemForeignMod};

use super::Declaration;
use super::rules::{self, Form};
use super::walk::io_message;

/// Reads and parses one file and returns its declarations, or a message naming the file.
pub(super) fn declarations(file: &Path) -> Result<Vec<Declaration>, String> {
    let source = fs::read_to_string(file).map_err(|e| {
        format!(
            "{}: cannot read: {}",
            file.display(),
            match e.kind() {
                std::io::ErrorKind::InvalidData => "not UTF-8 text".to_owned(),
                _ => io_message(&e),
            }
        )
    })?;
    let ast = syn::parse_file(&source).map_err(|e| {
        let at = e.span().start();
        format!(
            "{}:{}:{}: not valid Rust, cannot look for declarations: {e}",
            file.display(),
            at.line,
            at.column + 1
        )
    })?;
    Ok(find(file, &ast))
}

/// The declarations of a parsed file.
fn find(file: &Path, ast: &syn::File) -> Vec<Declaration> {
    let mut finder = Finder {
        file,
        found: Vec::new(),
    };
    finder.visit_file(ast);
    finder.found
}

fn is_cuda_entry(attr: &Attribute) -> bool {
    attr.path()
        .segments
        .last()
        .is_some_and(|s| s.ident == "cuda_entry")
}

/// Walks a file's items, nested modules and function bodies included.
struct Finder<'a> {
    file: &'a Path,
    found: Vec<Declaration>,
}

impl Finder<'_> {
    /// Records each `#[cuda_entry...]` among `attrs` (more than one is itself a mistake).
    fn record(&mut self, attrs: &[Attribute], ident: &Ident, form: Form) {
        let entries = attrs.iter().filter(|a| is_cuda_entry(a));
        for (i, attr) in entries.enumerate() {
            let form = if i > 0 { Form::Repeated } else { form };
            let declared = rules::declared(attr, form);
            self.found.push(Declaration {
                file: self.file.to_path_buf(),
                line: attr.pound_token.spans[0].start().line,
                function: ident.to_string(),
                request: declared.request,
                form: declared.form,
            });
        }
    }
}

impl<'ast> Visit<'ast> for Finder<'_> {
    fn visit_item(&mut self, item: &'ast Item) {
        // `unsafe extern "C" fn f(...) -> R;` is not an item Rust has, so syn keeps it verbatim:
        // it is the attribute's single-declaration form.
        if let Item::Verbatim(tokens) = item
            && let Ok(f) = syn::parse2::<syn::ForeignItemFn>(tokens.clone())
        {
            self.record(&f.attrs, &f.sig.ident, Form::Declaration);
        }
        visit::visit_item(self, item);
    }

    fn visit_item_fn(&mut self, f: &'ast ItemFn) {
        self.record(&f.attrs, &f.sig.ident, Form::WithBody);
        visit::visit_item_fn(self, f);
    }

    fn visit_item_foreign_mod(&mut self, block: &'ast ItemForeignMod) {
        let form = if block.attrs.iter().any(is_cuda_entry) {
            Form::Declaration
        } else {
            Form::InUnmarkedBlock
        };
        for item in &block.items {
            if let ForeignItem::Fn(f) = item {
                self.record(&f.attrs, &f.sig.ident, form);
            }
        }
        visit::visit_item_foreign_mod(self, block);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(source: &str) -> Vec<Declaration> {
        find(Path::new("x.rs"), &syn::parse_file(source).expect("parses"))
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
}
