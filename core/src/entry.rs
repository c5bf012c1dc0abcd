//! The entry: one `static` per declaration, resolved on first use and cached for the process.
//!
//! # Thread-safety
//! The fast path is one `Acquire` load of the cached pointer, one branch and the call: no lock, no
//! allocation. The first use goes through a [`OnceLock`], so threads racing on it resolve once and
//! all see the same outcome; an error is cached exactly like a pointer.

use std::ffi::{CStr, c_void};
use std::fmt;
use std::ptr::NonNull;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicPtr, Ordering};

use crate::driver;
use crate::error::{Error, PreloadError, Request};

/// Which default stream a driver function's variant uses, and so which flag is passed to
/// `cuGetProcAddress`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

/// A resolved driver pointer, shareable between threads (it points at immutable code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pfn(NonNull<c_void>);

// SAFETY: a function pointer into the driver, which is never unloaded; it is only read.
unsafe impl Send for Pfn {}
// SAFETY: as above.
unsafe impl Sync for Pfn {}

/// One driver entry point at one typedef version: what `#[cuda_entry]` declares a `static` of.
///
/// Constructing one asks nothing; the first [`resolve`](Entry::resolve) loads the driver if
/// needed, checks its version, asks `cuGetProcAddress` once and caches the answer.
pub struct Entry {
    /// The resolved pointer, or NULL until it is. The fast path reads only this.
    pfn: AtomicPtr<c_void>,
    /// The outcome of the one resolution, error included.
    outcome: OnceLock<Result<Pfn, Error>>,
    symbol: &'static CStr,
    version: u32,
    stream: Stream,
}

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry")
            .field("symbol", &self.symbol)
            .field("version", &self.version)
            .field("stream", &self.stream)
            .field("outcome", &self.outcome.get())
            .finish()
    }
}

impl Entry {
    /// An unresolved entry for `symbol` (the base name, as `c"cuMemAlloc"`) at the typedef
    /// `version` (the `N` of `PFN_cuMemAlloc_vN`) in the `stream` flavour.
    ///
    /// An invalid version (not `1000 * major + 10 * minor`) is not rejected here but by
    /// [`resolve`](Entry::resolve), without asking the driver; `#[cuda_entry]` rejects it at
    /// compile time.
    pub const fn new(symbol: &'static CStr, version: u32, stream: Stream) -> Entry {
        Entry {
            pfn: AtomicPtr::new(std::ptr::null_mut()),
            outcome: OnceLock::new(),
            symbol,
            version,
            stream,
        }
    }

    /// The symbol asked for.
    pub const fn symbol(&self) -> &'static CStr {
        self.symbol
    }

    /// The typedef version asked for.
    pub const fn version(&self) -> u32 {
        self.version
    }

    /// The stream flavour asked for.
    pub const fn stream(&self) -> Stream {
        self.stream
    }

    /// The request this entry makes, as errors report it.
    pub fn request(&self) -> Request {
        Request {
            symbol: self.symbol.to_str().unwrap_or("<non-UTF-8 symbol>"),
            version: self.version,
            stream: self.stream,
        }
    }

    /// The driver's pointer for this entry, resolving it on first use.
    ///
    /// # Errors
    /// Any [`Error`]: the driver cannot be loaded, is older than the version, does not know the
    /// symbol or version, or answered something unusable. The same error on every call.
    #[inline]
    pub fn resolve(&self) -> Result<NonNull<c_void>, Error> {
        match NonNull::new(self.pfn.load(Ordering::Acquire)) {
            Some(pfn) => Ok(pfn),
            None => self.resolve_slow(),
        }
    }

    #[cold]
    #[inline(never)]
    fn resolve_slow(&self) -> Result<NonNull<c_void>, Error> {
        let outcome = self.outcome.get_or_init(|| {
            let request = self.request();
            let driver = driver::driver().map_err(|e| e.clone().for_request(request))?;
            driver.resolve(self.symbol, request).map(Pfn)
        });
        match outcome {
            Ok(Pfn(pfn)) => {
                self.pfn.store(pfn.as_ptr(), Ordering::Release);
                Ok(*pfn)
            }
            Err(e) => Err(e.clone()),
        }
    }

    /// The pointer as the function pointer type `F`.
    ///
    /// # Errors
    /// As [`resolve`](Entry::resolve).
    ///
    /// # Safety
    /// `F` must be an `unsafe extern "C"` (or `"system"`) function pointer type whose signature
    /// is the one of the `PFN_<symbol>_v<version>` typedef this entry names. `#[cuda_entry]`
    /// generates this call with the checked signature.
    #[inline]
    pub unsafe fn resolve_as<F: Copy>(&self) -> Result<F, Error> {
        const {
            assert!(
                size_of::<F>() == size_of::<*mut c_void>(),
                "F must be a function pointer type"
            );
        }
        let pfn = self.resolve()?;
        // SAFETY: F is pointer-sized (checked above) and, per the caller's contract, a function
        // pointer type of this entry's signature; pfn is a non-NULL function address.
        Ok(unsafe { std::mem::transmute_copy::<*mut c_void, F>(&pfn.as_ptr()) })
    }

    /// Whether the driver can serve this entry. Resolves it (once) but never calls it.
    pub fn is_available(&self) -> bool {
        self.resolve().is_ok()
    }
}

/// Resolves every entry now and reports every one that fails, not just the first.
///
/// For programs that prefer to fail at start-up rather than at their first driver call.
///
/// # Errors
/// A [`PreloadError`] listing the error of each entry that cannot be resolved.
pub fn preload(entries: &[&Entry]) -> Result<(), PreloadError> {
    let failures: Vec<Error> = entries.iter().filter_map(|e| e.resolve().err()).collect();
    if failures.is_empty() {
        Ok(())
    } else {
        Err(PreloadError { failures })
    }
}
