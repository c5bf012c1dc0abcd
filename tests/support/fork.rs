//! Forking a child that runs a few async-signal-safe steps and exits, waited for with a deadline:
//! a child that hangs is killed and reported as such instead of hanging the test. Linux only
//! (the tests that fork and signal run there; the C declarations are glibc's).

use std::ffi::c_int;
use std::time::{Duration, Instant};

unsafe extern "C" {
    fn fork() -> c_int;
    fn waitpid(pid: c_int, status: *mut c_int, options: c_int) -> c_int;
    fn kill(pid: c_int, signal: c_int) -> c_int;
    fn _exit(status: c_int) -> !;
}

const WNOHANG: c_int = 1;
const SIGKILL: c_int = 9;

/// How a forked child ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forked {
    /// It exited by itself, its body answering `true` (exit status 0) or `false` (1).
    Exited(bool),
    /// It was still running at the deadline and was killed: a hang.
    Hung,
    /// It ended some other way (a signal, an unexpected status): the raw wait status.
    Other(c_int),
}

/// Forks; the child runs `body` and exits with 0 when it returns `true`, 1 otherwise, without
/// running anything else of the process (no destructors, no `atexit` handlers). The parent waits
/// at most `deadline`, then kills the child.
///
/// # Safety
/// The child of a multi-threaded process may only do what is async-signal-safe: `body` must not
/// allocate, lock, print or unwind (a panic in the child would run the parent's test code).
///
/// # Panics
/// When `fork` fails (test code only).
pub unsafe fn fork_with_deadline(body: impl FnOnce() -> bool, deadline: Duration) -> Forked {
    // SAFETY: the child runs only `body` (async-signal-safe, the caller's promise) and `_exit`.
    let pid = unsafe { fork() };
    if pid == 0 {
        let ok = body();
        // SAFETY: ends the child at once, running none of the parent's exit handlers.
        unsafe { _exit(if ok { 0 } else { 1 }) }
    }
    assert!(pid > 0, "fork failed");
    let start = Instant::now();
    let mut status: c_int = 0;
    loop {
        // SAFETY: our own child; `status` is a local.
        if unsafe { waitpid(pid, &raw mut status, WNOHANG) } == pid {
            break;
        }
        if start.elapsed() > deadline {
            // SAFETY: our own child, not yet reaped.
            unsafe { kill(pid, SIGKILL) };
            // SAFETY: as above; reaps it.
            unsafe { waitpid(pid, &raw mut status, 0) };
            return Forked::Hung;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    match status {
        0 => Forked::Exited(true),
        0x100 => Forked::Exited(false), // exit status 1, as waitpid encodes it
        other => Forked::Other(other),
    }
}
