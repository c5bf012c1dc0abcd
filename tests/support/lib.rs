//! Support shared by the workspace's tests and examples: running test scenarios each in a process
//! of its own (the driver is loaded once per process, so every driver configuration needs a fresh
//! one), reading ELF and PE files, fork helpers, and the documentation's doctests. The simulated
//! libraries are found, configured and read through the testing kit, `cuda-entry-sim`, as users'
//! tests do.
#![deny(missing_docs)]
#[cfg(doctest)]
mod docs;
pub mod elf;
#[cfg(target_os = "linux")]
pub mod fork;
mod harness;
#[cfg(windows)]
mod pe;
mod program;

pub use harness::{Driver, SCENARIO_VARIABLE, Scenario, run_scenarios};
pub use program::{EMULATOR_VARIABLE, target_command};

use std::path::Path;
use std::process::ExitCode;

use cuda_entry_sim::{Config, Simulator};

/// The manifest records of the running executable's file, read as `cuda-entry check BINARY`
/// reads them.
///
/// # Panics
/// If the file cannot be read or has no well-formed manifest section (test code only).
pub fn manifest_of_this_binary() -> Vec<cuda_entry::manifest::OwnedRecord> {
    use object::{Object, ObjectSection};
    let path = std::env::current_exe().expect("current_exe");
    let data = std::fs::read(&path).expect("read own binary");
    let file = object::File::parse(&*data).expect("an object file");
    let section = file
        .section_by_name(cuda_entry::MANIFEST_SECTION)
        .expect("the manifest section");
    cuda_entry::manifest::parse(section.data().expect("section data")).expect("well-formed records")
}

/// The simulated library named by cuda-entry's driver variable (`CUDA_ENTRY_DRIVER_PATH`, which
/// the harness sets for a scenario's process), opened for its records.
///
/// # Panics
/// If the variable is unset or the library cannot be opened (test code only).
pub fn simulator() -> Simulator {
    simulator_at(cuda_entry::PATH_VARIABLE)
}

/// The simulated library named by the environment variable `variable`, as [`simulator`].
///
/// # Panics
/// As [`simulator`].
pub fn simulator_at(variable: &str) -> Simulator {
    let path = std::env::var_os(variable).unwrap_or_else(|| panic!("{variable} set"));
    Simulator::open(path).unwrap_or_else(|e| panic!("open simulator: {e}"))
}

/// What the workspace's tests count on a simulator besides its own records.
pub trait Queries {
    /// How many times the driver was asked for an entry point, by either `cuGetProcAddress`.
    fn queries(&self) -> u64;
}

impl Queries for Simulator {
    fn queries(&self) -> u64 {
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
        fname: *const std::ffi::c_char,
        fbase: *mut std::ffi::c_void,
        sname: *const std::ffi::c_char,
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
        unsafe { std::ffi::CStr::from_ptr(info.sname) }
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
    let mut command = target_command(std::env::current_exe().expect("current_exe"));
    command
        .args(std::env::args_os().skip(1))
        .env("CUDA_ENTRY_SIMULATED", "1");
    // The kit's way to point a program at the simulated driver (the default configuration).
    if let Err(e) = Config::new().apply_to(&mut command) {
        println!("and the simulated driver is not available either: {e}");
        return Some(ExitCode::FAILURE);
    }
    let path = command
        .get_envs()
        .find(|(name, _)| *name == cuda_entry::PATH_VARIABLE)
        .and_then(|(_, path)| path)
        .map(Path::new)
        .unwrap_or(Path::new(""));
    println!(
        "Running the same program against the SIMULATED driver ({}).\n",
        path.display()
    );
    let status = command.status();
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
