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
fn debug_shows_every_field_and_the_state() {
    let entry = Entry::new(c"cuMemAlloc", 3020, Stream::Legacy).optional();
    let shown = format!("{entry:?}");
    for field in [
        "symbol: \"cuMemAlloc\"",
        "name: \"cuMemAlloc\"",
        "version: 3020",
        "stream: Legacy",
        "resolver: Driver",
        "optional: true",
        "state: Unresolved",
        "error: None",
    ] {
        assert!(shown.contains(field), "{field} in {shown}");
    }
    let Attempt::Mine(guard) = entry.claim.try_claim() else {
        panic!("a free claim")
    };
    assert!(format!("{entry:?}").contains("state: Resolving"));
    drop(guard);
    assert_eq!(resolve_faked(&entry, |_| Ok(fake())), Ok(fake()));
    assert!(format!("{entry:?}").contains(&format!("state: Resolved({:?})", fake().as_ptr())));
    let failed = Entry::new(c"cuFoo", 12000, Stream::PerThread);
    let error = resolve_faked(&failed, |r| Err(not_found(r))).unwrap_err();
    let shown = format!("{failed:?}");
    assert!(shown.contains("state: Failed"), "{shown}");
    assert!(
        shown.contains(&format!("error: Some({error:?})")),
        "{shown}"
    );
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
        let inner = ENTRY.resolve_with(|r| Err(Error::new(ErrorKind::Reentrant, Some(r), None)));
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
        // This thread caches its owner token (with the parent's pid) before forking: the child
        // must still not take the parent's claim for its own.
        let warm = Entry::new(c"cuStreamDestroy", 2000, Stream::Legacy);
        assert_eq!(warm.resolve_with(|_| Ok(fake())), Ok(fake()));
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

/// How long racing first uses wait past the publication, over `rounds` fresh cells: each round,
/// `threads` threads released together call `first_use(round, resolve)`; one of them runs
/// `resolve` (a slow resolution: [`SLOW`], then it notes when it ends) and the others wait. Each
/// waiter's return is timed against that note; the resolving thread's is not counted.
#[cfg(all(unix, not(miri)))]
fn waits_past_publication(
    threads: usize,
    rounds: usize,
    first_use: &(dyn Fn(usize, &dyn Fn()) + Sync),
) -> Vec<std::time::Duration> {
    use std::sync::{Barrier, OnceLock};
    use std::time::Instant;
    let published: Vec<OnceLock<Instant>> = (0..rounds).map(|_| OnceLock::new()).collect();
    let barrier = Barrier::new(threads);
    let returns: Vec<(usize, Instant)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::with_capacity(rounds);
                    for (round, published) in published.iter().enumerate() {
                        barrier.wait();
                        let resolver = std::cell::Cell::new(false);
                        first_use(round, &|| {
                            resolver.set(true);
                            std::thread::sleep(SLOW);
                            let _ = published.set(Instant::now());
                        });
                        if !resolver.get() {
                            mine.push((round, Instant::now()));
                        }
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("no panic"))
            .collect()
    });
    returns
        .into_iter()
        .map(|(round, end)| {
            let published = published[round].get().expect("every round resolved");
            end.saturating_duration_since(*published)
        })
        .collect()
}

/// How long the simulated slow driver takes to answer a first resolution.
#[cfg(all(unix, not(miri)))]
const SLOW: std::time::Duration = std::time::Duration::from_millis(2);

/// `p50 .. p99 .. max` of `waits`, and how many reached `slice` (a missed wake-up).
#[cfg(all(unix, not(miri)))]
fn describe(waits: &mut [std::time::Duration], slice: std::time::Duration) -> String {
    waits.sort_unstable();
    let at = |q: usize| waits[(waits.len() * q / 100).min(waits.len() - 1)];
    let missed = waits.iter().filter(|w| **w >= slice).count();
    format!(
        "{} waits: p50 {:?}, p99 {:?}, max {:?}; {missed} of at least {slice:?}",
        waits.len(),
        at(50),
        at(99),
        waits[waits.len() - 1]
    )
}

/// The claim's tail latency, printed beside `std::sync::OnceLock`'s under the same race: 8, 64
/// and 256 threads released together on the first use of an entry whose resolution takes
/// [`SLOW`], 100 fresh entries each. Every waiter must get the one pointer, each entry be
/// resolved once, and every wait end (a lost wake-up costs one slice, never a hang). Run
/// `cargo test -p cuda-entry --release --lib wait_latency -- --nocapture` to read it
/// (docs/reliability.md quotes a run).
#[test]
#[cfg(all(unix, not(miri)))]
fn wait_latency_under_racing_threads_is_printed() {
    use std::sync::OnceLock;
    use std::time::Duration;
    const ROUNDS: usize = 100;
    let slice = Duration::from_millis(10);
    for threads in [8, 64, 256] {
        let entries: Vec<Entry> = (0..ROUNDS)
            .map(|_| Entry::new(c"cuMemAlloc", 3020, Stream::Legacy))
            .collect();
        let asked = AtomicUsize::new(0);
        let wrong = AtomicUsize::new(0);
        let mut entry = waits_past_publication(threads, ROUNDS, &|round, resolve| {
            let outcome = entries[round].resolve_with(|_| {
                asked.fetch_add(1, O::SeqCst);
                resolve();
                Ok(fake())
            });
            if outcome != Ok(fake()) {
                wrong.fetch_add(1, O::SeqCst);
            }
        });
        assert_eq!(asked.load(O::SeqCst), ROUNDS, "each entry resolved once");
        assert_eq!(wrong.load(O::SeqCst), 0, "every thread got the pointer");
        assert_eq!(entry.len(), ROUNDS * (threads - 1), "every waiter returned");
        let cells: Vec<OnceLock<usize>> = (0..ROUNDS).map(|_| OnceLock::new()).collect();
        let mut once_lock = waits_past_publication(threads, ROUNDS, &|round, resolve| {
            cells[round].get_or_init(|| {
                resolve();
                1
            });
        });
        println!(
            "{threads:>3} threads, a {SLOW:?} resolution: entry {}",
            describe(&mut entry, slice)
        );
        println!(
            "{threads:>3} threads, a {SLOW:?} resolution: OnceLock {}",
            describe(&mut once_lock, slice)
        );
    }
}

#[test]
fn an_entry_fills_one_cache_line_of_its_own() {
    // The pointer word every call reads shares its line with nothing another entry writes.
    assert_eq!(std::mem::align_of::<Entry>(), 64);
    assert_eq!(
        std::mem::size_of::<Entry>(),
        64,
        "no padding beyond the fields"
    );
}
