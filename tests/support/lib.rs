//! Support shared by the workspace's tests and examples: finding the simulated driver libraries,
//! reading their call records, and running test scenarios each in a process of its own (the driver
//! is loaded once per process, so every driver configuration needs a fresh one).
#![deny(missing_docs)]
#[cfg(doctest)]
mod docs;
pub mod elf;
#[cfg(target_os = "linux")]
pub mod fork;
mod harness;
#[cfg(windows)]
mod pe;

pub use harness::{Driver, SCENARIO_VARIABLE, Scenario, run_scenarios};

use std::ffi::{CStr, CString, c_char};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// Which simulated driver library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Simulator {
    /// The full simulator: a 12.0+ driver with `cuGetProcAddress_v2` (reports 13000 by default).
    Current,
    /// A CUDA 11.3-11.8 driver: the 4-argument `cuGetProcAddress` only (reports 11080).
    Driver11x,
    /// A driver before 11.3: no `cuGetProcAddress` at all (reports 11020).
    Old,
    /// A CUDA runtime with `cudaGetDriverEntryPointByVersion` (reports 13000).
    Runtime,
    /// A CUDA 12.0-12.4 runtime: no `cudaGetDriverEntryPointByVersion` (reports 12040).
    RuntimeOld,
}

impl Simulator {
    fn crate_name(self) -> &'static str {
        match self {
            Simulator::Current => "cuda_entry_simdriver",
            Simulator::Driver11x => "cuda_entry_simdriver_11x",
            Simulator::Old => "cuda_entry_simdriver_old",
            Simulator::Runtime => "cuda_entry_simruntime",
            Simulator::RuntimeOld => "cuda_entry_simruntime_old",
        }
    }

    /// The built library's path (next to the running executable's `deps/` folder).
    ///
    /// # Errors
    /// A message saying how to build it, when it is not there.
    pub fn path(self) -> Result<PathBuf, String> {
        let file = format!(
            "{}{}{}",
            std::env::consts::DLL_PREFIX,
            self.crate_name(),
            std::env::consts::DLL_SUFFIX
        );
        let exe = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
        let mut dir = exe.parent().map(Path::to_path_buf).unwrap_or_default();
        // target/<profile>/deps/<test>, target/<profile>/examples/<example>, or
        // target/<profile>/<bin>: the cdylibs of dev-dependencies are in target/<profile>/deps.
        if dir.ends_with("deps") || dir.ends_with("examples") {
            dir.pop();
        }
        let candidates = [dir.join("deps").join(&file), dir.join(&file)];
        candidates
            .iter()
            .find(|p| p.is_file())
            .cloned()
            .ok_or_else(|| {
                format!(
                    "the simulated driver `{file}` is not built (looked in {}); build it with \
                 `cargo build -p {}`",
                    dir.display(),
                    self.crate_name().replace('_', "-")
                )
            })
    }
}

/// The simulated driver's call records, read through its instrumentation exports.
#[derive(Debug)]
pub struct SimRecords {
    library: libloading::Library,
}

impl SimRecords {
    /// Opens the simulator at `path` (the same handle the library under test uses, if loaded).
    ///
    /// # Errors
    /// The loader's message, if it cannot be opened.
    pub fn open(path: &Path) -> Result<SimRecords, String> {
        // SAFETY: the simulator is this workspace's own library; its initialisers are trivial.
        let library = unsafe { libloading::Library::new(path) }.map_err(|e| e.to_string())?;
        Ok(SimRecords { library })
    }

    /// Opens the simulator named by `CUDA_ENTRY_DRIVER_PATH`.
    ///
    /// # Panics
    /// If the variable is unset or the library cannot be opened (test code only).
    pub fn from_env() -> SimRecords {
        SimRecords::from_variable("CUDA_ENTRY_DRIVER_PATH")
    }

    /// Opens the simulator named by the environment variable `variable`.
    ///
    /// # Panics
    /// As [`SimRecords::from_env`].
    pub fn from_variable(variable: &str) -> SimRecords {
        let path = std::env::var(variable).unwrap_or_else(|_| panic!("{variable} set"));
        SimRecords::open(Path::new(&path)).expect("open simulator")
    }

    /// The name of the export most recently called (`"cuCtxCreate_v4"`).
    pub fn last_call(&self) -> String {
        // SAFETY: the instrumentation export's signature, as core/sim/simdriver defines it.
        unsafe {
            let f = self
                .library
                .get::<unsafe extern "C" fn() -> *const c_char>(c"cuda_entry_sim_last_call")
                .expect("cuda_entry_sim_last_call exported");
            let p = f();
            if p.is_null() {
                String::new()
            } else {
                CStr::from_ptr(p).to_string_lossy().into_owned()
            }
        }
    }

    /// How many times the export `name` was called.
    pub fn calls(&self, name: &str) -> u64 {
        let name = CString::new(name).expect("no NUL in an export name");
        // SAFETY: as above.
        unsafe {
            let f = self
                .library
                .get::<unsafe extern "C" fn(*const c_char) -> u64>(c"cuda_entry_sim_calls")
                .expect("cuda_entry_sim_calls exported");
            f(name.as_ptr())
        }
    }

    /// The address of the simulator's export `name`, to compare a resolved pointer with.
    pub fn address(&self, name: &str) -> Option<*mut std::ffi::c_void> {
        let name = CString::new(name).ok()?;
        // SAFETY: only the symbol's address is read, never called through this type.
        unsafe {
            self.library
                .get::<*mut std::ffi::c_void>(name.as_c_str())
                .ok()
                .map(|s| *s)
        }
    }

    /// How many times the driver was asked for an entry point, by either `cuGetProcAddress`.
    pub fn queries(&self) -> u64 {
        self.calls("cuGetProcAddress_v2") + self.calls("cuGetProcAddress")
    }
}

/// The name of the exported symbol at exactly `address` in whichever loaded library holds it
/// (`dladdr`), or `None` if the address is not an export's start.
#[cfg(unix)]
#[allow(
    clippy::not_unsafe_ptr_arg_deref,
    reason = "dladdr looks the address up; nothing is dereferenced"
)]
pub fn export_name(address: *const std::ffi::c_void) -> Option<String> {
    #[repr(C)]
    struct DlInfo {
        fname: *const c_char,
        fbase: *mut std::ffi::c_void,
        sname: *const c_char,
        saddr: *mut std::ffi::c_void,
    }
    unsafe extern "C" {
        // glibc >= 2.34 has it in libc proper, which every Rust program links.
        fn dladdr(address: *const std::ffi::c_void, info: *mut DlInfo) -> std::ffi::c_int;
    }
    let mut info = DlInfo {
        fname: std::ptr::null(),
        fbase: std::ptr::null_mut(),
        sname: std::ptr::null(),
        saddr: std::ptr::null_mut(),
    };
    // SAFETY: dladdr only reads the address and writes the struct.
    let found = unsafe { dladdr(address, &raw mut info) };
    if found == 0 || info.sname.is_null() || info.saddr.cast_const() != address {
        return None;
    }
    // SAFETY: dladdr returned a NUL-terminated name owned by the loader.
    Some(
        unsafe { CStr::from_ptr(info.sname) }
            .to_string_lossy()
            .into_owned(),
    )
}

/// The name of the exported symbol at exactly `address` in whichever loaded module holds it
/// (its PE export table), or `None` if the address is not an export's start.
#[cfg(windows)]
pub use pe::export_name;

/// On platforms with neither `dladdr` nor PE modules, export names are unknown.
#[cfg(not(any(unix, windows)))]
pub fn export_name(_address: *const std::ffi::c_void) -> Option<String> {
    None
}

/// The variable that makes every check needing a real GPU required: switched on (see
/// [`switched_on`]), such a check fails where it would print `SKIPPED`. tests/device/run.sh sets it.
pub const REQUIRE_GPU: &str = "CUDA_ENTRY_REQUIRE_GPU";

/// Whether the environment variable `name` is switched on: set, and neither empty, `0` nor `false`
/// (`CI=1` and `CI=true` both count). How every optional check reads `CI` and [`REQUIRE_GPU`].
pub fn switched_on(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// Prints `SKIPPED <check>: <why>` where the person running the tests sees it: straight to the
/// process's standard error, which libtest does not capture (it captures only `print!` and
/// `eprint!`, so an `eprintln!` in a passing test is never shown).
pub fn print_skipped(check: &str, why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED {check}: {why}");
}

/// A check that needs a real GPU and cannot run: panics when [`REQUIRE_GPU`] is switched on,
/// otherwise says so with [`print_skipped`] and returns.
///
/// # Panics
/// With [`REQUIRE_GPU`] switched on (test code only).
pub fn gpu_check_cannot_run(check: &str, why: &str) {
    if switched_on(REQUIRE_GPU) {
        panic!("{check} cannot run: {why}; {REQUIRE_GPU} is set, so this GPU check is required");
    }
    print_skipped(check, why);
}

/// Re-runs the current program with the simulated driver when no real driver can be loaded:
/// returns `Some(exit code)` from the parent once the child is done, `None` in the process that
/// should go on (a real driver, or already the simulated child). With [`REQUIRE_GPU`] switched on
/// it does not fall back: `Some(failure)`.
///
/// The driver is loaded once per process, so the switch needs a fresh process.
pub fn fall_back_to_simulator(why: &dyn std::fmt::Display) -> Option<ExitCode> {
    if std::env::var_os("CUDA_ENTRY_SIMULATED").is_some() {
        return None;
    }
    println!("No CUDA driver could be used on this machine: {why}");
    if switched_on(REQUIRE_GPU) {
        println!("{REQUIRE_GPU} is set: a real driver is required, no simulated one is tried.");
        return Some(ExitCode::FAILURE);
    }
    let path = match Simulator::Current.path() {
        Ok(path) => path,
        Err(e) => {
            println!("and the simulated driver is not available either: {e}");
            return Some(ExitCode::FAILURE);
        }
    };
    println!(
        "Running the same program against the SIMULATED driver ({}).\n",
        path.display()
    );
    let status = Command::new(std::env::current_exe().expect("current_exe"))
        .args(std::env::args_os().skip(1))
        .env("CUDA_ENTRY_DRIVER_PATH", &path)
        .env("CUDA_ENTRY_SIMULATED", "1")
        .status();
    Some(match status {
        Ok(s) if s.success() => ExitCode::SUCCESS,
        _ => ExitCode::FAILURE,
    })
}

/// Whether this process runs against the simulated driver (set by [`fall_back_to_simulator`]).
pub fn is_simulated() -> bool {
    std::env::var_os("CUDA_ENTRY_SIMULATED").is_some()
}

/// A file of tests/ground-truth/: relative to the working directory first (on the device machine
/// the tree is a copy elsewhere than where it was built), else to the source tree.
///
/// # Panics
/// When the file is in neither place (test code only).
pub fn ground_truth_file(name: &str) -> String {
    let relative = Path::new("tests/ground-truth").join(name);
    let path = if relative.is_file() {
        relative
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
    };
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
