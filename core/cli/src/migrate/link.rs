//! The ways a crate links libcuda besides `#[link(name = "cuda")]` (which [`write`] handles
//! with its block): a build script's `cargo:rustc-link-lib=cuda` (any kind, `cargo::` too), and
//! `-l cuda` in the rustflags of `.cargo/config.toml`. `migrate CRATE_DIR` removes each; what it
//! cannot remove is reported.
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

/// The edits removing each statement of a build script that prints a libcuda link line, and a
/// line for each such literal that is not a statement of its own (left for the user).
pub(crate) fn build_script(source: &str, ast: &syn::File) -> (Vec<Edit>, Vec<String>) {
    let text = Text::new(source);
    let mut finder = Statements {
        source,
        text: &text,
        edits: Vec::new(),
        left: Vec::new(),
    };
    finder.visit_file(ast);
    (finder.edits, finder.left)
}

struct Statements<'a> {
    source: &'a str,
    text: &'a Text<'a>,
    edits: Vec<Edit>,
    /// `(line, change)` of what was removed is in `edits`; what could not be is here.
    left: Vec<String>,
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
        let (edits, left) = build_script(source, &ast);
        (super::super::write::apply(source, &edits), left)
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
