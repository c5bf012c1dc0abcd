//! Validation: a declaration against the typedef table. The signature's rules are in
//! [`signature`](super::signature); what the tokens of the user's types cannot tell, the expansion
//! asserts at compile time.

use super::arguments::{Argument, Arguments};
use super::declaration::{Declaration, EntryItem, Part};
use super::mistake::{Found, Mistake, MistakeKind, place};
use super::signature::check_signature;
use super::words::{
    Miss, Reader, beyond_table, newest_header, served_at, table_range, typedef_at, typedef_list,
    unknown_symbol,
};
use crate::{DefaultStream, Resolver, Typedef, Version, base_symbol, find, flavour, lookup};
use proc_macro2::Span;

/// A declaration the rules accept, with what its expansion needs.
#[derive(Clone, Copy, Debug)]
pub struct Checked<'a> {
    /// The declaration.
    pub declaration: &'a Declaration,
    /// The base symbol.
    pub symbol: &'a str,
    /// The typedef version written.
    pub version: Version,
    /// The stream written; `None` when none is (legacy, or the twin under the facade's
    /// `per-thread-default-stream` feature).
    pub stream: Option<DefaultStream>,
    /// Who resolves it.
    pub resolver: Resolver,
    /// The typedef it matches; `None` for an `unverified` declaration.
    pub typedef: Option<&'static Typedef>,
    /// For a declaration that names no stream: the per-thread typedef with the same C types
    /// ([`twin`]).
    pub twin: Option<&'static Typedef>,
    /// Whether it is `optional`: the program runs without it (it falls back to another entry),
    /// so it sets no requirement on the driver.
    pub optional: bool,
}

impl Checked<'_> {
    /// Whether calls are checked: the function returns `Result<(), Error>`, the driver's status
    /// folded into the error. True when the typedef returns `CUresult`, or, for an `unverified`
    /// declaration, when the declared return type is named `CUresult` (any path ending so).
    pub fn returns_status(&self) -> bool {
        match self.typedef {
            Some(t) => t.ret.spelling == "CUresult",
            None => self.declaration.returns_status_by_name(),
        }
    }

    /// Whether it names the per-thread default stream.
    pub fn per_thread(&self) -> bool {
        self.stream == Some(DefaultStream::PerThread)
    }

    /// The typedef's name (`PFN_cuMemAlloc_v3020`); for an `unverified` declaration the one it
    /// claims, saying so (`PFN_cuFoo_v13080 (unverified)`).
    pub fn typedef_name(&self) -> String {
        match self.typedef {
            Some(t) => t.typedef_name(),
            None => format!(
                "PFN_{}_v{}{} (unverified)",
                self.symbol,
                self.version.get(),
                if self.per_thread() {
                    "_ptsz or _ptds"
                } else {
                    ""
                }
            ),
        }
    }
}

impl EntryItem {
    /// Validates every declaration.
    ///
    /// # Errors
    /// Every mistake of the item, the block's and each declaration's, in source order.
    pub fn validate(&self) -> Result<Vec<Checked<'_>>, Vec<Mistake>> {
        let mut checked = Vec::new();
        let mut mistakes = Vec::new();
        for part in &self.parts {
            match part {
                Part::Mistake(m) => mistakes.push(m.clone()),
                Part::Declaration(d) => match d.validate() {
                    Ok(c) => checked.push(c),
                    Err(m) => mistakes.extend(m),
                },
            }
        }
        if mistakes.is_empty() {
            Ok(checked)
        } else {
            Err(mistakes)
        }
    }
}

impl Declaration {
    /// Whether the declared return type is named `CUresult` (`CUresult`, `sys::CUresult`,
    /// `cuda_entry::types::CUresult`): how a declaration the table cannot judge is known to
    /// return a driver status.
    pub fn returns_status_by_name(&self) -> bool {
        fn named(ty: &syn::Type) -> bool {
            match ty {
                syn::Type::Path(p) => {
                    p.qself.is_none()
                        && p.path
                            .segments
                            .last()
                            .is_some_and(|s| s.ident == "CUresult" && s.arguments.is_none())
                }
                syn::Type::Group(g) => named(&g.elem),
                syn::Type::Paren(p) => named(&p.elem),
                _ => false,
            }
        }
        named(&self.ret)
    }

    /// Validates the declaration against the typedef table.
    ///
    /// # Errors
    /// Its mistakes, those of its shape and those against the table, in source order.
    pub fn validate(&self) -> Result<Checked<'_>, Vec<Mistake>> {
        let mut found = self.found.clone();
        match check(self, &mut found) {
            Some(checked) if found.is_empty() => Ok(checked),
            _ => Err(found.into_sorted()),
        }
    }
}

/// What a declaration's version matched.
enum Matched {
    Typedef(&'static Typedef),
    /// `unverified`: a symbol or version newer than the table.
    Unverified,
}

/// Every rule of the table; `None` where a mistake was found (here or while parsing).
fn check<'a>(decl: &'a Declaration, found: &mut Found) -> Option<Checked<'a>> {
    let args = &decl.args;
    // The flavour: unknown after a mistake in `stream`, and then nothing is said about it.
    let per_thread = match args.stream {
        Argument::Absent => Some(false),
        Argument::Given(_, s) => Some(s.is_per_thread()),
        Argument::Invalid => None,
    };
    let symbol = check_symbol(args, found);
    let (version_span, version) = match args.version {
        Argument::Given(span, v) => (span, v),
        Argument::Absent => {
            // Without a symbol, the missing symbol's message shows the whole form.
            if !matches!(args.symbol, Argument::Absent) {
                let message = missing_version(args, per_thread);
                let mistake = Mistake::between(MistakeKind::MissingVersion, args.whole, message);
                found.push(place::MISSING, mistake);
            }
            return None;
        }
        Argument::Invalid => return None,
    };
    let (symbol, per_thread) = (symbol?, per_thread?);
    let matched = if lookup(symbol).is_empty() {
        Matched::Unverified // `check_symbol` let it through: `unverified`
    } else {
        check_version(args, symbol, version, version_span, per_thread, found)?
    };
    let (typedef, twin) = match matched {
        Matched::Typedef(t) => {
            check_signature(decl, t, found);
            let twin = matches!(args.stream, Argument::Absent)
                .then(|| twin(t))
                .flatten();
            (Some(t), twin)
        }
        Matched::Unverified => (None, None),
    };
    let resolver = match args.resolver {
        Argument::Absent => Resolver::Driver,
        Argument::Given(_, r) => r,
        Argument::Invalid => return None,
    };
    let optional = match args.optional {
        Argument::Absent => false,
        Argument::Given(..) => true,
        Argument::Invalid => return None,
    };
    if matches!(args.crate_path, Argument::Invalid) {
        return None;
    }
    Some(Checked {
        declaration: decl,
        symbol,
        version,
        stream: args.stream.value().copied(),
        resolver,
        typedef,
        twin,
        optional,
    })
}

/// The symbol, if the driver can answer to it: spelled without a suffix, and known to the table
/// or declared `unverified`.
fn check_symbol<'a>(args: &'a Arguments, found: &mut Found) -> Option<&'a str> {
    let (span, symbol) = match &args.symbol {
        Argument::Given(span, s) => (*span, s.as_str()),
        Argument::Invalid => return None,
        Argument::Absent => {
            found.push(
                place::MISSING,
                Mistake::between(
                    MistakeKind::MissingSymbol,
                    args.whole,
                    "missing `symbol = \"cuName\"`: name the driver function, e.g. \
                     `#[cuda_entry(symbol = \"cuMemAlloc\", version = 3020)]`",
                ),
            );
            return None;
        }
    };
    let at = args.places.symbol;
    if !lookup(symbol).is_empty() {
        return Some(symbol);
    }
    let base = base_symbol(symbol);
    if base.len() < symbol.len() {
        let suffix = &symbol[base.len()..];
        let message = format!(
            "write `symbol = \"{base}\"`: the driver knows only base names and answers \
             SYMBOL_NOT_FOUND for `{symbol}`; the variant is chosen by the version (and `stream = \
             \"per_thread\"` for `_ptsz`/`_ptds`), not by the `{suffix}` suffix{}",
            list_hint(base, suffix.contains("_pt"))
        );
        found.push(at, Mistake::at(MistakeKind::SuffixedSymbol, span, message));
        return None;
    }
    match args.unverified {
        Argument::Given(..) => Some(symbol),
        Argument::Invalid => None,
        Argument::Absent => {
            let message = unknown_symbol(symbol, Reader::Declaration);
            found.push(at, Mistake::at(MistakeKind::UnknownSymbol, span, message));
            None
        }
    }
}

fn missing_version(args: &Arguments, per_thread: Option<bool>) -> String {
    let (symbol, hint) = match (&args.symbol, per_thread) {
        (Argument::Given(_, s), Some(per_thread)) => (s.as_str(), list_hint(s, per_thread)),
        (Argument::Given(_, s), None) => (s.as_str(), String::new()),
        _ => ("<symbol>", String::new()),
    };
    format!(
        "missing `version = N`: write the N of the `PFN_{symbol}_v<N>` typedef your signature was \
         copied from{hint}; never CUDA_VERSION or the driver's version, which make the driver \
         return whatever variant is newest"
    )
}

/// The typedef of a known symbol at the version, in the declaration's flavour.
fn check_version(
    args: &Arguments,
    symbol: &str,
    version: Version,
    span: Span,
    per_thread: bool,
    found: &mut Found,
) -> Option<Matched> {
    if let Some(typedef) = find(symbol, version.get(), per_thread) {
        if let Argument::Given(unverified, ()) = args.unverified {
            let message = format!(
                "remove `unverified`: the typedef table has `{}` and checks this declaration \
                 against it",
                typedef.typedef_name()
            );
            let mistake = Mistake::at(MistakeKind::NeedlessUnverified, unverified, message);
            found.push(args.places.unverified, mistake);
        }
        return Some(Matched::Typedef(typedef));
    }
    // A known symbol above every header the table read: a new ABI from newer headers, declared
    // with `unverified`. At or below the newest header the table knows every typedef, so it knows
    // which ABI the driver returns at any version there: `unverified` would bind that one under a
    // signature nobody checked.
    let (kind, message) = match args.unverified {
        Argument::Given(..) if beyond_table(version.get()) => return Some(Matched::Unverified),
        Argument::Given(..) => (
            MistakeKind::UnverifiedWithinTable,
            unverified_within_table(symbol, version.get(), per_thread),
        ),
        Argument::Invalid => return None,
        Argument::Absent => version_mistake(symbol, version.get(), per_thread),
    };
    found.push(args.places.version, Mistake::at(kind, span, message));
    None
}

/// Why `unverified` cannot declare a known symbol at a version no newer than the table's headers,
/// where no typedef of the flavour has it exactly: what the driver returns there, and what to
/// write instead.
fn unverified_within_table(symbol: &str, version: u32, per_thread: bool) -> String {
    let newest = newest_header().unwrap_or(version);
    let advice = match (
        typedef_at(symbol, version, per_thread),
        served_at(symbol, version, per_thread),
    ) {
        (Err(Miss::NotATypedef { .. }), Some(served)) => format!(
            "at version {version} the driver returns the ABI of `{}`: write `version = {}` with \
             that typedef's signature, or the version of the one your signature was copied \
             from: {}",
            served.typedef_name(),
            served.version,
            typedef_list(flavour(symbol, per_thread))
        ),
        _ => version_mistake(symbol, version, per_thread).1,
    };
    format!(
        "`unverified` is only for versions above {newest}, newer than every header the typedef \
         table read{}: remove it; {advice}",
        table_range()
    )
}

/// The per-thread typedef that a declaration of `legacy` naming no stream switches to under the
/// facade's `per-thread-default-stream` feature: the one with exactly the same C types, compared
/// by spelling (so a pointer to a `_v1` struct never pairs with a pointer to its `_v2`, though
/// both are 8 bytes). The first such at or above the legacy version, else the newest below it.
pub fn twin(legacy: &Typedef) -> Option<&'static Typedef> {
    twin_among(legacy, lookup(legacy.symbol))
}

pub(crate) fn twin_among(
    legacy: &Typedef,
    typedefs: &'static [Typedef],
) -> Option<&'static Typedef> {
    if legacy.stream.is_per_thread() {
        return None;
    }
    let same_types = |t: &&Typedef| {
        t.stream.is_per_thread()
            && t.params.len() == legacy.params.len()
            && t.params
                .iter()
                .zip(legacy.params)
                .all(|(a, b)| a.ty == b.ty)
            && t.ret == legacy.ret
    };
    let candidates: Vec<&'static Typedef> = typedefs.iter().filter(same_types).collect();
    candidates
        .iter()
        .filter(|t| t.version >= legacy.version)
        .min_by_key(|t| t.version)
        .or_else(|| candidates.iter().max_by_key(|t| t.version))
        .copied()
}

/// ` (one of PFN_..., ...)`, the typedefs of one flavour, or nothing when there are none.
fn list_hint(symbol: &str, per_thread: bool) -> String {
    let mut group = flavour(symbol, per_thread).peekable();
    if group.peek().is_none() {
        String::new()
    } else {
        format!(" (one of {})", typedef_list(group))
    }
}

/// Why a known symbol has no typedef at `version` in the flavour, and what to write instead.
fn version_mistake(symbol: &str, version: u32, per_thread: bool) -> (MistakeKind, String) {
    let legacy = || flavour(symbol, false);
    let threaded = || flavour(symbol, true);
    let miss = match typedef_at(symbol, version, per_thread) {
        Ok(_) => Miss::NotATypedef { newer: false },
        Err(miss) => miss,
    };
    // `unverified` is suggested only above the newest header the table read: below, the table
    // knows every typedef, and the ABI the driver returns.
    let beyond = beyond_table(version);
    let hint = |which: &str| {
        if beyond {
            format!(
                "; if your headers have a {which}typedef newer than the table, add `unverified` \
                 to declare it unchecked"
            )
        } else {
            String::new()
        }
    };
    match (per_thread, miss) {
        (true, Miss::NoFlavour) => (
            MistakeKind::NoPerThreadVariant,
            format!(
                "`{symbol}` has no per-thread default stream variant: remove `stream = \
                 \"per_thread\"` (its typedefs are {}){}",
                typedef_list(legacy()),
                hint("per-thread ")
            ),
        ),
        (true, Miss::OtherFlavour(_)) => (
            MistakeKind::WrongStreamFlavour,
            format!(
                "{version} is the version of the legacy typedef `PFN_{symbol}_v{version}`; with \
                 `stream = \"per_thread\"` write the per-thread typedef's own version: {} (the \
                 driver answers VERSION_NOT_SUFFICIENT for {version} with the per-thread flag)",
                typedef_list(threaded())
            ),
        ),
        (true, Miss::NotATypedef { .. }) => (
            MistakeKind::NotATypedef,
            format!(
                "`{symbol}` has no per-thread typedef at version {version}: write the version of \
                 the one your signature was copied from: {}{}",
                typedef_list(threaded()),
                hint("per-thread ")
            ),
        ),
        (false, Miss::OtherFlavour(t)) => (
            MistakeKind::WrongStreamFlavour,
            format!(
                "{version} is the version of the per-thread typedef `{}`: add `stream = \
                 \"per_thread\"`, or write a legacy typedef's version: {}",
                t.typedef_name(),
                typedef_list(legacy())
            ),
        ),
        (false, Miss::NoFlavour) => (
            MistakeKind::PerThreadOnly,
            format!(
                "`{symbol}` exists only for the per-thread default stream: add `stream = \
                 \"per_thread\"` and write one of {}{}",
                typedef_list(threaded()),
                hint("legacy ")
            ),
        ),
        (false, Miss::NotATypedef { .. }) => (
            MistakeKind::NotATypedef,
            format!(
                "`{symbol}` has no typedef at version {version}: write the version of the one your \
                 signature was copied from: {}{}",
                typedef_list(legacy()),
                hint("")
            ),
        ),
    }
}
