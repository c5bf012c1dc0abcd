//! The driver's export names (`cuMemAlloc_v2`, `cuStreamSynchronize_ptsz`) and the typedef each
//! implements. `cuGetProcAddress` takes the base symbol and a version, never an export name;
//! this maps a name found in a binary or a header back to that pair.

mod generated;

pub use generated::EXPORTS;

use crate::{Flavour, Typedef};

/// One driver export and the typedef it implements: the one `cuGetProcAddress(symbol,
/// version)` returns it for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Export {
    /// The exported name (`cuMemAlloc_v2`).
    pub name: &'static str,
    /// The base symbol (`cuMemAlloc`).
    pub symbol: &'static str,
    /// The version of the typedef it implements (`3020`: `PFN_cuMemAlloc_v3020`).
    pub version: u32,
    /// Its default-stream flavour: `_ptsz`/`_ptds` exports implement the per-thread typedefs.
    pub stream: Flavour,
}

impl Export {
    /// The typedef it implements.
    pub fn typedef(&self) -> Option<&'static Typedef> {
        crate::lookup(self.symbol)
            .iter()
            .find(|t| t.version == self.version && t.stream == self.stream)
    }
}

/// The export called `name`, if the headers (CUDA 11.7 and newer) declare it: `cuMemAlloc_v2`
/// is `cuMemAlloc` at 3020. `None` for names they do not (the driver's internal exports).
/// `O(log n)`.
///
/// ```
/// let e = cuda_entry_table::export("cuMemAlloc_v2").unwrap();
/// assert_eq!((e.symbol, e.version), ("cuMemAlloc", 3020));
/// assert!(cuda_entry_table::export("cuMemAlloc_v9").is_none());
/// ```
pub fn export(name: &str) -> Option<&'static Export> {
    EXPORTS
        .binary_search_by(|e| e.name.cmp(name))
        .ok()
        .map(|i| &EXPORTS[i])
}
