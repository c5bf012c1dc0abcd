//! What an entry asks for: the symbol, the typedef version, the stream flavour and the resolver.

use std::fmt;

use cuda_entry_table::{Cuda, Version, manifest};

/// Which default stream a driver function's variant uses, and so which flag is passed to
/// `cuGetProcAddress`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stream {
    /// The legacy default stream (`CU_GET_PROC_ADDRESS_LEGACY_STREAM`): the plain
    /// `PFN_<symbol>_v<N>` typedefs.
    Legacy,
    /// The per-thread default stream (`CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM`): the
    /// `PFN_<symbol>_v<N>_ptsz` / `_ptds` typedefs, whose `N` is their own.
    PerThread,
}

impl fmt::Display for Stream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stream::Legacy => "legacy",
            Stream::PerThread => "per-thread",
        })
    }
}

/// Who an entry asks for its pointer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Resolver {
    /// The driver's `cuGetProcAddress_v2` (or `cuGetProcAddress` on 11.3-11.8): the default.
    #[default]
    Driver,
    /// The CUDA runtime's `cudaGetDriverEntryPointByVersion` (runtime 12.5 or newer).
    Runtime,
}

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

impl From<manifest::StreamCode> for Stream {
    fn from(code: manifest::StreamCode) -> Stream {
        match code {
            manifest::StreamCode::Legacy => Stream::Legacy,
            manifest::StreamCode::PerThread => Stream::PerThread,
        }
    }
}

impl From<manifest::ResolverCode> for Resolver {
    fn from(code: manifest::ResolverCode) -> Resolver {
        match code {
            manifest::ResolverCode::Driver => Resolver::Driver,
            manifest::ResolverCode::Runtime => Resolver::Runtime,
        }
    }
}
