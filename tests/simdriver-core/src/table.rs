//! Which export answers which (symbol, version, flags).
//!
//! Every row comes from two sources: the typedef versions of CUDA 13.0's cudaTypedefs.h
//! (`PFN_cuMemAlloc_v2000`, `PFN_cuMemAlloc_v3020`, `PFN_cuLaunchKernel_v7000_ptsz`...) and the
//! export the real driver returned for them (`exported` column of
//! tests/ground-truth/driver-13000-getprocaddress.tsv). The ground-truth test checks every row of
//! that file for these symbols, so an error here fails it.

use super::config::Mode;

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

const fn l(version: i32, export: &'static str) -> Variant {
    Variant {
        version,
        per_thread: false,
        export,
    }
}

const fn p(version: i32, export: &'static str) -> Variant {
    Variant {
        version,
        per_thread: true,
        export,
    }
}

/// The symbols the simulator resolves.
pub static SYMBOLS: &[Symbol] = &[
    Symbol {
        name: "cuDriverGetVersion",
        variants: &[l(2020, "cuDriverGetVersion")],
    },
    Symbol {
        name: "cuInit",
        variants: &[l(2000, "cuInit")],
    },
    // The 4-argument export answers from 11.3, the 5-argument one from 12.0 (ground truth rows
    // "cuGetProcAddress 11990 -> cuGetProcAddress", "12000 -> cuGetProcAddress_v2").
    Symbol {
        name: "cuGetProcAddress",
        variants: &[
            l(11030, "cuGetProcAddress"),
            l(12000, "cuGetProcAddress_v2"),
        ],
    },
    Symbol {
        name: "cuMemAlloc",
        variants: &[l(2000, "cuMemAlloc"), l(3020, "cuMemAlloc_v2")],
    },
    Symbol {
        name: "cuMemFree",
        variants: &[l(2000, "cuMemFree"), l(3020, "cuMemFree_v2")],
    },
    Symbol {
        name: "cuCtxCreate",
        variants: &[
            l(2000, "cuCtxCreate"),
            l(3020, "cuCtxCreate_v2"),
            l(11040, "cuCtxCreate_v3"),
            l(12050, "cuCtxCreate_v4"),
        ],
    },
    Symbol {
        name: "cuCtxDestroy",
        variants: &[l(2000, "cuCtxDestroy"), l(4000, "cuCtxDestroy_v2")],
    },
    Symbol {
        name: "cuCtxGetCurrent",
        variants: &[l(4000, "cuCtxGetCurrent")],
    },
    Symbol {
        name: "cuCtxSetCurrent",
        variants: &[l(4000, "cuCtxSetCurrent")],
    },
    // CUDA 13.0 added `PFN_cuCtxGetDevice_v13000(CUdevice *, CUcontext)`: version 13000 returns
    // `cuCtxGetDevice_v2` (ground truth), a different signature from the 2.0 one.
    Symbol {
        name: "cuCtxGetDevice",
        variants: &[l(2000, "cuCtxGetDevice"), l(13000, "cuCtxGetDevice_v2")],
    },
    // CUDA 13.0 added `PFN_cuCtxSynchronize_v13000(CUcontext)`: version 13000 returns
    // `cuCtxSynchronize_v2` (ground truth), a different signature from the 2.0 one.
    Symbol {
        name: "cuCtxSynchronize",
        variants: &[l(2000, "cuCtxSynchronize"), l(13000, "cuCtxSynchronize_v2")],
    },
    Symbol {
        name: "cuDeviceGet",
        variants: &[l(2000, "cuDeviceGet")],
    },
    Symbol {
        name: "cuDeviceGetCount",
        variants: &[l(2000, "cuDeviceGetCount")],
    },
    Symbol {
        name: "cuDeviceGetUuid",
        variants: &[l(9020, "cuDeviceGetUuid"), l(11040, "cuDeviceGetUuid_v2")],
    },
    Symbol {
        name: "cuDevicePrimaryCtxRetain",
        variants: &[l(7000, "cuDevicePrimaryCtxRetain")],
    },
    Symbol {
        name: "cuDevicePrimaryCtxRelease",
        variants: &[
            l(7000, "cuDevicePrimaryCtxRelease"),
            l(11000, "cuDevicePrimaryCtxRelease_v2"),
        ],
    },
    // Per-thread typedefs at 10000 and 10010 both: flags 2 at 10000 gives `_ptsz`, at 10010
    // `_v2_ptsz` (ground truth).
    Symbol {
        name: "cuStreamBeginCapture",
        variants: &[
            l(10000, "cuStreamBeginCapture"),
            p(10000, "cuStreamBeginCapture_ptsz"),
            l(10010, "cuStreamBeginCapture_v2"),
            p(10010, "cuStreamBeginCapture_v2_ptsz"),
        ],
    },
    // Flags 2 at 4000 answers status 2 (ground truth): the per-thread variant's own typedef is
    // `PFN_cuLaunchKernel_v7000_ptsz`, and flags 2 never falls back to the legacy one.
    Symbol {
        name: "cuLaunchKernel",
        variants: &[l(4000, "cuLaunchKernel"), p(7000, "cuLaunchKernel_ptsz")],
    },
    Symbol {
        name: "cuStreamSynchronize",
        variants: &[
            l(2000, "cuStreamSynchronize"),
            p(7000, "cuStreamSynchronize_ptsz"),
        ],
    },
    Symbol {
        name: "cuMemcpyHtoD",
        variants: &[
            l(2000, "cuMemcpyHtoD"),
            l(3020, "cuMemcpyHtoD_v2"),
            p(7000, "cuMemcpyHtoD_v2_ptds"),
        ],
    },
    Symbol {
        name: "cuMemcpyDtoH",
        variants: &[
            l(2000, "cuMemcpyDtoH"),
            l(3020, "cuMemcpyDtoH_v2"),
            p(7000, "cuMemcpyDtoH_v2_ptds"),
        ],
    },
    Symbol {
        name: "cuModuleLoadData",
        variants: &[l(2000, "cuModuleLoadData")],
    },
    Symbol {
        name: "cuModuleGetFunction",
        variants: &[l(2000, "cuModuleGetFunction")],
    },
    Symbol {
        name: "cuModuleUnload",
        variants: &[l(2000, "cuModuleUnload")],
    },
];

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
    let Some(sym) = SYMBOLS.iter().find(|s| s.name.as_bytes() == symbol) else {
        return Lookup::SymbolNotFound;
    };
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
