//! Test code that calls the CUDA driver through cuda-entry on machines without a GPU.
//!
//! Add the kit to `[dev-dependencies]` and call [`install`] at the start of a test: Cargo builds
//! the simulated driver (a `libcuda.so` look-alike) beside your test binaries, and `install`
//! points this process's cuda-entry at it. cuda-entry then loads it exactly as it loads the real
//! driver; your code cannot tell.
//!
//! ```no_run
//! # use cuda_entry::cuda_entry;
//! # use cuda_entry::types::{CUdeviceptr, CUresult};
//! #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
//! unsafe extern "C" fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;
//!
//! # fn main() {
//! // In a #[test]:
//! cuda_entry_sim::install().expect("the simulated driver");
//! assert!(mem_alloc::pointer().is_ok());
//! // cuMemAlloc at 3020 reached the 3.2 ABI, as it does on a real driver.
//! assert_eq!(cuda_entry_sim::calls("cuGetProcAddress_v2"), 1);
//! # }
//! ```
//!
//! - **One configuration per process.** cuda-entry loads its driver once, so a process sees one
//!   simulated driver, reporting one version in one mode ([`Config`]). [`in_child`] runs a test
//!   body in a child process with a configuration of its own: "driver 12.4" and "driver 13.0" in
//!   one `cargo test`.
//! - **Faithful for every symbol.** `cuGetProcAddress_v2` and the 4-argument `cuGetProcAddress`
//!   answer every (symbol, version, flags) as driver 580.159.04 (CUDA 13.0) did, row for row with
//!   its recorded answers. A few dozen functions are simulated (contexts, memory backed by host
//!   buffers, modules, a host-side `vector_add` launch); every other function of the real driver is
//!   handed out too, and calling it returns 801 (`CUDA_ERROR_NOT_SUPPORTED`) and is recorded:
//!   [`unsupported_calls`] names what a test needed that the simulator lacks. The full list is in
//!   the documentation of `cuda-entry-simdriver` (its `EXPORTS.md`).
//! - **Fault modes** ([`Mode`]) reach the error paths a real driver rarely takes: the toolkit's
//!   stub library, a driver that fails to report its version, malformed answers.
//! - **Injected statuses** ([`Config::inject`]) reach the error paths of your own code: a named
//!   driver function answers a chosen status, always, on its Nth call or for N calls
//!   (`cuMemAlloc` out of memory on the first call). `cuStreamQuery` and `cuEventQuery` answer
//!   `CUDA_ERROR_NOT_READY` while launched or recorded work is pending
//!   ([`Config::pending_queries`]), so polling loops run.
//! - **A driver of version V is a driver of version V.** On ELF platforms (Linux) the driver
//!   loaded is a copy of the build whose exports are the ones a real driver of the configured
//!   version has: `dlsym` finds no `cuCtxCreate_v4` in a 12.4 driver, no `cuGetProcAddress_v2`
//!   in an 11.8 one ([`Config::driver_path`]). [`Config::apply_to`] and [`in_child`] put its
//!   folder first on the child's `LD_LIBRARY_PATH`, so that a crate opening `libcuda.so` by name
//!   (cudarc) loads it too. [`install`] cannot change the search path of the running process
//!   (the loader read it at start): test such crates in a child.
//! - **Older drivers and the runtime** are separate shared objects behind features:
//!   `simdriver-11x` ([`Driver::Cuda11x`]), `simdriver-old` ([`Driver::BeforeCuda113`]),
//!   `simruntime` and `simruntime-old` ([`Runtime`]).
//!
//! The guide is docs/testing.md in the repository.
//!
//! # Platform-specific behaviour
//! The simulators are built for the target like any dependency; the call records and the
//! child-process helper work wherever Cargo builds a `cdylib`. cuda-entry's loading rules are the
//! platform's (see `cuda_entry::PATH_VARIABLE`). The copy of the driver per version, and the
//! `LD_LIBRARY_PATH` of children, are for ELF builds (Linux and the other ELF Unixes); on Windows
//! and macOS the build is loaded as it is, exporting every function of the 13.0 driver whatever
//! version it reports, and only its `cuGetProcAddress*` answers follow the version.
#![deny(missing_docs, unreachable_pub)]

mod child;
mod config;
mod elf;
mod error;
mod library;
mod versioned;

use std::path::PathBuf;
use std::sync::Mutex;

pub use child::in_child;
pub use config::{Config, Mode, RuntimeMode, When};
pub use error::Error;
pub use library::{Call, Driver, Runtime, Simulator};

use library::Library;

/// The simulated libraries installed in this process (leaked: installed once, kept for its life).
#[derive(Debug)]
struct Installed {
    config: Config,
    driver: Simulator,
    runtime: Option<Simulator>,
}

static INSTALLED: Mutex<Option<&'static Installed>> = Mutex::new(None);

/// Points this process's cuda-entry at the main simulated driver, configured by the environment
/// (`CUDA_ENTRY_SIM_VERSION`, `CUDA_ENTRY_SIM_MODE`; by default it reports 13000 and behaves),
/// and returns the shared object's path ([`Config::driver_path`]: on Linux, the copy with the
/// exports of that version). Call it before the first resolution; calling it again
/// returns the same path.
///
/// # Errors
/// As [`install_with`].
///
/// # Thread-safety
/// As [`install_with`].
pub fn install() -> Result<PathBuf, Error> {
    install_with(&Config::new())
}

/// Points this process's cuda-entry at the simulated driver (and runtime) that `config` names,
/// configured as it says, and returns the driver's path. Call it before the first resolution; a
/// second call with the same configuration returns the same path.
///
/// The driver is [`Config::driver_path`]: on ELF platforms (Linux) a copy of the build for the
/// version it reports, without the exports a real driver of that version lacks, written beside
/// the build if needed. This process's library search path stays as it was (the loader read
/// `LD_LIBRARY_PATH` when the process started): code here that opens `libcuda.so` by name does not
/// find the simulator; run it through [`in_child`], whose child has the copy's folder on it.
///
/// # Errors
/// - [`Error::TooLate`]: cuda-entry already loaded a library in this process.
/// - [`Error::AlreadyInstalled`]: another configuration is installed (one per process: use
///   [`in_child`]).
/// - [`Error::NotBuilt`]: the shared object is not beside the test binary (a feature is off).
/// - [`Error::Open`], [`Error::NotASimulator`], [`Error::Configuration`] (a malformed
///   `CUDA_ENTRY_SIM_*` variable).
/// - [`Error::Copy`]: the copy for the version could not be written.
///
/// # Thread-safety
/// The first installation sets `CUDA_ENTRY_DRIVER_PATH` (and `CUDA_ENTRY_RUNTIME_PATH`) in the
/// process's environment, unless it already names the library (as in [`in_child`]'s children).
/// Like [`std::env::set_var`], that must not race with code reading the environment outside Rust's
/// standard library on another thread: the test harness and cuda-entry read it through `std`,
/// which orders their reads with this write, and the simulators have read theirs before it, on
/// the calling thread. Concurrent calls are serialised.
pub fn install_with(config: &Config) -> Result<PathBuf, Error> {
    let mut installed = INSTALLED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(installed) = *installed {
        if installed.config == *config {
            return Ok(installed.driver.path().to_path_buf());
        }
        return Err(Error::AlreadyInstalled {
            installed: Box::new(installed.config.clone()),
            requested: Box::new(config.clone()),
        });
    }
    // Built? (The copy for the version is written once installing can go ahead.)
    library::path(Library::Driver(config.driver_build()))?;
    let runtime_path = match config.runtime_build() {
        Some(runtime) => Some(library::path(Library::Runtime(runtime))?),
        None => None,
    };
    if cuda_entry::__private::driver_load_started() {
        let variable = cuda_entry::PATH_VARIABLE;
        return Err(Error::TooLate { variable });
    }
    if runtime_path.is_some() && cuda_entry::__private::runtime_load_started() {
        let variable = cuda_entry::RUNTIME_PATH_VARIABLE;
        return Err(Error::TooLate { variable });
    }
    let version_variable = std::env::var_os(config::VERSION_VARIABLE);
    let driver_path = config.prepare_driver(version_variable.as_deref())?.path;
    let driver = Simulator::open(driver_path)?;
    driver.configure(config.driver_settings())?;
    driver.configure_calls(config.calls_settings())?;
    let runtime = match runtime_path {
        Some(path) => {
            let runtime = Simulator::open(path)?;
            // Its embedded driver is configured as the driver.
            runtime.configure(config.driver_settings())?;
            runtime.configure_calls(config.calls_settings())?;
            runtime.configure_runtime(config.runtime_settings())?;
            Some(runtime)
        }
        None => None,
    };
    point(cuda_entry::PATH_VARIABLE, driver.path());
    if let Some(runtime) = &runtime {
        point(cuda_entry::RUNTIME_PATH_VARIABLE, runtime.path());
    }
    let path = driver.path().to_path_buf();
    *installed = Some(Box::leak(Box::new(Installed {
        config: config.clone(),
        driver,
        runtime,
    })));
    Ok(path)
}

/// Sets cuda-entry's library `variable` to `path`, unless it already says so.
fn point(variable: &str, path: &std::path::Path) {
    if std::env::var_os(variable).as_deref() != Some(path.as_os_str()) {
        // SAFETY: see install_with's `# Thread-safety`: the harness and cuda-entry read the
        // environment through std, which orders their reads with this write; the simulators
        // read theirs earlier in install_with, on this thread. It happens once per process,
        // under INSTALLED's lock, before cuda-entry has loaded a library.
        unsafe { std::env::set_var(variable, path) };
    }
}

fn installed() -> Option<&'static Installed> {
    *INSTALLED.lock().unwrap_or_else(|e| e.into_inner())
}

/// The simulated driver installed in this process, if any.
pub fn driver() -> Option<&'static Simulator> {
    installed().map(|i| &i.driver)
}

/// The simulated runtime installed in this process, if any. Calls through the pointers it hands
/// out reach its embedded driver and are recorded there, not in [`driver`]'s records.
pub fn runtime() -> Option<&'static Simulator> {
    installed().and_then(|i| i.runtime.as_ref())
}

/// The installed driver, for the record functions below.
fn installed_driver(function: &str) -> &'static Simulator {
    driver().unwrap_or_else(|| {
        panic!("cuda_entry_sim::{function} reads the installed driver's records: call cuda_entry_sim::install() first")
    })
}

/// The name of the driver export called most recently (`"cuCtxCreate_v4"`): which ABI variant the
/// code under test reached. `""` before any call.
///
/// # Panics
/// Before [`install`].
pub fn last_call() -> String {
    installed_driver("last_call").last_call()
}

/// How many times the driver export `name` (`"cuMemAlloc_v2"`, `"cuGetProcAddress_v2"`) was
/// called since the last [`reset`].
///
/// # Panics
/// Before [`install`].
pub fn calls(name: &str) -> u64 {
    installed_driver("calls").calls(name)
}

/// Forgets the driver's call records (its memory, contexts and configuration are kept).
///
/// # Panics
/// Before [`install`].
pub fn reset() {
    installed_driver("reset").reset();
}

/// Every driver export called since the last [`reset`], by name, with its count.
///
/// # Panics
/// Before [`install`].
pub fn recorded() -> Vec<Call> {
    installed_driver("recorded").recorded()
}

/// The calls of driver functions the simulator does not implement (each returned 801): empty
/// when the code under test stayed within what is simulated.
///
/// # Panics
/// Before [`install`].
pub fn unsupported_calls() -> Vec<Call> {
    installed_driver("unsupported_calls").unsupported_calls()
}
