//! The typedef table: every `PFN_<symbol>_v<version>[_ptsz|_ptds]` that the CUDA toolkit headers
//! (`cudaTypedefs.h`, `cudaProfilerTypedefs.h`, `cudaGLTypedefs.h`, `cudaEGLTypedefs.h`,
//! `cudaVDPAUTypedefs.h`) ever shipped, with the ABI facts of each parameter.
//!
//! The data in `generated.rs` is written by the `cuda-entry-generator` crate from the headers of
//! pinned toolkit releases; never edit it by hand (see `macros/generator/README.md`).
#![deny(missing_docs)]

// What else the headers tell: the C types' classes, the export names, the CUresult codes; and
// what the driver does through each level of a pointer parameter.
mod access;
mod ctype;
mod exports;
mod status;

mod generated;
pub mod manifest;
mod needs;
pub mod registration;
mod request;
#[cfg(feature = "rules")]
pub mod rules;
mod version;

pub use access::{Access, DOCUMENTED, EXTENTS, Use, extent};
pub use ctype::{
    BY_VALUE_RECORDS, ByteClass, ByteRun, Callback, Class, Layout, Passing, class_words,
    value_words,
};
pub use exports::{EXPORTS, Export, export};
pub use generated::{TOOLKITS, TYPEDEFS};
pub use needs::{Needs, needs};
pub use request::{DefaultStream, Resolver};
pub use status::{STATUSES, Status, status};
pub use version::{Cuda, Version, VersionError};

/// Which default-stream flavour a typedef belongs to: its header suffix ([`Flavour::suffix`]), and
/// the [`DefaultStream`] it is resolved in ([`Flavour::default_stream`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Flavour {
    /// The plain typedef (`PFN_cuLaunchKernel_v4000`): legacy default stream.
    Legacy,
    /// A `_ptsz` typedef (`PFN_cuLaunchKernel_v7000_ptsz`): per-thread default stream, a call that
    /// takes a stream argument.
    Ptsz,
    /// A `_ptds` typedef (`PFN_cuMemcpy_v7000_ptds`): per-thread default stream, a call that uses
    /// the default stream implicitly.
    Ptds,
}

impl Flavour {
    /// Whether this is one of the per-thread default stream flavours (`_ptsz` or `_ptds`).
    pub const fn is_per_thread(self) -> bool {
        !matches!(self, Flavour::Legacy)
    }

    /// The default stream a typedef of this flavour is resolved in.
    pub const fn default_stream(self) -> DefaultStream {
        DefaultStream::per_thread(self.is_per_thread())
    }

    /// The typedef name suffix: `""`, `"_ptsz"` or `"_ptds"`.
    pub const fn suffix(self) -> &'static str {
        match self {
            Flavour::Legacy => "",
            Flavour::Ptsz => "_ptsz",
            Flavour::Ptds => "_ptds",
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
    /// `sizeof` in bytes (0 for `void` and incomplete types), in the newest headers that have it.
    pub size: u32,
    /// `_Alignof` in bytes (0 for `void` and incomplete types), in the newest headers that have it.
    pub align: u32,
    /// What kind of type the C compiler says it is.
    pub class: Class,
    /// For a pointer to data ([`Class::Pointer`]), the type it points to: `CUcontext *` ->
    /// `CUcontext` -> `struct CUctx_st` (incomplete: size 0). `None` for any other class.
    pub pointee: Option<&'static CType>,
    /// Every layout the headers gave the type, each with the toolkits that had it, oldest first
    /// (`CUdevResource`: 144 bytes aligned to 4 in CUDA 12.4 to 13.0, to 8 from 13.1); see
    /// [`CType::layouts_within`].
    pub layouts: &'static [Layout],
    /// For a function pointer ([`Class::FunctionPointer`]), the signature of the function it
    /// points to, as the headers declare it (`CUhostFn`: `void (*)(void *userData)`). `None` for
    /// any other class.
    pub callback: Option<&'static Callback>,
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
    pub stream: Flavour,
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

/// The typedefs of `symbol` in one flavour group (`per_thread` selects `_ptsz` and `_ptds`, else
/// the legacy ones), ordered by version within each flavour.
pub fn flavour(symbol: &str, per_thread: bool) -> impl Iterator<Item = &'static Typedef> + Clone {
    lookup(symbol)
        .iter()
        .filter(move |t| t.stream.is_per_thread() == per_thread)
}

/// The typedef of `symbol` at exactly `version` in a flavour group (`per_thread` selects `_ptsz`
/// or `_ptds`).
pub fn find(symbol: &str, version: u32, per_thread: bool) -> Option<&'static Typedef> {
    flavour(symbol, per_thread).find(|t| t.version == version)
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

/// The table's symbol a misspelled `symbol` most likely meant, for "did you mean" messages.
///
/// - A symbol of the table is returned as it is.
/// - A name with a variant suffix the driver does not know (`cuMemAlloc_v2`, `cuLaunchKernel_ptsz`,
///   `cuMemcpy_v2_ptds`) gives its base name when the table has it: the version and the stream
///   flavour select the variant, never a suffix.
/// - Otherwise the symbol at the smallest edit distance, ignoring case (an insertion, deletion,
///   substitution or swap of two adjacent letters counts one), if that distance is at most
///   `max(2, len / 4)`; ties go to the smaller case-sensitive distance, then to the first symbol
///   in table order. `None` when nothing is that close.
///
/// ```
/// assert_eq!(cuda_entry_table::nearest("cuMemAloc"), Some("cuMemAlloc"));
/// assert_eq!(cuda_entry_table::nearest("cuMemAlloc_v2"), Some("cuMemAlloc"));
/// assert_eq!(cuda_entry_table::nearest("somethingElseEntirely"), None);
/// ```
pub fn nearest(symbol: &str) -> Option<&'static str> {
    if let Some(t) = lookup(symbol).first() {
        return Some(t.symbol);
    }
    if let Some(t) = lookup(base_symbol(symbol)).first() {
        return Some(t.symbol);
    }
    let folded = symbol.to_ascii_lowercase();
    let limit = (symbol.len() / 4).max(2);
    let mut best: Option<(usize, usize, &'static str)> = None;
    for candidate in symbols() {
        // Lengths that differ by more than the limit cannot be within it.
        if candidate.len().abs_diff(symbol.len()) > limit {
            continue;
        }
        let folded_distance = distance(&folded, &candidate.to_ascii_lowercase());
        if folded_distance > limit {
            continue;
        }
        let exact_distance = distance(symbol, candidate);
        let better = match best {
            None => true,
            Some((d, e, _)) => (folded_distance, exact_distance) < (d, e),
        };
        if better {
            best = Some((folded_distance, exact_distance, candidate));
        }
    }
    best.map(|(_, _, s)| s)
}

/// `cuMemcpy_v2_ptds` -> `cuMemcpy`: the base name the driver knows, without a trailing
/// `_ptsz`/`_ptds` and then a `_v<digits>` (export names, which the driver does not answer to).
pub fn base_symbol(symbol: &str) -> &str {
    let base = symbol
        .strip_suffix("_ptsz")
        .or_else(|| symbol.strip_suffix("_ptds"))
        .unwrap_or(symbol);
    match base.rsplit_once("_v") {
        Some((head, digits))
            if !head.is_empty()
                && !digits.is_empty()
                && digits.bytes().all(|b| b.is_ascii_digit()) =>
        {
            head
        }
        _ => base,
    }
}

/// The optimal-string-alignment distance between `a` and `b`, counted in bytes: the fewest
/// insertions, deletions, substitutions and swaps of two adjacent bytes that turn one into the
/// other (no substring edited twice). Symbols are ASCII; other input is compared byte by byte.
fn distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    // Three rows of the dynamic-programming matrix: i-2, i-1 and i.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (previous[j] + 1)
                .min(current[j - 1] + 1)
                .min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            current[j] = d;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::{base_symbol, distance};

    #[test]
    fn distance_counts_each_edit_once() {
        assert_eq!(distance("cumemalloc", "cumemalloc"), 0);
        assert_eq!(distance("cumemaloc", "cumemalloc"), 1);
        assert_eq!(distance("cumemallco", "cumemalloc"), 1);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("abc", ""), 3);
        assert_eq!(distance("kitten", "sitting"), 3);
    }

    #[test]
    fn suffixes_are_stripped() {
        assert_eq!(base_symbol("cuMemAlloc_v2"), "cuMemAlloc");
        assert_eq!(base_symbol("cuLaunchKernel_ptsz"), "cuLaunchKernel");
        assert_eq!(base_symbol("cuMemcpy_v2_ptds"), "cuMemcpy");
        assert_eq!(base_symbol("cuMemAlloc"), "cuMemAlloc");
        assert_eq!(base_symbol("cuFoo_vx"), "cuFoo_vx");
        assert_eq!(base_symbol("_v2"), "_v2");
    }
}
