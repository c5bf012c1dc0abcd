//! The declarations: both forms parsed into [`Declaration`]s that own what was written, with the
//! mistakes of their shape (the table is consulted by validation).

use std::fmt;

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::{
    Abi, Attribute, Block, FnArg, ForeignItem, ForeignItemFn, Ident, Item, ItemFn, ItemForeignMod,
    Pat, ReturnType, Safety, Signature, Type, Visibility,
};

use super::arguments::{Argument, Arguments, only_crate};
use super::attribute::{Args, Recognised, arguments_of};
use super::mistake::{Found, Mistake, MistakeKind, place};

/// One declaration, from either form: everything the expansion and validation need, owned.
#[derive(Clone)]
pub struct Declaration {
    /// The other attributes (docs, `cfg`, `deprecated`), kept on the expansion.
    pub attrs: Vec<Attribute>,
    /// The visibility.
    pub vis: Visibility,
    /// The ABI as written (the block's, in the block form); `extern "C"` when missing, a mistake.
    pub abi: Abi,
    /// The function's name.
    pub ident: Ident,
    /// The parameters, in order. A `self` or `...` is not a parameter (each is a mistake).
    pub params: Vec<Parameter>,
    /// The return type, `()` when omitted.
    pub ret: Type,
    /// The attribute's arguments.
    pub args: Arguments,
    /// The parameter list's parentheses: where a wrong arity is reported.
    pub(crate) parens: Span,
    /// The mistakes of its shape, found while parsing.
    pub(crate) found: Found,
}

/// One parameter of a declaration.
#[derive(Clone)]
pub struct Parameter {
    /// Its name; a generated one (`__cuda_entry_arg1`) where the pattern is not an identifier.
    pub name: Ident,
    /// Its type as written (see [`is_c_type`](super::is_c_type): the others are mistakes).
    pub ty: Type,
}

impl fmt::Debug for Declaration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Declaration")
            .field("ident", &self.ident.to_string())
            .field("params", &self.params)
            .field("ret", &self.ret.to_token_stream().to_string())
            .field("args", &self.args)
            .finish_non_exhaustive()
    }
}

impl fmt::Debug for Parameter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.ty.to_token_stream())
    }
}

/// What one `#[cuda_entry]` is on: one declaration (the single form) or a block of them, with the
/// mistakes of the block itself, in source order.
#[derive(Clone, Debug)]
pub struct EntryItem {
    pub(crate) parts: Vec<Part>,
}

/// A declaration, or a mistake of the block between declarations.
#[derive(Clone, Debug)]
pub(crate) enum Part {
    Declaration(Box<Declaration>),
    Mistake(Mistake),
}

impl EntryItem {
    /// The declarations, in source order (each is validated on its own by
    /// [`Declaration::validate`]).
    pub fn declarations(&self) -> impl Iterator<Item = &Declaration> {
        self.parts.iter().filter_map(|p| match p {
            Part::Declaration(d) => Some(&**d),
            Part::Mistake(_) => None,
        })
    }

    /// The mistakes of the block itself (no `unsafe`, attributes on it, an item that is not a
    /// function), which belong to no one declaration. Empty for the single form.
    pub fn mistakes(&self) -> impl Iterator<Item = &Mistake> {
        self.parts.iter().filter_map(|p| match p {
            Part::Mistake(m) => Some(m),
            Part::Declaration(_) => None,
        })
    }

    /// A `#[cuda_entry]` item found in a parsed file (`syn::parse_file`), as the macro would see
    /// it: a function (the single form; a body is a mistake), the single form that syn keeps as
    /// [`Item::Verbatim`], or an `extern` block. `None` when the item has no `#[cuda_entry]`
    /// (nor, for a block, any declaration inside with one).
    ///
    /// An attribute is recognised as `is_entry_attribute` says, and a block's own attribute also
    /// under the path its functions' attributes use (`#[driver_fn] unsafe extern "C" { ... }`).
    pub fn from_item(item: &Item) -> Option<EntryItem> {
        let single_attribute = Recognised::default();
        match item {
            Item::Fn(f) => {
                let (attr, attrs) = single_attribute.take(&f.attrs)?;
                let (vis, sig) = (f.vis.clone(), f.sig.clone());
                Some(single(arguments_of(&attr), attrs, vis, sig, Some(&f.block)))
            }
            Item::Verbatim(tokens) => {
                let f = syn::parse2::<ForeignItemFn>(tokens.clone()).ok()?;
                let (attr, attrs) = single_attribute.take(&f.attrs)?;
                Some(single(arguments_of(&attr), attrs, f.vis, f.sig, None))
            }
            Item::ForeignMod(block) => {
                let recognised = Recognised::in_block(&block.items);
                match block
                    .attrs
                    .iter()
                    .position(|a| recognised.is_block_attribute(a))
                {
                    Some(at) => {
                        let mut block = block.clone();
                        let attr = block.attrs.remove(at);
                        Some(block_form(arguments_of(&attr).tokens, block))
                    }
                    None => without_attribute(block, &recognised),
                }
            }
            _ => None,
        }
    }
}

/// Parses `#[cuda_entry(args)] item` as the macro receives it.
///
/// # Errors
/// A [`MistakeKind::NotADeclaration`] when the item is neither form; every other mistake is kept
/// in the item, for [`EntryItem::validate`] to report with the rest.
pub fn parse_item(args: TokenStream, item: TokenStream) -> Result<EntryItem, Mistake> {
    let args = Args {
        empty: (Span::call_site(), Span::call_site()),
        tokens: args,
    };
    if let Ok(block) = syn::parse2::<ItemForeignMod>(item.clone()) {
        return Ok(block_form(args.tokens, block));
    }
    if let Ok(f) = syn::parse2::<ForeignItemFn>(item.clone()) {
        return Ok(single(args, f.attrs, f.vis, f.sig, None));
    }
    if let Ok(f) = syn::parse2::<ItemFn>(item.clone()) {
        return Ok(single(args, f.attrs, f.vis, f.sig, Some(&f.block)));
    }
    Err(Mistake::at(
        MistakeKind::NotADeclaration,
        item.span(),
        "expected `unsafe extern \"C\" fn name(params) -> Ret;` or an `unsafe extern \"C\" { ... }` \
         block of such declarations",
    ))
}

/// The single form.
fn single(
    args: Args,
    attrs: Vec<Attribute>,
    vis: Visibility,
    sig: Signature,
    body: Option<&Block>,
) -> EntryItem {
    let mut found = Found::default();
    let args = Arguments::parse(args.tokens, args.empty, &mut found);
    let attrs = Recognised::default().duplicates(attrs, &mut found);
    if !matches!(sig.safety, Safety::Unsafe(_)) {
        found.push(
            place::SAFETY,
            Mistake::new(
                MistakeKind::MissingUnsafe,
                sig.fn_token,
                "write `unsafe extern \"C\" fn`: calling a driver function is unsafe, and the \
                 declaration must say so",
            ),
        );
    }
    let abi = match &sig.abi {
        Some(abi) => {
            check_abi(abi, &mut found);
            abi.clone()
        }
        None => {
            found.push(
                place::ABI,
                Mistake::new(
                    MistakeKind::MissingAbi,
                    sig.fn_token,
                    "write `unsafe extern \"C\" fn` (or `extern \"system\"`): the driver uses the \
                     C calling convention",
                ),
            );
            syn::parse_quote!(extern "C")
        }
    };
    if let Some(body) = body {
        found.push(
            place::BODY,
            Mistake::new(
                MistakeKind::FunctionBody,
                body,
                "remove the body: a `#[cuda_entry]` declaration ends with `;`, and the driver \
                 provides the function",
            ),
        );
    }
    let decl = declaration(attrs, vis, abi, sig, args, found);
    EntryItem {
        parts: vec![Part::Declaration(Box::new(decl))],
    }
}

/// The block form; `args` are the block's own attribute's arguments (`crate = ...` at most).
fn block_form(args: TokenStream, block: ItemForeignMod) -> EntryItem {
    let mut parts = Vec::new();
    let mut block_crate = Argument::Absent;
    let only = only_crate(args.clone());
    if only {
        let mut found = Found::default();
        let whole = (Span::call_site(), Span::call_site());
        block_crate = Arguments::parse(args.clone(), whole, &mut found).crate_path;
        parts.extend(found.into_sorted().into_iter().map(Part::Mistake));
    }
    let mut fail = |kind, tokens: &dyn ToTokens, message: &str| {
        parts.push(Part::Mistake(Mistake::new(kind, tokens, message)));
    };
    if !only {
        fail(
            MistakeKind::ArgumentsOnBlock,
            &args,
            "on an `extern` block, write `#[cuda_entry]` alone (or with `crate = \"...\"` alone) \
             and put the arguments on each declaration inside: `#[cuda_entry(symbol = \
             \"cuName\", version = N)]`",
        );
    }
    if let Some(attr) = block.attrs.first() {
        let message = if attr.path().is_ident("link") {
            // bindgen's and hand-written bindings' `#[link(name = "cuda")]`.
            "remove `#[link(...)]`: the declarations are resolved through cuGetProcAddress, so \
             nothing links against libcuda"
        } else {
            "put attributes on the declarations inside the block: the block itself is replaced"
        };
        fail(MistakeKind::AttributesOnBlock, attr, message);
    }
    if block.unsafety.is_none() {
        fail(
            MistakeKind::MissingUnsafe,
            &block.abi,
            "write `unsafe extern \"C\" { ... }`: the block declares functions that are unsafe \
             to call",
        );
    }
    let mut found = Found::default();
    check_abi(&block.abi, &mut found);
    parts.extend(found.into_sorted().into_iter().map(Part::Mistake));
    let recognised = Recognised::in_block(&block.items);
    for item in block.items {
        let ForeignItem::Fn(f) = item else {
            parts.push(Part::Mistake(Mistake::new(
                MistakeKind::NotAFunction,
                &item,
                "only function declarations can be `#[cuda_entry]` entries: move this out of the \
                 block",
            )));
            continue;
        };
        let mut decl = in_block(f, block.abi.clone(), &recognised);
        if matches!(decl.args.crate_path, Argument::Absent) {
            decl.args.crate_path = block_crate.clone();
        }
        parts.push(Part::Declaration(Box::new(decl)));
    }
    EntryItem { parts }
}

/// One function of a block.
fn in_block(f: ForeignItemFn, abi: Abi, recognised: &Recognised) -> Declaration {
    let mut found = Found::default();
    let (entry, attrs) = match recognised.take(&f.attrs) {
        Some((attr, attrs)) => (
            Some(arguments_of(&attr)),
            recognised.duplicates(attrs, &mut found),
        ),
        None => match recognised.take_conditional(&f.attrs) {
            // Taken out, so that no `cuda_entry` runs on the function alone later.
            Some((attr, attrs)) => {
                found.push(
                    place::MISSING,
                    Mistake::new(
                        MistakeKind::ConditionalAttribute,
                        &attr,
                        "inside a `#[cuda_entry]` block the attribute cannot be conditional: \
                         write `#[cuda_entry(...)]` itself, and `#[cfg(...)]` on the declaration \
                         if it exists only under a condition",
                    ),
                );
                let ident = &f.sig.ident;
                let args = Arguments::invalid((ident.span(), ident.span()));
                return declaration(attrs, f.vis, abi, f.sig, args, found);
            }
            None => (None, f.attrs.clone()),
        },
    };
    if let Safety::Safe(safe) = &f.sig.safety {
        found.push(
            place::SAFETY,
            Mistake::new(
                MistakeKind::SafeFunction,
                safe,
                "remove `safe`: a driver function is unsafe to call (its pointers and handles are \
                 unchecked)",
            ),
        );
    }
    let args = match entry {
        Some(args) => Arguments::parse(args.tokens, args.empty, &mut found),
        None => {
            let ident = &f.sig.ident;
            found.push(
                place::MISSING,
                Mistake::new(
                    MistakeKind::MissingAttribute,
                    ident,
                    format!(
                        "add `#[cuda_entry(symbol = \"cuName\", version = N)]` to `{ident}`: \
                         every declaration in the block is resolved through cuGetProcAddress, \
                         none is linked against libcuda (an attribute imported under another \
                         name is recognised by its `symbol` or `version` argument)"
                    ),
                ),
            );
            Arguments::invalid((ident.span(), ident.span()))
        }
    };
    declaration(attrs, f.vis, abi, f.sig, args, found)
}

/// A block without `#[cuda_entry]` whose functions carry `#[cuda_entry(...)]`: each is a
/// mistake (the macro never sees them together; the command does).
fn without_attribute(block: &ItemForeignMod, recognised: &Recognised) -> Option<EntryItem> {
    let mut parts = Vec::new();
    for item in &block.items {
        let ForeignItem::Fn(f) = item else { continue };
        let Some((attr, attrs)) = recognised.take(&f.attrs) else {
            continue;
        };
        let args = arguments_of(&attr);
        let mut found = Found::default();
        found.push(
            place::MISSING,
            Mistake::new(
                MistakeKind::BlockWithoutAttribute,
                &attr,
                "add `#[cuda_entry]` above the `extern` block: it expands the declarations inside, \
                 which are otherwise linked against libcuda instead of resolved",
            ),
        );
        let args = Arguments::parse(args.tokens, args.empty, &mut found);
        let attrs = recognised.duplicates(attrs, &mut found);
        let f = f.clone();
        let decl = declaration(attrs, f.vis, block.abi.clone(), f.sig, args, found);
        parts.push(Part::Declaration(Box::new(decl)));
    }
    (!parts.is_empty()).then_some(EntryItem { parts })
}

fn check_abi(abi: &Abi, found: &mut Found) {
    let mistake = match &abi.name {
        Some(name) if name.value() == "C" || name.value() == "system" => return,
        Some(name) => Mistake::new(
            MistakeKind::WrongAbi,
            name,
            format!(
                "expected `extern \"C\"` or `extern \"system\"`, found `extern \"{}\"`: the driver \
                 uses the C calling convention",
                name.value()
            ),
        ),
        None => Mistake::new(
            MistakeKind::WrongAbi,
            abi,
            "write `extern \"C\"`: name the ABI explicitly",
        ),
    };
    found.push(place::ABI, mistake);
}

/// The parts of a signature every declaration shares, checked for what no entry can have.
fn declaration(
    attrs: Vec<Attribute>,
    vis: Visibility,
    abi: Abi,
    sig: Signature,
    args: Arguments,
    mut found: Found,
) -> Declaration {
    let fail = |found: &mut Found, at, kind, tokens: &dyn ToTokens, message: &str| {
        found.push(at, Mistake::new(kind, tokens, message));
    };
    if let Some(c) = &sig.constness {
        fail(
            &mut found,
            place::CONST,
            MistakeKind::ConstFunction,
            c,
            "remove `const`: a driver function cannot be called at compile time",
        );
    }
    if let Some(a) = &sig.asyncness {
        fail(
            &mut found,
            place::ASYNC,
            MistakeKind::AsyncFunction,
            a,
            "remove `async`: driver functions are synchronous C functions",
        );
    }
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        fail(
            &mut found,
            place::GENERICS,
            MistakeKind::Generics,
            &sig.generics,
            "remove the generic parameters: a C function has one concrete signature",
        );
    }
    let mut params = Vec::new();
    for (i, input) in sig.inputs.iter().enumerate() {
        match input {
            FnArg::Receiver(r) => fail(
                &mut found,
                place::input(i),
                MistakeKind::SelfParameter,
                r,
                "remove the `self` parameter: a driver entry is a free function",
            ),
            FnArg::Typed(pt) => {
                let name = match &*pt.pat {
                    Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => p.ident.clone(),
                    _ => Ident::new(&format!("__cuda_entry_arg{i}"), pt.pat.span()),
                };
                if let Some(m) = not_a_c_type(&pt.ty) {
                    found.push(place::input(i), m);
                }
                let conditional = pt
                    .attrs
                    .iter()
                    .find(|a| a.path().is_ident("cfg") || a.path().is_ident("cfg_attr"));
                if let Some(attr) = conditional {
                    fail(
                        &mut found,
                        place::input(i),
                        MistakeKind::ConditionalParameter,
                        attr,
                        "a parameter cannot be conditional: the typedef has one parameter list \
                         for every target, and the macro reads the declaration before rustc \
                         evaluates `#[cfg]` inside it; declare the function once per \
                         configuration, each with its `#[cfg(...)]` on the declaration",
                    );
                    // The stub keeps one parameter of each name: no follow-on error there.
                    if params.iter().any(|p: &Parameter| p.name == name) {
                        continue;
                    }
                }
                params.push(Parameter {
                    name,
                    ty: (*pt.ty).clone(),
                });
            }
        }
    }
    if let Some(v) = &sig.variadic {
        found.push(
            place::VARIADIC,
            Mistake::new(
                MistakeKind::Variadic,
                v,
                "remove `...`: no driver function reached through cuGetProcAddress is variadic",
            ),
        );
    }
    let ret = match sig.output {
        ReturnType::Default => syn::parse_quote!(()),
        ReturnType::Type(_, ty) => *ty,
    };
    if let Some(m) = not_a_c_type(&ret) {
        found.push(place::RETURN, m);
    }
    Declaration {
        attrs,
        vis,
        abi,
        ident: sig.ident,
        params,
        ret,
        args,
        parens: sig.paren_token.span.join(),
        found,
    }
}

/// Whether `ty` can be a C function's parameter or return type as far as its syntax tells
/// (`impl Trait`, `dyn Trait`, `_` and `!` cannot). A stub writes `()` in place of the others.
pub fn is_c_type(ty: &Type) -> bool {
    match ty {
        // A `$t:ty` fragment of a `macro_rules!` list arrives in an invisible group.
        Type::Group(g) => is_c_type(&g.elem),
        Type::Paren(p) => is_c_type(&p.elem),
        _ => !matches!(
            ty,
            Type::TraitObject(_) | Type::ImplTrait(_) | Type::Infer(_) | Type::Never(_)
        ),
    }
}

fn not_a_c_type(ty: &Type) -> Option<Mistake> {
    (!is_c_type(ty)).then(|| {
        Mistake::new(
            MistakeKind::NotACType,
            ty,
            format!(
                "`{}` is not a C type: write the concrete type of the typedef's parameter (an \
                 integer, a pointer, a handle, a `#[repr(C)]` struct)",
                ty.to_token_stream()
            ),
        )
    })
}
