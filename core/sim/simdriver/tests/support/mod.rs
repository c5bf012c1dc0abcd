//! Test helpers shared by the simulated drivers' and runtimes' tests (included with `#[path]`):
//! finding the built cdylib, listing its exports with `nm`, loading it with `dlopen` exactly as the
//! library loads libcuda.so.1, and running one test again in a child process (the simulators read
//! their configuration from the environment, once per process).
#![allow(dead_code, unreachable_pub)] // each test file uses a different part

use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::path::PathBuf;
use std::process::{Command, Output};

/// The instrumentation exports every simulator build has.
pub const INSTRUMENTATION: &[&str] = &[
    "cuda_entry_sim_calls",
    "cuda_entry_sim_configure",
    "cuda_entry_sim_configure_calls",
    "cuda_entry_sim_each_call",
    "cuda_entry_sim_implements",
    "cuda_entry_sim_last_call",
    "cuda_entry_sim_reset",
];

/// The instrumentation exports the simulated runtimes add.
pub const RUNTIME_INSTRUMENTATION: &[&str] = &["cuda_entry_simrt_configure"];

/// The cdylib `lib<stem>.so` cargo built next to this test binary (in `deps/` or its parent).
pub fn cdylib_path(stem: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let deps = exe
        .parent()
        .expect("the test binary's directory")
        .to_path_buf();
    let name = format!("lib{stem}.so");
    let candidates = [
        deps.join(&name),
        deps.parent().map(|p| p.join(&name)).unwrap_or_default(),
    ];
    candidates
        .iter()
        .find(|p| p.is_file())
        .cloned()
        .unwrap_or_else(|| {
            panic!("cargo did not leave {name} in {candidates:?}: is crate-type cdylib still set?")
        })
}

/// The functions the shared object defines and exports (`nm -D --defined-only`, type T).
///
/// # Panics
/// When `nm` cannot be run: it comes with binutils, as the linker does, so it is required.
pub fn nm_exports(path: &std::path::Path) -> Vec<String> {
    let out = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(path)
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run `nm` to list the exports ({e}): install binutils, which has it")
        });
    assert!(
        out.status.success(),
        "nm failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut names: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| {
            let mut parts = line.split_whitespace();
            let (_addr, kind, name) = (parts.next()?, parts.next()?, parts.next()?);
            (kind == "T").then(|| name.to_owned())
        })
        .collect();
    names.sort();
    names
}

unsafe extern "C" {
    fn dlopen(filename: *const c_char, flags: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
    fn dlerror() -> *mut c_char;
}

const RTLD_NOW: c_int = 2;
const RTLD_LOCAL: c_int = 0;

/// A `dlopen`ed simulator (never closed: the library keeps libcuda loaded for the process too).
#[derive(Debug)]
pub struct Library(*mut c_void);

impl Library {
    /// Loads `path` as the library loads libcuda.so.1.
    pub fn open(path: &std::path::Path) -> Library {
        let c = CString::new(path.to_str().expect("UTF-8 path")).expect("no NUL in path");
        // SAFETY: a NUL-terminated path; loading runs no initialisers beyond Rust's own.
        let handle = unsafe { dlopen(c.as_ptr(), RTLD_NOW | RTLD_LOCAL) };
        if handle.is_null() {
            // SAFETY: dlerror returns NULL or a NUL-terminated message after a failed dlopen.
            let err = unsafe { dlerror() };
            let msg = if err.is_null() {
                String::new()
            } else {
                // SAFETY: non-NULL, NUL-terminated (above).
                unsafe { CStr::from_ptr(err) }
                    .to_string_lossy()
                    .into_owned()
            };
            panic!("dlopen({}) failed: {msg}", path.display());
        }
        Library(handle)
    }

    /// The address of the export `name`, NULL when absent.
    pub fn sym(&self, name: &str) -> *mut c_void {
        let c = CString::new(name).expect("no NUL in name");
        // SAFETY: a live handle from dlopen and a NUL-terminated name.
        unsafe { dlsym(self.0, c.as_ptr()) }
    }
}

/// `cuGetProcAddress_v2`'s C type.
pub type GetProcAddressV2 =
    unsafe extern "C" fn(*const c_char, *mut *mut c_void, c_int, u64, *mut c_int) -> c_int;
/// The 4-argument `cuGetProcAddress`'s C type.
pub type GetProcAddress =
    unsafe extern "C" fn(*const c_char, *mut *mut c_void, c_int, u64) -> c_int;
/// `cuDriverGetVersion`'s C type.
pub type DriverGetVersion = unsafe extern "C" fn(*mut c_int) -> c_int;

/// The variables the simulators read (the driver's, and the runtime's own).
pub const SIM_VARIABLES: &[&str] = &[
    "CUDA_ENTRY_SIM_VERSION",
    "CUDA_ENTRY_SIM_MODE",
    "CUDA_ENTRY_SIMRT_VERSION",
    "CUDA_ENTRY_SIMRT_MODE",
];

/// Set in a child process started by [`run_again`] to the role it plays there.
const CHILD_ROLE: &str = "CUDA_ENTRY_SIM_TEST_CHILD";

/// The role this process plays, when it is a child started by [`run_again`].
pub fn child_role() -> Option<String> {
    std::env::var(CHILD_ROLE).ok()
}

/// Runs the test `test` of this test binary again, by itself, in a child process that plays
/// `role` (see [`child_role`]) and has none of [`SIM_VARIABLES`] but those of `env`.
pub fn run_again(test: &str, role: &str, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(std::env::current_exe().expect("the test binary's path"));
    cmd.args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env(CHILD_ROLE, role);
    for variable in SIM_VARIABLES {
        cmd.env_remove(variable);
    }
    cmd.envs(env.iter().copied());
    cmd.output().expect("spawn the test binary")
}

/// The child's stdout then stderr.
pub fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Asserts that the child started its one test (libtest's "running 1 test"), whatever came next.
pub fn assert_ran_one_test(test: &str, out: &Output) {
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("running 1 test"),
        "{test}: the child did not run its test: {}",
        text(out)
    );
}

/// Asserts that the child ran its one test and it passed; returns the child's output.
pub fn assert_passed(test: &str, env: &[(&str, &str)], out: &Output) -> String {
    let text = text(out);
    assert!(
        out.status.success() && text.contains("1 passed"),
        "{test} with {env:?} in a child: {}\n{text}",
        out.status
    );
    text
}

/// For a test that needs the simulators' default configuration: `true` when this process has it
/// (none of [`SIM_VARIABLES`] set). Otherwise runs `test` again in a child without them, asserts
/// that it passed there, and returns `false`: the caller returns, the check done.
pub fn with_default_configuration(test: &str) -> bool {
    if SIM_VARIABLES.iter().all(|v| std::env::var_os(v).is_none()) {
        return true;
    }
    let out = run_again(test, "default-configuration", &[]);
    assert_passed(test, &[], &out);
    false
}
