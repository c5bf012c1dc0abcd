//! The synchronisation the crate is built on, in one place so that a loom model (`--cfg loom`)
//! checks the same code that ships: the entry cache and the process's one-time library loads.

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicPtr, Ordering};
#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{AtomicPtr, Ordering};

#[cfg(loom)]
use loom::sync::atomic::AtomicU64;
#[cfg(not(loom))]
use std::sync::atomic::AtomicU64;

use std::ptr;

/// The pointer an atomic holds, read through `&mut` (no other thread can be reading it).
#[cfg(not(loom))]
pub(crate) fn owned<T>(atomic: &mut AtomicPtr<T>) -> *mut T {
    *atomic.get_mut()
}

/// The pointer an atomic holds, read through `&mut` (loom's atomics have no `get_mut`).
#[cfg(loom)]
pub(crate) fn owned<T>(atomic: &mut AtomicPtr<T>) -> *mut T {
    atomic.with_mut(|p| *p)
}

/// Who is doing a one-time piece of work (resolving an entry, loading a library): at most one
/// thread of this process at a time.
///
/// The owner is recorded as this process's id and a token of the thread, so that the three ways
/// a claim can outlive its work are recognised instead of waited on forever:
/// - the owner asks again from inside the work (a driver callback, an interposer): re-entrancy,
///   an error instead of a deadlock;
/// - the process forked while another thread owned the claim: in the child that thread does not
///   exist, so a caller there takes the claim over;
/// - the work panicked: the guard releases the claim.
pub(crate) struct Claim {
    /// 0 when free, else [`owner_token`] of the thread doing the work.
    owner: AtomicU64,
}

/// What [`Claim::try_claim`] found.
pub(crate) enum Attempt<'a> {
    /// This thread owns the claim until the guard drops.
    Mine(ClaimGuard<'a>),
    /// Another thread of this process owns it: wait, then look again.
    Busy,
    /// This very thread owns it: the caller is inside its own work.
    Reentered,
}

/// Releases a claim when dropped (after the work, or when it unwinds) and wakes the waiters.
pub(crate) struct ClaimGuard<'a>(&'a Claim);

impl Drop for ClaimGuard<'_> {
    fn drop(&mut self) {
        self.0.owner.store(0, Ordering::Release);
        wake_all();
    }
}

impl ClaimGuard<'_> {
    /// Releases the claim without waking anybody: for a batch that wakes its waiters once, with
    /// [`wake_waiters`], after its last publication (and before it waits itself).
    pub(crate) fn release_quietly(self) {
        self.0.owner.store(0, Ordering::Release);
        std::mem::forget(self);
    }
}

impl Claim {
    /// A free claim.
    #[cfg(not(loom))]
    pub(crate) const fn new() -> Claim {
        Claim {
            owner: AtomicU64::new(0),
        }
    }

    /// A free claim (loom's atomics are not `const`).
    #[cfg(loom)]
    pub(crate) fn new() -> Claim {
        Claim {
            owner: AtomicU64::new(0),
        }
    }

    /// Whether some thread owns the claim now (a snapshot, for `Debug`).
    pub(crate) fn is_claimed(&self) -> bool {
        self.owner.load(Ordering::Relaxed) != 0
    }

    /// Claims the work for this thread if it is free, or was claimed by a thread of the process
    /// this one was forked from.
    #[inline]
    pub(crate) fn try_claim(&self) -> Attempt<'_> {
        let me = owner_token();
        match self
            .owner
            .compare_exchange(0, me, Ordering::Acquire, Ordering::Acquire)
        {
            Ok(_) => Attempt::Mine(ClaimGuard(self)),
            Err(owner) => self.contended(me, owner),
        }
    }

    /// [`try_claim`](Claim::try_claim) when the claim was not free.
    #[cold]
    fn contended(&self, me: u64, mut owner: u64) -> Attempt<'_> {
        loop {
            let current = match owner {
                _ if owner == me => return Attempt::Reentered,
                0 => 0,
                // Owned in another process (the parent before a fork): nobody here will finish
                // it, so take it over.
                _ if owner >> 32 != me >> 32 => owner,
                _ => return Attempt::Busy,
            };
            match self
                .owner
                .compare_exchange(current, me, Ordering::Acquire, Ordering::Acquire)
            {
                Ok(_) => return Attempt::Mine(ClaimGuard(self)),
                Err(now) => owner = now,
            }
        }
    }
}

/// This thread's identity for [`Claim`]: the process id in the high half, a per-thread number
/// (never 0) in the low half. After `fork`, the child's thread keeps its number but not its pid.
///
/// Read once per thread, then from a `const` thread-local: one load and one branch per claim, no
/// system call. The `fork` child handler rewrites the cached token of the one thread a child
/// starts with (the one that forked, which runs the handler), so a token never names the parent.
#[cfg(not(loom))]
#[inline]
fn owner_token() -> u64 {
    match TOKEN.get() {
        0 => first_owner_token(),
        token => token,
    }
}

#[cfg(not(loom))]
thread_local! {
    /// This thread's [`owner_token`], once computed where a `fork` handler keeps it true; 0 before.
    static TOKEN: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// This thread's number (the low half of its token); 0 before it is drawn.
    static NUMBER: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// [`owner_token`] on a thread's first claim, or on every claim where no `fork` handler could be
/// registered (the pid is then asked each time: a cached one could outlive a `fork`).
#[cfg(not(loom))]
#[cold]
fn first_owner_token() -> u64 {
    let (pid, cached) = process_id();
    let token = (u64::from(pid) << 32) | u64::from(thread_token());
    if cached {
        TOKEN.set(token);
    }
    token
}

#[cfg(loom)]
fn owner_token() -> u64 {
    (u64::from(std::process::id()) << 32) | u64::from(thread_token())
}

/// This process's id, and whether it is the cached one a `pthread_atfork` child handler keeps
/// true (false: asked with `getpid` because no handler could be registered). The handler also
/// refreshes the forking thread's cached [`owner_token`].
#[cfg(not(loom))]
fn process_id() -> (u32, bool) {
    use std::sync::atomic::AtomicU32;
    static PID: AtomicU32 = AtomicU32::new(0);
    static REGISTER: std::sync::Once = std::sync::Once::new();

    #[cfg(all(unix, not(miri)))]
    extern "C" fn refresh_in_child() {
        // getpid is async-signal-safe, as a fork handler must be; the thread-locals are `const`
        // cells without destructors: plain memory of this (the only) thread.
        let pid = std::process::id();
        PID.store(pid, Ordering::Relaxed);
        let token = TOKEN.get();
        if token != 0 {
            TOKEN.set((u64::from(pid) << 32) | (token & u64::from(u32::MAX)));
        }
    }

    REGISTER.call_once(|| {
        #[cfg(all(unix, not(miri)))]
        {
            unsafe extern "C" {
                fn pthread_atfork(
                    prepare: Option<extern "C" fn()>,
                    parent: Option<extern "C" fn()>,
                    child: Option<extern "C" fn()>,
                ) -> std::ffi::c_int;
            }
            // SAFETY: registers a handler that only stores the new pid and token; it lives for
            // the process (a function item).
            let registered = unsafe { pthread_atfork(None, None, Some(refresh_in_child)) };
            if registered != 0 {
                return; // no handler: PID stays 0 and every claim asks getpid instead
            }
        }
        PID.store(std::process::id(), Ordering::Relaxed);
    });
    match PID.load(Ordering::Relaxed) {
        0 => (std::process::id(), false),
        pid => (pid, true),
    }
}

#[cfg(not(loom))]
fn thread_token() -> u32 {
    use std::sync::atomic::AtomicU32;
    static NEXT: AtomicU32 = AtomicU32::new(1);
    match NUMBER.get() {
        0 => {
            // Wraps after 4 billion threads; 0 is skipped so a token is never "free".
            let mut next = NEXT.fetch_add(1, Ordering::Relaxed);
            if next == 0 {
                next = NEXT.fetch_add(1, Ordering::Relaxed);
            }
            NUMBER.set(next);
            next
        }
        number => number,
    }
}

#[cfg(loom)]
fn thread_token() -> u32 {
    use std::cell::Cell;
    loom::lazy_static! {
        static ref NEXT: loom::sync::atomic::AtomicU32 = loom::sync::atomic::AtomicU32::new(1);
    }
    loom::thread_local! {
        static TOKEN: Cell<u32> = Cell::new(0);
    }
    TOKEN.with(|token| {
        if token.get() == 0 {
            token.set(NEXT.fetch_add(1, Ordering::Relaxed));
        }
        token.get()
    })
}

/// Where threads that wait for another thread's work sleep. Waiting never spins: a waiter blocks
/// on the condition variable until woken or for at most [`WAIT_SLICE`], then looks again. Both
/// sides only ever `try_lock` the mutex, so a child forked while some thread held it never blocks
/// on it (it sleeps in slices instead).
#[cfg(not(loom))]
mod parking {
    use std::sync::atomic::{AtomicUsize, Ordering, fence};
    use std::sync::{Condvar, Mutex, TryLockError};
    use std::time::Duration;

    /// The longest a waiter sleeps before looking again (also the bound on a missed wake-up).
    pub(super) const WAIT_SLICE: Duration = Duration::from_millis(10);

    static LOCK: Mutex<()> = Mutex::new(());
    static WOKEN: Condvar = Condvar::new();
    /// How many threads are inside `wait`: a publication with nobody waiting (every resolution
    /// without contention) wakes nobody and makes no system call.
    static WAITING: AtomicUsize = AtomicUsize::new(0);

    pub(super) fn wait(done: &dyn Fn() -> bool) {
        WAITING.fetch_add(1, Ordering::SeqCst);
        // Pairs with the fence in `wake_all`: either this thread sees the publication in `done`,
        // or the publisher sees this thread in WAITING (and a missed wake-up costs one slice).
        fence(Ordering::SeqCst);
        match LOCK.try_lock() {
            Ok(guard) => {
                if !done() {
                    let _ = WOKEN.wait_timeout(guard, WAIT_SLICE);
                }
            }
            Err(TryLockError::Poisoned(p)) => {
                if !done() {
                    let _ = WOKEN.wait_timeout(p.into_inner(), WAIT_SLICE);
                }
            }
            Err(TryLockError::WouldBlock) => std::thread::sleep(Duration::from_millis(1)),
        }
        WAITING.fetch_sub(1, Ordering::SeqCst);
    }

    pub(super) fn wake_all() {
        fence(Ordering::SeqCst);
        if WAITING.load(Ordering::SeqCst) == 0 {
            return;
        }
        // Taking the lock orders this wake-up after a waiter's check; if a waiter holds it, that
        // waiter is about to sleep for one slice at most.
        for _ in 0..8 {
            match LOCK.try_lock() {
                Ok(_) | Err(TryLockError::Poisoned(_)) => break,
                Err(TryLockError::WouldBlock) => std::thread::yield_now(),
            }
        }
        WOKEN.notify_all();
    }
}

/// Under loom: the same protocol without timeouts (the model has no clock), so that waiting is
/// a block the model can reason about rather than a spin it must unroll.
#[cfg(loom)]
mod parking {
    loom::lazy_static! {
        static ref LOCK: loom::sync::Mutex<()> = loom::sync::Mutex::new(());
        static ref WOKEN: loom::sync::Condvar = loom::sync::Condvar::new();
    }

    fn lock() -> loom::sync::MutexGuard<'static, ()> {
        LOCK.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub(super) fn wait(done: &dyn Fn() -> bool) {
        let guard = lock();
        if !done() {
            drop(WOKEN.wait(guard));
        }
    }

    pub(super) fn wake_all() {
        drop(lock());
        WOKEN.notify_all();
    }
}

/// Blocks until `done` may have become true (woken, or one slice passed); the caller looks again.
pub(crate) fn wait(done: &dyn Fn() -> bool) {
    parking::wait(done);
}

/// Wakes every waiter (nobody, without a system call, when nobody waits).
fn wake_all() {
    parking::wake_all();
}

/// Wakes every waiter, for a batch that released its claims with
/// [`release_quietly`](ClaimGuard::release_quietly).
pub(crate) fn wake_waiters() {
    parking::wake_all();
}

/// Why a one-time initialisation could not run: the calling thread is already running it.
#[derive(Debug)]
pub(crate) struct Reentered;

/// A value initialised once per process and kept for its life (the loaded driver and runtime):
/// racing callers all wait for the one initialisation and get the same `&'static` value.
///
/// The value is leaked on purpose: a library handle that is never dropped keeps every pointer
/// resolved from it valid.
pub(crate) struct Leaked<T: 'static> {
    /// The value once initialised; NULL before. The fast path reads only this.
    ready: AtomicPtr<T>,
    /// Who is initialising it.
    claim: Claim,
}

impl<T: Send + Sync + 'static> Leaked<T> {
    /// An uninitialised value.
    #[cfg(not(loom))]
    pub(crate) const fn new() -> Self {
        Leaked {
            ready: AtomicPtr::new(ptr::null_mut()),
            claim: Claim::new(),
        }
    }

    /// An uninitialised value (loom's primitives are not `const`).
    #[cfg(loom)]
    pub(crate) fn new() -> Self {
        Leaked {
            ready: AtomicPtr::new(ptr::null_mut()),
            claim: Claim::new(),
        }
    }

    /// The value, initialising it with `init` if no caller has yet.
    ///
    /// # Errors
    /// [`Reentered`] when called from inside this thread's own `init` (which would otherwise
    /// wait for itself forever).
    #[inline]
    pub(crate) fn get_or_init(&self, init: impl FnOnce() -> T) -> Result<&'static T, Reentered> {
        match self.get() {
            Some(value) => Ok(value),
            None => self.initialise(init),
        }
    }

    /// [`get_or_init`](Leaked::get_or_init) before the value is ready.
    #[cold]
    fn initialise(&self, init: impl FnOnce() -> T) -> Result<&'static T, Reentered> {
        loop {
            if let Some(value) = self.get() {
                return Ok(value);
            }
            match self.claim.try_claim() {
                Attempt::Mine(_guard) => {
                    if let Some(value) = self.get() {
                        return Ok(value);
                    }
                    let value: &'static T = Box::leak(Box::new(init()));
                    self.ready
                        .store(ptr::from_ref(value).cast_mut(), Ordering::Release);
                    return Ok(value);
                }
                Attempt::Reentered => return Err(Reentered),
                Attempt::Busy => wait(&|| self.get().is_some()),
            }
        }
    }

    /// Whether the one-time initialisation has begun (it may still be running on another thread).
    #[cfg(not(loom))]
    pub(crate) fn started(&self) -> bool {
        self.get().is_some() || self.claim.owner.load(Ordering::Acquire) != 0
    }

    /// The value, if initialised; never initialises.
    #[inline]
    pub(crate) fn get(&self) -> Option<&'static T> {
        let value = self.ready.load(Ordering::Acquire);
        // SAFETY: non-NULL only once set from a leaked `&'static T` (Release), seen here with
        // Acquire; it is never written again or freed.
        (!value.is_null()).then(|| unsafe { &*value })
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn an_initialisation_that_asks_for_itself_fails_instead_of_deadlocking() {
        static ONCE: Leaked<u32> = Leaked::new();
        let value = ONCE.get_or_init(|| {
            assert!(ONCE.get_or_init(|| 1).is_err(), "re-entrant");
            2
        });
        assert_eq!(value.ok(), Some(&2));
        assert_eq!(ONCE.get_or_init(|| 3).ok(), Some(&2));
    }

    #[test]
    fn started_is_true_from_the_first_initialisation_on() {
        static ONCE: Leaked<u32> = Leaked::new();
        assert!(!ONCE.started());
        let _ = ONCE.get_or_init(|| {
            assert!(ONCE.started(), "while initialising");
            1
        });
        assert!(ONCE.started());
    }

    #[test]
    fn the_owner_token_is_this_process_and_this_thread_and_stays() {
        let me = owner_token();
        assert_eq!(me >> 32, u64::from(std::process::id()));
        assert_ne!(me & u64::from(u32::MAX), 0);
        assert_eq!(owner_token(), me, "cached");
        let other = std::thread::spawn(owner_token).join().expect("no panic");
        assert_eq!(other >> 32, me >> 32);
        assert_ne!(other, me, "another thread, another token");
    }

    #[test]
    fn a_claim_owned_by_another_process_is_taken_over() {
        let claim = Claim::new();
        let me = owner_token();
        let other_process = ((me >> 32) + 1) << 32 | (me & u64::from(u32::MAX));
        claim.owner.store(other_process, Ordering::SeqCst);
        assert!(matches!(claim.try_claim(), Attempt::Mine(_)));
        assert_eq!(
            claim.owner.load(Ordering::SeqCst),
            0,
            "released by the guard"
        );
        let busy = std::thread::scope(|s| {
            let _mine = claim.try_claim();
            s.spawn(|| matches!(claim.try_claim(), Attempt::Busy))
                .join()
                .expect("no panic")
        });
        assert!(busy, "another thread of this process waits");
        let _mine = claim.try_claim();
        assert!(matches!(claim.try_claim(), Attempt::Reentered));
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use loom::sync::Arc;
    use loom::sync::atomic::AtomicUsize;

    #[test]
    fn racing_callers_initialise_once_and_agree() {
        // Three threads with a lock and a condition variable: unbounded exploration does not end
        // in reasonable time; every interleaving with up to three preemptions does.
        let mut model = loom::model::Builder::new();
        model.preemption_bound = Some(3);
        model.check(|| {
            let once = Arc::new(Leaked::<usize>::new());
            let calls = Arc::new(AtomicUsize::new(0));
            let threads: Vec<_> = (0..2)
                .map(|_| {
                    let (once, calls) = (once.clone(), calls.clone());
                    loom::thread::spawn(move || {
                        *once
                            .get_or_init(|| calls.fetch_add(1, Ordering::SeqCst) + 40)
                            .unwrap()
                    })
                })
                .collect();
            let here = *once
                .get_or_init(|| calls.fetch_add(1, Ordering::SeqCst) + 40)
                .unwrap();
            for t in threads {
                assert_eq!(t.join().unwrap(), here);
            }
            assert_eq!(calls.load(Ordering::SeqCst), 1);
            assert_eq!(here, 40);
        });
    }
}
