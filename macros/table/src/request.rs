//! What an entry asks for, in the words the macro, the runtime, the manifest and the command
//! share: the default stream and the resolver, each with the stable code a manifest record keeps.

use std::fmt;

/// Which default stream an entry resolves in, and so which flag is passed to `cuGetProcAddress`
/// (the runtime re-exports it as `cuda_entry::Stream`). [`DefaultStream::code`] is the manifest's
/// stream byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum DefaultStream {
    /// The legacy default stream (`CU_GET_PROC_ADDRESS_LEGACY_STREAM`): the plain
    /// `PFN_<symbol>_v<N>` typedefs.
    Legacy = 1,
    /// The per-thread default stream (`CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM`): the
    /// `PFN_<symbol>_v<N>_ptsz` / `_ptds` typedefs, whose `N` is their own.
    PerThread = 2,
}

impl DefaultStream {
    /// [`DefaultStream::PerThread`] when `per_thread`, else [`DefaultStream::Legacy`].
    pub const fn per_thread(per_thread: bool) -> DefaultStream {
        if per_thread {
            DefaultStream::PerThread
        } else {
            DefaultStream::Legacy
        }
    }

    /// Whether this is the per-thread default stream (the `_ptsz`/`_ptds` typedefs).
    pub const fn is_per_thread(self) -> bool {
        matches!(self, DefaultStream::PerThread)
    }

    /// The stable code of a manifest record: 1 legacy, 2 per-thread.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The stream of a manifest code; `None` for a code no format defines.
    pub const fn from_code(code: u8) -> Option<DefaultStream> {
        match code {
            1 => Some(DefaultStream::Legacy),
            2 => Some(DefaultStream::PerThread),
            _ => None,
        }
    }

    /// The attribute's spelling: `stream = "legacy"` or `stream = "per_thread"`.
    pub const fn argument(self) -> &'static str {
        match self {
            DefaultStream::Legacy => "legacy",
            DefaultStream::PerThread => "per_thread",
        }
    }
}

/// `legacy` or `per-thread`, as in "per-thread default stream".
impl fmt::Display for DefaultStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DefaultStream::Legacy => "legacy",
            DefaultStream::PerThread => "per-thread",
        })
    }
}

/// Who an entry asks for its pointer. [`Resolver::code`] is the manifest's resolver byte.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[non_exhaustive]
pub enum Resolver {
    /// The driver's `cuGetProcAddress_v2` (or `cuGetProcAddress` on 11.3-11.8): the default.
    #[default]
    Driver = 1,
    /// The CUDA runtime's `cudaGetDriverEntryPointByVersion` (runtime 12.5 or newer).
    Runtime = 2,
}

impl Resolver {
    /// The stable code of a manifest record: 1 driver, 2 runtime.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The resolver of a manifest code; `None` for a code no format defines.
    pub const fn from_code(code: u8) -> Option<Resolver> {
        match code {
            1 => Some(Resolver::Driver),
            2 => Some(Resolver::Runtime),
            _ => None,
        }
    }

    /// The attribute's spelling: `resolver = "driver"` or `resolver = "runtime"`.
    pub const fn argument(self) -> &'static str {
        match self {
            Resolver::Driver => "driver",
            Resolver::Runtime => "runtime",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{DefaultStream, Resolver};

    #[test]
    fn the_codes_are_those_old_binaries_wrote() {
        for (stream, code) in [(DefaultStream::Legacy, 1), (DefaultStream::PerThread, 2)] {
            assert_eq!(
                (stream.code(), DefaultStream::from_code(code)),
                (code, Some(stream))
            );
        }
        for (resolver, code) in [(Resolver::Driver, 1), (Resolver::Runtime, 2)] {
            assert_eq!(
                (resolver.code(), Resolver::from_code(code)),
                (code, Some(resolver))
            );
        }
        assert_eq!(
            (DefaultStream::from_code(0), Resolver::from_code(3)),
            (None, None)
        );
    }
}
