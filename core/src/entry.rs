//! The entry: one `static` per declaration, resolved on first use and cached for the process.
//! Its thread-safety is documented on [`Entry`], where users read it; `--cfg loom` model-checks
//! it.

use std::ffi::{CStr, c_void};
use std::fmt;
use std::ptr::NonNull;

use crate::error::Error;
use crate::error::ErrorKind;
use crate::request::{Request, Resolver, Stream};
use crate::sync::{AtomicPtr, Attempt, Claim, Mutex, Ordering, lock, wait};
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
/// `Entry::pfn` once the resolution failed; the error is in `Entry::error`. No answer can be
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
/// and all see the same outcome; an error is cached exactly like a pointer, behind a lock only
/// errors take. A panic inside the resolution releases the claim.
///
/// # Platform-specific behaviour
/// None of its own: the driver or runtime it asks is found as [`PATH_VARIABLE`](crate::PATH_VARIABLE)
/// and [`RUNTIME_PATH_VARIABLE`](crate::RUNTIME_PATH_VARIABLE) describe.
pub struct Entry {
    /// The resolved pointer; before it, [`UNRESOLVED`] or [`FAILED`]. The fast path reads only
    /// this.
    pfn: AtomicPtr<c_void>,
    /// Which thread is resolving the entry.
    claim: Claim,
    /// The error, once the resolution failed (written before `pfn` becomes [`FAILED`]).
    error: Mutex<Option<Error>>,
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
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry")
            .field("symbol", &self.symbol)
            .field("version", &self.version)
            .field("stream", &self.stream)
            .field("resolver", &self.resolver)
            .field("optional", &self.optional)
            .field("pfn", &self.pfn.load(Ordering::Acquire))
            .field("error", &*lock(&self.error))
            .finish()
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
            error: Mutex::new(None),
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
        self.resolve_with(|request| {
            let attribute = |e: Error| e.for_request(request);
            match self.resolver {
                Resolver::Driver => driver::driver()
                    .map_err(attribute)?
                    .resolve(self.symbol, request),
                Resolver::Runtime => runtime::runtime()
                    .map_err(attribute)?
                    .resolve(self.symbol, request),
            }
        })
    }

    /// The cache itself: the outcome of `resolve` on first use, the cached one after. The first
    /// caller claims the entry and resolves; callers racing with it block until its outcome is
    /// published, so `resolve` runs once. A success is published with one store and never takes
    /// a lock. A resolution that asks for its own entry (from inside the driver's
    /// `cuGetProcAddress`) gets an error instead of waiting for itself.
    pub(crate) fn resolve_with(
        &self,
        resolve: impl FnOnce(Request) -> Result<NonNull<c_void>, Error>,
    ) -> Result<NonNull<c_void>, Error> {
        loop {
            if let Some(outcome) = self.published() {
                return outcome;
            }
            match self.claim.try_claim() {
                Attempt::Mine(_guard) => {
                    if let Some(outcome) = self.published() {
                        return outcome; // published between the look and the claim
                    }
                    // A panic inside `resolve` drops the guard: the claim is released and the
                    // next caller tries again instead of waiting forever.
                    return match resolve(self.request()) {
                        Ok(pfn) => {
                            self.pfn.store(pfn.as_ptr(), Ordering::Release);
                            Ok(pfn)
                        }
                        // Not cached: the outer resolution or load it interrupted may still
                        // succeed, and the next call then resolves normally.
                        Err(error) if error.kind() == &ErrorKind::Reentrant => Err(error),
                        Err(error) => {
                            *lock(&self.error) = Some(error.clone());
                            self.pfn.store(FAILED, Ordering::Release);
                            Err(error)
                        }
                    };
                }
                Attempt::Reentered => {
                    let kind = ErrorKind::Reentrant;
                    return Err(Error::new(kind, Some(self.request()), None));
                }
                Attempt::Busy => wait(&|| self.pfn.load(Ordering::Acquire) != UNRESOLVED),
            }
        }
    }

    /// The outcome, once published.
    fn published(&self) -> Option<Result<NonNull<c_void>, Error>> {
        let pfn = self.pfn.load(Ordering::Acquire);
        if pfn == FAILED {
            // Written before FAILED was stored (Release), seen after it (Acquire).
            return lock(&self.error).clone().map(Err);
        }
        NonNull::new(pfn).map(Ok)
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
        let driver_version = match self.resolver {
            Resolver::Driver => driver::loaded().map(driver::Driver::version),
            Resolver::Runtime => runtime::loaded().map(runtime::Runtime::driver_version),
        };
        let kind = ErrorKind::DriverStatus { code };
        Error::new(kind, Some(self.request()), driver_version)
    }

    /// Whether the driver can serve this entry. Resolves it (once) but never calls it.
    pub fn is_available(&self) -> bool {
        self.resolve().is_ok()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    //! The cache without any driver: fake resolutions (pointers that are never called).
    //! Run under Miri too (`cargo +nightly miri test -p cuda-entry --lib`).
    use super::*;
    use crate::ErrorKind;
    use crate::sync::Ordering as O;
    use std::sync::atomic::AtomicUsize;

    extern "C" fn target() {}

    /// A stable address standing in for a driver function (Miri gives a function a new address
    /// each time it is turned into a pointer, a static keeps one).
    static FAKE: u8 = 0;

    fn fake() -> NonNull<c_void> {
        NonNull::from(&FAKE).cast()
    }

    fn not_found(request: Request) -> Error {
        Error::new(ErrorKind::SymbolNotFound, Some(request), Some(13000))
    }

    /// What `resolve` does, with `ask` in place of the driver.
    fn resolve_faked(
        entry: &Entry,
        ask: impl FnOnce(Request) -> Result<NonNull<c_void>, Error>,
    ) -> Result<NonNull<c_void>, Error> {
        entry.cached().map_or_else(|| entry.resolve_with(ask), Ok)
    }

    #[test]
    fn first_use_resolves_then_the_fast_path_answers() {
        let entry = Entry::new(c"cuMemAlloc", 3020, Stream::Legacy);
        assert_eq!(entry.cached(), None);
        let asked = AtomicUsize::new(0);
        let ask = |r: Request| {
            asked.fetch_add(1, O::SeqCst);
            assert_eq!(
                (r.symbol, r.version, r.stream),
                ("cuMemAlloc", 3020, Stream::Legacy)
            );
            Ok(fake())
        };
        assert_eq!(resolve_faked(&entry, ask), Ok(fake()));
        assert_eq!(entry.cached(), Some(fake()));
        assert_eq!(
            resolve_faked(&entry, |_| unreachable!("cached")),
            Ok(fake())
        );
        assert_eq!(asked.load(O::SeqCst), 1);
    }

    #[test]
    fn errors_are_cached_and_never_reach_the_fast_path() {
        let entry = Entry::new(c"cuFoo", 12000, Stream::PerThread).through(Resolver::Runtime);
        let first = resolve_faked(&entry, |r| Err(not_found(r))).unwrap_err();
        assert_eq!(first.request().map(|r| r.resolver), Some(Resolver::Runtime));
        for _ in 0..3 {
            assert_eq!(
                resolve_faked(&entry, |_| unreachable!("cached")),
                Err(first.clone())
            );
        }
        assert_eq!(entry.cached(), None);
    }

    #[test]
    fn racing_threads_share_one_resolution() {
        let entry = Entry::new(c"cuCtxCreate", 12050, Stream::Legacy);
        let asked = AtomicUsize::new(0);
        let results: Vec<_> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4)
                .map(|_| {
                    s.spawn(|| {
                        resolve_faked(&entry, |_| {
                            asked.fetch_add(1, O::SeqCst);
                            Ok(fake())
                        })
                        .map(|p| p.as_ptr() as usize)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("no panic"))
                .collect()
        });
        assert!(results.iter().all(|r| *r == Ok(fake().as_ptr() as usize)));
        assert_eq!(asked.load(O::SeqCst), 1);
    }

    #[test]
    fn a_panicking_resolution_leaves_the_entry_usable() {
        let entry = Entry::new(c"cuMemAlloc", 3020, Stream::Legacy);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _ = entry.resolve_with(|_| panic!("a resolver bug"));
        }));
        assert!(caught.is_err());
        assert_eq!(resolve_faked(&entry, |_| Ok(fake())), Ok(fake()));
    }

    /// Runs `body` on a thread and fails the test if it does not finish in 20 s (a deadlock
    /// would otherwise hang the suite instead of failing it).
    fn within_deadline(body: impl FnOnce() + Send + 'static) {
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            body();
            let _ = done.send(());
        });
        finished
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("finished (a deadlock or a panic otherwise)");
    }

    #[test]
    fn a_resolution_asking_for_its_own_entry_fails_instead_of_deadlocking() {
        static ENTRY: Entry = Entry::new(c"cuMemAlloc", 3020, Stream::Legacy);
        within_deadline(|| {
            let outer = ENTRY.resolve_with(|_| {
                let inner = ENTRY.resolve_with(|_| unreachable!("the entry is being resolved"));
                let error = inner.expect_err("re-entrant");
                assert_eq!(error.kind(), &ErrorKind::Reentrant);
                assert_eq!(error.request().map(|r| r.symbol), Some("cuMemAlloc"));
                assert!(error.to_string().contains("from inside its own resolution"));
                Ok(fake())
            });
            assert_eq!(outer, Ok(fake()), "the outer resolution is unaffected");
            assert_eq!(ENTRY.cached(), Some(fake()));
        });
    }

    #[test]
    fn a_reentrant_failure_is_not_cached() {
        static ENTRY: Entry = Entry::new(c"cuMemFree", 3020, Stream::Legacy);
        within_deadline(|| {
            let inner =
                ENTRY.resolve_with(|r| Err(Error::new(ErrorKind::Reentrant, Some(r), None)));
            assert_eq!(
                inner.map_err(|e| e.kind().clone()),
                Err(ErrorKind::Reentrant)
            );
            assert_eq!(ENTRY.resolve_with(|_| Ok(fake())), Ok(fake()));
        });
    }

    /// This thread's CPU time (user and system), from the kernel's per-thread clock.
    #[cfg(all(target_os = "linux", not(miri)))]
    fn thread_cpu_time() -> std::time::Duration {
        #[repr(C)]
        struct Timespec {
            seconds: i64,
            nanoseconds: i64,
        }
        unsafe extern "C" {
            fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
        }
        const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
        let mut time = Timespec {
            seconds: 0,
            nanoseconds: 0,
        };
        // SAFETY: a valid pointer to a local; the clock id is Linux's.
        let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &raw mut time) };
        assert_eq!(rc, 0, "clock_gettime");
        std::time::Duration::new(
            u64::try_from(time.seconds).unwrap_or(0),
            u32::try_from(time.nanoseconds).unwrap_or(0),
        )
    }

    #[test]
    #[cfg(all(target_os = "linux", not(miri)))]
    fn waiting_threads_block_instead_of_spinning() {
        use std::time::{Duration, Instant};
        static ENTRY: Entry = Entry::new(c"cuCtxCreate", 11040, Stream::Legacy);
        let resolving = std::sync::Barrier::new(2);
        std::thread::scope(|s| {
            s.spawn(|| {
                ENTRY
                    .resolve_with(|_| {
                        resolving.wait();
                        std::thread::sleep(Duration::from_millis(600));
                        Ok(fake())
                    })
                    .map(NonNull::addr)
            });
            resolving.wait();
            let waiters: Vec<_> = (0..8)
                .map(|_| {
                    s.spawn(|| {
                        let (cpu, wall) = (thread_cpu_time(), Instant::now());
                        let outcome = ENTRY.resolve_with(|_| unreachable!("resolved once"));
                        (
                            outcome.map(NonNull::addr),
                            thread_cpu_time() - cpu,
                            wall.elapsed(),
                        )
                    })
                })
                .collect();
            for waiter in waiters {
                let (outcome, cpu, wall) = waiter.join().expect("no panic");
                assert_eq!(outcome, Ok(fake().addr()));
                assert!(wall >= Duration::from_millis(300), "it waited: {wall:?}");
                // A spinning or yielding waiter burns most of the wait; a blocked one wakes
                // once per slice (10 ms) at most.
                assert!(
                    cpu < Duration::from_millis(60),
                    "{cpu:?} of CPU in {wall:?}"
                );
            }
        });
    }

    #[test]
    #[cfg(all(target_os = "linux", not(miri)))]
    fn a_fork_child_takes_over_a_resolution_its_parent_had_in_flight() {
        use std::time::{Duration, Instant};
        unsafe extern "C" {
            fn fork() -> i32;
            fn waitpid(pid: i32, status: *mut i32, options: i32) -> i32;
            fn kill(pid: i32, signal: i32) -> i32;
            fn _exit(status: i32) -> !;
        }
        const WNOHANG: i32 = 1;
        const SIGKILL: i32 = 9;
        static ENTRY: Entry = Entry::new(c"cuStreamCreate", 2000, Stream::Legacy);
        let (claimed, release) = (std::sync::Barrier::new(2), std::sync::Barrier::new(2));
        std::thread::scope(|s| {
            let parent_resolution = s.spawn(|| {
                ENTRY
                    .resolve_with(|_| {
                        claimed.wait();
                        release.wait();
                        Ok(fake())
                    })
                    .map(NonNull::addr)
            });
            claimed.wait(); // the other thread now owns the entry's claim
            // SAFETY: the child only resolves the entry (no lock another thread of the parent
            // may hold: the claim is atomics, the parking lot is only ever try-locked) and exits.
            let pid = unsafe { fork() };
            if pid == 0 {
                let other = NonNull::new(std::ptr::without_provenance_mut(0x2000)).expect("non-0");
                let outcome = ENTRY.resolve_with(|_| Ok(other));
                // SAFETY: ends the child without running the parent's atexit handlers.
                unsafe { _exit(if outcome == Ok(other) { 0 } else { 1 }) }
            }
            assert!(pid > 0, "fork failed");
            let start = Instant::now();
            let mut status = 0;
            let exited = loop {
                // SAFETY: our own child; status is a local.
                let done = unsafe { waitpid(pid, &raw mut status, WNOHANG) };
                if done == pid {
                    break true;
                }
                if start.elapsed() > Duration::from_secs(20) {
                    // SAFETY: our own child.
                    unsafe { kill(pid, SIGKILL) };
                    // SAFETY: as above.
                    unsafe { waitpid(pid, &raw mut status, 0) };
                    break false;
                }
                std::thread::sleep(Duration::from_millis(5));
            };
            release.wait();
            assert_eq!(
                parent_resolution.join().expect("no panic"),
                Ok(fake().addr())
            );
            assert!(
                exited,
                "the child hung on the parent's in-flight resolution"
            );
            assert_eq!(
                status, 0,
                "the child resolved the entry itself (wait status {status})"
            );
        });
    }

    #[test]
    fn resolve_as_gives_the_typed_pointer() {
        let entry = Entry::new(c"cuMemAlloc", 3020, Stream::Legacy);
        let target = NonNull::new(target as *mut c_void).expect("a function address");
        entry.resolve_with(|_| Ok(target)).expect("faked");
        // SAFETY: `target`'s own type; the fast path answers without a driver.
        let f = unsafe { entry.resolve_as::<extern "C" fn()>() }.expect("cached");
        f();
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    //! `RUSTFLAGS="--cfg loom" cargo test -p cuda-entry --lib loom --release`
    use super::*;
    use loom::sync::Arc;
    use loom::sync::atomic::AtomicUsize;

    fn fake(n: usize) -> NonNull<c_void> {
        NonNull::new(std::ptr::without_provenance_mut(n)).expect("non-zero")
    }

    fn resolve_faked(
        entry: &Entry,
        asked: &AtomicUsize,
        answer: Result<usize, ()>,
    ) -> Result<NonNull<c_void>, Error> {
        entry.cached().map_or_else(
            || {
                entry.resolve_with(|request| {
                    let n = asked.fetch_add(1, Ordering::SeqCst);
                    answer.map(|a| fake(a + n)).map_err(|()| {
                        let kind = crate::ErrorKind::SymbolNotFound;
                        Error::new(kind, Some(request), Some(13000))
                    })
                })
            },
            Ok,
        )
    }

    fn race(answer: Result<usize, ()>) {
        loom::model(move || {
            let entry = Arc::new(Entry::new(c"cuMemAlloc", 3020, Stream::Legacy));
            let asked = Arc::new(AtomicUsize::new(0));
            let other = {
                let (entry, asked) = (entry.clone(), asked.clone());
                loom::thread::spawn(move || {
                    resolve_faked(&entry, &asked, answer).map(|p| p.as_ptr() as usize)
                })
            };
            let here = resolve_faked(&entry, &asked, answer).map(|p| p.as_ptr() as usize);
            let there = other.join().unwrap();
            assert_eq!(here, there, "both threads see the same outcome");
            assert_eq!(asked.load(Ordering::SeqCst), 1, "resolved once");
            let again = resolve_faked(&entry, &asked, answer).map(|p| p.as_ptr() as usize);
            assert_eq!(again, here, "and it stays cached");
        });
    }

    #[test]
    fn racing_first_calls_resolve_once() {
        race(Ok(0x1000));
    }

    #[test]
    fn racing_first_calls_cache_one_error() {
        race(Err(()));
    }

    #[test]
    fn a_preload_racing_calls_resolves_each_entry_once() {
        loom::model(|| {
            let entries = Arc::new([
                Entry::new(c"cuMemAlloc", 3020, Stream::Legacy),
                Entry::new(c"cuMemFree", 3020, Stream::Legacy),
            ]);
            let asked = Arc::new([AtomicUsize::new(0), AtomicUsize::new(0)]);
            let preload = {
                let (entries, asked) = (entries.clone(), asked.clone());
                loom::thread::spawn(move || {
                    (0..2)
                        .map(|i| {
                            resolve_faked(&entries[i], &asked[i], Ok(0x1000 * (i + 1)))
                                .map(|p| p.as_ptr() as usize)
                        })
                        .collect::<Vec<_>>()
                })
            };
            let call =
                resolve_faked(&entries[1], &asked[1], Ok(0x2000)).map(|p| p.as_ptr() as usize);
            let preloaded = preload.join().unwrap();
            assert_eq!(preloaded[1], call);
            assert_eq!(preloaded[0], Ok(0x1000));
            for a in asked.iter() {
                assert_eq!(a.load(Ordering::SeqCst), 1);
            }
        });
    }
}
