//! Parsing: the attribute's arguments and the declarations, into plain data for `validate`.
//!
//! Every mistake becomes a spanned error that says what to write instead; independent mistakes
//! are collected, so one build shows them all.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{
    Abi, Attribute, Expr, FnArg, ForeignItem, ForeignItemFn, Ident, ItemFn, ItemForeignMod, Lit,
    LitStr, Pat, ReturnType, Safety, Signature, Token, Type, Visibility,
};

/// Collects independent errors.
#[derive(Default)]
pub(crate) struct Errors(Option<syn::Error>);

impl Errors {
    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(error),
            None => self.0 = Some(error),
        }
    }

    pub(crate) fn at(&mut self, tokens: impl ToTokens, message: impl std::fmt::Display) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    pub(crate) fn take(self) -> Option<syn::Error> {
        self.0
    }
}

/// The default-stream flavour asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StreamArg {
    Legacy,
    PerThread,
}

/// `#[cuda_entry(symbol = "...", version = N, stream = "...", unverified)]`, parsed.
pub(crate) struct Args {
    /// The whole argument list, for errors about what is missing.
    pub(crate) span: Span,
    pub(crate) symbol: Option<LitStr>,
    /// The version and its literal's span.
    pub(crate) version: Option<(u32, Span)>,
    pub(crate) stream: Option<(StreamArg, Span)>,
    pub(crate) unverified: Option<Span>,
    /// `resolver = "runtime"`: through `cudaGetDriverEntryPointByVersion`.
    pub(crate) runtime: bool,
    /// Whether a `version` argument was written at all (valid or not).
    pub(crate) version_written: bool,
    /// Whether a `symbol` argument was written at all (valid or not).
    pub(crate) symbol_written: bool,
}

/// The argument names, for "unknown argument" errors.
const KNOWN: &str = "`symbol = \"cuName\"`, `version = N`, `stream = \"legacy\" | \"per_thread\"`, \
                     `resolver = \"driver\" | \"runtime\"`, `unverified`";

/// One `name = value` or bare `name`.
struct RawArg {
    name: Ident,
    value: Option<Expr>,
}

impl Parse for RawArg {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let name: Ident = input.call(syn::ext::IdentExt::parse_any)?;
        let value = if input.peek(Token![=]) {
            let _: Token![=] = input.parse()?;
            Some(input.parse()?)
        } else {
            None
        };
        Ok(RawArg { name, value })
    }
}

/// Parses an argument list. Never fails outright: whatever could be read is returned with the
/// errors pushed into `errors`.
pub(crate) fn args(tokens: TokenStream, errors: &mut Errors) -> Args {
    let span = if tokens.is_empty() {
        Span::call_site()
    } else {
        tokens.span()
    };
    let mut args = Args {
        span,
        symbol: None,
        version: None,
        stream: None,
        unverified: None,
        runtime: false,
        version_written: false,
        symbol_written: false,
    };
    let raw = match Punctuated::<RawArg, Token![,]>::parse_terminated.parse2(tokens) {
        Ok(raw) => raw,
        Err(e) => {
            errors.push(syn::Error::new(
                e.span(),
                format!("expected arguments of the form {KNOWN}: {e}"),
            ));
            // Nothing more can be said about arguments that do not parse.
            args.symbol_written = true;
            args.version_written = true;
            return args;
        }
    };
    let mut seen = Vec::new();
    for arg in raw {
        let name = arg.name.to_string();
        if seen.contains(&name) {
            errors.at(
                &arg.name,
                format!("duplicate argument `{name}`: give it once"),
            );
            continue;
        }
        seen.push(name.clone());
        args.version_written |= name == "version";
        args.symbol_written |= name == "symbol";
        match (name.as_str(), arg.value) {
            ("symbol", Some(value)) => args.symbol = symbol(&value, errors),
            ("version", Some(value)) => args.version = version(&value, errors),
            ("stream", Some(value)) => args.stream = stream(&value, errors),
            ("resolver", Some(value)) => args.runtime = resolver(&value, errors),
            ("unverified", None) => args.unverified = Some(arg.name.span()),
            ("unverified", Some(value)) => errors.at(
                value,
                "`unverified` takes no value: write `unverified` alone to declare a symbol the \
                 typedef table does not know",
            ),
            ("symbol" | "version" | "stream" | "resolver", None) => errors.at(
                &arg.name,
                format!("expected `{name} = ...`: the argument `{name}` needs a value"),
            ),
            (_, _) => errors.at(
                &arg.name,
                format!("unknown argument `{name}`: expected one of {KNOWN}"),
            ),
        }
    }
    args
}

fn symbol(value: &Expr, errors: &mut Errors) -> Option<LitStr> {
    match value {
        Expr::Lit(lit) => match &lit.lit {
            Lit::Str(s) => Some(s.clone()),
            _ => {
                errors.at(
                    value,
                    "expected `symbol = \"cuName\"`: the symbol is a string literal",
                );
                None
            }
        },
        _ => {
            errors.at(
                value,
                format!(
                    "expected `symbol = \"cuName\"`, found `symbol = {}`: the symbol must be a \
                     string literal the macro can check",
                    value.to_token_stream()
                ),
            );
            None
        }
    }
}

fn version(value: &Expr, errors: &mut Errors) -> Option<(u32, Span)> {
    let literal = match value {
        Expr::Lit(lit) => &lit.lit,
        Expr::Unary(unary) if matches!(unary.op, syn::UnOp::Neg(_)) => {
            errors.at(
                value,
                "a typedef version is never negative (the driver answers success for version -1 \
                 and returns an unspecified variant); write the N of `PFN_<symbol>_v<N>`",
            );
            return None;
        }
        _ => {
            errors.at(
                value,
                format!(
                    "expected `version = <integer literal>`, found `version = {}`: write the N of \
                     the `PFN_<symbol>_v<N>` typedef your signature was copied from; a constant \
                     such as CUDA_VERSION makes the driver return the newest variant, whose ABI \
                     changes when the toolkit or driver does",
                    value.to_token_stream()
                ),
            );
            return None;
        }
    };
    match literal {
        Lit::Int(int) => {
            if !int.suffix().is_empty() {
                errors.at(
                    int,
                    format!(
                        "expected a plain integer, found `{int}`: write `version = {}`",
                        int.base10_digits()
                    ),
                );
                return None;
            }
            match int.base10_parse::<u32>() {
                Ok(v) if is_valid_version(v) => Some((v, int.span())),
                Ok(v) => {
                    errors.at(
                        int,
                        format!(
                            "`{v}` is not a CUDA version: a typedef version is 1000 * major + 10 * \
                             minor (3020 for CUDA 3.2, 12050 for CUDA 12.5), between 1000 and 99990"
                        ),
                    );
                    None
                }
                Err(_) => {
                    errors.at(
                        int,
                        "this version is absurd: a typedef version is 1000 * major + 10 * minor, \
                         between 1000 and 99990",
                    );
                    None
                }
            }
        }
        Lit::Str(s) => {
            errors.at(
                s,
                format!(
                    "expected an integer literal, found a string: write `version = {}` without \
                     quotes",
                    s.value()
                ),
            );
            None
        }
        other => {
            errors.at(
                other,
                "expected `version = <integer literal>`, the N of `PFN_<symbol>_v<N>`",
            );
            None
        }
    }
}

/// `1000 * major + 10 * minor`, CUDA 1.0 to 99.99.
pub(crate) fn is_valid_version(v: u32) -> bool {
    (1000..=99_990).contains(&v) && v.is_multiple_of(10)
}

fn stream(value: &Expr, errors: &mut Errors) -> Option<(StreamArg, Span)> {
    if let Expr::Lit(lit) = value
        && let Lit::Str(s) = &lit.lit
    {
        match s.value().as_str() {
            "legacy" => return Some((StreamArg::Legacy, s.span())),
            "per_thread" => return Some((StreamArg::PerThread, s.span())),
            _ => {}
        }
    }
    errors.at(
        value,
        "expected `stream = \"legacy\"` or `stream = \"per_thread\"`",
    );
    None
}

fn resolver(value: &Expr, errors: &mut Errors) -> bool {
    if let Expr::Lit(lit) = value
        && let Lit::Str(s) = &lit.lit
    {
        match s.value().as_str() {
            "driver" => return false,
            "runtime" => return true,
            _ => {}
        }
    }
    errors.at(
        value,
        "expected `resolver = \"driver\"` (cuGetProcAddress, the default) or `resolver = \
         \"runtime\"` (the CUDA runtime's cudaGetDriverEntryPointByVersion)",
    );
    false
}

/// A declaration, from either form.
pub(crate) struct Decl {
    pub(crate) attrs: Vec<Attribute>,
    pub(crate) vis: Visibility,
    pub(crate) abi: Abi,
    pub(crate) sig: Signature,
    pub(crate) args: Args,
}

/// What the attribute was put on.
pub(crate) struct Input {
    pub(crate) decls: Vec<Decl>,
}

const SINGLE_FORM: &str = "expected `unsafe extern \"C\" fn name(params) -> Ret;` or an `unsafe \
                           extern \"C\" { ... }` block of such declarations";

/// Parses the item and the arguments into declarations, pushing every mistake into `errors`.
/// Returns `None` only when nothing usable could be read.
pub(crate) fn input(args: TokenStream, item: TokenStream, errors: &mut Errors) -> Option<Input> {
    if let Ok(block) = syn::parse2::<ItemForeignMod>(item.clone()) {
        if !args.is_empty() {
            errors.at(
                &args,
                "on an `extern` block, write `#[cuda_entry]` alone and put the arguments on each \
                 declaration inside: `#[cuda_entry(symbol = \"cuName\", version = N)]`",
            );
        }
        return Some(block_form(block, errors));
    }
    let (attrs, vis, sig) = if let Ok(f) = syn::parse2::<ForeignItemFn>(item.clone()) {
        (f.attrs, f.vis, f.sig)
    } else if let Ok(f) = syn::parse2::<ItemFn>(item.clone()) {
        errors.at(
            &f.block,
            "remove the body: a `#[cuda_entry]` declaration ends with `;`, and the driver \
             provides the function",
        );
        (f.attrs, f.vis, f.sig)
    } else {
        errors.push(syn::Error::new(item.span(), SINGLE_FORM));
        return None;
    };
    if !matches!(sig.safety, Safety::Unsafe(_)) {
        errors.at(
            sig.fn_token,
            "write `unsafe extern \"C\" fn`: calling a driver function is unsafe, and the \
             declaration must say so",
        );
    }
    let abi = match &sig.abi {
        Some(abi) => abi.clone(),
        None => {
            errors.at(
                sig.fn_token,
                "write `unsafe extern \"C\" fn` (or `extern \"system\"`): the driver uses the C \
                 calling convention",
            );
            syn::parse_quote!(extern "C")
        }
    };
    check_abi(&abi, errors);
    let args = self::args(args, errors);
    Some(Input {
        decls: vec![Decl {
            attrs,
            vis,
            abi,
            sig,
            args,
        }],
    })
}

fn block_form(block: ItemForeignMod, errors: &mut Errors) -> Input {
    if block.unsafety.is_none() {
        errors.at(
            &block.abi,
            "write `unsafe extern \"C\" { ... }`: the block declares functions that are unsafe \
             to call",
        );
    }
    check_abi(&block.abi, errors);
    if !block.attrs.is_empty() {
        errors.at(
            &block.attrs[0],
            "put attributes on the declarations inside the block: the block itself is replaced",
        );
    }
    let mut decls = Vec::new();
    for item in block.items {
        let ForeignItem::Fn(f) = item else {
            errors.at(
                &item,
                "only function declarations can be `#[cuda_entry]` entries: move this out of the \
                 block",
            );
            continue;
        };
        let mut attrs = Vec::new();
        let mut entry_args = None;
        for attr in f.attrs {
            if is_cuda_entry(&attr) {
                if entry_args.is_some() {
                    errors.at(&attr, "duplicate `#[cuda_entry(...)]`: give it once");
                    continue;
                }
                entry_args = Some(match &attr.meta {
                    syn::Meta::List(list) => list.tokens.clone(),
                    _ => TokenStream::new(),
                });
            } else {
                attrs.push(attr);
            }
        }
        if let Safety::Safe(safe) = &f.sig.safety {
            errors.at(
                safe,
                "remove `safe`: a driver function is unsafe to call (its pointers and handles \
                 are unchecked)",
            );
        }
        let Some(entry_args) = entry_args else {
            errors.at(
                &f.sig.ident,
                format!(
                    "add `#[cuda_entry(symbol = \"cuName\", version = N)]` to `{}`: every \
                     declaration in the block is resolved through cuGetProcAddress, none is \
                     linked against libcuda",
                    f.sig.ident
                ),
            );
            continue;
        };
        let args = args(entry_args, errors);
        decls.push(Decl {
            attrs,
            vis: f.vis,
            abi: block.abi.clone(),
            sig: f.sig,
            args,
        });
    }
    Input { decls }
}

fn is_cuda_entry(attr: &Attribute) -> bool {
    let path = attr.path();
    path.segments
        .last()
        .is_some_and(|s| s.ident == "cuda_entry")
}

fn check_abi(abi: &Abi, errors: &mut Errors) {
    match &abi.name {
        Some(name) if name.value() == "C" || name.value() == "system" => {}
        Some(name) => errors.at(
            name,
            format!(
                "expected `extern \"C\"` or `extern \"system\"`, found `extern \"{}\"`: the driver \
                 uses the C calling convention",
                name.value()
            ),
        ),
        None => errors.at(abi, "write `extern \"C\"`: name the ABI explicitly"),
    }
}

/// Checks the parts of a signature that no entry can have; returns the parameters' names and
/// types (a generated name where the pattern is not a plain identifier).
pub(crate) fn params(sig: &Signature, errors: &mut Errors) -> Vec<(Ident, Type)> {
    if let Some(c) = &sig.constness {
        errors.at(
            c,
            "remove `const`: a driver function cannot be called at compile time",
        );
    }
    if let Some(a) = &sig.asyncness {
        errors.at(
            a,
            "remove `async`: driver functions are synchronous C functions",
        );
    }
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        errors.at(
            &sig.generics,
            "remove the generic parameters: a C function has one concrete signature",
        );
    }
    if let Some(v) = &sig.variadic {
        errors.at(
            v,
            "remove `...`: no driver function reached through cuGetProcAddress is variadic",
        );
    }
    let mut out = Vec::new();
    for (i, input) in sig.inputs.iter().enumerate() {
        match input {
            FnArg::Receiver(r) => errors.at(
                r,
                "remove the `self` parameter: a driver entry is a free function",
            ),
            FnArg::Typed(pt) => {
                let name = match &*pt.pat {
                    Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => p.ident.clone(),
                    _ => Ident::new(&format!("__cuda_entry_arg{i}"), pt.pat.span()),
                };
                out.push((name, concrete(&pt.ty, errors)));
            }
        }
    }
    out
}

/// The declared return type, `()` when omitted.
pub(crate) fn return_type(sig: &Signature, errors: &mut Errors) -> Type {
    match &sig.output {
        ReturnType::Default => syn::parse_quote!(()),
        ReturnType::Type(_, ty) => concrete(ty, errors),
    }
}

/// `ty` if it can be a C function's parameter or return type; else an error and `()` in its
/// place, so the stub the expansion still emits is well-formed.
fn concrete(ty: &Type, errors: &mut Errors) -> Type {
    match ty {
        Type::TraitObject(_) | Type::ImplTrait(_) | Type::Infer(_) | Type::Never(_) => {
            errors.at(
                ty,
                format!(
                    "`{}` is not a C type: write the concrete type of the typedef's parameter \
                     (an integer, a pointer, a handle, a `#[repr(C)]` struct)",
                    ty.to_token_stream()
                ),
            );
            syn::parse_quote!(())
        }
        _ => ty.clone(),
    }
}
