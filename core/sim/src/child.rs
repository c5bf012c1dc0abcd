//! One driver configuration per process: running a test body in a child process of its own.
//!
//! cuda-entry loads its driver once per process, so two configurations (a 12.4 driver and a 13.0
//! one, a stub library and a normal one) need two processes. [`in_child`] re-runs the current test
//! binary for just the calling test, with the configuration's environment; in that child the same
//! call installs the configuration and runs the body. A test may call it several times, once per
//! configuration: each call gets a child, in which only that call's body runs.

use std::cell::Cell;
use std::io::Write as _;
use std::panic::AssertUnwindSafe;
use std::process::Command;

use crate::Config;

/// The variable naming, in a child, which `in_child` call it runs: `<test>#<n>`.
const CHILD_VARIABLE: &str = "CUDA_ENTRY_SIM_CHILD";
/// What a child prints once its body returned, so the parent knows it ran (a test name that
/// matched nothing would also exit 0).
const RAN: &str = "cuda-entry-sim: child ran ";

thread_local! {
    /// How many `in_child` calls this test thread has made.
    static CALLS: Cell<u32> = const { Cell::new(0) };
}

/// Runs `body` in a child process whose simulated driver is `config`, and fails the calling test
/// (panics, with the child's output) if the body fails there. Call it from a `#[test]` function:
///
/// ```no_run
/// use cuda_entry_sim::{Config, in_child};
///
/// #[test]
/// fn refuses_a_driver_older_than_its_typedef() {
///     in_child(&Config::new().version(12040), || {
///         // Here cuda-entry loads a driver reporting 12040.
///     });
///     in_child(&Config::new().version(13000), || {
///         // And here one reporting 13000.
///     });
/// }
/// ```
///
/// The child is this test binary, run with `<test name> --exact --nocapture --test-threads=1
/// --include-ignored` and [`Config::apply_to`]'s environment; there, the call installs `config`
/// ([`install_with`](crate::install_with)) and runs `body`, and every other `in_child` call of
/// the test returns at once. The test name is the name of the calling thread, which the standard
/// test harness gives each test. The body runs in the parent never.
///
/// # Panics
/// When the body fails in the child (its output is in the message), when the child cannot run or
/// the simulated library is not built, or when the calling thread is not a test of the standard
/// harness (a `harness = false` test: use [`Config::apply_to`] on a command of its own).
pub fn in_child(config: &Config, body: impl FnOnce()) {
    let index = CALLS.with(|calls| {
        let index = calls.get();
        calls.set(index + 1);
        index
    });
    let thread = std::thread::current();
    let test = match thread.name() {
        Some(name) if name != "main" => name.to_owned(),
        _ => panic!(
            "cuda_entry_sim::in_child runs the calling #[test] again by name, and this thread has \
             none (a harness = false test or a thread of its own): use Config::apply_to on a \
             Command of your own instead"
        ),
    };
    let id = format!("{test}#{index}");
    if let Some(running) = std::env::var_os(CHILD_VARIABLE) {
        // In a child: run this body only if it is the call the child was started for.
        if running == id.as_str() {
            let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
                if let Err(error) = crate::install_with(config) {
                    panic!("in the child for {id}: {error}");
                }
                body();
            }));
            if outcome.is_err() {
                // The panic hook has printed the message. The parent reads the exit status,
                // whatever the test around this call does with the unwinding.
                let _ = std::io::stdout().flush();
                std::process::exit(101);
            }
            // On a line of its own: with --nocapture the harness has printed "test <name> ... ".
            println!("\n{RAN}{id}");
        }
        return;
    }
    let exe = std::env::current_exe()
        .unwrap_or_else(|e| panic!("cuda_entry_sim::in_child: the test binary's path: {e}"));
    let mut command = Command::new(exe);
    command
        .args([
            test.as_str(),
            "--exact",
            "--nocapture",
            "--test-threads=1",
            "--include-ignored",
        ])
        .env(CHILD_VARIABLE, &id);
    if let Err(error) = config.apply_to(&mut command) {
        panic!("cuda_entry_sim::in_child({config:?}): {error}");
    }
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("cuda_entry_sim::in_child: cannot run {command:?}: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let ran = stdout.lines().any(|line| line == format!("{RAN}{id}"));
    // The child's output, where the harness shows a test's output (on failure, or --nocapture).
    print!("{stdout}");
    eprint!("{stderr}");
    assert!(
        output.status.success() && ran,
        "the child process for {id} under {config:?} {}; its output is above",
        if output.status.success() {
            "did not run the body (is the test named after its thread?)".to_owned()
        } else {
            format!("failed ({})", output.status)
        },
    );
}
