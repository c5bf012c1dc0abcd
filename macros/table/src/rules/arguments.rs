//! The attribute's arguments: `#[cuda_entry(symbol = "...", version = N, stream = "...",
//! resolver = "...", unverified, optional, crate = "...")]`, parsed into typed state. A value
//! may arrive in an invisible group (a `macro_rules!` fragment such as `$version:literal` or
//! `$version:expr`): it is read as if written in place.

use std::fmt;

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, Ident, Lit, Token};

use super::mistake::{Found, Mistake, MistakeKind, place};
use crate::{DefaultStream, Resolver, Version};

/// One argument's state after parsing. A mistake in a written argument is reported once, where it
/// was parsed; [`Argument::Invalid`] then keeps every later rule quiet about it.
#[derive(Clone, Copy, Debug)]
pub enum Argument<T> {
    /// Not written.
    Absent,
    /// Written, but wrong: its mistake is reported and nothing more is said about it.
    Invalid,
    /// Written and well-formed: the literal's span and the value.
    Given(Span, T),
}

impl<T> Argument<T> {
    /// The value, if given.
    pub fn value(&self) -> Option<&T> {
        match self {
            Argument::Given(_, value) => Some(value),
            _ => None,
        }
    }
}

/// Where the `cuda-entry` crate is: `crate = "path::to::cuda_entry"` (or the path unquoted), for
/// a crate that reaches it through a re-export.
#[derive(Clone)]
pub struct CratePath(pub syn::Path);

impl fmt::Debug for CratePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CratePath({})", self.0.to_token_stream())
    }
}

/// The parsed arguments of one declaration.
#[derive(Clone, Debug)]
pub struct Arguments {
    /// `symbol = "cuName"`: a C identifier (the table is consulted by validation).
    pub symbol: Argument<String>,
    /// `version = N`: a valid [`Version`] (whether it is a typedef's is for validation).
    pub version: Argument<Version>,
    /// `stream = "legacy" | "per_thread"`.
    pub stream: Argument<DefaultStream>,
    /// `resolver = "driver" | "runtime"`.
    pub resolver: Argument<Resolver>,
    /// `unverified`.
    pub unverified: Argument<()>,
    /// `optional`: the program runs without the entry (it falls back to another).
    pub optional: Argument<()>,
    /// `crate = "path::to::cuda_entry"`.
    pub crate_path: Argument<CratePath>,
    /// The whole argument list (or the attribute when it has none): where a missing argument is
    /// reported.
    pub(crate) whole: (Span, Span),
    /// Each argument's place in the list, for reporting mistakes in source order.
    pub(crate) places: Places,
}

/// The place of each argument in the list.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Places {
    pub(crate) symbol: u32,
    pub(crate) version: u32,
    pub(crate) unverified: u32,
}

/// The argument names, for "unknown argument" mistakes.
const KNOWN: &str = "`symbol = \"cuName\"`, `version = N`, `stream = \"legacy\" | \"per_thread\"`, \
                     `resolver = \"driver\" | \"runtime\"`, `unverified`, `optional`, \
                     `crate = \"path::to::cuda_entry\"`";

/// Every argument's name.
pub(crate) const NAMES: [&str; 7] = [
    "symbol",
    "version",
    "stream",
    "resolver",
    "unverified",
    "optional",
    "crate",
];

/// One `name = value` or bare `name`.
pub(crate) struct RawArg {
    pub(crate) name: Ident,
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

impl Arguments {
    /// Arguments of which nothing can be said: each is [`Argument::Invalid`] (the mistake that
    /// made them so is reported elsewhere).
    pub(crate) fn invalid(whole: (Span, Span)) -> Arguments {
        Arguments {
            symbol: Argument::Invalid,
            version: Argument::Invalid,
            stream: Argument::Invalid,
            resolver: Argument::Invalid,
            unverified: Argument::Invalid,
            optional: Argument::Invalid,
            crate_path: Argument::Invalid,
            whole,
            places: Places::default(),
        }
    }

    /// Parses an argument list; `empty` is where "missing" mistakes point when the list is empty
    /// (the attribute). Never fails: mistakes go to `found`, the argument becoming `Invalid`.
    pub(crate) fn parse(tokens: TokenStream, empty: (Span, Span), found: &mut Found) -> Arguments {
        let whole = ends(&tokens).unwrap_or(empty);
        let raw = match Punctuated::<RawArg, Token![,]>::parse_terminated.parse2(tokens) {
            Ok(raw) => raw,
            Err(e) => {
                let message = format!("expected arguments of the form {KNOWN}: {e}");
                found.push(
                    place::argument(0),
                    Mistake::at(MistakeKind::MalformedArguments, e.span(), message),
                );
                return Arguments::invalid(whole);
            }
        };
        let mut args = Arguments {
            symbol: Argument::Absent,
            version: Argument::Absent,
            stream: Argument::Absent,
            resolver: Argument::Absent,
            unverified: Argument::Absent,
            optional: Argument::Absent,
            crate_path: Argument::Absent,
            whole,
            places: Places::default(),
        };
        let mut seen: Vec<String> = Vec::new();
        for (i, arg) in raw.into_iter().enumerate() {
            let at = place::argument(i);
            let name = arg.name.to_string();
            let fail = |found: &mut Found, kind, tokens: &dyn ToTokens, message: String| {
                found.push(at, Mistake::new(kind, tokens, message));
            };
            if seen.contains(&name) {
                let message = format!("duplicate argument `{name}`: give it once");
                fail(found, MistakeKind::DuplicateArgument, &arg.name, message);
                continue;
            }
            seen.push(name.clone());
            match (name.as_str(), arg.value) {
                ("symbol", Some(value)) => {
                    args.places.symbol = at;
                    args.symbol = given(symbol(&value), at, found);
                }
                ("version", Some(value)) => {
                    args.places.version = at;
                    args.version = given(version(&value), at, found);
                }
                ("stream", Some(value)) => args.stream = given(stream(&value), at, found),
                ("resolver", Some(value)) => args.resolver = given(resolver(&value), at, found),
                ("crate", Some(value)) => {
                    args.crate_path = given(crate_path(&value), at, found);
                }
                ("unverified", None) => {
                    args.places.unverified = at;
                    args.unverified = Argument::Given(arg.name.span(), ());
                }
                ("optional", None) => args.optional = Argument::Given(arg.name.span(), ()),
                ("unverified", Some(value)) => {
                    args.unverified = Argument::Invalid;
                    fail(
                        found,
                        MistakeKind::UnverifiedWithValue,
                        &value,
                        "`unverified` takes no value: write `unverified` alone to declare a \
                         symbol the typedef table does not know"
                            .to_owned(),
                    );
                }
                ("optional", Some(value)) => {
                    args.optional = Argument::Invalid;
                    fail(
                        found,
                        MistakeKind::OptionalWithValue,
                        &value,
                        "`optional` takes no value: write `optional` alone for an entry the \
                         program can run without"
                            .to_owned(),
                    );
                }
                ("symbol" | "version" | "stream" | "resolver" | "crate", None) => {
                    match name.as_str() {
                        "symbol" => args.symbol = Argument::Invalid,
                        "version" => args.version = Argument::Invalid,
                        "stream" => args.stream = Argument::Invalid,
                        "crate" => args.crate_path = Argument::Invalid,
                        _ => args.resolver = Argument::Invalid,
                    }
                    fail(
                        found,
                        MistakeKind::ArgumentWithoutValue,
                        &arg.name,
                        format!("expected `{name} = ...`: the argument `{name}` needs a value"),
                    );
                }
                (_, _) => fail(
                    found,
                    MistakeKind::UnknownArgument,
                    &arg.name,
                    format!("unknown argument `{name}`: expected one of {KNOWN}"),
                ),
            }
        }
        args
    }
}

/// Whether `tokens` read as this attribute's arguments: `name` or `name = value`, every name one
/// of ours, and `symbol` or `version` among them. How an attribute imported under another name
/// is recognised (`use cuda_entry::cuda_entry as driver_fn;`).
pub(crate) fn are_entry_arguments(tokens: TokenStream) -> bool {
    let Ok(raw) = Punctuated::<RawArg, Token![,]>::parse_terminated.parse2(tokens) else {
        return false;
    };
    let names: Vec<String> = raw.iter().map(|a| a.name.to_string()).collect();
    names.iter().all(|n| NAMES.contains(&n.as_str()))
        && names.iter().any(|n| n == "symbol" || n == "version")
}

/// Whether `tokens` give `crate = ...` and nothing else: what an `extern` block's own attribute
/// may say.
pub(crate) fn only_crate(tokens: TokenStream) -> bool {
    Punctuated::<RawArg, Token![,]>::parse_terminated
        .parse2(tokens)
        .is_ok_and(|raw| raw.iter().all(|a| a.name == "crate"))
}

/// `Given` from a parsed value, or `Invalid` with its mistake recorded at `at`.
fn given<T>(parsed: Result<(Span, T), Mistake>, at: u32, found: &mut Found) -> Argument<T> {
    match parsed {
        Ok((span, value)) => Argument::Given(span, value),
        Err(mistake) => {
            found.push(at, mistake);
            Argument::Invalid
        }
    }
}

/// `value` without the invisible groups a `macro_rules!` fragment (`$x:literal`, `$x:expr`)
/// arrives in.
fn ungrouped(value: &Expr) -> &Expr {
    match value {
        Expr::Group(group) => ungrouped(&group.expr),
        _ => value,
    }
}

/// The string literal of `value`, if it is a C identifier.
fn symbol(value: &Expr) -> Result<(Span, String), Mistake> {
    let value = ungrouped(value);
    let kind = MistakeKind::SymbolNotALiteral;
    let Expr::Lit(lit) = value else {
        return Err(Mistake::new(
            kind,
            value,
            format!(
                "expected `symbol = \"cuName\"`, found `symbol = {}`: the symbol must be a string \
                 literal the macro can check",
                value.to_token_stream()
            ),
        ));
    };
    let Lit::Str(s) = &lit.lit else {
        return Err(Mistake::new(
            kind,
            value,
            "expected `symbol = \"cuName\"`: the symbol is a string literal",
        ));
    };
    let symbol = s.value();
    let kind = MistakeKind::SymbolNotAnIdentifier;
    if symbol.is_empty() {
        return Err(Mistake::new(
            kind,
            s,
            "the symbol is empty: write the driver function's name, e.g. `symbol = \"cuMemAlloc\"`",
        ));
    }
    if symbol.contains('\0') {
        return Err(Mistake::new(
            kind,
            s,
            "the symbol contains a NUL byte: write the plain name, the macro adds the terminator",
        ));
    }
    if symbol.len() > crate::manifest::MAX_TEXT {
        return Err(Mistake::new(
            kind,
            s,
            format!(
                "a symbol of {} bytes is longer than any driver function's name: write the \
                 driver function's name, e.g. `symbol = \"cuMemAlloc\"`",
                symbol.len()
            ),
        ));
    }
    let identifier = symbol
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !symbol.starts_with(|c: char| c.is_ascii_digit());
    if !identifier {
        return Err(Mistake::new(
            kind,
            s,
            format!(
                "`{symbol}` is not a C identifier: write the driver function's name, e.g. \
                 `symbol = \"cuMemAlloc\"`"
            ),
        ));
    }
    Ok((s.span(), symbol))
}

/// The integer literal of `value`, if it is a [`Version`].
fn version(value: &Expr) -> Result<(Span, Version), Mistake> {
    let value = ungrouped(value);
    let literal = match value {
        Expr::Lit(lit) => &lit.lit,
        Expr::Unary(unary) if matches!(unary.op, syn::UnOp::Neg(_)) => {
            return Err(Mistake::new(
                MistakeKind::NotAVersion,
                value,
                "a typedef version is never negative (the driver answers success for version -1 \
                 and returns an unspecified variant); write the N of `PFN_<symbol>_v<N>`",
            ));
        }
        _ => {
            return Err(Mistake::new(
                MistakeKind::VersionNotALiteral,
                value,
                format!(
                    "expected `version = <integer literal>`, found `version = {}`: write the N of \
                     the `PFN_<symbol>_v<N>` typedef your signature was copied from; a constant \
                     such as CUDA_VERSION makes the driver return the newest variant, whose ABI \
                     changes when the toolkit or driver does",
                    value.to_token_stream()
                ),
            ));
        }
    };
    match literal {
        Lit::Int(int) if !int.suffix().is_empty() => Err(Mistake::new(
            MistakeKind::VersionWithSuffix,
            int,
            format!(
                "expected a plain integer, found `{int}`: write `version = {}`",
                int.base10_digits()
            ),
        )),
        Lit::Int(int) => match int.base10_parse::<u64>() {
            Ok(n) => match Version::from_u64(n) {
                Ok(v) => Ok((int.span(), v)),
                Err(e) => Err(Mistake::new(MistakeKind::NotAVersion, int, e.to_string())),
            },
            Err(_) => Err(Mistake::new(
                MistakeKind::NotAVersion,
                int,
                format!(
                    "`{}` is not a CUDA version: a version is 1000 * major + 10 * minor (3020 for \
                     CUDA 3.2, 12050 for CUDA 12.5), between {} and {}",
                    int.base10_digits(),
                    Version::MIN.get(),
                    Version::MAX.get()
                ),
            )),
        },
        Lit::Str(s) => Err(Mistake::new(
            MistakeKind::VersionNotALiteral,
            s,
            format!(
                "expected an integer literal, found a string: write `version = {}` without quotes",
                s.value()
            ),
        )),
        other => Err(Mistake::new(
            MistakeKind::VersionNotALiteral,
            other,
            "expected `version = <integer literal>`, the N of `PFN_<symbol>_v<N>`",
        )),
    }
}

/// The string literal of `value`, if it is one of `choices`.
fn choice<T: Copy>(value: &Expr, choices: &[(&str, T)]) -> Option<(Span, T)> {
    if let Expr::Lit(lit) = ungrouped(value)
        && let Lit::Str(s) = &lit.lit
    {
        let text = s.value();
        return choices
            .iter()
            .find(|(name, _)| *name == text)
            .map(|&(_, v)| (s.span(), v));
    }
    None
}

fn stream(value: &Expr) -> Result<(Span, DefaultStream), Mistake> {
    let choices = [
        ("legacy", DefaultStream::Legacy),
        ("per_thread", DefaultStream::PerThread),
    ];
    choice(value, &choices).ok_or_else(|| {
        Mistake::new(
            MistakeKind::WrongStream,
            value,
            "expected `stream = \"legacy\"` or `stream = \"per_thread\"`",
        )
    })
}

fn resolver(value: &Expr) -> Result<(Span, Resolver), Mistake> {
    let choices = [("driver", Resolver::Driver), ("runtime", Resolver::Runtime)];
    choice(value, &choices).ok_or_else(|| {
        Mistake::new(
            MistakeKind::WrongResolver,
            value,
            "expected `resolver = \"driver\"` (cuGetProcAddress, the default) or `resolver = \
             \"runtime\"` (the CUDA runtime's cudaGetDriverEntryPointByVersion)",
        )
    })
}

/// The path of `crate = "path::to::cuda_entry"`, or of `crate = path::to::cuda_entry` (which a
/// `macro_rules!` can write as `$crate::cuda_entry`).
fn crate_path(value: &Expr) -> Result<(Span, CratePath), Mistake> {
    let value = ungrouped(value);
    let parsed = match value {
        Expr::Path(p) if p.qself.is_none() => Some(p.path.clone()),
        Expr::Lit(lit) => match &lit.lit {
            Lit::Str(s) => s.parse::<syn::Path>().ok(),
            _ => None,
        },
        _ => None,
    };
    let path = parsed.filter(|p| p.segments.iter().all(|s| s.arguments.is_none()));
    // Keywords of the 2018 and 2024 editions that `syn` reads as identifiers: in the expansion
    // they would be keywords, not a path. The raw form (`r#try`) names such a crate.
    let keyword = path.iter().flat_map(|p| &p.segments).find_map(|s| {
        let name = s.ident.to_string();
        ["try", "gen"].contains(&name.as_str()).then_some(name)
    });
    if let Some(keyword) = keyword {
        return Err(Mistake::new(
            MistakeKind::WrongCratePath,
            value,
            format!(
                "`{keyword}` in `crate = {}` is a keyword, not a crate's name: write \
                 `r#{keyword}` for a crate of that name",
                value.to_token_stream()
            ),
        ));
    }
    match path {
        Some(path) => Ok((value.span(), CratePath(path))),
        None => Err(Mistake::new(
            MistakeKind::WrongCratePath,
            value,
            format!(
                "expected `crate = \"path::to::cuda_entry\"`, found `crate = {}`: name the \
                 `cuda-entry` crate as this crate reaches it, e.g. `crate = \
                 \"gpu_sys::cuda_entry\"` where a dependency `gpu_sys` re-exports it",
                value.to_token_stream()
            ),
        )),
    }
}

/// The spans of the first and last of `tokens`; `None` when there are none.
pub(crate) fn ends(tokens: impl ToTokens) -> Option<(Span, Span)> {
    let tokens = tokens.into_token_stream();
    let first = tokens.clone().into_iter().next()?.span();
    let last = tokens.into_iter().last().map_or(first, |t| t.span());
    Some((first, last))
}
