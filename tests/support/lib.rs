//! Support shared by the workspace's tests and examples: finding the simulated driver libraries,
//! reading their call records, and running test scenarios each in a process of its own (the driver
//! is loaded once per process, so every driver configuration needs a fresh one).
#![deny(missing_docs)]
pub mod elf;

use std::ffi::{CStr, CString, c_char};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

/// The environment variable through which a scenario's child process learns which scenario to run.
const SCENARIO_VARIABLE: &str = "CUDA_ENTRY_TEST_SCENARIO";

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
        // SAFETY: the instrumentation export's signature, as tests/simdriver defines it.
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

/// One test scenario: a driver configuration and the test body run under it.
#[derive(Debug)]
pub struct Scenario {
    /// The test's name.
    pub name: &'static str,
    /// The driver library: a simulator, or an explicit path (`None`: no override at all).
    pub driver: Driver,
    /// Further environment for the child (`CUDA_ENTRY_SIM_VERSION`, `CUDA_ENTRY_SIM_MODE`).
    pub env: &'static [(&'static str, &'static str)],
    /// The body; it panics on failure.
    pub run: fn(),
}

/// Which driver library a scenario's process loads.
#[derive(Clone, Copy, Debug)]
pub enum Driver {
    /// A simulated driver.
    Sim(Simulator),
    /// A simulated runtime library (through `CUDA_ENTRY_RUNTIME_PATH`); no driver override.
    Runtime(Simulator),
    /// This exact path, through the override (a missing file, a non-library...).
    Path(&'static str),
    /// Whatever the platform's default is (no override).
    Default,
}

/// Runs every scenario in a child process of its own and reports like libtest; in a child,
/// runs the one scenario asked for. Call it from a `harness = false` test's `main`.
pub fn run_scenarios(scenarios: &[Scenario]) -> ExitCode {
    if let Ok(name) = std::env::var(SCENARIO_VARIABLE) {
        return match scenarios.iter().find(|s| s.name == name) {
            Some(s) => {
                (s.run)();
                ExitCode::SUCCESS
            }
            None => {
                eprintln!("no scenario named {name}");
                ExitCode::FAILURE
            }
        };
    }
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let selected: Vec<&Scenario> = scenarios
        .iter()
        .filter(|s| filters.is_empty() || filters.iter().any(|f| s.name.contains(f.as_str())))
        .collect();
    let start = Instant::now();
    println!("\nrunning {} tests", selected.len());
    let exe = std::env::current_exe().expect("current_exe");
    let mut failed = Vec::new();
    for s in &selected {
        let mut child = Command::new(&exe);
        child.env(SCENARIO_VARIABLE, s.name);
        child.env_remove("CUDA_ENTRY_DRIVER_PATH");
        child.env_remove("CUDA_ENTRY_RUNTIME_PATH");
        let overridden = match s.driver {
            Driver::Sim(sim) => Some(("CUDA_ENTRY_DRIVER_PATH", sim.path())),
            Driver::Runtime(sim) => Some(("CUDA_ENTRY_RUNTIME_PATH", sim.path())),
            Driver::Path(path) => Some(("CUDA_ENTRY_DRIVER_PATH", Ok(PathBuf::from(path)))),
            Driver::Default => None,
        };
        match overridden {
            Some((variable, Ok(path))) => {
                child.env(variable, path);
            }
            Some((_, Err(e))) => {
                println!("test {} ... FAILED", s.name);
                failed.push((s.name, e));
                continue;
            }
            None => {}
        }
        for (k, v) in s.env {
            child.env(k, v);
        }
        match child.output() {
            Ok(out) if out.status.success() => println!("test {} ... ok", s.name),
            Ok(out) => {
                println!("test {} ... FAILED", s.name);
                failed.push((
                    s.name,
                    format!(
                        "{}\n{}{}",
                        out.status,
                        String::from_utf8_lossy(&out.stdout),
                        String::from_utf8_lossy(&out.stderr)
                    ),
                ));
            }
            Err(e) => {
                println!("test {} ... FAILED", s.name);
                failed.push((s.name, format!("spawn: {e}")));
            }
        }
    }
    for (name, output) in &failed {
        println!("\n---- {name} ----\n{output}");
    }
    let passed = selected.len() - failed.len();
    println!(
        "\ntest result: {}. {passed} passed; {} failed; 0 ignored; 0 measured; {} filtered out; \
         finished in {:.2}s\n",
        if failed.is_empty() { "ok" } else { "FAILED" },
        failed.len(),
        scenarios.len() - selected.len(),
        start.elapsed().as_secs_f64()
    );
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
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

/// On platforms without `dladdr`, export names are unknown.
#[cfg(not(unix))]
pub fn export_name(_address: *const std::ffi::c_void) -> Option<String> {
    None
}

/// Re-runs the current program with the simulated driver when no real driver can be loaded:
/// returns `Some(exit code)` from the parent once the child is done, `None` in the process that
/// should go on (a real driver, or already the simulated child).
///
/// The driver is loaded once per process, so the switch needs a fresh process.
pub fn fall_back_to_simulator(why: &dyn std::fmt::Display) -> Option<ExitCode> {
    if std::env::var_os("CUDA_ENTRY_SIMULATED").is_some() {
        return None;
    }
    println!("No CUDA driver could be used on this machine: {why}");
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
