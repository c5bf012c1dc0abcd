//! Where a source file's `mod name;` and `include!("...")` find their files, as rustc finds them:
//! a module's file is `name.rs` or `name/mod.rs` in the module directory (the file's own folder
//! for `lib.rs`, `main.rs` and `mod.rs`, a folder named after the file for any other), under the
//! inline modules around it; `#[path = "..."]` names it relative to the file's folder (inside an
//! inline module, to that module's directory); `include!` is relative to the file's folder.
//! What cannot be found, or is named at build time, is said so: it is not checked.

use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::{Attribute, Expr, Lit, Meta};

/// The module directories of one file, the innermost inline module's last.
#[derive(Debug)]
pub(super) struct Modules {
    /// The folder of the file itself: `#[path]` and `include!` are relative to it.
    folder: PathBuf,
    /// The directory of each enclosing inline module, the file's own first.
    directories: Vec<PathBuf>,
}

impl Modules {
    /// The directories of `file`'s top level.
    pub(super) fn of(file: &Path) -> Modules {
        let folder = file.parent().map(Path::to_path_buf).unwrap_or_default();
        let stem = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        let own = if matches!(stem, "lib" | "main" | "mod") {
            folder.clone()
        } else {
            folder.join(stem)
        };
        Modules {
            folder,
            directories: vec![own],
        }
    }

    fn directory(&self) -> &Path {
        self.directories
            .last()
            .map_or(&self.folder, PathBuf::as_path)
    }

    /// Into the inline module `name` (`mod name { ... }`), or the one its `#[path]` names.
    pub(super) fn enter(&mut self, name: &str, attrs: &[Attribute]) {
        let inner = match path_attribute(attrs) {
            Some(path) => self.directory().join(path),
            None => self.directory().join(name),
        };
        self.directories.push(inner);
    }

    /// Out of the innermost inline module.
    pub(super) fn leave(&mut self) {
        if self.directories.len() > 1 {
            self.directories.pop();
        }
    }

    /// The file of `mod name;` with `attrs`, or why it is not checked.
    pub(super) fn file_of(&self, name: &str, attrs: &[Attribute]) -> Result<PathBuf, String> {
        if let Some(path) = path_attribute(attrs) {
            // At the top level relative to the file's folder, in an inline module to its
            // directory.
            let base = if self.directories.len() == 1 {
                &self.folder
            } else {
                self.directory()
            };
            let file = base.join(&path);
            return if file.is_file() {
                Ok(file)
            } else {
                Err(format!(
                    "`#[path = {path:?}] mod {name};`: {} is not there to read (generated at \
                     build time?), so the declarations of that module are not checked; check \
                     the file where it is written",
                    file.display()
                ))
            };
        }
        let flat = self.directory().join(format!("{name}.rs"));
        let nested = self.directory().join(name).join("mod.rs");
        if flat.is_file() {
            Ok(flat)
        } else if nested.is_file() {
            Ok(nested)
        } else {
            Err(format!(
                "`mod {name};`: neither {} nor {} is there to read, so the declarations of that \
                 module are not checked",
                flat.display(),
                nested.display()
            ))
        }
    }

    /// The file an `include!` with `tokens` reads, or why it is not checked.
    pub(super) fn included(&self, tokens: &TokenStream) -> Result<PathBuf, String> {
        let mut trees = tokens.clone().into_iter();
        let literal = match (trees.next(), trees.next()) {
            (Some(TokenTree::Literal(literal)), None) => match Lit::new(literal) {
                Lit::Str(s) => Some(s.value()),
                _ => None,
            },
            _ => None,
        };
        let Some(path) = literal else {
            return Err(format!(
                "`include!({tokens})`: a file named at build time (`OUT_DIR`, `concat!`), which \
                 the command cannot read, so the declarations in it are not checked; check the \
                 generated file itself (under `target/`)"
            ));
        };
        let file = self.folder.join(&path);
        if file.is_file() {
            Ok(file)
        } else {
            Err(format!(
                "`include!({path:?})`: {} is not there to read, so the declarations in it are \
                 not checked",
                file.display()
            ))
        }
    }
}

/// The value of a `#[path = "..."]` among `attrs`.
fn path_attribute(attrs: &[Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            Expr::Lit(e) => match &e.lit {
                Lit::Str(s) => Some(s.value()),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("cuda-entry-modules-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create");
        dir
    }

    fn touch(path: &Path) {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("create");
        std::fs::write(path, "").expect("write");
    }

    #[test]
    fn modules_are_found_where_rustc_finds_them() {
        let root = folder("rustc");
        let src = root.join("src");
        for file in [
            "a.rs",
            "b/mod.rs",
            "c/d.rs",
            "inline/e.rs",
            "../gen/decls.rs",
        ] {
            touch(&src.join(file));
        }
        let lib = Modules::of(&src.join("lib.rs"));
        assert_eq!(lib.file_of("a", &[]).expect("a"), src.join("a.rs"));
        assert_eq!(lib.file_of("b", &[]).expect("b"), src.join("b/mod.rs"));
        let path: Attribute = syn::parse_quote!(#[path = "../gen/decls.rs"]);
        assert_eq!(
            lib.file_of("decls", &[path]).expect("decls"),
            src.join("../gen/decls.rs")
        );
        assert!(lib.file_of("missing", &[]).is_err());
        // A non-mod-rs file's modules are in a folder named after it.
        let c = Modules::of(&src.join("c.rs"));
        assert_eq!(c.file_of("d", &[]).expect("d"), src.join("c/d.rs"));
        // Inline modules add their name.
        let mut inline = Modules::of(&src.join("lib.rs"));
        inline.enter("inline", &[]);
        assert_eq!(
            inline.file_of("e", &[]).expect("e"),
            src.join("inline/e.rs")
        );
        inline.leave();
        assert_eq!(inline.file_of("a", &[]).expect("a"), src.join("a.rs"));
    }

    #[test]
    fn includes_of_a_literal_are_read_and_others_are_not_checked() {
        let root = folder("include");
        touch(&root.join("decls.rs"));
        let m = Modules::of(&root.join("lib.rs"));
        let literal: TokenStream = syn::parse_quote!("decls.rs");
        assert_eq!(m.included(&literal).expect("read"), root.join("decls.rs"));
        let generated: TokenStream = syn::parse_quote!(concat!(env!("OUT_DIR"), "/decls.rs"));
        let why = m.included(&generated).expect_err("not readable");
        assert!(why.contains("named at build time"), "{why}");
    }
}
