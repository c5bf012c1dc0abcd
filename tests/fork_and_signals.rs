//! A cached error is read as a pointer is: without a lock that a forked child or a signal handler
//! could find held. Each scenario runs in a process of its own, against a failing driver
//! (`rc=999`: every resolution fails with `DriverError`) or no driver at all (`LibraryNotFound`,
//! as on a CPU-only machine), and each wait is bounded: a hang fails the scenario, it never hangs
//! the suite.

use std::process::ExitCode;

use cuda_entry_support::{Scenario, run_scenarios};

fn main() -> ExitCode {
    run_scenarios(&scenarios())
}

#[cfg(not(target_os = "linux"))]
fn scenarios() -> Vec<Scenario> {
    Vec::new() // fork and POSIX signals: Linux only
}

#[cfg(target_os = "linux")]
fn scenarios() -> Vec<Scenario> {
    use cuda_entry_sim as sim;
    use cuda_entry_support::Driver;
    const FAILING: &[(&str, &str)] = &[("CUDA_ENTRY_SIM_MODE", "rc=999")];
    const MISSING: Driver = Driver::Path("/nonexistent/libcuda.so.1");
    vec![
        Scenario {
            name: "a_fork_never_hangs_on_a_failing_drivers_cached_error",
            driver: Driver::Sim(sim::Driver::Current),
            env: FAILING,
            run: linux::fork_while_threads_read_the_error,
        },
        Scenario {
            name: "a_fork_never_hangs_on_a_missing_drivers_cached_error",
            driver: MISSING,
            env: &[],
            run: linux::fork_while_threads_read_the_error,
        },
        Scenario {
            name: "a_signal_handler_reads_a_failing_drivers_cached_error",
            driver: Driver::Sim(sim::Driver::Current),
            env: FAILING,
            run: linux::signal_while_the_thread_reads_the_error,
        },
        Scenario {
            name: "a_signal_handler_reads_a_missing_drivers_cached_error",
            driver: MISSING,
            env: &[],
            run: linux::signal_while_the_thread_reads_the_error,
        },
    ]
}

#[cfg(target_os = "linux")]
mod linux {
    use std::ffi::c_int;
    use std::hint::black_box;
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::time::{Duration, Instant};

    use cuda_entry::{Entry, Error, Stream};
    use cuda_entry_support::fork::{Forked, fork_with_deadline};

    /// The entry every scenario fails to resolve.
    static ENTRY: Entry = Entry::new(c"cuMemAlloc", 3020, Stream::Legacy);
    /// Its error, as the first resolution cached it.
    static CACHED: OnceLock<Error> = OnceLock::new();
    /// Set to stop the reading threads.
    static STOP: AtomicBool = AtomicBool::new(false);

    const FORKS: usize = 200;
    const READERS: usize = 32;
    const SIGNALS: usize = 500;
    /// Far beyond what a fork or a handler needs (under a millisecond): only a hang reaches it.
    const DEADLINE: Duration = Duration::from_secs(10);

    /// Whether the entry answers its cached error, without allocating or locking (a forked child
    /// and a signal handler may do nothing else).
    fn answers_the_cached_error() -> bool {
        matches!((ENTRY.resolve(), CACHED.get()), (Err(e), Some(c)) if e == *c)
    }

    /// Resolves the entry once: it fails, and the error is cached.
    fn cache_the_error() {
        let error = ENTRY
            .resolve()
            .expect_err("the driver fails every resolution");
        println!("cached: {error}");
        CACHED.set(error).expect("set once");
        assert!(answers_the_cached_error());
    }

    unsafe extern "C" {
        fn setpriority(which: c_int, who: u32, priority: c_int) -> c_int;
    }
    /// `PRIO_PROCESS`: with `who` 0, Linux sets the calling thread's nice value.
    const PRIO_PROCESS: c_int = 0;

    /// Threads that read the cached error in a loop until [`STOP`] (plain threads: a scope would
    /// wait for them when the scenario fails). They run at the lowest priority, so that on a
    /// machine with fewer cores than readers the forking thread and its children still get the
    /// CPU when they need it; the readers are busy whenever they do not.
    fn start_readers(count: usize) -> Vec<std::thread::JoinHandle<usize>> {
        (0..count)
            .map(|_| {
                std::thread::spawn(|| {
                    // SAFETY: changes this thread's nice value only (a failure leaves it as is).
                    let _ = unsafe { setpriority(PRIO_PROCESS, 0, 19) };
                    let mut wrong = 0;
                    while !STOP.load(Ordering::Relaxed) {
                        wrong += usize::from(!black_box(answers_the_cached_error()));
                    }
                    wrong
                })
            })
            .collect()
    }

    pub(super) fn fork_while_threads_read_the_error() {
        cache_the_error();
        let readers = start_readers(READERS);
        let mut answered = 0;
        for fork in 0..FORKS {
            // SAFETY: the child only resolves a failed entry (atomic loads and an `Arc` count)
            // and compares the error; it neither allocates nor locks.
            match unsafe { fork_with_deadline(answers_the_cached_error, DEADLINE) } {
                Forked::Exited(true) => answered += 1,
                Forked::Hung => panic!(
                    "fork {fork} of {FORKS}: the child hung on its first call of the failed entry"
                ),
                other => panic!("fork {fork} of {FORKS}: the child ended as {other:?}"),
            }
        }
        STOP.store(true, Ordering::Relaxed);
        let wrong: usize = readers
            .into_iter()
            .map(|r| r.join().expect("no panic"))
            .sum();
        assert_eq!(wrong, 0, "every read gave the cached error");
        assert_eq!(answered, FORKS);
        println!(
            "{FORKS} forks while {READERS} threads read the cached error: every child answered"
        );
    }

    unsafe extern "C" {
        fn signal(signal: c_int, handler: extern "C" fn(c_int)) -> usize;
        fn pthread_self() -> usize;
        fn pthread_kill(thread: usize, signal: c_int) -> c_int;
    }
    const SIGUSR1: c_int = 10;
    const SIG_ERR: usize = usize::MAX;

    static HANDLED: AtomicUsize = AtomicUsize::new(0);
    static WRONG: AtomicUsize = AtomicUsize::new(0);

    extern "C" fn on_signal(_: c_int) {
        if answers_the_cached_error() {
            HANDLED.fetch_add(1, Ordering::SeqCst);
        } else {
            WRONG.fetch_add(1, Ordering::SeqCst);
        }
    }

    pub(super) fn signal_while_the_thread_reads_the_error() {
        cache_the_error();
        // SAFETY: the handler only resolves a failed entry and counts, which is
        // async-signal-safe; it stays installed for the process (a function item).
        assert_ne!(unsafe { signal(SIGUSR1, on_signal) }, SIG_ERR, "signal");
        let target = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let reader = {
            let target = target.clone();
            std::thread::spawn(move || {
                // SAFETY: no arguments; the calling thread's own id.
                target.store(unsafe { pthread_self() }, Ordering::SeqCst);
                let mut wrong = 0;
                while !STOP.load(Ordering::Relaxed) {
                    wrong += usize::from(!black_box(answers_the_cached_error()));
                }
                wrong
            })
        };
        while target.load(Ordering::SeqCst) == 0 {
            std::thread::yield_now();
        }
        let thread = target.load(Ordering::SeqCst);
        for sent in 0..SIGNALS {
            // SAFETY: a live thread of this process (it reads until STOP); SIGUSR1 has a handler.
            assert_eq!(unsafe { pthread_kill(thread, SIGUSR1) }, 0, "pthread_kill");
            let start = Instant::now();
            while HANDLED.load(Ordering::SeqCst) + WRONG.load(Ordering::SeqCst) <= sent {
                assert!(
                    start.elapsed() < DEADLINE,
                    "signal {sent} of {SIGNALS}: the handler never returned (it deadlocked on \
                     the error its own thread was reading)"
                );
                std::thread::yield_now();
            }
        }
        STOP.store(true, Ordering::Relaxed);
        assert_eq!(reader.join().expect("no panic"), 0, "the thread's reads");
        assert_eq!(WRONG.load(Ordering::SeqCst), 0, "the handler's reads");
        println!("{SIGNALS} signals, each handled by a read of the cached error");
    }
}
