//! Which export answers which (symbol, version, flags).
//!
//! The table ([`SYMBOLS`], in `table/symbols.rs`) is generated from two sources: the typedefs of the
//! CUDA headers up to the driver's 13.0 (`PFN_cuMemAlloc_v2000`, `PFN_cuMemAlloc_v3020`,
//! `PFN_cuLaunchKernel_v7000_ptsz`..., from `cuda-entry-table`), and the real driver's exports
//! (tests/ground-truth/driver-13000-exports.txt). A symbol's variants are named by the rule every
//! measured answer follows: the first typedef is the bare export, the k-th `_v<k>`, and a
//! per-thread typedef the `_ptsz`/`_ptds` twin of the legacy export at its version. A symbol is in
//! the table when the driver exports every variant's function. The ground-truth test
//! (core/sim/simdriver/tests/ground_truth.rs) compares every row of
//! tests/ground-truth/driver-13000-getprocaddress.tsv, so an error here fails it.

use super::config::Mode;

#[rustfmt::skip]
mod symbols;

/// One ABI variant of a symbol.
#[derive(Clone, Copy, Debug)]
pub struct Variant {
    /// The typedef version (`PFN_<symbol>_v<version>`).
    pub version: i32,
    /// Whether it is the `_ptsz`/`_ptds` typedef, returned for flags 2 (PER_THREAD_DEFAULT_STREAM).
    pub per_thread: bool,
    /// The driver export the real driver returns for it.
    pub export: &'static str,
}

/// A symbol a caller can ask for, with its variants.
#[derive(Clone, Copy, Debug)]
pub struct Symbol {
    /// The base name (`cuMemAlloc`, never `cuMemAlloc_v2`).
    pub name: &'static str,
    /// Its variants, oldest first.
    pub variants: &'static [Variant],
}

/// A variant of the legacy-stream group (flags 0 and 1).
pub(crate) const fn l(version: i32, export: &'static str) -> Variant {
    Variant {
        version,
        per_thread: false,
        export,
    }
}

/// A `_ptsz`/`_ptds` variant (flags 2).
pub(crate) const fn p(version: i32, export: &'static str) -> Variant {
    Variant {
        version,
        per_thread: true,
        export,
    }
}

/// The symbols the simulator resolves, sorted by name: every symbol driver 580.159.04 resolves
/// (generated).
pub use symbols::SYMBOLS;

/// What a lookup found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// The export to return.
    Found(&'static str),
    /// `CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND`.
    SymbolNotFound,
    /// `CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT`.
    VersionNotSufficient,
}

/// Resolves `symbol` (exact bytes, case-sensitive: "CUmemAlloc" is not found) at `version` for
/// legacy (`per_thread == false`: flags 0 and 1) or per-thread (flags 2) semantics.
///
/// Rules, all read off the ground truth:
/// - suffixed names ("cuMemAlloc_v2", "cuLaunchKernel_ptsz") and "" are unknown symbols: only base
///   names are in [`SYMBOLS`];
/// - flags 2 picks among the per-thread variants when the symbol has any (cuLaunchKernel 4000
///   flags 2: status 2), among the legacy ones otherwise (cuMemAlloc 3020 flags 2:
///   `cuMemAlloc_v2`);
/// - the newest variant whose version is <= `version`; none: version not sufficient.
///
/// Variants whose export this build lacks (the 11.x driver's `cuGetProcAddress_v2`) or that the
/// `no-v2` mode hides are skipped, as a driver without that export would not know them.
pub fn lookup(symbol: &[u8], version: i32, per_thread: bool, mode: Mode) -> Lookup {
    let Ok(index) = SYMBOLS.binary_search_by(|s| s.name.as_bytes().cmp(symbol)) else {
        return Lookup::SymbolNotFound;
    };
    let sym = &SYMBOLS[index];
    let present = |v: &&Variant| {
        super::export_address(v.export).is_some()
            && !(mode == Mode::NoV2 && v.export == "cuGetProcAddress_v2")
    };
    let has_per_thread = sym.variants.iter().filter(present).any(|v| v.per_thread);
    let want_per_thread = per_thread && has_per_thread;
    let mut candidates = sym.variants.iter().filter(present).peekable();
    if candidates.peek().is_none() {
        return Lookup::SymbolNotFound;
    }
    candidates
        .filter(|v| v.per_thread == want_per_thread && v.version <= version)
        .max_by_key(|v| v.version)
        .map_or(Lookup::VersionNotSufficient, |v| Lookup::Found(v.export))
}
