//! Opening a shared library (the driver, the runtime): the names tried, the override variables,
//! and the Windows search flags.

use std::ffi::OsString;
use std::sync::Arc;

use libloading::Library;

/// The environment variable that, when set and not empty, is the only driver library tried.
///
/// For tests (the simulated driver) and unusual installs. It is read once, on first use.
///
/// # Platform-specific behaviour
/// Without it, Linux opens `libcuda.so.1` (never the unversioned `libcuda.so`, which is usually
/// the toolkit's stub) through the standard `dlopen` search; Windows opens `nvcuda.dll` from
/// System32 only (`LOAD_LIBRARY_SEARCH_SYSTEM32`: the current directory and `PATH` are never
/// searched). When it is set, its value is the only library tried, whatever its bytes: a path
/// that does not open is an error, never a fallback to the default.
pub const PATH_VARIABLE: &str = "CUDA_ENTRY_DRIVER_PATH";

#[cfg(windows)]
pub(crate) const DRIVER_LIBRARIES: &[&str] = &["nvcuda.dll"];
#[cfg(not(windows))]
pub(crate) const DRIVER_LIBRARIES: &[&str] = &["libcuda.so.1"];

/// The environment variable that, when set and not empty, is the only runtime library tried
/// (for `resolver = "runtime"` entries).
///
/// # Platform-specific behaviour
/// Without it, Linux opens `libcudart.so.13`, then `libcudart.so.12`; Windows `cudart64_13.dll`,
/// then `cudart64_12.dll`, from the application's folder and System32 only (never the current
/// directory or `PATH`). When it is set, its value is the only library tried, whatever its bytes.
pub const RUNTIME_PATH_VARIABLE: &str = "CUDA_ENTRY_RUNTIME_PATH";

#[cfg(windows)]
pub(crate) const RUNTIME_LIBRARIES: &[&str] = &["cudart64_13.dll", "cudart64_12.dll"];
#[cfg(not(windows))]
pub(crate) const RUNTIME_LIBRARIES: &[&str] = &["libcudart.so.13", "libcudart.so.12"];

/// One attempt to open a library: the name or path tried and what the loader said.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LoadAttempt {
    /// The file name or path passed to the system loader (lossily decoded for display when it is
    /// not UTF-8: the library was opened by its exact bytes).
    pub path: String,
    /// The loader's message (`dlerror()` / `GetLastError()` text).
    pub message: String,
}

/// Where Windows looks for a library named without a folder (Linux uses the standard `dlopen`
/// search, which never includes the current directory).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Search {
    /// System32 only: where the display driver installs nvcuda.dll.
    System,
    /// The application's folder, then System32: where programs ship cudart64_*.dll.
    #[cfg_attr(not(windows), allow(dead_code))]
    ApplicationAndSystem,
}

/// A library opened and kept for the life of the process, with the name it was opened by.
pub(crate) struct Opened {
    pub(crate) library: Library,
    pub(crate) path: Arc<str>,
}

/// Opens the library named by `variable` when it is set and not empty (whatever its bytes: a set
/// override is the only library tried, never a fallback), else the first of `defaults` that
/// opens; on failure, every attempt with the loader's message.
pub(crate) fn open_first(
    variable: &str,
    defaults: &[&str],
    search: Search,
) -> Result<Opened, Arc<[LoadAttempt]>> {
    let candidates: Vec<OsString> = match std::env::var_os(variable).filter(|p| !p.is_empty()) {
        Some(path) => vec![path],
        None => defaults.iter().map(OsString::from).collect(),
    };
    let mut tried = Vec::new();
    for candidate in candidates {
        let path = candidate.to_string_lossy().into_owned();
        match open(&candidate, search) {
            Ok(library) => {
                return Ok(Opened {
                    library,
                    path: path.into(),
                });
            }
            Err(e) => tried.push(LoadAttempt {
                path,
                message: error_chain(&e),
            }),
        }
    }
    Err(tried.into())
}

/// The loader's error with its sources (libloading puts `dlerror()`'s text in the source).
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut message = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        message.push_str(": ");
        message.push_str(&e.to_string());
        source = e.source();
    }
    message
}

#[cfg(not(windows))]
fn open(path: &std::ffi::OsStr, _search: Search) -> Result<Library, libloading::Error> {
    // SAFETY: opening a library runs its initialisers; the driver's are made to be run by any
    // process that uses CUDA. The name is either a default (libcuda.so.1, libcudart.so.N) or the
    // user's explicit override.
    unsafe { Library::new(path) }
}

#[cfg(windows)]
fn open(path: &std::ffi::OsStr, search: Search) -> Result<Library, libloading::Error> {
    use libloading::os::windows::{
        LOAD_LIBRARY_SEARCH_APPLICATION_DIR, LOAD_LIBRARY_SEARCH_SYSTEM32, Library as WinLibrary,
    };
    let flags = match search {
        Search::System => LOAD_LIBRARY_SEARCH_SYSTEM32,
        Search::ApplicationAndSystem => {
            LOAD_LIBRARY_SEARCH_APPLICATION_DIR | LOAD_LIBRARY_SEARCH_SYSTEM32
        }
    };
    // SAFETY: as on Linux. The flags keep the current directory and PATH out of the search, so
    // a planted DLL of the same name is never picked up.
    unsafe { WinLibrary::load_with_flags(path, flags) }.map(Into::into)
}
