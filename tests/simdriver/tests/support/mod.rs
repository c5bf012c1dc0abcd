//! Test helpers shared by the three simulated-driver crates' tests (included with `#[path]`):
//! finding the built cdylib, listing its exports with `nm`, loading it with `dlopen` exactly as the
//! library loads libcuda.so.1.
#![allow(dead_code, unreachable_pub)] // each test file uses a different part

use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::path::PathBuf;
use std::process::Command;

/// The instrumentation exports every simulator build has.
pub const INSTRUMENTATION: &[&str] = &[
    "cuda_entry_sim_calls",
    "cuda_entry_sim_configure",
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

/// The functions the shared object defines and exports (`nm -D --defined-only`, type T), or `None`
/// when `nm` is not installed.
pub fn nm_exports(path: &std::path::Path) -> Option<Vec<String>> {
    let out = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(path)
        .output()
        .ok()?;
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
    Some(names)
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
