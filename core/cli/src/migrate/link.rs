//! The ways a crate links libcuda besides `#[link(name = "cuda")]` (which [`write`] handles
//! with its block): a build script's `cargo:rustc-link-lib=cuda` (any kind, `cargo::` too), a
//! build script's call of a finder crate that prints it ([`FINDERS`]), and `-l cuda` in the
//! rustflags of `.cargo/config.toml`. `migrate CRATE_DIR` removes each; what it cannot remove is
//! reported.
//!
//! [`write`]: super::write

use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use toml_edit::{DocumentMut, Item, Value};

use super::write::{Edit, whole_lines};
use crate::source::text::Text;

/// Whether a build script's output line links libcuda: `cargo:rustc-link-lib=[KIND[:MODS]=]cuda`
/// or `cargo::rustc-link-lib=...`.
pub(crate) fn links_cuda(line: &str) -> bool {
    let line = line.trim();
    let Some(rest) = line
        .strip_prefix("cargo::")
        .or_else(|| line.strip_prefix("cargo:"))
    else {
        return false;
    };
    let Some(lib) = rest.strip_prefix("rustc-link-lib=") else {
        return false;
    };
    let name = lib.rsplit('=').next().unwrap_or(lib);
    // `NAME:RENAME` links NAME.
    name.split(':').next() == Some("cuda")
}

/// A finder crate's function that a build script calls to link the driver: it prints
/// `cargo:rustc-link-lib=dylib=cuda` itself, so no literal of the script says so.
struct Finder {
    /// The crate (`find_cuda_helper`).
    krate: &'static str,
    /// The function (`include_cuda`).
    function: &'static str,
    /// Whether the call links libcuda: always, or when its first argument names the `cuda`
    /// package (pkg-config's `cuda`, `cuda-12.4`; not `cudart-12.4`).
    links: fn(Option<&str>) -> bool,
    /// What else it does, for the message when the call is left.
    also: &'static str,
}

/// The finder crates' calls that link libcuda.
const FINDERS: &[Finder] = &[
    Finder {
        krate: "find_cuda_helper",
        function: "include_cuda",
        links: |_| true,
        also: "adds the CUDA library folders to the search path",
    },
    Finder {
        krate: "pkg_config",
        function: "probe_library",
        links: cuda_package,
        also: "adds the package's search path and other libraries",
    },
    Finder {
        krate: "pkg_config",
        function: "probe",
        links: cuda_package,
        also: "adds the package's search path and other libraries",
    },
];

/// Whether a pkg-config package name is the driver's: `cuda`, `cuda-12.4`.
fn cuda_package(name: Option<&str>) -> bool {
    name.is_some_and(|n| {
        n == "cuda"
            || n.strip_prefix("cuda-")
                .is_some_and(|v| !v.is_empty() && v.chars().all(|c| c.is_ascii_digit() || c == '.'))
    })
}

/// The edits removing each statement of a build script that prints a libcuda link line, or calls
/// a finder crate only to link it, and a line for each such literal or call that cannot be
/// removed (left for the user).
pub(crate) fn build_script(source: &str, ast: &syn::File) -> (Vec<Edit>, Vec<String>) {
    let text = Text::new(source);
    let mut others = OtherLinks {
        libraries: Vec::new(),
    };
    others.visit_file(ast);
    let mut statements = Statements {
        source,
        text: &text,
        imports: finder_imports(ast),
        other_links: others.libraries,
        removed: Vec::new(),
        kept: false,
        edits: Vec::new(),
        left: Vec::new(),
    };
    statements.visit_file(ast);
    // `use find_cuda_helper::include_cuda;` goes with the last call it served.
    if !statements.kept {
        for item in &ast.items {
            let syn::Item::Use(u) = item else { continue };
            let syn::UseTree::Path(p) = &u.tree else {
                continue;
            };
            let syn::UseTree::Name(n) = &*p.tree else {
                continue;
            };
            let imported = finder(Some(&p.ident.to_string()), &n.ident.to_string());
            if imported.is_some_and(|f| statements.removed.iter().any(|r| std::ptr::eq(*r, f))) {
                let range = text.range(item.span());
                statements.edits.push(Edit {
                    range: whole_lines(source, &range),
                    text: String::new(),
                });
            }
        }
    }
    (statements.edits, statements.left)
}

struct Statements<'a> {
    source: &'a str,
    text: &'a Text<'a>,
    /// The finder functions the script imports by name (`use find_cuda_helper::include_cuda;`):
    /// `(name in scope, finder)`.
    imports: Vec<(String, &'static Finder)>,
    /// The other libraries the script links itself (`cublas`): a finder call that also sets
    /// their search path is left.
    other_links: Vec<String>,
    /// The finders whose calls were removed.
    removed: Vec<&'static Finder>,
    /// Whether a finder call linking libcuda was left.
    kept: bool,
    edits: Vec<Edit>,
    /// `(line, change)` of what was removed is in `edits`; what could not be is here.
    left: Vec<String>,
}

/// The libraries other than libcuda whose link lines the script's literals print.
struct OtherLinks {
    libraries: Vec<String>,
}

impl OtherLinks {
    fn tokens(&mut self, tokens: proc_macro2::TokenStream) {
        for token in tokens {
            match token {
                proc_macro2::TokenTree::Literal(l) => {
                    if let syn::Lit::Str(s) = syn::Lit::new(l) {
                        self.line(&s.value());
                    }
                }
                proc_macro2::TokenTree::Group(g) => self.tokens(g.stream()),
                _ => {}
            }
        }
    }

    fn line(&mut self, value: &str) {
        let line = value.trim();
        let rest = line
            .strip_prefix("cargo::rustc-link-lib=")
            .or_else(|| line.strip_prefix("cargo:rustc-link-lib="));
        if let Some(rest) = rest
            && !links_cuda(line)
        {
            let name = rest.rsplit('=').next().unwrap_or(rest);
            self.libraries.push(name.to_owned());
        }
    }
}

impl<'ast> Visit<'ast> for OtherLinks {
    fn visit_lit_str(&mut self, lit: &'ast syn::LitStr) {
        self.line(&lit.value());
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.tokens(mac.tokens.clone());
    }
}

/// The finder functions a script's `use` items bring into scope by name.
fn finder_imports(ast: &syn::File) -> Vec<(String, &'static Finder)> {
    fn walk(
        tree: &syn::UseTree,
        prefix: &mut Vec<String>,
        out: &mut Vec<(String, &'static Finder)>,
    ) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                walk(&p.tree, prefix, out);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                if let Some(f) = finder(prefix.last().map(String::as_str), &n.ident.to_string()) {
                    out.push((n.ident.to_string(), f));
                }
            }
            syn::UseTree::Rename(r) => {
                if let Some(f) = finder(prefix.last().map(String::as_str), &r.ident.to_string()) {
                    out.push((r.rename.to_string(), f));
                }
            }
            syn::UseTree::Glob(_) => {
                for f in FINDERS
                    .iter()
                    .filter(|f| prefix.last().is_some_and(|k| k == f.krate))
                {
                    out.push((f.function.to_owned(), f));
                }
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    walk(t, prefix, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    for item in &ast.items {
        if let syn::Item::Use(u) = item {
            walk(&u.tree, &mut Vec::new(), &mut out);
        }
    }
    out
}

/// The finder function `krate::function`, if it is one.
fn finder(krate: Option<&str>, function: &str) -> Option<&'static Finder> {
    FINDERS
        .iter()
        .find(|f| krate == Some(f.krate) && function == f.function)
}

/// The call an expression statement makes, through `.unwrap()`, `.expect(..)`, `?` and `let _ =`.
fn called(mut expr: &syn::Expr) -> &syn::Expr {
    loop {
        expr = match expr {
            syn::Expr::Try(t) => &t.expr,
            syn::Expr::MethodCall(m)
                if ["unwrap", "expect", "ok"].contains(&m.method.to_string().as_str()) =>
            {
                &m.receiver
            }
            syn::Expr::Paren(p) => &p.expr,
            _ => return expr,
        };
    }
}

/// The first argument's string, if it is a literal.
fn first_string(args: &syn::punctuated::Punctuated<syn::Expr, syn::Token![,]>) -> Option<String> {
    match args.first()? {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(s.value()),
        _ => None,
    }
}

impl Statements<'_> {
    /// The finder call that links libcuda which `expr` makes, if any.
    fn finder_call(&self, expr: &syn::Expr) -> Option<&'static Finder> {
        match called(expr) {
            syn::Expr::Call(call) => {
                let syn::Expr::Path(path) = &*call.func else {
                    return None;
                };
                let segments: Vec<String> = path
                    .path
                    .segments
                    .iter()
                    .map(|s| s.ident.to_string())
                    .collect();
                let found = match segments.as_slice() {
                    [name] => self
                        .imports
                        .iter()
                        .find(|(n, _)| n == name)
                        .map(|(_, f)| *f),
                    [.., krate, function] => finder(Some(krate), function),
                    [] => None,
                }?;
                (found.links)(first_string(&call.args).as_deref()).then_some(found)
            }
            // pkg_config::Config::new()....probe("cuda")
            syn::Expr::MethodCall(m) if m.method == "probe" => {
                let mut receiver = &*m.receiver;
                while let syn::Expr::MethodCall(inner) = receiver {
                    receiver = &inner.receiver;
                }
                let syn::Expr::Call(new) = receiver else {
                    return None;
                };
                let syn::Expr::Path(path) = &*new.func else {
                    return None;
                };
                let text: Vec<String> = path
                    .path
                    .segments
                    .iter()
                    .map(|s| s.ident.to_string())
                    .collect();
                let pkg_config = text.len() >= 2
                    && text[text.len() - 2] == "Config"
                    && text.iter().any(|s| s == "pkg_config");
                let f = finder(Some("pkg_config"), "probe")?;
                (pkg_config && (f.links)(first_string(&m.args).as_deref())).then_some(f)
            }
            _ => None,
        }
    }

    /// Removes the statement `stmt` (a finder call linking libcuda), or says why it stays.
    fn finder_statement(&mut self, stmt: &syn::Stmt, finder: &'static Finder) {
        let at = stmt.span().start().line;
        if self.other_links.is_empty() {
            let range = self.text.range(stmt.span());
            self.edits.push(Edit {
                range: whole_lines(self.source, &range),
                text: String::new(),
            });
            self.removed.push(finder);
        } else {
            self.kept = true;
            self.left.push(format!(
                "line {at}: `{}::{}` links libcuda, and also {}, which this script's other \
                 libraries ({}) may need: replace it with what they need and no libcuda link",
                finder.krate,
                finder.function,
                finder.also,
                self.other_links.join(", ")
            ));
        }
    }
}

/// The libcuda link lines a macro call's literals print.
fn linking_literals(tokens: proc_macro2::TokenStream) -> Vec<String> {
    let mut found = Vec::new();
    for token in tokens {
        match token {
            proc_macro2::TokenTree::Literal(l) => {
                if let syn::Lit::Str(s) = syn::Lit::new(l)
                    && links_cuda(&s.value())
                {
                    found.push(s.value());
                }
            }
            proc_macro2::TokenTree::Group(g) => found.extend(linking_literals(g.stream())),
            _ => {}
        }
    }
    found
}

impl<'ast> Visit<'ast> for Statements<'_> {
    fn visit_stmt(&mut self, stmt: &'ast syn::Stmt) {
        let call = match stmt {
            syn::Stmt::Expr(expr, Some(_)) => Some(expr),
            syn::Stmt::Local(syn::Local {
                pat: syn::Pat::Wild(_),
                init: Some(init),
                ..
            }) if init.diverge.is_none() => Some(&*init.expr),
            _ => None,
        };
        if let Some(finder) = call.and_then(|c| self.finder_call(c)) {
            self.finder_statement(stmt, finder);
            return;
        }
        let mac = match stmt {
            syn::Stmt::Macro(m) => Some(&m.mac),
            syn::Stmt::Expr(syn::Expr::Macro(m), Some(_)) => Some(&m.mac),
            _ => None,
        };
        if let Some(mac) = mac {
            let found = linking_literals(mac.tokens.clone());
            if !found.is_empty() {
                let range = self.text.range(stmt.span());
                self.edits.push(Edit {
                    range: whole_lines(self.source, &range),
                    text: String::new(),
                });
                return;
            }
        }
        visit::visit_stmt(self, stmt);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        for line in linking_literals(mac.tokens.clone()) {
            let at = mac.span().start().line;
            self.left.push(format!(
                "line {at}: `{line}` is printed within an expression: remove it by hand"
            ));
        }
    }

    fn visit_lit_str(&mut self, lit: &'ast syn::LitStr) {
        if links_cuda(&lit.value()) {
            let at = lit.span().start().line;
            self.left.push(format!(
                "line {at}: `{}` is not a statement of its own: remove it by hand",
                lit.value()
            ));
        }
    }

    fn visit_expr(&mut self, expr: &'ast syn::Expr) {
        // A finder call that is not a statement of its own (`let paths = include_cuda();`,
        // inside a condition): said, not removed.
        if matches!(expr, syn::Expr::Call(_) | syn::Expr::MethodCall(_))
            && let Some(finder) = self.finder_call(expr)
        {
            let at = expr.span().start().line;
            self.kept = true;
            self.left.push(format!(
                "line {at}: `{}::{}` links libcuda within an expression: remove the call, or \
                 keep what else it does ({}) without the libcuda link",
                finder.krate, finder.function, finder.also
            ));
            return;
        }
        visit::visit_expr(self, expr);
    }
}

/// Whether one rustflag (or a flag and its value, `-l cuda`) links libcuda.
fn flag_links_cuda(flag: &str) -> bool {
    let lib = |value: &str| {
        let name = value.rsplit('=').next().unwrap_or(value);
        name.split(':').next() == Some("cuda")
    };
    let flag = flag.trim();
    if let Some(value) = flag.strip_prefix("-l") {
        return lib(value.trim());
    }
    let link_arg = flag
        .strip_prefix("-C")
        .map(str::trim)
        .and_then(|f| f.strip_prefix("link-arg=").or(f.strip_prefix("link-args=")));
    link_arg.is_some_and(|args| args.split_whitespace().any(|a| a == "-lcuda"))
}

/// `flags` without the ones that link libcuda (a flag taking its value separately, `-l cuda`,
/// `-C link-arg=-lcuda`, goes with it); `None` when nothing is removed.
fn without_cuda(flags: &[String]) -> Option<Vec<String>> {
    let mut kept: Vec<String> = Vec::new();
    let mut i = 0;
    let mut removed = false;
    while i < flags.len() {
        let flag = &flags[i];
        if (flag == "-l" || flag == "-C")
            && flags
                .get(i + 1)
                .is_some_and(|v| flag_links_cuda(&format!("{flag}{v}")))
        {
            i += 2;
            removed = true;
        } else if flag_links_cuda(flag) {
            i += 1;
            removed = true;
        } else {
            kept.push(flag.clone());
            i += 1;
        }
    }
    removed.then_some(kept)
}

/// Removes the libcuda flags of one `rustflags` item (an array or a string); whether it changed.
fn strip(item: &mut Item) -> bool {
    match item {
        Item::Value(Value::Array(array)) => {
            let flags: Vec<String> = array
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect();
            if flags.len() != array.len() {
                return false;
            }
            let Some(kept) = without_cuda(&flags) else {
                return false;
            };
            // Removed from the end, so that the indices hold and the others keep their format.
            let mut k = kept.len();
            for i in (0..array.len()).rev() {
                let flag = array.get(i).and_then(Value::as_str).unwrap_or_default();
                if k > 0 && kept[k - 1] == flag {
                    k -= 1;
                } else {
                    array.remove(i);
                    // The element now first keeps no space after the bracket.
                    if i == 0
                        && let Some(first) = array.get_mut(0)
                    {
                        first.decor_mut().set_prefix("");
                    }
                }
            }
            true
        }
        Item::Value(Value::String(s)) => {
            let flags: Vec<String> = s.value().split_whitespace().map(str::to_owned).collect();
            match without_cuda(&flags) {
                Some(kept) => {
                    let decor = s.decor().clone();
                    let mut value = toml_edit::Formatted::new(kept.join(" "));
                    *value.decor_mut() = decor;
                    *s = value;
                    true
                }
                None => false,
            }
        }
        _ => false,
    }
}

/// `.cargo/config.toml` without the flags that link libcuda (in `build.rustflags` and each
/// `target.<triple>.rustflags`) nor a `rustc-link-lib` override naming it, and what changed;
/// `None` when nothing links it.
pub(crate) fn config(text: &str) -> Result<Option<(String, Vec<String>)>, String> {
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| format!("not valid TOML: {}", e.message()))?;
    let mut changes = Vec::new();
    if let Some(item) = doc
        .get_mut("build")
        .and_then(|b| b.get_mut("rustflags"))
        .filter(|i| !i.is_none())
        && strip(item)
    {
        changes.push("removes `-l cuda` from build.rustflags".to_owned());
    }
    if let Some(targets) = doc.get_mut("target").and_then(Item::as_table_like_mut) {
        for (name, target) in targets.iter_mut() {
            let Some(target) = target.as_table_like_mut() else {
                continue;
            };
            if let Some(item) = target.get_mut("rustflags")
                && strip(item)
            {
                changes.push(format!("removes `-l cuda` from target.{name}.rustflags"));
            }
            // `[target.<triple>.<links>]` overrides a build script: `rustc-link-lib = ["cuda"]`.
            for (links, table) in target.iter_mut() {
                let Some(list) = table.get_mut("rustc-link-lib").and_then(Item::as_array_mut)
                else {
                    continue;
                };
                let before = list.len();
                list.retain(|v| {
                    v.as_str()
                        .is_none_or(|l| !flag_links_cuda(&format!("-l{l}")))
                });
                if list.len() != before {
                    changes.push(format!(
                        "removes `cuda` from target.{name}.{links}.rustc-link-lib"
                    ));
                }
            }
        }
    }
    Ok((!changes.is_empty()).then(|| (doc.to_string(), changes)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_of_the_link_line() {
        for line in [
            "cargo:rustc-link-lib=cuda",
            "cargo:rustc-link-lib=dylib=cuda",
            "cargo::rustc-link-lib=cuda",
            "cargo::rustc-link-lib=dylib:+verbatim=cuda",
            "cargo:rustc-link-lib=static=cuda",
        ] {
            assert!(links_cuda(line), "{line}");
        }
        for line in [
            "cargo:rustc-link-lib=cudart",
            "cargo:rustc-link-search=native=/usr/local/cuda/lib64",
            "cargo:rustc-link-lib=dylib=nvrtc",
            "rustc-link-lib=cuda",
        ] {
            assert!(!links_cuda(line), "{line}");
        }
    }

    fn script(source: &str) -> (String, Vec<String>) {
        let ast: syn::File = syn::parse_str(source).expect("Rust");
        let (mut edits, left) = build_script(source, &ast);
        edits.sort_by_key(|e| (e.range.start, e.range.end));
        (super::super::write::apply(source, &edits), left)
    }

    #[test]
    fn finder_calls_that_only_link_the_driver_are_removed() {
        // find_cuda_helper's include_cuda prints `cargo:rustc-link-lib=dylib=cuda` (and panics
        // where no CUDA is installed): before, no literal said so and the call stayed.
        let (out, left) = script(
            "fn main() {\n    find_cuda_helper::include_cuda();\n    \
             println!(\"cargo:rerun-if-changed=build.rs\");\n}\n",
        );
        assert_eq!(
            out,
            "fn main() {\n    println!(\"cargo:rerun-if-changed=build.rs\");\n}\n"
        );
        assert!(left.is_empty(), "{left:?}");
        // Imported by name: the import goes with the call.
        let (out, left) =
            script("use find_cuda_helper::include_cuda;\n\nfn main() {\n    include_cuda();\n}\n");
        assert_eq!(out, "\nfn main() {\n}\n");
        assert!(left.is_empty(), "{left:?}");
        // pkg-config's package of the driver, through `.unwrap()`, `let _ =` and a builder.
        for call in [
            "pkg_config::probe_library(\"cuda\").unwrap();",
            "let _ = pkg_config::probe_library(\"cuda-12.4\");",
            "pkg_config::Config::new().atleast_version(\"12.0\").probe(\"cuda\").expect(\"cuda\");",
        ] {
            let (out, left) = script(&format!("fn main() {{\n    {call}\n}}\n"));
            assert_eq!(out, "fn main() {\n}\n", "{call}");
            assert!(left.is_empty(), "{call}: {left:?}");
        }
        // Not the driver: kept, nothing said.
        for call in [
            "pkg_config::probe_library(\"cudart-12.4\").unwrap();",
            "pkg_config::probe_library(\"zlib\").unwrap();",
            "other::include_cuda();",
        ] {
            let source = format!("fn main() {{\n    {call}\n}}\n");
            let (out, left) = script(&source);
            assert_eq!(out, source);
            assert!(left.is_empty(), "{call}: {left:?}");
        }
    }

    #[test]
    fn finder_calls_serving_other_libraries_are_said() {
        // The search path it adds may serve cublas: the call is left, with the line to change.
        let source = "use find_cuda_helper::include_cuda;\nfn main() {\n    include_cuda();\n    \
                      println!(\"cargo:rustc-link-lib=dylib=cublas\");\n}\n";
        let (out, left) = script(source);
        assert_eq!(out, source);
        assert_eq!(left.len(), 1, "{left:?}");
        assert!(
            left[0].starts_with("line 3: `find_cuda_helper::include_cuda` links libcuda")
                && left[0].contains("(cublas)"),
            "{left:?}"
        );
        // Within an expression: said, left.
        let source = "fn main() {\n    let lib = pkg_config::probe_library(\"cuda\").unwrap();\n    \
                      drop(lib);\n}\n";
        let (out, left) = script(source);
        assert_eq!(out, source);
        assert!(
            left.len() == 1 && left[0].contains("within an expression"),
            "{left:?}"
        );
    }

    #[test]
    fn build_script_statements_are_removed() {
        let (out, left) = script(
            "fn main() {\n    println!(\"cargo:rustc-link-search=native=/opt\");\n    \
             println!(\"cargo:rustc-link-lib=dylib=cuda\");\n    \
             if true { println!(\"cargo::rustc-link-lib=cuda\") ; }\n}\n",
        );
        assert_eq!(
            out,
            "fn main() {\n    println!(\"cargo:rustc-link-search=native=/opt\");\n    \
             if true {  }\n}\n"
        );
        assert!(left.is_empty(), "{left:?}");
        // A statement's attributes go with it.
        let (out, left) = script(
            "fn main() {\n    #[cfg(feature = \"driver\")]\n    \
             println!(\"cargo:rustc-link-lib=dylib=cuda\");\n    let _ = 1;\n}\n",
        );
        assert_eq!(out, "fn main() {\n    let _ = 1;\n}\n");
        assert!(left.is_empty(), "{left:?}");
        let (out, left) = script(
            "fn main() { let l = \"cargo:rustc-link-lib=cuda\"; let _ = format!(\"{}\", \
             if true { l } else { \"\" }); }\n",
        );
        assert!(out.contains("let l ="), "{out}");
        assert_eq!(left.len(), 1, "{left:?}");
    }

    #[test]
    fn config_flags_are_removed_keeping_the_rest() {
        let text = "# flags\n[build]\nrustflags = [\"-C\", \"target-cpu=native\", \"-l\", \
                    \"cuda\", \"-lcuda\"] # kept\n\n[target.x86_64-unknown-linux-gnu]\n\
                    rustflags = \"-L /opt -l dylib=cuda -C link-arg=-lcuda\"\n\n\
                    [target.x86_64-unknown-linux-gnu.cuda]\nrustc-link-lib = [\"cuda\"]\n";
        let (out, changes) = config(text).expect("valid").expect("changed");
        assert_eq!(
            out,
            "# flags\n[build]\nrustflags = [\"-C\", \"target-cpu=native\"] # kept\n\n\
             [target.x86_64-unknown-linux-gnu]\nrustflags = \"-L /opt\"\n\n\
             [target.x86_64-unknown-linux-gnu.cuda]\nrustc-link-lib = []\n"
        );
        assert_eq!(changes.len(), 3, "{changes:?}");
        assert_eq!(config("[build]\nrustflags = [\"-lm\"]\n"), Ok(None));
        let (out, _) = config("[build]\nrustflags = [\"-lcuda\", \"-lm\"]\n")
            .expect("valid")
            .expect("changed");
        assert_eq!(out, "[build]\nrustflags = [\"-lm\"]\n");
        assert!(config("[build\n").is_err());
    }
}
