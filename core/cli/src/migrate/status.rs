//! What a binding's status type is, so that its shim gives the caller the driver's `i32` in that
//! type without ever making a value the type cannot hold (issue 47, item 6).
//!
//! - An integer, or an alias of one: `status as T`.
//! - An enum of the sources migrated (bindgen's rustified `cudaError_enum`): a `match` over its
//!   listed codes, written once per enum and scope ([`Conversion::Enum`]); a code it does not
//!   list (one newer than the bindings) becomes its `CUDA_ERROR_UNKNOWN`, or its variant for 999.
//!   An enum with neither is refused ([`Conversion::Refused`]).
//! - A tuple struct over an integer (bindgen's `--newtype-enum`): built with its constructor.
//! - Anything else (a type of a crate not migrated with this one): through a helper bounded by
//!   `cuda_entry::FromDriver`, so that a type not proven to hold every code does not compile.
//!
//! Every conversion but the last is safe code: a misreading of the sources costs a compile error
//! or a wrong variant, never undefined behaviour.
//!
//! [`collect`] reads a file's type items on the parser's thread, as plain data; an [`Index`] of
//! every file of the run (its crate, its module) resolves a type as written (`CUresult`,
//! `sys::CUresult`) through `use`, `type` aliases, modules and glob imports, across the files and
//! crates of the run, and falls back on the crate's one item of that name where a path leaves
//! what it can follow.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;

use syn::spanned::Spanned;
use syn::visit::{self, Visit};

use crate::source::text::Text;

/// How deep aliases, imports and modules are followed: a cycle ends as a type not seen into.
const DEPTH: usize = 32;

/// The integer types rustc knows without an import.
const INTEGERS: &[&str] = &[
    "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize",
];

/// The C integer aliases of `std::ffi`, `std::os::raw`, `core::ffi` and `libc`.
const C_INTEGERS: &[&str] = &[
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
];

/// A type written as a plain path: `::a::b::C` is `global`, with `[a, b, C]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TypePath {
    global: bool,
    segments: Vec<String>,
}

impl TypePath {
    /// Reads a type's text; `None` for anything but a plain path (a pointer, generic arguments).
    pub(crate) fn parse(text: &str) -> Option<TypePath> {
        let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let (global, rest) = match text.strip_prefix("::") {
            Some(rest) => (true, rest),
            None => (false, text.as_str()),
        };
        let segments: Vec<String> = rest
            .split("::")
            .map(|s| s.strip_prefix("r#").unwrap_or(s).to_owned())
            .collect();
        let ident = |s: &String| {
            s.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
                && s.chars().all(|c| c.is_alphanumeric() || c == '_')
        };
        segments
            .iter()
            .all(ident)
            .then_some(TypePath { global, segments })
    }

    fn last(&self) -> &str {
        self.segments.last().map_or("", String::as_str)
    }
}

/// The type items of one file, by scope: the file, each inline module, each block.
#[derive(Debug, Default)]
pub(crate) struct Items {
    scopes: Vec<Scope>,
}

#[derive(Debug)]
struct Scope {
    /// Its bytes (a module's from its `mod`, a block's braces).
    range: Range<usize>,
    parent: Option<usize>,
    /// An inline module's name; `None` for the file and for a block.
    name: Option<String>,
    /// Whether it is a module (the file, an inline `mod`): names are looked up to the nearest
    /// one.
    module: bool,
    names: HashMap<String, Vec<Item>>,
    /// `use path::*;`
    globs: Vec<TypePath>,
}

#[derive(Debug)]
struct Item {
    line: usize,
    /// Its `#[cfg(..)]` attributes, as written.
    cfgs: Vec<String>,
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    /// A fieldless enum and its variants.
    Enum(Vec<Variant>),
    /// A tuple struct of one field, of that type (`None`: not a plain path).
    Newtype(Option<TypePath>),
    /// Any other struct, a union, an enum with fields.
    Record,
    /// `type X = ..;` (`None`: not a plain path, or generic).
    Alias(Option<TypePath>),
    /// `use a::b as X;`, `extern crate a as X;`
    Use(TypePath),
    /// `mod X { .. }` (its scope), `mod X;` (`None`).
    Module(Option<usize>),
}

#[derive(Debug)]
struct Variant {
    name: String,
    cfgs: Vec<String>,
    /// Its discriminant as the driver's `i32`; `None` where it is not a literal.
    value: Option<i32>,
}

/// Reads the type items of `ast` (parsed from `text`).
pub(crate) fn collect(text: &Text<'_>, ast: &syn::File) -> Items {
    let mut collector = Collector {
        text,
        items: Items::default(),
        stack: Vec::new(),
    };
    collector.enter(0..usize::MAX, None, true);
    visit::visit_file(&mut collector, ast);
    collector.items
}

struct Collector<'a> {
    text: &'a Text<'a>,
    items: Items,
    stack: Vec<usize>,
}

impl Collector<'_> {
    fn enter(&mut self, range: Range<usize>, name: Option<String>, module: bool) -> usize {
        let index = self.items.scopes.len();
        self.items.scopes.push(Scope {
            range,
            parent: self.stack.last().copied(),
            name,
            module,
            names: HashMap::new(),
            globs: Vec::new(),
        });
        self.stack.push(index);
        index
    }

    fn add(&mut self, name: String, attrs: &[syn::Attribute], at: proc_macro2::Span, kind: Kind) {
        let scope = *self.stack.last().unwrap_or(&0);
        let item = Item {
            line: at.start().line,
            cfgs: cfgs(self.text, attrs),
            kind,
        };
        self.items.scopes[scope]
            .names
            .entry(name)
            .or_default()
            .push(item);
    }
}

/// The `#[cfg(..)]` attributes of `attrs`, as written.
fn cfgs(text: &Text<'_>, attrs: &[syn::Attribute]) -> Vec<String> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("cfg"))
        .map(|a| text.of(a))
        .collect()
}

/// An enum discriminant's value as the driver's `i32` (a `u32` above `i32::MAX` is the same
/// bits); `None` unless an integer literal.
fn literal(expr: &syn::Expr) -> Option<i128> {
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(int),
            ..
        }) => int.base10_parse().ok(),
        syn::Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => literal(expr).map(|v: i128| -v),
        syn::Expr::Paren(p) => literal(&p.expr),
        syn::Expr::Group(g) => literal(&g.expr),
        _ => None,
    }
}

fn as_status(value: i128) -> Option<i32> {
    i32::try_from(value)
        .ok()
        .or_else(|| u32::try_from(value).ok().map(|v| v as i32))
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        let name = item.ident.to_string();
        let scope = item.content.as_ref().map(|(_, items)| {
            let range = self.text.range(item.span());
            let scope = self.enter(range, Some(name.clone()), true);
            for inner in items {
                self.visit_item(inner);
            }
            self.stack.pop();
            scope
        });
        self.add(name, &item.attrs, item.ident.span(), Kind::Module(scope));
    }

    fn visit_block(&mut self, block: &'ast syn::Block) {
        let range = self.text.range(block.span());
        self.enter(range, None, false);
        visit::visit_block(self, block);
        self.stack.pop();
    }

    fn visit_item_enum(&mut self, item: &'ast syn::ItemEnum) {
        let mut variants = Vec::new();
        let mut next: Option<i128> = Some(0);
        let mut fieldless = true;
        for v in &item.variants {
            fieldless &= matches!(v.fields, syn::Fields::Unit);
            let value = match &v.discriminant {
                Some((_, expr)) => literal(expr),
                None => next,
            };
            next = value.map(|v| v + 1);
            variants.push(Variant {
                name: v.ident.to_string(),
                cfgs: cfgs(self.text, &v.attrs),
                value: value.and_then(as_status),
            });
        }
        let kind = if fieldless && item.generics.params.is_empty() {
            Kind::Enum(variants)
        } else {
            Kind::Record
        };
        self.add(item.ident.to_string(), &item.attrs, item.ident.span(), kind);
    }

    fn visit_item_struct(&mut self, item: &'ast syn::ItemStruct) {
        let kind = match &item.fields {
            syn::Fields::Unnamed(fields)
                if fields.unnamed.len() == 1 && item.generics.params.is_empty() =>
            {
                let field = fields.unnamed.first().map(|f| self.text.of(&f.ty));
                Kind::Newtype(field.as_deref().and_then(TypePath::parse))
            }
            _ => Kind::Record,
        };
        self.add(item.ident.to_string(), &item.attrs, item.ident.span(), kind);
    }

    fn visit_item_union(&mut self, item: &'ast syn::ItemUnion) {
        self.add(
            item.ident.to_string(),
            &item.attrs,
            item.ident.span(),
            Kind::Record,
        );
    }

    fn visit_item_type(&mut self, item: &'ast syn::ItemType) {
        let target = if item.generics.params.is_empty() {
            TypePath::parse(&self.text.of(&*item.ty))
        } else {
            None
        };
        self.add(
            item.ident.to_string(),
            &item.attrs,
            item.ident.span(),
            Kind::Alias(target),
        );
    }

    fn visit_item_extern_crate(&mut self, item: &'ast syn::ItemExternCrate) {
        let name = item
            .rename
            .as_ref()
            .map_or_else(|| item.ident.to_string(), |(_, r)| r.to_string());
        let path = TypePath {
            global: true,
            segments: vec![item.ident.to_string()],
        };
        self.add(name, &item.attrs, item.ident.span(), Kind::Use(path));
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        let mut imports = Vec::new();
        let mut globs = Vec::new();
        flatten(&item.tree, &mut Vec::new(), &mut imports, &mut globs);
        let global = item.leading_colon.is_some();
        for (segments, name) in imports {
            let path = TypePath { global, segments };
            self.add(name, &item.attrs, item.span(), Kind::Use(path));
        }
        let scope = *self.stack.last().unwrap_or(&0);
        for segments in globs {
            self.items.scopes[scope]
                .globs
                .push(TypePath { global, segments });
        }
    }
}

/// Each import of a `use` tree, with the name it is known by, and each glob's path.
fn flatten(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, String)>,
    globs: &mut Vec<Vec<String>>,
) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten(&p.tree, prefix, out, globs);
            prefix.pop();
        }
        syn::UseTree::Name(n) if n.ident == "self" => {
            if let Some(last) = prefix.last() {
                out.push((prefix.clone(), last.clone()));
            }
        }
        syn::UseTree::Name(n) => {
            let mut path = prefix.clone();
            path.push(n.ident.to_string());
            out.push((path, n.ident.to_string()));
        }
        syn::UseTree::Rename(r) if r.rename == "_" => {}
        syn::UseTree::Rename(r) => {
            let mut path = prefix.clone();
            if r.ident != "self" {
                path.push(r.ident.to_string());
            }
            out.push((path, r.rename.to_string()));
        }
        syn::UseTree::Glob(_) => globs.push(prefix.clone()),
        syn::UseTree::Group(g) => {
            for tree in &g.items {
                flatten(tree, prefix, out, globs);
            }
        }
    }
}

/// One file of the run, for [`Index`].
pub(crate) struct Source<'a> {
    /// How messages name it.
    pub(crate) name: String,
    pub(crate) items: &'a Items,
    /// Its crate: the index of its target among the run's ([`Index::new`]'s `crates`).
    pub(crate) krate: usize,
    /// Its module within that crate: `[]` for the root.
    pub(crate) module: Vec<String>,
}

/// Every file of the run, to resolve types across files and crates.
pub(crate) struct Index<'a> {
    files: Vec<Source<'a>>,
    /// Each crate's name as other crates reach it (a library's), if any.
    crates: Vec<Option<String>>,
}

/// A scope of a file of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Place {
    file: usize,
    scope: usize,
}

/// What a definition reached comes to.
enum Class<'a> {
    Integer,
    Enum(EnumDef<'a>),
    Newtype {
        alias: bool,
    },
    /// A record, a union, an enum with fields: not an integer.
    Other,
}

/// A fieldless enum reached, and the `cfg`s of the way to it.
struct EnumDef<'a> {
    place: Place,
    name: &'a str,
    item: &'a Item,
    cfgs: Vec<String>,
}

/// How a shim gives the driver's status back as the binding's own type.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Conversion {
    /// An integer: `status as T`.
    Integer,
    /// Enums of the sources (one, or several under exclusive `cfg`s): the helper's `match`.
    Enum(Vec<EnumMatch>),
    /// A tuple struct over an integer: its constructor; through a `type` alias (`braced`), as
    /// `T { 0: .. }`, the one form an alias allows.
    Newtype { braced: bool },
    /// Not seen into: the `FromDriver` helper, which compiles only for a proven type.
    Unseen,
    /// An enum with no variant for a code it does not list: the shim is not written (why).
    Refused(String),
}

/// The conversion of one enum: its arms and the variant of a code it does not list.
#[derive(Debug, PartialEq, Eq, Clone)]
pub(crate) struct EnumMatch {
    /// Where it is defined (file, scope, name): one helper per enum and scope.
    pub(crate) key: (usize, usize, String),
    pub(crate) name: String,
    /// The `cfg`s of the enum and of the aliases to it, as written.
    pub(crate) cfgs: Vec<String>,
    /// Each listed variant: its `cfg`s, its code (`None`: compared by `as i32`), its name.
    pub(crate) arms: Vec<(Vec<String>, Option<i32>, String)>,
    /// What a code it does not list becomes.
    pub(crate) unknown: String,
}

impl<'a> Index<'a> {
    /// The index of `files`, whose crates are named (where other crates reach them) by
    /// `crates`.
    pub(crate) fn new(files: Vec<Source<'a>>, crates: Vec<Option<String>>) -> Index<'a> {
        Index { files, crates }
    }

    /// The conversion into the type written `ty` at byte `at` of file `file`.
    pub(crate) fn conversion(&self, file: usize, at: usize, ty: &str) -> Conversion {
        let Some(source) = self.files.get(file) else {
            return Conversion::Unseen;
        };
        let place = Place {
            file,
            scope: scope_at(source.items, at),
        };
        let Some(path) = TypePath::parse(ty) else {
            return Conversion::Unseen;
        };
        let mut classes = Vec::new();
        if !self.classify(&path, place, 0, &[], false, &mut classes) || classes.is_empty() {
            return Conversion::Unseen;
        }
        if classes.iter().all(|c| matches!(c, Class::Integer)) {
            return Conversion::Integer;
        }
        if classes.iter().all(|c| matches!(c, Class::Newtype { .. })) {
            let braced = classes
                .iter()
                .any(|c| matches!(c, Class::Newtype { alias: true }));
            return Conversion::Newtype { braced };
        }
        let mut enums: Vec<EnumDef<'_>> = Vec::new();
        for class in classes {
            let Class::Enum(def) = class else {
                return Conversion::Unseen;
            };
            if !enums
                .iter()
                .any(|e| e.place == def.place && std::ptr::eq(e.item, def.item))
            {
                enums.push(def);
            }
        }
        // Several enums under one name: each needs a `cfg` of its own, or their helpers would
        // be defined twice.
        if enums.len() > 1 && enums.iter().any(|e| e.cfgs.is_empty()) {
            return Conversion::Unseen;
        }
        let mut matches = Vec::new();
        for e in &enums {
            let Kind::Enum(variants) = &e.item.kind else {
                return Conversion::Unseen;
            };
            let unknown = variants
                .iter()
                .find(|v| v.name == "CUDA_ERROR_UNKNOWN")
                .or_else(|| variants.iter().find(|v| v.value == Some(999)));
            let Some(unknown) = unknown else {
                return Conversion::Refused(format!(
                    "the status type `{ty}` is the enum `{}` ({}:{}), which lists neither \
                     `CUDA_ERROR_UNKNOWN` nor a variant for 999: a code it does not list (one \
                     newer than the bindings) would have no value to become, and reading it \
                     into the enum is undefined behaviour; add `CUDA_ERROR_UNKNOWN = 999` to \
                     `{}` (bindgen's has it), or generate it as an integer or a newtype \
                     (bindgen's `--constified-enum`, `--newtype-enum`)",
                    e.name, self.files[e.place.file].name, e.item.line, e.name
                ));
            };
            matches.push(EnumMatch {
                key: (e.place.file, e.place.scope, e.name.to_owned()),
                name: e.name.to_owned(),
                cfgs: e.cfgs.clone(),
                arms: variants
                    .iter()
                    .map(|v| (v.cfgs.clone(), v.value, v.name.clone()))
                    .collect(),
                unknown: unknown.name.clone(),
            });
        }
        Conversion::Enum(matches)
    }

    /// Adds what `path`, written in `from`, comes to (each definition reached, under `cfgs` and
    /// through a `type` alias or not) to `out`; `false` when some of it cannot be seen into.
    fn classify(
        &'a self,
        path: &TypePath,
        from: Place,
        depth: usize,
        cfgs: &[String],
        alias: bool,
        out: &mut Vec<Class<'a>>,
    ) -> bool {
        if depth > DEPTH {
            return false;
        }
        if is_integer(path) {
            out.push(Class::Integer);
            return true;
        }
        // The facade's own status: `CUresult(pub i32)`.
        if path.segments.first().is_some_and(|s| s == "cuda_entry") && path.last() == "CUresult" {
            out.push(Class::Newtype { alias });
            return true;
        }
        let Some(found) = self.find(path, from, depth) else {
            return false;
        };
        if found.is_empty() {
            // `c_int` from a glob import of `std::ffi` (an `as` into a type that is no integer
            // does not compile).
            if path.segments.len() == 1 && C_INTEGERS.contains(&path.last()) {
                out.push(Class::Integer);
                return true;
            }
            return false;
        }
        for (place, name, item) in found {
            let mut cfgs = cfgs.to_vec();
            cfgs.extend(item.cfgs.iter().cloned());
            match &item.kind {
                Kind::Enum(_) => out.push(Class::Enum(EnumDef {
                    place,
                    name,
                    item,
                    cfgs,
                })),
                Kind::Record | Kind::Newtype(None) | Kind::Alias(None) => out.push(Class::Other),
                Kind::Newtype(Some(field)) => {
                    let mut inner = Vec::new();
                    let integer = self.classify(field, place, depth + 1, &[], false, &mut inner)
                        && !inner.is_empty()
                        && inner.iter().all(|c| matches!(c, Class::Integer));
                    out.push(if integer {
                        Class::Newtype { alias }
                    } else {
                        Class::Other
                    });
                }
                Kind::Alias(Some(target)) => {
                    if !self.classify(target, place, depth + 1, &cfgs, true, out) {
                        return false;
                    }
                }
                Kind::Use(target) => {
                    if !self.classify(target, place, depth + 1, &cfgs, alias, out) {
                        return false;
                    }
                }
                Kind::Module(_) => {}
            }
        }
        true
    }

    /// The items `path` names from `from`: empty when none is found where it points, `None`
    /// when it points outside the run (another crate's).
    fn find(
        &'a self,
        path: &TypePath,
        from: Place,
        depth: usize,
    ) -> Option<Vec<(Place, &'a str, &'a Item)>> {
        let last = path.last();
        if path.segments.len() == 1 && !path.global {
            let found = self.lookup(from, last, depth);
            if !found.is_empty() {
                return Some(found);
            }
            return Some(self.by_name(self.files[from.file].krate, last));
        }
        let module = TypePath {
            global: path.global,
            segments: path.segments[..path.segments.len() - 1].to_vec(),
        };
        if let Some(at) = self.module(&module, from, depth) {
            let found = self.lookup_in(at, last, depth);
            if !found.is_empty() {
                return Some(found);
            }
            return Some(self.by_name(self.files[at.file].krate, last));
        }
        // A path the modules read do not lead along (a file not given, `include!`): the crate's
        // item of that name, where the path is the crate's own or a crate of the run.
        let first = module.segments.first().map_or("", String::as_str);
        if !path.global
            && (["crate", "self", "super"].contains(&first)
                || !self.lookup_modules(from, first).is_empty())
        {
            return Some(self.by_name(self.files[from.file].krate, last));
        }
        let krate = self.crate_named(first)?;
        Some(self.by_name(krate, last))
    }

    /// The type items named `name` in `from` and the blocks around it up to its module, else
    /// through their glob imports.
    fn lookup(&'a self, from: Place, name: &str, depth: usize) -> Vec<(Place, &'a str, &'a Item)> {
        let scopes = &self.files[from.file].items.scopes;
        let mut globs = Vec::new();
        let mut at = Some(from.scope);
        while let Some(s) = at {
            let place = Place {
                file: from.file,
                scope: s,
            };
            let found = self.named(place, name);
            if !found.is_empty() {
                return found;
            }
            globs.push(place);
            if scopes[s].module {
                break;
            }
            at = scopes[s].parent;
        }
        for place in globs {
            let found = self.through_globs(place, name, depth);
            if !found.is_empty() {
                return found;
            }
        }
        Vec::new()
    }

    /// The type items named `name` in the module `at`, or reached through its glob imports.
    fn lookup_in(&'a self, at: Place, name: &str, depth: usize) -> Vec<(Place, &'a str, &'a Item)> {
        let found = self.named(at, name);
        if found.is_empty() {
            self.through_globs(at, name, depth)
        } else {
            found
        }
    }

    fn through_globs(
        &'a self,
        at: Place,
        name: &str,
        depth: usize,
    ) -> Vec<(Place, &'a str, &'a Item)> {
        if depth > DEPTH {
            return Vec::new();
        }
        for glob in &self.files[at.file].items.scopes[at.scope].globs {
            if let Some(module) = self.module(glob, at, depth + 1) {
                let found = self.lookup_in(module, name, depth + 1);
                if !found.is_empty() {
                    return found;
                }
            }
        }
        Vec::new()
    }

    /// The items of `at` named `name` that may be a type.
    fn named(&'a self, at: Place, name: &str) -> Vec<(Place, &'a str, &'a Item)> {
        let scope = &self.files[at.file].items.scopes[at.scope];
        scope
            .names
            .get_key_value(name)
            .map(|(name, items)| {
                items
                    .iter()
                    .filter(|i| !matches!(i.kind, Kind::Module(_)))
                    .map(|i| (at, name.as_str(), i))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The module and import items named `name` in `from` and the blocks around it.
    fn lookup_modules(&'a self, from: Place, name: &str) -> Vec<(Place, &'a Item)> {
        let scopes = &self.files[from.file].items.scopes;
        let mut at = Some(from.scope);
        while let Some(s) = at {
            if let Some(items) = scopes[s].names.get(name) {
                let found: Vec<(Place, &Item)> = items
                    .iter()
                    .filter(|i| matches!(i.kind, Kind::Module(_) | Kind::Use(_)))
                    .map(|i| {
                        (
                            Place {
                                file: from.file,
                                scope: s,
                            },
                            i,
                        )
                    })
                    .collect();
                if !found.is_empty() {
                    return found;
                }
            }
            if scopes[s].module {
                break;
            }
            at = scopes[s].parent;
        }
        Vec::new()
    }

    /// Every type item named `name` of crate `krate`: where a path cannot be followed, the
    /// crate's item of that name (several, each is classified: if they differ, the type is not
    /// seen into).
    fn by_name(&'a self, krate: usize, name: &str) -> Vec<(Place, &'a str, &'a Item)> {
        let mut found = Vec::new();
        for (file, source) in self.files.iter().enumerate() {
            if source.krate != krate {
                continue;
            }
            for scope in 0..source.items.scopes.len() {
                found.extend(self.named(Place { file, scope }, name));
            }
        }
        found
    }

    /// The module `path` names from `from`.
    fn module(&'a self, path: &TypePath, from: Place, depth: usize) -> Option<Place> {
        if depth > DEPTH {
            return None;
        }
        let (first, rest) = path.segments.split_first()?;
        let mut at = if path.global {
            self.root(self.crate_named(first)?)?
        } else {
            match first.as_str() {
                "crate" => self.root(self.files[from.file].krate)?,
                "self" => self.module_of(from),
                "super" => self.parent_module(self.module_of(from))?,
                _ => match self.lookup_modules(from, first).first() {
                    Some((place, item)) => self.enter(*place, first, item, depth)?,
                    None => self.root(self.crate_named(first)?)?,
                },
            }
        };
        for segment in rest {
            at = if segment == "super" {
                self.parent_module(at)?
            } else {
                let items = self.files[at.file].items.scopes[at.scope]
                    .names
                    .get(segment.as_str())?;
                let item = items
                    .iter()
                    .find(|i| matches!(i.kind, Kind::Module(_) | Kind::Use(_)))?;
                self.enter(at, segment, item, depth)?
            };
        }
        Some(at)
    }

    /// The module a module or import item `name` of `at` leads to.
    fn enter(&'a self, at: Place, name: &str, item: &Item, depth: usize) -> Option<Place> {
        match &item.kind {
            Kind::Module(Some(scope)) => Some(Place {
                file: at.file,
                scope: *scope,
            }),
            Kind::Module(None) => {
                let mut module = self.path_of(self.module_of(at));
                module.push(name.to_owned());
                self.file_of(self.files[at.file].krate, &module)
            }
            Kind::Use(target) => self.module(target, at, depth + 1),
            _ => None,
        }
    }

    /// The nearest module around `at`.
    fn module_of(&self, at: Place) -> Place {
        let scopes = &self.files[at.file].items.scopes;
        let mut scope = at.scope;
        while !scopes[scope].module {
            match scopes[scope].parent {
                Some(parent) => scope = parent,
                None => break,
            }
        }
        Place {
            file: at.file,
            scope,
        }
    }

    /// The module around the module `at`.
    fn parent_module(&self, at: Place) -> Option<Place> {
        let scopes = &self.files[at.file].items.scopes;
        match scopes[at.scope].parent {
            Some(parent) => Some(self.module_of(Place {
                file: at.file,
                scope: parent,
            })),
            None => {
                let mut module = self.files[at.file].module.clone();
                module.pop()?;
                self.file_of(self.files[at.file].krate, &module)
            }
        }
    }

    /// The path of the module `at` within its crate.
    fn path_of(&self, at: Place) -> Vec<String> {
        let scopes = &self.files[at.file].items.scopes;
        let mut names = Vec::new();
        let mut scope = Some(at.scope);
        while let Some(s) = scope {
            if let Some(name) = &scopes[s].name {
                names.push(name.clone());
            }
            scope = scopes[s].parent;
        }
        let mut path = self.files[at.file].module.clone();
        path.extend(names.into_iter().rev());
        path
    }

    /// The root of the file of crate `krate` that is the module `module`.
    fn file_of(&self, krate: usize, module: &[String]) -> Option<Place> {
        self.files
            .iter()
            .position(|f| f.krate == krate && f.module == module)
            .map(|file| Place { file, scope: 0 })
    }

    fn root(&self, krate: usize) -> Option<Place> {
        self.file_of(krate, &[])
    }

    /// The crate of the run other crates reach as `name`.
    fn crate_named(&self, name: &str) -> Option<usize> {
        self.crates.iter().position(|c| c.as_deref() == Some(name))
    }
}

/// Whether `path` is one of rustc's integers or a C integer of the standard library or libc.
fn is_integer(path: &TypePath) -> bool {
    let last = path.last();
    match path.segments.as_slice() {
        [one] if !path.global => INTEGERS.contains(&one.as_str()),
        [first, .., _] => {
            ["std", "core", "alloc", "libc"].contains(&first.as_str())
                && (INTEGERS.contains(&last) || C_INTEGERS.contains(&last))
        }
        _ => false,
    }
}

/// The innermost scope of `items` holding byte `at`.
fn scope_at(items: &Items, at: usize) -> usize {
    items
        .scopes
        .iter()
        .enumerate()
        .filter(|(_, s)| s.range.contains(&at))
        .min_by_key(|(_, s)| s.range.end - s.range.start)
        .map_or(0, |(i, _)| i)
}

/// The conversions of one file, each type asked once.
pub(crate) struct Resolver<'a> {
    index: &'a Index<'a>,
    file: usize,
    cache: RefCell<HashMap<(usize, String), Rc<Conversion>>>,
}

impl<'a> Resolver<'a> {
    pub(crate) fn new(index: &'a Index<'a>, file: usize) -> Resolver<'a> {
        Resolver {
            index,
            file,
            cache: RefCell::new(HashMap::new()),
        }
    }

    /// The conversion into `ty`, written at byte `at` of the file.
    pub(crate) fn conversion(&self, at: usize, ty: &str) -> Rc<Conversion> {
        let scope = self.scope(at);
        let key = (scope, ty.to_owned());
        if let Some(known) = self.cache.borrow().get(&key) {
            return Rc::clone(known);
        }
        let conversion = Rc::new(self.index.conversion(self.file, at, ty));
        self.cache.borrow_mut().insert(key, Rc::clone(&conversion));
        conversion
    }

    /// The scope of byte `at`: a helper is written once in each.
    pub(crate) fn scope(&self, at: usize) -> usize {
        self.index
            .files
            .get(self.file)
            .map_or(0, |f| scope_at(f.items, at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::parse::parse;

    fn items(source: &str) -> Items {
        parse(std::path::Path::new("t.rs"), source, |ast, _| {
            collect(&Text::new(source), ast)
        })
        .expect("parses")
    }

    /// The conversion into `ty` as written at the first `HERE` of `source`.
    fn conversion(sources: &[(&str, Vec<&str>, &str)], ty: &str) -> Conversion {
        let read: Vec<Items> = sources.iter().map(|(_, _, s)| items(s)).collect();
        let files = sources
            .iter()
            .zip(&read)
            .map(|((name, module, _), items)| Source {
                name: (*name).to_owned(),
                items,
                krate: usize::from(name.starts_with("other/")),
                module: module.iter().map(|s| (*s).to_owned()).collect(),
            })
            .collect();
        let index = Index::new(
            files,
            vec![Some("gpu".to_owned()), Some("other".to_owned())],
        );
        let at = sources[0].2.find("HERE").expect("HERE");
        index.conversion(0, at, ty)
    }

    fn one(source: &str, ty: &str) -> Conversion {
        conversion(&[("src/lib.rs", vec![], source)], ty)
    }

    const RUSTIFIED: &str = "#[repr(u32)] pub enum cudaError_enum { CUDA_SUCCESS = 0, \
                             CUDA_ERROR_INVALID_VALUE, CUDA_ERROR_BIG = 0xFFFF_FFFF, \
                             CUDA_ERROR_UNKNOWN = 999 }\n";

    #[test]
    fn integers_and_aliases_of_them_are_cast() {
        let source = "use std::ffi::c_uint; pub type CUresult = c_uint; \
                      pub type Other = CUresult; fn f() { /* HERE */ }";
        assert_eq!(one(source, "CUresult"), Conversion::Integer);
        assert_eq!(one(source, "Other"), Conversion::Integer);
        assert_eq!(one(source, "u32"), Conversion::Integer);
        assert_eq!(one(source, "::std::os::raw::c_int"), Conversion::Integer);
        // bindgen's constified enum module.
        let module = "pub mod cudaError_enum { pub type Type = ::std::os::raw::c_uint; \
                      pub const CUDA_SUCCESS: Type = 0; }\n\
                      pub use self::cudaError_enum::Type as CUresult; // HERE";
        assert_eq!(one(module, "CUresult"), Conversion::Integer);
    }

    #[test]
    fn an_enum_is_matched_with_its_listed_codes() {
        for alias in [
            "pub use self::cudaError_enum as CUresult;",
            "pub type CUresult = cudaError_enum;",
        ] {
            let source =
                format!("{RUSTIFIED}{alias}\nmod inner {{ use super::CUresult; // HERE\n}}");
            let Conversion::Enum(matches) = one(&source, "CUresult") else {
                panic!("{alias}: not an enum");
            };
            let [m] = matches.as_slice() else {
                panic!("{matches:?}")
            };
            assert_eq!(m.name, "cudaError_enum");
            assert_eq!(m.unknown, "CUDA_ERROR_UNKNOWN");
            let codes: Vec<(Option<i32>, &str)> =
                m.arms.iter().map(|(_, v, n)| (*v, n.as_str())).collect();
            assert_eq!(
                codes,
                [
                    (Some(0), "CUDA_SUCCESS"),
                    (Some(1), "CUDA_ERROR_INVALID_VALUE"),
                    (Some(-1), "CUDA_ERROR_BIG"),
                    (Some(999), "CUDA_ERROR_UNKNOWN"),
                ]
            );
        }
    }

    #[test]
    fn an_enum_without_an_unknown_code_takes_its_999_or_is_refused() {
        let source = "pub enum CUresult { CUDA_SUCCESS = 0, CUDA_ERROR_OTHER = 999 } // HERE";
        let Conversion::Enum(matches) = one(source, "CUresult") else {
            panic!("not an enum");
        };
        assert_eq!(matches[0].unknown, "CUDA_ERROR_OTHER");
        let source = "pub enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1 }\n\
                      pub type CUresult = cudaError_enum; // HERE";
        let Conversion::Refused(why) = one(source, "CUresult") else {
            panic!("not refused");
        };
        assert!(
            why.starts_with(
                "the status type `CUresult` is the enum `cudaError_enum` (src/lib.rs:1), which \
                 lists neither `CUDA_ERROR_UNKNOWN` nor a variant for 999"
            ),
            "{why}"
        );
    }

    #[test]
    fn enums_under_exclusive_cfgs_each_get_a_match() {
        let source = "#[cfg(feature = \"a\")] pub enum E { CUDA_SUCCESS = 0, CUDA_ERROR_UNKNOWN = 999 }\n\
                      #[cfg(not(feature = \"a\"))] pub enum E { CUDA_SUCCESS = 0, CUDA_ERROR_NEW = 5, \
                      CUDA_ERROR_UNKNOWN = 999 }\npub use self::E as CUresult; // HERE";
        let Conversion::Enum(matches) = one(source, "CUresult") else {
            panic!("not an enum");
        };
        assert_eq!(matches.len(), 2);
        assert_eq!(matches[0].cfgs, ["#[cfg(feature = \"a\")]"]);
        assert_eq!(matches[1].arms.len(), 3);
        // Two enums of one name and no `cfg`: which one is meant cannot be told.
        let source = "mod a { pub enum E { CUDA_ERROR_UNKNOWN = 999 } }\n\
                      mod b { pub enum E { CUDA_ERROR_UNKNOWN = 999 } }\nuse crate::c::E; // HERE";
        assert_eq!(one(source, "E"), Conversion::Unseen);
    }

    #[test]
    fn newtypes_are_constructed() {
        let newtype =
            "#[repr(transparent)] pub struct cudaError_enum(pub ::std::os::raw::c_uint);\n";
        let source = format!("{newtype}pub use self::cudaError_enum as CUresult; // HERE");
        assert_eq!(
            one(&source, "CUresult"),
            Conversion::Newtype { braced: false }
        );
        let source = format!("{newtype}pub type CUresult = cudaError_enum; // HERE");
        assert_eq!(
            one(&source, "CUresult"),
            Conversion::Newtype { braced: true }
        );
        assert_eq!(
            one("use cuda_entry::types::CUresult; // HERE", "CUresult"),
            Conversion::Newtype { braced: false }
        );
        // A struct over anything but an integer is not a newtype of a status.
        let source = "pub struct CUresult(pub f32x); pub struct f32x { a: u8 } // HERE";
        assert_eq!(one(source, "CUresult"), Conversion::Unseen);
    }

    #[test]
    fn what_is_not_in_the_run_is_unseen() {
        assert_eq!(
            one("use other_crate::CUresult; // HERE", "CUresult"),
            Conversion::Unseen
        );
        assert_eq!(one("// HERE", "Missing"), Conversion::Unseen);
        assert_eq!(one("// HERE", "*mut u32"), Conversion::Unseen);
        // An alias cycle ends.
        assert_eq!(
            one("type A = B; type B = A; // HERE", "A"),
            Conversion::Unseen
        );
    }

    #[test]
    fn types_are_found_across_files_and_crates_of_the_run() {
        let lib = "pub mod sys; pub use other as raw; // HERE";
        let sys = format!("{RUSTIFIED}pub use self::cudaError_enum as CUresult;");
        let other = format!("{RUSTIFIED}pub type CUresult = cudaError_enum;");
        let files = [
            ("src/lib.rs", vec![], lib),
            ("src/sys.rs", vec!["sys"], sys.as_str()),
            ("other/src/lib.rs", vec![], other.as_str()),
        ];
        for ty in [
            "sys::CUresult",
            "crate::sys::CUresult",
            "other::CUresult",
            "raw::CUresult",
        ] {
            assert!(
                matches!(conversion(&files, ty), Conversion::Enum(_)),
                "{ty}"
            );
        }
        // By name, where a path leads out of the files read (`include!`).
        let files = [
            ("src/lib.rs", vec![], "include!(\"b.rs\"); // HERE"),
            ("src/b.rs", vec!["b"], sys.as_str()),
        ];
        assert!(matches!(
            conversion(&files, "crate::CUresult"),
            Conversion::Enum(_)
        ));
    }

    #[test]
    fn plain_paths_are_read() {
        assert_eq!(
            TypePath::parse(" :: std :: ffi::c_int"),
            Some(TypePath {
                global: true,
                segments: vec!["std".into(), "ffi".into(), "c_int".into()]
            })
        );
        assert_eq!(TypePath::parse("Option<u32>"), None);
        assert_eq!(TypePath::parse("[u8; 4]"), None);
        assert_eq!(
            TypePath::parse("r#type").map(|p| p.segments),
            Some(vec!["type".to_owned()])
        );
    }
}
