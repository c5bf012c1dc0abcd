//! Opening a shared library (the driver, the runtime): the names tried, the override variables,
//! and the Windows search flags.

use std::ffi::OsString;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

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
///
/// # Security
/// In secure-execution mode (a setuid, setgid or file-capability program: the kernel's
/// `AT_SECURE`), the variable is ignored, as the dynamic loader ignores `LD_LIBRARY_PATH`, and a
/// loading error says so; [`trust_path_variables_when_privileged`] opts back in.
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
///
/// # Security
/// Ignored in secure-execution mode, as [`PATH_VARIABLE`] is.
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
    ApplicationAndSystem,
}

/// A library opened and kept for the life of the process, with the name it was opened by.
pub(crate) struct Opened {
    pub(crate) library: Library,
    pub(crate) path: Arc<str>,
}

/// Why no library could be opened.
pub(crate) struct NotOpened {
    /// Every attempt, with the loader's message.
    pub(crate) tried: Arc<[LoadAttempt]>,
    /// The override variable that was set but ignored (secure-execution mode).
    pub(crate) ignored: Option<&'static str>,
}

/// Whether the override variables are honoured in secure-execution mode.
static TRUSTED_WHEN_PRIVILEGED: AtomicBool = AtomicBool::new(false);

/// Lets [`PATH_VARIABLE`] and [`RUNTIME_PATH_VARIABLE`] choose the library even when the process
/// runs in secure-execution mode (setuid, setgid or file capabilities), where they are ignored
/// by default. Call it before the first resolution, and only in a program that controls its own
/// environment: whoever starts a privileged program otherwise picks the library whose
/// initialisers run with its privileges.
///
/// # Platform-specific behaviour
/// Secure-execution mode is the kernel's `AT_SECURE` on Linux; other platforms have none, and
/// the variables are always honoured there.
pub fn trust_path_variables_when_privileged() {
    TRUSTED_WHEN_PRIVILEGED.store(true, Ordering::Relaxed);
}

/// Whether this process runs in secure-execution mode (`AT_SECURE`: setuid, setgid, or file
/// capabilities), where the dynamic loader itself ignores `LD_LIBRARY_PATH` and `LD_PRELOAD`.
#[cfg(target_os = "linux")]
pub(crate) fn secure_execution() -> bool {
    unsafe extern "C" {
        /// glibc and musl: the value of an auxiliary vector entry, 0 when absent.
        fn getauxval(kind: std::ffi::c_ulong) -> std::ffi::c_ulong;
    }
    /// `AT_SECURE` from `<elf.h>`.
    const AT_SECURE: std::ffi::c_ulong = 23;
    // SAFETY: getauxval reads the process's auxiliary vector; it has no preconditions.
    unsafe { getauxval(AT_SECURE) != 0 }
}

/// No secure-execution mode on this platform.
#[cfg(not(target_os = "linux"))]
pub(crate) fn secure_execution() -> bool {
    false
}

/// Opens the library named by `variable` when it is set and not empty (whatever its bytes: a set
/// override is the only library tried, never a fallback), else the first of `defaults` that
/// opens; on failure, every attempt with the loader's message. In secure-execution mode the
/// variable is ignored (as glibc's `secure_getenv` would) unless the program opted in.
pub(crate) fn open_first(
    variable: &'static str,
    defaults: &[&str],
    search: Search,
) -> Result<Opened, NotOpened> {
    let mut overridden = std::env::var_os(variable).filter(|p| !p.is_empty());
    let mut ignored = None;
    if overridden.is_some()
        && secure_execution()
        && !TRUSTED_WHEN_PRIVILEGED.load(Ordering::Relaxed)
    {
        overridden = None;
        ignored = Some(variable);
    }
    let candidates: Vec<OsString> = match overridden {
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
    Err(NotOpened {
        tried: tried.into(),
        ignored,
    })
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
