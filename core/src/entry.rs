//! The entry: one `static` per declaration, resolved on first use and cached for the process.
//! Its thread-safety is documented on [`Entry`], where users read it; `--cfg loom` model-checks
//! it.

use std::ffi::{CStr, c_void};
use std::fmt;
use std::ptr::NonNull;

use crate::error::Error;
use crate::error::ErrorKind;
use crate::request::{Request, Resolver, Stream};
use crate::sync::{AtomicPtr, Attempt, Claim, Ordering, owned, wait, wake_waiters};
use crate::{driver, runtime};

/// `Entry::new`: `const` where the synchronisation primitives are (always, but under loom).
macro_rules! entry_constructor {
    ($(#[$doc:meta])* $name:ident($symbol:ident, $version:ident, $stream:ident) -> Entry {
        $($field:ident $(: $value:expr)?),* $(,)?
    }) => {
        $(#[$doc])*
        #[cfg(not(loom))]
        pub const fn $name($symbol: &'static CStr, $version: u32, $stream: Stream) -> Entry {
            Entry { $($field $(: $value)?),* }
        }
        $(#[$doc])*
        #[cfg(loom)]
        pub fn $name($symbol: &'static CStr, $version: u32, $stream: Stream) -> Entry {
            Entry { $($field $(: $value)?),* }
        }
    };
}

/// `Entry::pfn` before any resolution (and while one runs).
const UNRESOLVED: *mut c_void = std::ptr::null_mut();
/// `Entry::pfn` once the resolution failed; the error is behind `Entry::error`. No answer can be
/// mistaken for it: answers in the first page are rejected (`query::FIRST_FUNCTION_ADDRESS`).
const FAILED: *mut c_void = std::ptr::without_provenance_mut(2);

/// Whether `pfn` is a resolved pointer rather than one of the states before it.
#[inline(always)]
fn is_resolved(pfn: *mut c_void) -> bool {
    pfn.addr() > FAILED.addr()
}

/// One driver entry point at one typedef version: what `#[cuda_entry]` declares a `static` of.
///
/// Constructing one asks nothing; the first [`resolve`](Entry::resolve) loads the driver if
/// needed, checks its version, asks `cuGetProcAddress` once and caches the answer.
///
/// # Thread-safety
/// `Entry` is `Sync`: one `static` serves every thread. Once resolved, a call reads the cached
/// pointer with one `Acquire` load and one branch: no lock, no allocation. The first use claims
/// the entry with one compare-exchange, so threads racing on it resolve once (the others wait)
/// and all see the same outcome. An error is cached like a pointer: published once, never changed,
/// and read without a lock (atomic loads and a clone, which only counts references), so a child
/// forked while other threads read it, or a signal handler that interrupts its own thread's read,
/// gets it too instead of waiting forever. A panic inside the resolution releases the claim.
///
/// # Platform-specific behaviour
/// None of its own: the driver or runtime it asks is found as [`PATH_VARIABLE`](crate::PATH_VARIABLE)
/// and [`RUNTIME_PATH_VARIABLE`](crate::RUNTIME_PATH_VARIABLE) describe.
// One cache line per entry, no more memory: the fields take 64 bytes already. The pointer word
// that every call reads then never shares its line with another entry's claim, written while that
// entry resolves, nor with a neighbouring static that something writes (false sharing).
#[cfg_attr(not(loom), repr(align(64)))]
pub struct Entry {
    /// The resolved pointer; before it, [`UNRESOLVED`] or [`FAILED`]. The fast path reads only
    /// this.
    pfn: AtomicPtr<c_void>,
    /// Which thread is resolving the entry.
    claim: Claim,
    /// The error, once the resolution failed: a `Box` stored before `pfn` becomes [`FAILED`],
    /// never changed after that, freed with the entry (a `static`'s, never). NULL before.
    /// Untyped (an `Error` behind it): the type's debug info, which every codegen unit holding
    /// a declaration's `static` carries, then stops at `c_void` instead of the whole error.
    error: AtomicPtr<c_void>,
    symbol: &'static CStr,
    /// `symbol` as text, for errors (decoded once, at construction).
    name: &'static str,
    version: u32,
    stream: Stream,
    resolver: Resolver,
    /// Whether the program runs without it ([`Entry::optional`]).
    optional: bool,
}

/// The symbol as text: every driver symbol is ASCII; anything else is named as such.
const fn symbol_name(symbol: &'static CStr) -> &'static str {
    match symbol.to_str() {
        Ok(name) => name,
        Err(_) => "<non-UTF-8 symbol>",
    }
}

impl fmt::Debug for Entry {
    /// Every field; the pointer and the claim as the state they make (a snapshot: nothing waits).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pfn = self.pfn.load(Ordering::Acquire);
        let state = match pfn {
            _ if is_resolved(pfn) => State::Resolved(pfn),
            FAILED => State::Failed,
            _ if self.claim.is_claimed() => State::Resolving,
            _ => State::Unresolved,
        };
        f.debug_struct("Entry")
            .field("symbol", &self.symbol)
            .field("name", &self.name)
            .field("version", &self.version)
            .field("stream", &self.stream)
            .field("resolver", &self.resolver)
            .field("optional", &self.optional)
            .field("state", &state)
            .field("error", &self.published().and_then(Result::err))
            .finish()
    }
}

/// Where an entry's resolution is, as its `Debug` shows it.
enum State {
    Unresolved,
    /// A thread is resolving it.
    Resolving,
    Resolved(*mut c_void),
    Failed,
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            State::Unresolved => f.write_str("Unresolved"),
            State::Resolving => f.write_str("Resolving"),
            State::Resolved(pfn) => f.debug_tuple("Resolved").field(pfn).finish(),
            State::Failed => f.write_str("Failed"),
        }
    }
}

impl Entry {
    entry_constructor! {
        /// An unresolved entry for `symbol` (the base name, as `c"cuMemAlloc"`) at the typedef
        /// `version` (the `N` of `PFN_cuMemAlloc_vN`) in the `stream` flavour, resolved through
        /// the driver.
        ///
        /// An invalid version (not `1000 * major + 10 * minor`) is not rejected here but by
        /// [`resolve`](Entry::resolve), without asking the driver; `#[cuda_entry]` rejects it at
        /// compile time.
        new(symbol, version, stream) -> Entry {
            pfn: AtomicPtr::new(UNRESOLVED),
            claim: Claim::new(),
            error: AtomicPtr::new(std::ptr::null_mut()),
            symbol,
            name: symbol_name(symbol),
            version,
            stream,
            resolver: Resolver::Driver,
            optional: false,
        }
    }

    /// The same entry, resolved through `resolver` instead of the driver.
    #[must_use]
    pub const fn through(mut self, resolver: Resolver) -> Entry {
        self.resolver = resolver;
        self
    }

    /// The same entry, marked optional: the program runs without it (it falls back to an older
    /// ABI or does without), so [`requirements`](crate::requirements) sets no minimum driver by
    /// it and [`preload_all`](crate::preload_all) does not fail on it. Resolving it is unchanged.
    #[must_use]
    pub const fn optional(mut self) -> Entry {
        self.optional = true;
        self
    }

    /// Whether the entry is optional ([`Entry::optional`]; `#[cuda_entry(..., optional)]`).
    pub const fn is_optional(&self) -> bool {
        self.optional
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

    /// Who is asked for the pointer.
    pub const fn resolver(&self) -> Resolver {
        self.resolver
    }

    /// The request this entry makes, as errors report it.
    pub fn request(&self) -> Request {
        Request::new(self.name, self.version, self.stream, self.resolver)
    }

    /// The driver's pointer for this entry, resolving it on first use.
    ///
    /// # Errors
    /// Any [`Error`]: the driver cannot be loaded, is older than the version, does not know the
    /// symbol or version, or answered something unusable. The same error on every call.
    #[inline]
    pub fn resolve(&self) -> Result<NonNull<c_void>, Error> {
        match self.cached() {
            Some(pfn) => Ok(pfn),
            None => self.resolve_slow(),
        }
    }

    /// The fast path: the pointer once resolved.
    #[inline]
    fn cached(&self) -> Option<NonNull<c_void>> {
        let pfn = self.pfn.load(Ordering::Acquire);
        if is_resolved(pfn) {
            NonNull::new(pfn)
        } else {
            None
        }
    }

    #[cold]
    #[inline(never)]
    fn resolve_slow(&self) -> Result<NonNull<c_void>, Error> {
        self.resolve_from(&mut Resolvers::default(), Wake::Now)
    }

    /// Resolves the entry through `resolvers` (loaded at most once for a whole batch), waking
    /// its waiters now or leaving that to the batch ([`Wake::Later`]).
    #[inline]
    pub(crate) fn resolve_from(
        &self,
        resolvers: &mut Resolvers,
        wake: Wake,
    ) -> Result<NonNull<c_void>, Error> {
        self.resolve_once(
            // `Resolver` is the table's, not exhaustive here: any other is the driver.
            |request| {
                if self.resolver == Resolver::Runtime {
                    resolvers.runtime(request)?.resolve(self.symbol, request)
                } else {
                    resolvers.driver(request)?.resolve(self.symbol, request)
                }
            },
            wake,
        )
    }

    /// [`resolve_once`](Entry::resolve_once) waking at once, with `resolve` in place of the
    /// driver: the tests' way in.
    #[cfg(test)]
    pub(crate) fn resolve_with(
        &self,
        resolve: impl FnOnce(Request) -> Result<NonNull<c_void>, Error>,
    ) -> Result<NonNull<c_void>, Error> {
        self.resolve_once(resolve, Wake::Now)
    }

    /// The cache itself: the outcome of `resolve` on first use, the cached one after. The first
    /// caller claims the entry and resolves; callers racing with it block until its outcome is
    /// published, so `resolve` runs once. A success is published with one store and never takes
    /// a lock. A resolution that asks for its own entry (from inside the driver's
    /// `cuGetProcAddress`) gets an error instead of waiting for itself.
    #[inline]
    pub(crate) fn resolve_once(
        &self,
        resolve: impl FnOnce(Request) -> Result<NonNull<c_void>, Error>,
        wake: Wake,
    ) -> Result<NonNull<c_void>, Error> {
        loop {
            if let Some(outcome) = self.published() {
                return outcome;
            }
            match self.claim.try_claim() {
                Attempt::Mine(guard) => {
                    if let Some(outcome) = self.published() {
                        return outcome; // published between the look and the claim
                    }
                    // A panic inside `resolve` drops the guard: the claim is released, waiters
                    // are woken, and the next caller tries again instead of waiting forever.
                    let outcome = match resolve(self.request()) {
                        Ok(pfn) => {
                            self.pfn.store(pfn.as_ptr(), Ordering::Release);
                            Ok(pfn)
                        }
                        Err(error) => Err(self.failed(error)),
                    };
                    match wake {
                        Wake::Now => drop(guard),
                        Wake::Later => guard.release_quietly(),
                    }
                    return outcome;
                }
                Attempt::Reentered => return Err(self.reentered()),
                Attempt::Busy => {
                    if let Wake::Later = wake {
                        wake_waiters(); // the batch's own waiters, before it sleeps
                    }
                    wait(&|| self.pfn.load(Ordering::Acquire) != UNRESOLVED);
                }
            }
        }
    }

    /// The owner's failed resolution: published, unless the entry was only asked for from
    /// inside its own resolution or load, which may still succeed (the next call then resolves
    /// normally).
    #[cold]
    fn failed(&self, error: Error) -> Error {
        if error.kind() != &ErrorKind::Reentrant {
            self.publish_error(error.clone());
        }
        error
    }

    /// The error for a caller inside this thread's own resolution of the entry.
    #[cold]
    fn reentered(&self) -> Error {
        Error::new(ErrorKind::Reentrant, Some(self.request()), None)
    }

    /// Publishes `error` as the outcome: the error first, then [`FAILED`], each with one store.
    /// Called by the claim's owner only, and only while `pfn` is not [`FAILED`].
    fn publish_error(&self, error: Error) {
        let earlier = self
            .error
            .swap(Box::into_raw(Box::new(error)).cast(), Ordering::AcqRel)
            .cast::<Error>();
        if !earlier.is_null() {
            // SAFETY: an error stored by an owner that never published FAILED (a thread of the
            // process this one was forked from, interrupted between the two stores): readers
            // look at `error` only once `pfn` is FAILED, so none ever saw it, and the claim
            // makes this thread the only writer. It came from `Box::into_raw`.
            drop(unsafe { Box::from_raw(earlier) });
        }
        self.pfn.store(FAILED, Ordering::Release);
    }

    /// The outcome, once published. Lock-free, and allocation-free for an error (its clone only
    /// counts references): what a forked child or a signal handler may call.
    #[inline]
    fn published(&self) -> Option<Result<NonNull<c_void>, Error>> {
        let pfn = self.pfn.load(Ordering::Acquire);
        if pfn == FAILED {
            return self.published_error().map(Err);
        }
        NonNull::new(pfn).map(Ok)
    }

    /// The published error, once `pfn` was seen [`FAILED`].
    #[cold]
    fn published_error(&self) -> Option<Error> {
        let error = self.error.load(Ordering::Acquire).cast::<Error>();
        // SAFETY: stored (from `Box::into_raw`) before FAILED was (Release), so seen here
        // (Acquire); never changed or freed once FAILED is stored, until the entry is
        // dropped, which no `&self` outlives. NULL never pairs with FAILED; were it to,
        // `None` makes the caller resolve again rather than read it.
        unsafe { error.as_ref() }.cloned()
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

    /// The error for a call of this entry that returned `code` (not `CUDA_SUCCESS`): the request,
    /// the status, and the driver's version (known: the entry resolved).
    #[cold]
    #[inline(never)]
    pub(crate) fn status_error(&self, code: i32) -> Error {
        let driver_version = if self.resolver == Resolver::Runtime {
            runtime::loaded().map(runtime::Runtime::driver_version)
        } else {
            driver::loaded().map(driver::Driver::version)
        };
        let kind = ErrorKind::DriverStatus { code };
        Error::new(kind, Some(self.request()), driver_version)
    }

    /// Whether the driver can serve this entry. Resolves it (once) but never calls it.
    pub fn is_available(&self) -> bool {
        self.resolve().is_ok()
    }
}

/// When a resolution wakes the threads waiting for it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Wake {
    /// As it publishes (one resolution).
    Now,
    /// Once for a whole batch, by its caller ([`wake_waiters`]) after the last publication.
    Later,
}

/// The driver and the runtime a resolution asks, each looked up at most once per batch (or per
/// resolution) once loaded: the first entry that needs one loads it, or reads its cached load,
/// and the others of the batch reuse the reference. A load that failed is not kept here: each
/// entry reads the cached error again (lock-free), the error path only.
#[derive(Default)]
pub(crate) struct Resolvers {
    driver: Option<&'static driver::Driver>,
    runtime: Option<&'static runtime::Runtime>,
}

impl Resolvers {
    /// The driver, or its loading error attributed to `request`.
    #[inline]
    fn driver(&mut self, request: Request) -> Result<&'static driver::Driver, Error> {
        if let Some(driver) = self.driver {
            return Ok(driver);
        }
        let driver = driver::driver().map_err(|e| e.for_request(request))?;
        self.driver = Some(driver);
        Ok(driver)
    }

    /// The runtime, or its loading error attributed to `request`.
    fn runtime(&mut self, request: Request) -> Result<&'static runtime::Runtime, Error> {
        if let Some(runtime) = self.runtime {
            return Ok(runtime);
        }
        let runtime = runtime::runtime().map_err(|e| e.for_request(request))?;
        self.runtime = Some(runtime);
        Ok(runtime)
    }
}

impl Drop for Entry {
    fn drop(&mut self) {
        let error = owned(&mut self.error).cast::<Error>();
        if !error.is_null() {
            // SAFETY: the published error, from `Box::into_raw`; `&mut self` means no reader
            // and no clone borrows it (clones own their data).
            drop(unsafe { Box::from_raw(error) });
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests;

#[cfg(all(test, loom))]
mod loom_tests;
