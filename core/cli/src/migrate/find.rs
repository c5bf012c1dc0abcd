//! Finding the driver functions a source binds without cuda-entry: the functions of `extern`
//! blocks, linked against libcuda and named by their export (`cuMemAlloc_v2`), and calls through
//! cudarc's `cudarc::driver::sys` (by that path, an alias of it, or its names imported).
//!
//! A driver function is one named `cu` and an uppercase letter; whether the table knows its
//! export is for [`plan`](super::plan) to say. What is found is plain data (text and byte
//! ranges), so that it can leave the parser's thread.

use std::collections::HashSet;
use std::ops::Range;

use proc_macro2::{TokenStream, TokenTree};
use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{
    Attribute, Expr, ExprCall, ForeignItem, ForeignItemFn, ItemForeignMod, ItemUse, UseTree,
};

use super::binding::{Linked, linked_of};
use crate::source::linked::{export_of, is_driver_name, linked};
use crate::source::parse::without_shebang;
use crate::source::text::Text;

/// Everything a source binds without cuda-entry.
#[derive(Debug, Default)]
pub(crate) struct Found {
    /// `extern` blocks with driver functions, in source order.
    pub(crate) blocks: Vec<Block>,
    /// Calls through cudarc's `sys`, in source order.
    pub(crate) calls: Vec<Call>,
    /// Every identifier of the source, for choosing names that are not taken.
    pub(crate) idents: HashSet<String>,
    /// `#[link(name = "cuda")]` attributes of `extern` blocks, in source order.
    pub(crate) links: Vec<LinkAttr>,
    /// Functions that load a driver export by name (see [`loaded`](super::loaded)).
    pub(crate) loaded: super::loaded::Loaded,
}

/// A `#[link(name = "cuda", ...)]` attribute of an `extern` block.
#[derive(Debug)]
pub(crate) struct LinkAttr {
    pub(crate) line: usize,
    /// The attribute's bytes.
    pub(crate) range: Range<usize>,
    /// The block's index in [`Found::blocks`], when it declares driver functions.
    pub(crate) block: Option<usize>,
    /// The exports of the block's functions, driver functions or not.
    pub(crate) functions: Vec<String>,
}

/// An `extern` block (without `#[cuda_entry]`) declaring driver functions.
#[derive(Debug)]
pub(crate) struct Block {
    /// Its bytes, from its first outer attribute to its `}`.
    pub(crate) range: Range<usize>,
    /// The indentation of its first line.
    pub(crate) indent: String,
    /// `C` or `system`.
    pub(crate) abi: String,
    /// Its attributes that each migrated item keeps (`cfg`, lint levels), as written.
    pub(crate) kept: Vec<String>,
    /// How many items it declares, driver functions or not.
    pub(crate) items: usize,
    /// Its driver functions.
    pub(crate) functions: Vec<Linked>,
}

/// A call through cudarc's `sys`.
#[derive(Debug)]
pub(crate) struct Call {
    pub(crate) line: usize,
    pub(crate) column: usize,
    /// The called path as written (`sys::cuMemAlloc_v2`).
    pub(crate) path: String,
    /// The export called: cudarc names its functions by export.
    pub(crate) export: String,
    /// How the source reaches cudarc's `sys` module, for naming its types (`sys`,
    /// `cudarc::driver::sys`).
    pub(crate) module: String,
    pub(crate) arguments: usize,
}

/// Finds what `ast` (parsed from `source`) binds.
pub(crate) fn find(source: &str, ast: &syn::File) -> Found {
    let text = Text::new(source);
    let mut uses = Uses::default();
    uses.visit_file(ast);
    let mut finder = Finder {
        text: &text,
        uses: &uses,
        found: Found::default(),
    };
    finder.visit_file(ast);
    finder.found.loaded = super::loaded::find(&text, ast);
    let mut idents = HashSet::new();
    if let Ok(tokens) = without_shebang(source).parse::<TokenStream>() {
        collect_idents(tokens, &mut idents);
    }
    finder.found.idents = idents;
    finder.found
}

fn collect_idents(tokens: TokenStream, idents: &mut HashSet<String>) {
    for token in tokens {
        match token {
            TokenTree::Ident(i) => {
                idents.insert(i.to_string());
            }
            TokenTree::Group(g) => collect_idents(g.stream(), idents),
            _ => {}
        }
    }
}

/// Where cudarc's `sys` is imported, and as what.
#[derive(Debug, Default)]
struct Uses {
    /// Names of `cudarc::driver::sys` (`sys`, `cu`).
    sys: HashSet<String>,
    /// Names of `cudarc::driver`.
    driver: HashSet<String>,
    /// Functions of `sys` imported by name: local name -> export.
    functions: Vec<(String, String)>,
    /// `use cudarc::driver::sys::*`.
    glob: bool,
}

impl<'ast> Visit<'ast> for Uses {
    fn visit_item_use(&mut self, item: &'ast ItemUse) {
        let mut imports = Vec::new();
        flatten(&item.tree, &mut Vec::new(), &mut imports);
        for (path, name) in imports {
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            match (path.as_slice(), name) {
                (["cudarc", "driver", "sys"], Some(name)) => {
                    self.sys.insert(name);
                }
                (["cudarc", "driver", "sys"], None) => self.glob = true,
                (["cudarc", "driver"], Some(name)) => {
                    self.driver.insert(name);
                }
                (["cudarc", "driver", "sys", function], Some(name)) => {
                    self.functions.push((name, (*function).to_owned()));
                }
                _ => {}
            }
        }
    }
}

/// Each import of a `use` tree: the path and the name it is known by (`None` for a glob).
fn flatten(tree: &UseTree, prefix: &mut Vec<String>, out: &mut Vec<(Vec<String>, Option<String>)>) {
    match tree {
        UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten(&p.tree, prefix, out);
            prefix.pop();
        }
        UseTree::Name(n) if n.ident == "self" => {
            if let Some(last) = prefix.last() {
                out.push((prefix.clone(), Some(last.clone())));
            }
        }
        UseTree::Name(n) => {
            let name = n.ident.to_string();
            let mut path = prefix.clone();
            path.push(name.clone());
            out.push((path, Some(name)));
        }
        UseTree::Rename(r) => {
            let mut path = prefix.clone();
            if r.ident != "self" {
                path.push(r.ident.to_string());
            }
            out.push((path, Some(r.rename.to_string())));
        }
        UseTree::Glob(_) => out.push((prefix.clone(), None)),
        UseTree::Group(g) => {
            for tree in &g.items {
                flatten(tree, prefix, out);
            }
        }
    }
}

struct Finder<'a> {
    text: &'a Text<'a>,
    uses: &'a Uses,
    found: Found,
}

impl Finder<'_> {
    /// The export and the `sys` module a called path names, if it is cudarc's.
    fn cudarc(&self, segments: &[String]) -> Option<(String, String)> {
        let s: Vec<&str> = segments.iter().map(String::as_str).collect();
        let full = "cudarc::driver::sys".to_owned();
        match s.as_slice() {
            [.., "cudarc", "driver", "sys", f] => Some(((*f).to_owned(), full)),
            [module, f] if self.uses.sys.contains(*module) => {
                Some(((*f).to_owned(), (*module).to_owned()))
            }
            [module, "sys", f] if self.uses.driver.contains(*module) => {
                Some(((*f).to_owned(), format!("{module}::sys")))
            }
            [f] => match self.uses.functions.iter().find(|(name, _)| name == f) {
                Some((_, export)) => Some((export.clone(), full)),
                None if self.uses.glob && is_driver_name(f) => Some(((*f).to_owned(), full)),
                None => None,
            },
            _ => None,
        }
    }
}

impl<'ast> Visit<'ast> for Finder<'_> {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        // A wrapper's body is replaced whole, `extern` fallback included (`loaded`).
        if super::loaded::wrapper_export(f).is_none() {
            visit::visit_item_fn(self, f);
        }
    }

    fn visit_item_foreign_mod(&mut self, block: &'ast ItemForeignMod) {
        let abi = block
            .abi
            .name
            .as_ref()
            .map_or_else(|| "C".to_owned(), syn::LitStr::value);
        let functions = linked(block);
        let recorded = !functions.is_empty() && (abi == "C" || abi == "system");
        for attr in block.attrs.iter().filter(|a| links_cuda(a)) {
            self.found.links.push(LinkAttr {
                line: attr.span().start().line,
                range: self.text.range(attr.span()),
                block: recorded.then_some(self.found.blocks.len()),
                functions: block
                    .items
                    .iter()
                    .filter_map(|item| match item {
                        ForeignItem::Fn(f) => Some(export_of(f)),
                        _ => None,
                    })
                    .collect(),
            });
        }
        if recorded {
            let range = self.text.range(block.span());
            let functions = functions
                .into_iter()
                .map(|(f, export)| self.linked(f, export))
                .collect();
            self.found.blocks.push(Block {
                indent: self.text.indent(range.start),
                range,
                abi,
                kept: block
                    .attrs
                    .iter()
                    .filter(|a| kept(a))
                    .map(|a| self.text.of(a))
                    .collect(),
                items: block.items.len(),
                functions,
            });
        }
        visit::visit_item_foreign_mod(self, block);
    }

    fn visit_expr_call(&mut self, call: &'ast ExprCall) {
        if let Expr::Path(path) = &*call.func
            && path.qself.is_none()
        {
            let segments: Vec<String> = path
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            if let Some((export, module)) = self.cudarc(&segments)
                && is_driver_name(&export)
            {
                let at = call.func.span().start();
                self.found.calls.push(Call {
                    line: at.line,
                    column: at.column + 1,
                    path: self.text.of(&path.path),
                    export,
                    module,
                    arguments: call.args.len(),
                });
            }
        }
        visit::visit_expr_call(self, call);
    }
}

impl Finder<'_> {
    fn linked(&self, f: &ForeignItemFn, export: String) -> Linked {
        linked_of(self.text, &f.attrs, &f.vis, &f.sig, f.span(), export)
    }
}

/// Whether `attr` is `#[link(name = "cuda", ...)]`: the block links libcuda.
fn links_cuda(attr: &Attribute) -> bool {
    if !attr.path().is_ident("link") {
        return false;
    }
    let mut cuda = false;
    let _ = attr.parse_nested_meta(|meta| {
        if meta.path.is_ident("name") {
            let name: syn::LitStr = meta.value()?.parse()?;
            cuda |= name.value() == "cuda";
        } else if meta.input.peek(syn::Token![=]) {
            let _: Expr = meta.value()?.parse()?;
        }
        Ok(())
    });
    cuda
}

/// Whether a block's attribute applies to each item migrated out of it: `cfg` and lint levels
/// (`link` and the others stay with the block, or go with it).
fn kept(attr: &Attribute) -> bool {
    ["cfg", "allow", "expect", "warn", "deny", "forbid"]
        .iter()
        .any(|name| attr.path().is_ident(name))
}
