//! What the subcommands share: the error type (its exit statuses are [`exit`]'s), the
//! `cuda_entry::Entry` of a request, and finding the simulated driver. The wording of the table's
//! facts is the rules' (`cuda_entry_table::rules`).

use std::ffi::{CStr, CString};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use cuda_entry::{Entry, Resolver, Stream};

use crate::exit;

/// Why a subcommand stopped early.
#[derive(Debug)]
pub(crate) enum CliError {
    /// The command line or the files named on it are unusable: exit status 2.
    BadInput(String),
    /// The environment could not be used (no driver for `probe`, a failed re-run, output that
    /// cannot be written): exit status 1.
    Failed(String),
    /// The `--simulated` re-run was killed by a signal: exit status 4 (1 would read as "a
    /// declaration would fail").
    Crashed(String),
    /// Standard output was closed by its reader (`| head`): no message, exit status 141, what a
    /// shell reports for a command a closed pipe stopped (128 + SIGPIPE).
    ClosedOutput,
}

impl CliError {
    /// The exit status of each kind of error.
    pub(crate) fn exit_code(&self) -> ExitCode {
        exit::code(match self {
            CliError::BadInput(_) => exit::BAD_INPUT,
            CliError::Failed(_) => exit::FAILED,
            CliError::Crashed(_) => exit::CRASHED,
            CliError::ClosedOutput => exit::CLOSED_OUTPUT,
        })
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::BadInput(m) | CliError::Failed(m) | CliError::Crashed(m) => f.write_str(m),
            CliError::ClosedOutput => Ok(()),
        }
    }
}

/// A `'static` C string for `Entry::new`. Each distinct symbol is leaked once per process: the
/// command asks for at most a few thousand, and entries must outlive nothing but the process.
pub(crate) fn static_symbol(symbol: &str) -> Result<&'static CStr, String> {
    let owned =
        CString::new(symbol).map_err(|_| format!("the symbol `{symbol}` contains a NUL byte"))?;
    Ok(Box::leak(owned.into_boxed_c_str()))
}

/// A fresh, unresolved entry: resolving it asks the driver (or runtime) exactly once.
pub(crate) fn entry(
    symbol: &'static CStr,
    version: u32,
    per_thread: bool,
    resolver: Resolver,
) -> Entry {
    Entry::new(symbol, version, Stream::per_thread(per_thread)).through(resolver)
}

/// The environment variable set in the re-run child of `--simulated`, naming the simulator.
const SIMULATED_VARIABLE: &str = "CUDA_ENTRY_CLI_SIMULATED";

/// Whether this process runs against the simulator chosen by `--simulated`.
pub(crate) fn simulated() -> bool {
    std::env::var_os(SIMULATED_VARIABLE).is_some()
}

/// A simulator library built next to this executable (`target/<profile>/` or its `deps/`), as
/// the testing kit (`cuda-entry-sim`) finds it for the workspace's tests and users' own.
fn built_library(
    found: Result<PathBuf, cuda_entry_sim::Error>,
    crate_name: &str,
) -> Result<PathBuf, String> {
    found.map_err(|error| match error {
        cuda_entry_sim::Error::NotBuilt {
            file, looked_in, ..
        } => format!(
            "the simulated driver `{file}` is not built (looked in {} and its deps/); build it \
             with `cargo build -p {}` (same profile and target folder as this program), or set {} \
             to its path",
            looked_in
                .last()
                .map_or(Path::new(""), PathBuf::as_path)
                .display(),
            crate_name.replace('_', "-"),
            cuda_entry::PATH_VARIABLE
        ),
        other => other.to_string(),
    })
}

/// For `--simulated`: when the driver-path variable is not set yet, runs this same command line
/// again in a child process whose environment points the library at the simulated driver (the
/// driver is loaded once per process, and changing this process's environment would need
/// `unsafe`), and returns the child's exit status. `None`: go on in this process, whose
/// environment already names a driver.
pub(crate) fn rerun_simulated() -> Result<Option<ExitCode>, CliError> {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    if set(cuda_entry::PATH_VARIABLE) {
        return Ok(None);
    }
    simulated_version()?;
    let driver = built_library(
        cuda_entry_sim::Driver::Current.path(),
        "cuda_entry_simdriver",
    )
    .map_err(CliError::Failed)?;
    let exe = std::env::current_exe()
        .map_err(|e| CliError::Failed(format!("cannot locate this program: {e}")))?;
    let mut child = Command::new(exe);
    child
        .args(std::env::args_os().skip(1))
        .env(cuda_entry::PATH_VARIABLE, &driver)
        .env(SIMULATED_VARIABLE, "1");
    // `resolver = "runtime"` declarations need a runtime: the simulated one when it is built.
    if !set(cuda_entry::RUNTIME_PATH_VARIABLE)
        && let Ok(runtime) = cuda_entry_sim::Runtime::Current.path()
    {
        child.env(cuda_entry::RUNTIME_PATH_VARIABLE, runtime);
    }
    let status = child
        .status()
        .map_err(|e| CliError::Failed(format!("cannot re-run this program: {e}")))?;
    match status.code() {
        Some(code) => Ok(Some(exit::code(u8::try_from(code).unwrap_or(exit::FAILED)))),
        None => Err(CliError::Crashed(format!(
            "the --simulated run against {} crashed: {}; its output above is incomplete",
            crate::shown::path(&driver),
            killed(&status)
        ))),
    }
}

/// The simulated driver's version variable, checked before the re-run: a value it would refuse
/// (by aborting, its way of failing a test loudly) is bad input here, said in one line. Empty is
/// unset, as for the simulator.
fn simulated_version() -> Result<(), CliError> {
    const VARIABLE: &str = "CUDA_ENTRY_SIM_VERSION";
    let Some(value) = std::env::var_os(VARIABLE) else {
        return Ok(());
    };
    let text = value.to_string_lossy();
    let text = text.trim();
    if text.is_empty() || text.parse::<i32>().is_ok_and(|n| n > 0) {
        return Ok(());
    }
    Err(CliError::BadInput(format!(
        "{VARIABLE}={text:?}: the version the simulated driver reports must be a positive integer, \
         1000 * major + 10 * minor (13000 for CUDA 13.0); unset it (or leave it empty) for the \
         simulator's default"
    )))
}

/// How a child that exited without a status ended: the signal that killed it, where the
/// platform has them.
fn killed(status: &std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            let name = match signal {
                4 => " (SIGILL)",
                6 => " (SIGABRT)",
                8 => " (SIGFPE)",
                9 => " (SIGKILL)",
                11 => " (SIGSEGV)",
                15 => " (SIGTERM)",
                _ => "",
            };
            let core = if status.core_dumped() {
                ", core dumped"
            } else {
                ""
            };
            return format!("killed by signal {signal}{name}{core}");
        }
    }
    format!("ended without an exit status ({status})")
}
