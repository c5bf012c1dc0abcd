//! Validation: the declaration against the typedef table.

use cuda_entry_table::{Stream, Typedef};
use proc_macro2::Span;
use syn::{Ident, Type};

use crate::parse::{Decl, Errors, StreamArg};

/// A declaration checked as far as the macro can; the rest (sizes, alignments) becomes const
/// assertions in the expansion.
pub(crate) struct Checked {
    pub(crate) symbol: String,
    pub(crate) version: u32,
    pub(crate) stream: StreamArg,
    /// Whether `stream` was written; if not, the per-thread twin may be chosen by the facade's
    /// `per-thread-default-stream` feature.
    pub(crate) stream_written: bool,
    /// The typedef the declaration matches; `None` for an `unverified` symbol.
    pub(crate) typedef: Option<&'static Typedef>,
    /// For a declaration that names no stream: the per-thread typedef with the same signature.
    pub(crate) twin: Option<&'static Typedef>,
    /// `resolver = "runtime"`.
    pub(crate) runtime: bool,
}

/// Checks `decl`'s arguments and signature against the table. Pushes every mistake into `errors`;
/// returns what the expansion needs, with placeholders where an argument was unusable.
pub(crate) fn validate(
    decl: &Decl,
    params: &[(Ident, Type)],
    ret: &Type,
    errors: &mut Errors,
) -> Checked {
    let args = &decl.args;
    let stream = args.stream.map_or(StreamArg::Legacy, |(s, _)| s);
    let mut checked = Checked {
        symbol: String::new(),
        version: 0,
        stream,
        stream_written: args.stream.is_some(),
        typedef: None,
        twin: None,
        runtime: args.runtime,
    };
    let Some(lit) = &args.symbol else {
        if !args.symbol_written {
            errors.push(syn::Error::new(
                args.span,
                "missing `symbol = \"cuName\"`: name the driver function, e.g. \
                 `#[cuda_entry(symbol = \"cuMemAlloc\", version = 3020)]`",
            ));
        }
        return checked;
    };
    let symbol = lit.value();
    let Some(symbol_ok) = check_symbol(&symbol, lit.span(), errors) else {
        return checked;
    };
    checked.symbol = symbol_ok;
    let typedefs = cuda_entry_table::lookup(&checked.symbol);
    let Some((version, version_span)) = args.version else {
        if !args.version_written {
            errors.push(syn::Error::new(
                args.span,
                format!(
                    "missing `version = N`: write the N of the `PFN_{symbol}_v<N>` typedef your \
                     signature was copied from{}; never CUDA_VERSION or the driver's version, \
                     which make the driver return whatever variant is newest",
                    list_hint(typedefs, stream)
                ),
            ));
        }
        return checked;
    };
    checked.version = version;
    if typedefs.is_empty() {
        if args.unverified.is_none() {
            errors.push(syn::Error::new(lit.span(), unknown_symbol_message(&symbol)));
        }
        return checked;
    }
    let per_thread = stream == StreamArg::PerThread;
    let flavour: Vec<&Typedef> = typedefs
        .iter()
        .filter(|t| t.stream.is_per_thread() == per_thread)
        .collect();
    let Some(typedef) = flavour.iter().find(|t| t.version == version) else {
        // A known symbol at a version newer than every typedef the table has of it: a new ABI
        // from headers newer than the table, declared with `unverified`.
        let newer = flavour.iter().all(|t| t.version < version);
        if args.unverified.is_some() && newer && !flavour.is_empty() {
            return checked;
        }
        errors.push(syn::Error::new(
            version_span,
            version_message(&symbol, version, per_thread, typedefs),
        ));
        return checked;
    };
    if let Some(span) = args.unverified {
        errors.push(syn::Error::new(
            span,
            format!(
                "remove `unverified`: the typedef table has `{}` and checks this declaration \
                 against it",
                typedef.typedef_name()
            ),
        ));
    }
    checked.typedef = Some(typedef);
    check_signature(decl, params, ret, typedef, errors);
    if !checked.stream_written {
        checked.twin = twin(typedef, typedefs);
    }
    checked
}

/// The per-thread typedef with exactly the legacy one's parameter and return types (the C
/// spellings, so a pointer to a `_v1` struct never pairs with a pointer to its `_v2`): the variant
/// the `per-thread-default-stream` feature switches to. The first such at or above the legacy
/// version, else the newest below it.
fn twin(legacy: &Typedef, typedefs: &'static [Typedef]) -> Option<&'static Typedef> {
    let same_types = |t: &&Typedef| {
        t.stream.is_per_thread()
            && t.params.len() == legacy.params.len()
            && t.params
                .iter()
                .zip(legacy.params)
                .all(|(a, b)| a.ty == b.ty)
            && t.ret == legacy.ret
    };
    let candidates: Vec<&Typedef> = typedefs.iter().filter(same_types).collect();
    candidates
        .iter()
        .filter(|t| t.version >= legacy.version)
        .min_by_key(|t| t.version)
        .or_else(|| candidates.iter().max_by_key(|t| t.version))
        .copied()
}

fn check_symbol(symbol: &str, span: Span, errors: &mut Errors) -> Option<String> {
    if symbol.is_empty() {
        errors.push(syn::Error::new(
            span,
            "the symbol is empty: write the driver function's name, e.g. `symbol = \"cuMemAlloc\"`",
        ));
        return None;
    }
    if symbol.contains('\0') {
        errors.push(syn::Error::new(
            span,
            "the symbol contains a NUL byte: write the plain name, the macro adds the terminator",
        ));
        return None;
    }
    let identifier = symbol
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !symbol.starts_with(|c: char| c.is_ascii_digit());
    if !identifier {
        errors.push(syn::Error::new(
            span,
            format!(
                "`{symbol}` is not a C identifier: write the driver function's name, e.g. \
                 `symbol = \"cuMemAlloc\"`"
            ),
        ));
        return None;
    }
    let base = cuda_entry_table::base_symbol(symbol);
    if base.len() < symbol.len() && cuda_entry_table::lookup(symbol).is_empty() {
        let suffix = &symbol[base.len()..];
        let typedefs = cuda_entry_table::lookup(base);
        errors.push(syn::Error::new(
            span,
            format!(
                "write `symbol = \"{base}\"`: the driver knows only base names and answers \
                 SYMBOL_NOT_FOUND for `{symbol}`; the variant is chosen by the version (and \
                 `stream = \"per_thread\"` for `_ptsz`/`_ptds`), not by the `{suffix}` suffix{}",
                list_hint(
                    typedefs,
                    if suffix.contains("_pt") {
                        StreamArg::PerThread
                    } else {
                        StreamArg::Legacy
                    }
                )
            ),
        ));
        return None;
    }
    Some(symbol.to_owned())
}

fn typedef_list(typedefs: &[&Typedef]) -> String {
    typedefs
        .iter()
        .map(|t| format!("{} ({})", t.typedef_name(), t.version))
        .collect::<Vec<_>>()
        .join(", ")
}

fn list_hint(typedefs: &[Typedef], stream: StreamArg) -> String {
    let per_thread = stream == StreamArg::PerThread;
    let flavour: Vec<&Typedef> = typedefs
        .iter()
        .filter(|t| t.stream.is_per_thread() == per_thread)
        .collect();
    if flavour.is_empty() {
        String::new()
    } else {
        format!(" (one of {})", typedef_list(&flavour))
    }
}

fn version_message(symbol: &str, version: u32, per_thread: bool, typedefs: &[Typedef]) -> String {
    let legacy: Vec<&Typedef> = typedefs
        .iter()
        .filter(|t| t.stream == Stream::Legacy)
        .collect();
    let threaded: Vec<&Typedef> = typedefs
        .iter()
        .filter(|t| t.stream.is_per_thread())
        .collect();
    if per_thread {
        if threaded.is_empty() {
            return format!(
                "`{symbol}` has no per-thread default stream variant: remove `stream = \
                 \"per_thread\"` (its typedefs are {})",
                typedef_list(&legacy)
            );
        }
        if legacy.iter().any(|t| t.version == version) {
            return format!(
                "{version} is the version of the legacy typedef `PFN_{symbol}_v{version}`; with \
                 `stream = \"per_thread\"` write the per-thread typedef's own version: {} (the \
                 driver answers VERSION_NOT_SUFFICIENT for {version} with the per-thread flag)",
                typedef_list(&threaded)
            );
        }
        return format!(
            "`{symbol}` has no per-thread typedef at version {version}: write the version of the \
             one your signature was copied from: {}",
            typedef_list(&threaded)
        );
    }
    if let Some(t) = threaded.iter().find(|t| t.version == version)
        && !legacy.iter().any(|t| t.version == version)
    {
        return format!(
            "{version} is the version of the per-thread typedef `{}`: add `stream = \
             \"per_thread\"`, or write a legacy typedef's version: {}",
            t.typedef_name(),
            typedef_list(&legacy)
        );
    }
    if legacy.is_empty() {
        return format!(
            "`{symbol}` exists only for the per-thread default stream: add `stream = \
             \"per_thread\"` and write one of {}",
            typedef_list(&threaded)
        );
    }
    let newer = if legacy.iter().all(|t| t.version < version) {
        " (if your headers have a newer typedef than the table, add `unverified` to declare it \
         unchecked)"
    } else {
        ""
    };
    format!(
        "`{symbol}` has no typedef at version {version}: write the version of the one your \
         signature was copied from: {}{newer}",
        typedef_list(&legacy)
    )
}

fn unknown_symbol_message(symbol: &str) -> String {
    let toolkits = cuda_entry_table::TOOLKITS;
    let range = match (toolkits.first(), toolkits.last()) {
        (Some(first), Some(last)) => format!(
            " (the headers of CUDA {}.{} to {}.{})",
            first / 1000,
            first % 1000 / 10,
            last / 1000,
            last % 1000 / 10
        ),
        _ => String::new(),
    };
    match cuda_entry_table::nearest(symbol) {
        Some(near) => format!(
            "unknown symbol `{symbol}`: did you mean `{near}`? (if `{symbol}` is a driver API \
             newer than the typedef table{range}, add `unverified` to declare it with a \
             signature this crate cannot check)"
        ),
        None => format!(
            "unknown symbol `{symbol}`: the typedef table{range} does not have it; if it is a \
             driver API newer than those headers, add `unverified` to declare it with a \
             signature this crate cannot check"
        ),
    }
}

fn check_signature(
    decl: &Decl,
    params: &[(Ident, Type)],
    ret: &Type,
    typedef: &Typedef,
    errors: &mut Errors,
) {
    let name = typedef.typedef_name();
    let receiver = decl
        .sig
        .inputs
        .iter()
        .any(|a| matches!(a, syn::FnArg::Receiver(_)));
    if receiver || decl.sig.variadic.is_some() {
        return; // already reported; counting the rest would only mislead
    }
    if params.len() != typedef.params.len() {
        let expected: Vec<String> = typedef
            .params
            .iter()
            .map(|p| format!("{} {}", p.ty.spelling, p.name))
            .collect();
        errors.push(syn::Error::new(
            decl.sig.paren_token.span.join(),
            format!(
                "`{name}` takes {} parameter{} ({}), this declaration has {}: copy the \
                 parameter list of that typedef",
                typedef.params.len(),
                if typedef.params.len() == 1 { "" } else { "s" },
                expected.join(", "),
                params.len()
            ),
        ));
        return;
    }
    for ((ident, ty), param) in params.iter().zip(typedef.params) {
        if param.ty.pointer && !is_pointer(ty) {
            errors.at(
                ty,
                format!(
                    "parameter `{ident}` is `{} {}` in `{name}`: write a pointer type here \
                     (`*mut T`, `*const T`, a reference or an `Option` of one)",
                    param.ty.spelling, param.name
                ),
            );
        }
    }
    if typedef.ret.size == 0 && !is_unit(ret) {
        errors.at(
            ret,
            format!("`{name}` returns `void`: remove the return type"),
        );
    }
}

/// Whether the type is syntactically a pointer: raw pointer, reference, function pointer, or an
/// `Option`/`NonNull` of one.
fn is_pointer(ty: &Type) -> bool {
    match ty {
        Type::Ptr(_) | Type::Reference(_) | Type::FnPtr(_) => true,
        Type::Paren(p) => is_pointer(&p.elem),
        Type::Group(g) => is_pointer(&g.elem),
        Type::Path(p) => p
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == "Option" || s.ident == "NonNull"),
        _ => false,
    }
}

fn is_unit(ty: &Type) -> bool {
    matches!(ty, Type::Tuple(t) if t.elems.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspellings_find_the_nearest_symbol() {
        let message = unknown_symbol_message("cuMemAloc");
        assert!(message.contains("did you mean `cuMemAlloc`?"), "{message}");
        let message = unknown_symbol_message("somethingElseEntirely");
        assert!(!message.contains("did you mean"), "{message}");
    }
}
