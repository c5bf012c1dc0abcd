//! Names a file gives its own items, or `use` renames, that the rules would read as standard
//! types (`type u32 = u64;`, `use my::Flag as bool;`): in such a file the command reads no name as
//! the standard type (as the macro never does), so that a declaration right for what its names
//! resolve to is not refused, and says why its types are left to the compiler. A glob import
//! (`use names::*;`) that brings such a name in is not seen: the command reads no other module.

use syn::visit::{self, Visit};
use syn::{Item, UseTree};

/// The names the rules read as standard types.
const STANDARD: &[&str] = &[
    "u8",
    "i8",
    "u16",
    "i16",
    "u32",
    "i32",
    "u64",
    "i64",
    "u128",
    "i128",
    "usize",
    "isize",
    "f32",
    "f64",
    "bool",
    "char",
    "str",
    "c_void",
    "c_char",
    "c_schar",
    "c_uchar",
    "c_short",
    "c_ushort",
    "c_int",
    "c_uint",
    "c_long",
    "c_ulong",
    "c_longlong",
    "c_ulonglong",
    "c_float",
    "c_double",
    "NonNull",
    "NonZero",
    "Option",
];

/// The standard names `file` defines or imports under, anywhere in it, sorted, each once.
pub(super) fn names(file: &syn::File) -> Vec<String> {
    let mut finder = Names(Vec::new());
    finder.visit_file(file);
    let mut names = finder.0;
    names.sort();
    names.dedup();
    names
}

/// The note on each declaration of such a file.
pub(super) fn note(names: &[String]) -> String {
    let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    format!(
        "this file names its own {} like a standard type: its declarations' types are left to \
         the compiler, which resolves them",
        names.join(", ")
    )
}

struct Names(Vec<String>);

impl Names {
    fn add(&mut self, ident: &syn::Ident) {
        let name = ident.to_string();
        if STANDARD.contains(&name.as_str()) || name.starts_with("NonZero") {
            self.0.push(name);
        }
    }

    fn renames(&mut self, tree: &UseTree) {
        match tree {
            UseTree::Rename(r) => self.add(&r.rename),
            UseTree::Path(p) => self.renames(&p.tree),
            UseTree::Group(g) => g.items.iter().for_each(|t| self.renames(t)),
            // `use std::ffi::c_void;` imports the standard type itself; a glob is not followed.
            UseTree::Name(_) | UseTree::Glob(_) => {}
        }
    }
}

impl<'ast> Visit<'ast> for Names {
    fn visit_item(&mut self, item: &'ast Item) {
        match item {
            Item::Type(t) => self.add(&t.ident),
            Item::Struct(s) => self.add(&s.ident),
            Item::Enum(e) => self.add(&e.ident),
            Item::Union(u) => self.add(&u.ident),
            Item::Trait(t) => self.add(&t.ident),
            Item::Use(u) => self.renames(&u.tree),
            _ => {}
        }
        visit::visit_item(self, item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(source: &str) -> Vec<String> {
        names(&syn::parse_file(source).expect("parses"))
    }

    #[test]
    fn items_and_renames_named_like_standard_types_are_found() {
        assert_eq!(found("type u32 = u64;"), ["u32"]);
        assert_eq!(
            found("mod m { struct bool(u8); use x::{Flag as char, y as Option}; }"),
            ["Option", "bool", "char"]
        );
        assert_eq!(found("struct NonZeroU8;"), ["NonZeroU8"]);
    }

    #[test]
    fn imports_of_the_standard_types_themselves_are_not() {
        assert!(found("use std::ffi::c_void; use core::num::NonZeroU32; use x::*;").is_empty());
        assert!(found("type Size = u64; struct Handle(u32);").is_empty());
    }
}
