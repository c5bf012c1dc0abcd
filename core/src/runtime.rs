//! Resolving through the CUDA runtime's `cudaGetDriverEntryPointByVersion` (CUDA 12.5+), for
//! programs that already load the runtime and want the entry points it would hand out.
//!
//! The unversioned `cudaGetDriverEntryPoint` is never called: it returns whatever variant matches
//! the runtime's own version, the very bug this crate exists to prevent.
//!
//! # Thread-safety
//! As the driver: the runtime library is loaded once and never unloaded.
//!
//! # Platform-specific behaviour
//! Linux opens `libcudart.so.13`, then `libcudart.so.12`; Windows `cudart64_13.dll`, then
//! `cudart64_12.dll`, from the application's folder and System32 only. [`RUNTIME_PATH_VARIABLE`]
//! replaces both with one path.

use std::ffi::{CStr, c_char, c_int, c_uint, c_ulonglong, c_void};
use std::ptr::{self, NonNull};

use libloading::Library;

use crate::driver::{STATUS_UNWRITTEN, Search, answer, flags, open_first, precheck};
use crate::error::{Error, Request};
use crate::sync::Leaked;

/// The environment variable that, when set and not empty, is the only runtime library tried.
pub const RUNTIME_PATH_VARIABLE: &str = "CUDA_ENTRY_RUNTIME_PATH";

#[cfg(windows)]
const DEFAULT_LIBRARIES: &[&str] = &["cudart64_13.dll", "cudart64_12.dll"];
#[cfg(not(windows))]
const DEFAULT_LIBRARIES: &[&str] = &["libcudart.so.13", "libcudart.so.12"];

type GetVersionFn = unsafe extern "system" fn(*mut c_int) -> c_int;
type ByVersionFn = unsafe extern "system" fn(
    *const c_char,
    *mut *mut c_void,
    c_uint,
    c_ulonglong,
    *mut c_int,
) -> c_int;

/// The loaded runtime library.
#[derive(Debug)]
pub(crate) struct Runtime {
    /// Kept for the life of the process, so resolved pointers stay valid.
    _library: Library,
    version: u32,
    driver_version: u32,
    by_version: ByVersionFn,
}

#[cfg(not(loom))]
static RUNTIME: Leaked<Result<Runtime, Error>> = Leaked::new();
#[cfg(loom)]
loom::lazy_static! {
    static ref RUNTIME: Leaked<Result<Runtime, Error>> = Leaked::new();
}

/// The process's runtime library, loaded on first call.
pub(crate) fn runtime() -> Result<&'static Runtime, &'static Error> {
    RUNTIME.get_or_init(load).as_ref()
}

/// The version the runtime library reports (`cudaRuntimeGetVersion`), loading it on first call.
///
/// # Errors
/// [`Error::RuntimeNotFound`], [`Error::NotARuntime`], [`Error::NoDriverForRuntime`],
/// [`Error::RuntimeWithoutByVersion`].
pub fn runtime_version() -> Result<u32, Error> {
    runtime().map(|r| r.version).map_err(Clone::clone)
}

fn load() -> Result<Runtime, Error> {
    let (library, path) = open_first(
        RUNTIME_PATH_VARIABLE,
        DEFAULT_LIBRARIES,
        Search::ApplicationAndSystem,
    )
    .map_err(|tried| Error::RuntimeNotFound {
        request: None,
        tried,
    })?;
    let version_of = |name: &'static CStr| -> Result<u32, Error> {
        let missing = || Error::NotARuntime {
            request: None,
            path: path.clone(),
            missing: name.to_str().unwrap_or("?"),
        };
        // SAFETY: cudaRuntimeGetVersion and cudaDriverGetVersion take one `int *` and return a
        // cudaError_t.
        let get = unsafe { library.get::<GetVersionFn>(name) }
            .map(|s| *s)
            .map_err(|_| missing())?;
        let mut version: c_int = 0;
        // SAFETY: a valid pointer to a local.
        let code = unsafe { get(&raw mut version) };
        Ok(if code == 0 {
            u32::try_from(version).unwrap_or(0)
        } else {
            0
        })
    };
    let version = version_of(c"cudaRuntimeGetVersion")?;
    let driver_version = version_of(c"cudaDriverGetVersion")?;
    if driver_version == 0 {
        return Err(Error::NoDriverForRuntime {
            request: None,
            path,
            runtime_version: version,
        });
    }
    // SAFETY: the signature of cudaGetDriverEntryPointByVersion (CUDA 12.5+).
    let by_version = unsafe { library.get::<ByVersionFn>(c"cudaGetDriverEntryPointByVersion") }
        .map(|s| *s)
        .map_err(|_| Error::RuntimeWithoutByVersion {
            request: None,
            path: path.clone(),
            runtime_version: version,
        })?;
    Ok(Runtime {
        _library: library,
        version,
        driver_version,
        by_version,
    })
}

impl Runtime {
    /// Asks the runtime for `request`'s pointer, after the same checks as the driver path.
    pub(crate) fn resolve(
        &self,
        symbol: &CStr,
        request: Request,
    ) -> Result<NonNull<c_void>, Error> {
        let version = precheck(request, self.driver_version)?;
        let mut pfn: *mut c_void = ptr::null_mut();
        let mut status: c_int = STATUS_UNWRITTEN;
        // SAFETY: symbol is NUL-terminated and non-NULL, pfn and status point at locals. The
        // runtime's flags (cudaEnableLegacyStream 1, cudaEnablePerThreadDefaultStream 2) have the
        // driver's values; the version is positive (precheck).
        let code = unsafe {
            (self.by_version)(
                symbol.as_ptr(),
                &raw mut pfn,
                version.cast_unsigned(),
                flags(request.stream),
                &raw mut status,
            )
        };
        if code != 0 {
            return Err(Error::RuntimeError {
                request,
                runtime_version: self.version,
                code,
            });
        }
        answer(request, self.driver_version, status, pfn)
    }
}
