//! The wording both sides use: releases, the table's toolkit range, typedef lists and the unknown
//! symbol, and the typedef at a version with the reason it is missing.

use crate::{Cuda, TOOLKITS, Typedef, Version, flavour, lookup, nearest};

/// `13.5` for `13050`, as [`Version::dotted`] writes it; a number that is no version (a driver
/// reports what it reports) stays a number.
pub fn release(n: u32) -> String {
    Version::new(n).map_or_else(|_| n.to_string(), Version::dotted)
}

/// `the headers of CUDA 11.7 to 13.5`.
pub fn headers_of(first: u32, last: u32) -> String {
    format!("the headers of {} to {}", Cuda(first), release(last))
}

/// The span of toolkits the table was read from: ` (the headers of CUDA 11.7 to 13.5)`.
pub fn table_range() -> String {
    match (TOOLKITS.first(), TOOLKITS.last()) {
        (Some(&first), Some(&last)) => format!(" ({})", headers_of(first, last)),
        _ => String::new(),
    }
}

/// The newest toolkit whose headers the table read (`13050`).
pub(crate) fn newest_header() -> Option<u32> {
    TOOLKITS.last().copied()
}

/// Whether `version` is above the newest header the table read: only there can a typedef exist
/// that the table does not have, so only there is `unverified` accepted for a symbol it knows.
pub(crate) fn beyond_table(version: u32) -> bool {
    newest_header().is_some_and(|newest| version > newest)
}

/// The typedef whose ABI the driver returns for `symbol` at `version` in a flavour group: the
/// newest one at or below it (`cuGetProcAddress` answers so), if any.
pub(crate) fn served_at(symbol: &str, version: u32, per_thread: bool) -> Option<&'static Typedef> {
    flavour(symbol, per_thread)
        .filter(|t| t.version <= version)
        .max_by_key(|t| t.version)
}

/// `PFN_cuMemAlloc_v2000 (2000), PFN_cuMemAlloc_v3020 (3020)`.
pub fn typedef_list<'a>(typedefs: impl IntoIterator<Item = &'a Typedef>) -> String {
    typedefs
        .into_iter()
        .map(|t| format!("{} ({})", t.typedef_name(), t.version))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Who is told about a mistake: the advice differs, the facts do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    /// The author of a `#[cuda_entry]` declaration (the macro, `check`).
    Declaration,
    /// The user of the `cuda-entry` command line (`decl`, `probe`).
    Command,
}

/// The message for a symbol the table does not know: the nearest one it does, and what to do.
pub fn unknown_symbol(symbol: &str, reader: Reader) -> String {
    let range = table_range();
    match (nearest(symbol), reader) {
        (Some(near), Reader::Declaration) => format!(
            "unknown symbol `{symbol}`: did you mean `{near}`? (if `{symbol}` is a driver API \
             newer than the typedef table{range}, add `unverified` to declare it with a signature \
             this crate cannot check)"
        ),
        (None, Reader::Declaration) => format!(
            "unknown symbol `{symbol}`: the typedef table{range} does not have it; if it is a \
             driver API newer than those headers, add `unverified` to declare it with a signature \
             this crate cannot check"
        ),
        (Some(near), Reader::Command) => format!(
            "unknown symbol `{symbol}`: did you mean `{near}`? (symbols are base names, without \
             `_v2`/`_ptsz`/`_ptds`: the version and the stream select the variant)"
        ),
        (None, Reader::Command) => format!(
            "unknown symbol `{symbol}`: the typedef table{range} does not have it; list the known \
             ones with `cuda-entry probe --simulated` (a driver API newer than the table can be \
             declared with `unverified`)"
        ),
    }
}

/// The typedefs of `symbol` in one flavour group, oldest first (`_ptsz` and `_ptds` together).
pub fn oldest_first(symbol: &str, per_thread: bool) -> Vec<&'static Typedef> {
    let mut typedefs: Vec<&'static Typedef> = flavour(symbol, per_thread).collect();
    typedefs.sort_by_key(|t| t.version);
    typedefs
}

/// Why a known symbol has no typedef at a version in a flavour group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Miss {
    /// The symbol has no typedef in the group at all, only in the other one.
    NoFlavour,
    /// The version is that of this typedef of the other group.
    OtherFlavour(&'static Typedef),
    /// No typedef of either group at the version; `newer`: it is above every one of the group.
    NotATypedef {
        /// Whether the version is newer than every typedef of the group. (Not whether
        /// `unverified` is accepted there: for a known symbol, only above the newest header the
        /// table read.)
        newer: bool,
    },
}

/// The typedef of a known `symbol` at `version` in a flavour group, or why there is none. A group
/// that is empty is named before a version of the other group, but for the legacy group, where a
/// per-thread version is named first (the macro's order).
///
/// # Errors
/// The [`Miss`].
pub fn typedef_at(symbol: &str, version: u32, per_thread: bool) -> Result<&'static Typedef, Miss> {
    let group: Vec<&'static Typedef> = flavour(symbol, per_thread).collect();
    if let Some(t) = group.iter().find(|t| t.version == version) {
        return Ok(t);
    }
    let other = lookup(symbol)
        .iter()
        .find(|t| t.stream.is_per_thread() != per_thread && t.version == version);
    match other {
        _ if group.is_empty() && per_thread => Err(Miss::NoFlavour),
        Some(t) => Err(Miss::OtherFlavour(t)),
        None if group.is_empty() => Err(Miss::NoFlavour),
        None => Err(Miss::NotATypedef {
            newer: group.iter().all(|t| t.version < version),
        }),
    }
}
