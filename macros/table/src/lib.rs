//! The typedef table: every `PFN_<symbol>_v<version>[_ptsz|_ptds]` that the CUDA toolkit headers
//! (`cudaTypedefs.h`, `cudaProfilerTypedefs.h`, `cudaGLTypedefs.h`, `cudaEGLTypedefs.h`,
//! `cudaVDPAUTypedefs.h`) ever shipped, with the ABI facts of each parameter.
//!
//! The data in `generated.rs` is written by the `cuda-entry-generator` crate from the headers of
//! pinned toolkit releases; never edit it by hand (see `macros/generator/README.md`).
#![deny(missing_docs)]

mod generated;

pub use generated::{TOOLKITS, TYPEDEFS};

/// Which default-stream semantics a typedef belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stream {
    /// The plain typedef (`PFN_cuLaunchKernel_v4000`): legacy default stream.
    Legacy,
    /// A `_ptsz` typedef (`PFN_cuLaunchKernel_v7000_ptsz`): per-thread default stream, a call that
    /// takes a stream argument.
    Ptsz,
    /// A `_ptds` typedef (`PFN_cuMemcpy_v7000_ptds`): per-thread default stream, a call that uses
    /// the default stream implicitly.
    Ptds,
}

impl Stream {
    /// Whether this is one of the per-thread default stream flavours (`_ptsz` or `_ptds`).
    pub const fn is_per_thread(self) -> bool {
        !matches!(self, Stream::Legacy)
    }

    /// The typedef name suffix: `""`, `"_ptsz"` or `"_ptds"`.
    pub const fn suffix(self) -> &'static str {
        match self {
            Stream::Legacy => "",
            Stream::Ptsz => "_ptsz",
            Stream::Ptds => "_ptds",
        }
    }
}

/// A C type as it appears in a typedef, with its size and alignment on the target the table was
/// generated for (x86_64 Linux, LP64), measured by compiling `sizeof`/`_Alignof` probes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CType {
    /// The C spelling, normalised to single spaces (`"const void *"`, `"CUdeviceptr"`).
    pub spelling: &'static str,
    /// Whether the spelling has an explicit `*` (the Rust side must be a pointer too).
    pub pointer: bool,
    /// `sizeof` in bytes (0 for `void`).
    pub size: u32,
    /// `_Alignof` in bytes (0 for `void`).
    pub align: u32,
}

/// One parameter of a typedef.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// The parameter's name in the header (`"bytesize"`), or `"argN"` when the header has none.
    pub name: &'static str,
    /// Its C type.
    pub ty: CType,
}

/// One `PFN_<symbol>_v<version>[_ptsz|_ptds]` typedef.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Typedef {
    /// The base symbol passed to `cuGetProcAddress` (`"cuMemAlloc"`).
    pub symbol: &'static str,
    /// The `N` of `_vN`: the version to pass to `cuGetProcAddress` for this ABI.
    pub version: u32,
    /// The default-stream flavour.
    pub stream: Stream,
    /// The return type (`CUresult` for nearly all).
    pub ret: CType,
    /// The parameters, in order.
    pub params: &'static [Param],
    /// The header file the typedef was read from (`"cudaTypedefs.h"`).
    pub header: &'static str,
    /// The first toolkit read whose header has this typedef, as `1000 * major + 10 * minor`.
    pub first_toolkit: u32,
    /// The last toolkit read whose header has this typedef.
    pub last_toolkit: u32,
}

impl Typedef {
    /// The typedef's name in the header: `PFN_cuMemAlloc_v3020`, `PFN_cuLaunchKernel_v7000_ptsz`.
    pub fn typedef_name(&self) -> String {
        format!(
            "PFN_{}_v{}{}",
            self.symbol,
            self.version,
            self.stream.suffix()
        )
    }
}

/// Every typedef of `symbol`, all flavours, ordered by flavour then version. Empty if the table
/// does not know the symbol. `O(log n)`.
pub fn lookup(symbol: &str) -> &'static [Typedef] {
    let start = TYPEDEFS.partition_point(|t| t.symbol < symbol);
    let end = start + TYPEDEFS[start..].partition_point(|t| t.symbol == symbol);
    &TYPEDEFS[start..end]
}

/// The typedef of `symbol` at exactly `version` in a flavour group (`per_thread` selects `_ptsz`
/// or `_ptds`).
pub fn find(symbol: &str, version: u32, per_thread: bool) -> Option<&'static Typedef> {
    lookup(symbol)
        .iter()
        .find(|t| t.version == version && t.stream.is_per_thread() == per_thread)
}

/// Every distinct symbol, in order.
pub fn symbols() -> impl Iterator<Item = &'static str> {
    let mut last = "";
    TYPEDEFS.iter().filter_map(move |t| {
        if t.symbol == last {
            None
        } else {
            last = t.symbol;
            Some(t.symbol)
        }
    })
}
