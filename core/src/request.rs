//! What an entry asks for: the symbol, the typedef version, the stream flavour and the resolver.

use std::fmt;

/// Which default stream an entry resolves in: the table's
/// [`DefaultStream`](cuda_entry_table::DefaultStream), the one word the macro, the manifest and the
/// command use too.
pub use cuda_entry_table::DefaultStream as Stream;
pub use cuda_entry_table::Resolver;
use cuda_entry_table::{Cuda, Version};

/// What an entry asked the driver for: the symbol, the typedef version and the stream flavour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Request {
    /// The base symbol passed to `cuGetProcAddress` (`"cuMemAlloc"`).
    pub symbol: &'static str,
    /// The typedef version asked for (the `N` of `PFN_cuMemAlloc_vN`).
    pub version: u32,
    /// The default-stream flavour, which selects the flag passed with the request.
    pub stream: Stream,
    /// Who is asked: the driver's `cuGetProcAddress`, or the runtime's
    /// `cudaGetDriverEntryPointByVersion`.
    pub resolver: Resolver,
}

impl Request {
    /// A request for `symbol` at `version` in the `stream` flavour through `resolver`.
    pub const fn new(
        symbol: &'static str,
        version: u32,
        stream: Stream,
        resolver: Resolver,
    ) -> Request {
        Request {
            symbol,
            version,
            stream,
            resolver,
        }
    }
}

impl fmt::Display for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} version {} (", self.symbol, self.version)?;
        if Version::is_valid(self.version) {
            write!(f, "{}, ", Cuda(self.version))?;
        }
        write!(f, "{} default stream", self.stream)?;
        if self.resolver == Resolver::Runtime {
            f.write_str(", through the CUDA runtime")?;
        }
        f.write_str(")")
    }
}
