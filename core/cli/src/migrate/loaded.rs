//! Bindings that load driver exports by name at run time, the two shapes besides `extern` blocks:
//!
//! - **A struct of loaded functions**, as bindgen's `--dynamic-loading` writes it: a
//!   `libloading::Library` field and a field per export, `Result<unsafe extern "C" fn(..) -> ..,
//!   ::libloading::Error>` (or the bare function pointer with `--dynamic-link-require-all`),
//!   filled in its constructor by `let cuInit = __library.get(b"cuInit\0").map(|sym| *sym);`.
//!   Migrated, each field is filled with a shim that calls a `#[cuda_entry]` declaration (in a
//!   module written before the struct), so the struct, its constructors and its methods keep
//!   their API: the methods call through the fields, which now reach the entries.
//! - **Wrapper functions** that load one export lazily (a `OnceLock` or `Lazy` around
//!   `Library::get(b"cuMemAlloc_v2\0")`, cudarc's `driver::sys` with `dynamic-loading`), often
//!   with an `extern` block under a `cfg` in the same body. Migrated, the function keeps its name,
//!   attributes and signature, and its body calls a `#[cuda_entry]` declaration written before
//!   it.
//!
//! The export loaded (the literal's text without its NUL) names the typedef, as for an `extern`
//! item.

use std::collections::HashSet;
use std::ops::Range;

use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{Expr, Fields, GenericArgument, ImplItem, Lit, Pat, PathArguments, Safety, Type};

use super::binding::{Linked, linked_of};
use crate::source::linked::is_driver_name;
use crate::source::text::Text;

/// What a source loads by name.
#[derive(Debug, Default)]
pub(crate) struct Loaded {
    pub(crate) structs: Vec<LoadedStruct>,
    pub(crate) wrappers: Vec<Linked>,
}

/// A struct of loaded driver functions.
#[derive(Debug)]
pub(crate) struct LoadedStruct {
    /// The struct's name.
    pub(crate) name: String,
    /// Where its first attribute (or comment) starts: the entries' module goes there.
    pub(crate) start: usize,
    pub(crate) indent: String,
    pub(crate) fields: Vec<LoadedField>,
}

/// A field of a [`LoadedStruct`] holding a driver function.
#[derive(Debug)]
pub(crate) struct LoadedField {
    /// The function, as its field's type declares it (named by the field).
    pub(crate) function: Linked,
    /// The function pointer type, as written.
    pub(crate) pointer: String,
    /// Whether the field is a `Result` (else the bare pointer).
    pub(crate) fallible: bool,
    /// The initialiser of its `let` in the constructor.
    pub(crate) init: Range<usize>,
}

/// The driver export a string, byte string or C string literal names (`b"cuInit\0"`).
fn export_of_literal(lit: &Lit) -> Option<String> {
    let text = match lit {
        Lit::Str(s) => s.value(),
        Lit::ByteStr(b) => String::from_utf8(b.value()).ok()?,
        Lit::CStr(c) => c.value().into_string().ok()?,
        _ => return None,
    };
    let text = text.strip_suffix('\0').unwrap_or(&text);
    let identifier = text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (identifier && is_driver_name(text)).then(|| text.to_owned())
}

/// The driver exports the literals of a syntax node name.
#[derive(Default)]
struct Literals(Vec<String>);

impl<'ast> Visit<'ast> for Literals {
    fn visit_lit(&mut self, lit: &'ast Lit) {
        if let Some(export) = export_of_literal(lit)
            && !self.0.contains(&export)
        {
            self.0.push(export);
        }
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        for token in mac.tokens.clone() {
            if let proc_macro2::TokenTree::Literal(l) = token {
                self.visit_lit(&Lit::new(l));
            }
        }
    }
}

/// The one driver export a function's body loads by name, if it loads exactly one: a wrapper.
pub(crate) fn wrapper_export(f: &syn::ItemFn) -> Option<String> {
    if f.sig.receiver().is_some() || !f.sig.generics.params.is_empty() || f.sig.abi.is_some() {
        return None;
    }
    let mut literals = Literals::default();
    literals.visit_block(&f.block);
    match literals.0.as_slice() {
        [export] => Some(export.clone()),
        _ => None,
    }
}

/// The function pointer a field holds: `Result<fn, _>` (fallible) or `fn`.
fn field_pointer(ty: &Type) -> Option<(&syn::TypeFnPtr, bool)> {
    match ty {
        Type::FnPtr(f) => Some((f, false)),
        Type::Path(p) => {
            let last = p.path.segments.last()?;
            let PathArguments::AngleBracketed(args) = &last.arguments else {
                return None;
            };
            match (last.ident == "Result", args.args.first()) {
                (true, Some(GenericArgument::Type(Type::FnPtr(f)))) => Some((f, true)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether a type is a path ending in `Library` (`::libloading::Library`).
fn is_library(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "Library"))
}

/// Finds the structs of loaded functions and the wrapper functions of `ast`.
pub(crate) fn find(text: &Text<'_>, ast: &syn::File) -> Loaded {
    let mut finder = Finder {
        text,
        loaded: Loaded::default(),
        inits: Vec::new(),
    };
    finder.visit_file(ast);
    let Finder {
        mut loaded, inits, ..
    } = finder;
    // Only the fields whose initialiser was found can be redirected.
    for s in &mut loaded.structs {
        let fields = std::mem::take(&mut s.fields);
        s.fields = fields
            .into_iter()
            .filter_map(|mut field| {
                let (export, init) = inits
                    .iter()
                    .find(|(owner, name, _, _)| *owner == s.name && *name == field.function.name)
                    .map(|(_, _, export, init)| (export.clone(), init.clone()))?;
                if let Some(export) = export {
                    field.function.export = export;
                }
                field.init = init;
                Some(field)
            })
            .collect();
    }
    loaded.structs.retain(|s| !s.fields.is_empty());
    loaded
}

struct Finder<'a> {
    text: &'a Text<'a>,
    loaded: Loaded,
    /// The `let <field> = <init>;` of each struct's impls: (struct, field, export loaded, init).
    inits: Vec<(String, String, Option<String>, Range<usize>)>,
}

impl<'ast> Visit<'ast> for Finder<'_> {
    fn visit_item_struct(&mut self, item: &'ast syn::ItemStruct) {
        let Fields::Named(named) = &item.fields else {
            return;
        };
        if !named.named.iter().any(|f| is_library(&f.ty)) {
            return;
        }
        let mut fields = Vec::new();
        for field in &named.named {
            let Some(ident) = &field.ident else { continue };
            let (Some((pointer, fallible)), true) =
                (field_pointer(&field.ty), is_driver_name(&ident.to_string()))
            else {
                continue;
            };
            let abi = pointer.abi.as_ref().and_then(|a| a.name.as_ref());
            if !matches!(abi.map(syn::LitStr::value).as_deref(), Some("C" | "system")) {
                continue;
            }
            let sig = syn::Signature {
                constness: None,
                asyncness: None,
                safety: Safety::Unsafe(Default::default()),
                abi: None,
                fn_token: Default::default(),
                ident: ident.clone(),
                generics: Default::default(),
                paren_token: Default::default(),
                inputs: pointer
                    .inputs
                    .iter()
                    .enumerate()
                    .map(|(i, arg)| {
                        let name = arg.name.as_ref().map_or_else(
                            || syn::Ident::new(&format!("arg{i}"), proc_macro2::Span::call_site()),
                            |(n, _)| n.clone(),
                        );
                        syn::FnArg::Typed(syn::PatType {
                            attrs: Vec::new(),
                            pat: Box::new(Pat::Ident(syn::PatIdent {
                                attrs: Vec::new(),
                                by_ref: None,
                                mutability: None,
                                ident: name,
                                subpat: None,
                            })),
                            colon_token: Default::default(),
                            ty: Box::new(arg.ty.clone()),
                        })
                    })
                    .collect(),
                variadic: None,
                output: pointer.output.clone(),
            };
            let mut function = linked_of(
                self.text,
                &[],
                &field.vis,
                &sig,
                field.span(),
                ident.to_string(),
            );
            // The types as written in the field (the signature above was rebuilt from them).
            for (param, arg) in function.params.iter_mut().zip(&pointer.inputs) {
                param.ty = self.text.of(&arg.ty);
            }
            function.ret = match &pointer.output {
                syn::ReturnType::Default => None,
                syn::ReturnType::Type(_, ty) => Some(self.text.of(&**ty)),
            };
            function.variadic = pointer.variadic.is_some();
            fields.push(LoadedField {
                function,
                pointer: self.text.of(pointer),
                fallible,
                init: 0..0,
            });
        }
        if !fields.is_empty() {
            let range = self.text.range(item.span());
            let (start, _) = self.text.comments_above(range.start);
            self.loaded.structs.push(LoadedStruct {
                name: item.ident.to_string(),
                start,
                indent: self.text.indent(range.start),
                fields,
            });
        }
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        let Type::Path(self_ty) = &*item.self_ty else {
            return;
        };
        let Some(owner) = self_ty.path.segments.last().map(|s| s.ident.to_string()) else {
            return;
        };
        for impl_item in &item.items {
            if let ImplItem::Fn(f) = impl_item {
                let mut lets = Lets::default();
                lets.visit_block(&f.block);
                for (name, init) in lets.0 {
                    let mut literals = Literals::default();
                    literals.visit_expr(init);
                    // One export loaded by name (a field already migrated loads none).
                    if let [export] = literals.0.as_slice() {
                        let range = self.text.range(init.span());
                        self.inits
                            .push((owner.clone(), name, Some(export.clone()), range));
                    }
                }
            }
        }
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if let Some(export) = wrapper_export(f) {
            let mut function = linked_of(self.text, &f.attrs, &f.vis, &f.sig, f.span(), export);
            function.safe = !matches!(f.sig.safety, Safety::Unsafe(_));
            self.loaded.wrappers.push(function);
        } else {
            visit::visit_item_fn(self, f);
        }
    }
}

/// The `let <name> = <init>;` statements of a body, at any depth.
#[derive(Default)]
struct Lets<'ast>(Vec<(String, &'ast Expr)>);

impl<'ast> Visit<'ast> for Lets<'ast> {
    fn visit_local(&mut self, local: &'ast syn::Local) {
        if let (Pat::Ident(p), Some(init)) = (&local.pat, &local.init) {
            self.0.push((p.ident.to_string(), &init.expr));
        }
        visit::visit_local(self, local);
    }
}

/// The module holding a struct's entries and shims: the struct's name in snake case, with
/// `_entries`, free in the file.
pub(crate) fn module_name(name: &str, taken: &mut HashSet<String>) -> String {
    let mut snake = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 && !snake.ends_with('_') {
                snake.push('_');
            }
            snake.push(c.to_ascii_lowercase());
        } else {
            snake.push(c);
        }
    }
    let mut module = format!("{}_entries", snake.trim_start_matches('_'));
    while taken.contains(&module) {
        module.push('_');
    }
    taken.insert(module.clone());
    module
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_name_exports() {
        let lit = |s: &str| syn::parse_str::<Lit>(s).expect("a literal");
        assert_eq!(
            export_of_literal(&lit(r#"b"cuMemAlloc_v2\0""#)).as_deref(),
            Some("cuMemAlloc_v2")
        );
        assert_eq!(
            export_of_literal(&lit(r#""cuInit""#)).as_deref(),
            Some("cuInit")
        );
        assert_eq!(
            export_of_literal(&lit(r#"c"cuInit""#)).as_deref(),
            Some("cuInit")
        );
        assert_eq!(export_of_literal(&lit(r#""cudaMalloc""#)), None);
        assert_eq!(export_of_literal(&lit(r#""cuInit: {code}""#)), None);
        assert_eq!(export_of_literal(&lit("7")), None);
    }

    #[test]
    fn module_names_are_snake_case_and_free() {
        let mut taken: HashSet<String> = ["cuda_lib_entries".to_owned()].into();
        assert_eq!(module_name("CudaLib", &mut taken), "cuda_lib_entries_");
        assert_eq!(module_name("Lib", &mut taken), "lib_entries");
    }
}
