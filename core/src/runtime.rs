//! Resolving through the CUDA runtime's `cudaGetDriverEntryPointByVersion` (CUDA 12.5+), for
//! programs that already load the runtime and want the entry points it would hand out.
//!
//! The unversioned `cudaGetDriverEntryPoint` is never called: it returns whatever variant matches
//! the runtime's own version, the very bug this crate exists to prevent.

use std::ffi::{CStr, c_char, c_int, c_uint, c_ulonglong, c_void};
use std::ptr::{self, NonNull};

use libloading::Library;

use crate::driver::plausible_driver_version;
use crate::error::{Error, ErrorKind};
use crate::library::{
    NotOpened, Opened, RUNTIME_LIBRARIES, RUNTIME_PATH_VARIABLE, Search, open_first,
};
use crate::query::{STATUS_UNWRITTEN, answer, flags, precheck};
use crate::request::Request;
use crate::status;
use crate::sync::{Leaked, Reentered};

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
pub(crate) fn runtime() -> Result<&'static Runtime, Error> {
    match RUNTIME.get_or_init(load) {
        Ok(loaded) => loaded.as_ref().map_err(Clone::clone),
        Err(Reentered) => Err(Error::new(ErrorKind::Reentrant, None, None)),
    }
}

/// The runtime, if it was loaded successfully; never loads it.
pub(crate) fn loaded() -> Option<&'static Runtime> {
    RUNTIME.get().and_then(|r| r.as_ref().ok())
}

/// Whether the runtime's one-time load has begun: from then on `RUNTIME_PATH_VARIABLE` is not
/// read again.
#[cfg(not(loom))]
pub(crate) fn load_started() -> bool {
    RUNTIME.started()
}

/// The version the runtime library reports (`cudaRuntimeGetVersion`), loading it on first call.
///
/// # Errors
/// [`ErrorKind::RuntimeNotFound`], [`ErrorKind::NotARuntime`], [`ErrorKind::NoDriverForRuntime`],
/// [`ErrorKind::RuntimeWithoutByVersion`].
///
/// # Thread-safety
/// As the driver: the runtime library is loaded on first use, once per process, and never
/// unloaded; racing first uses all see the one outcome.
///
/// # Platform-specific behaviour
/// Which library is opened: see [`RUNTIME_PATH_VARIABLE`].
pub fn runtime_version() -> Result<u32, Error> {
    runtime().map(|r| r.version)
}

fn load() -> Result<Runtime, Error> {
    let Opened { library, path } = open_first(
        RUNTIME_PATH_VARIABLE,
        RUNTIME_LIBRARIES,
        Search::ApplicationAndSystem,
    )
    .map_err(|NotOpened { tried, ignored }| {
        Error::new(ErrorKind::RuntimeNotFound { tried, ignored }, None, None)
    })?;
    // What `name` reports, `None` when it fails.
    let version_of = |name: &'static CStr| -> Result<Option<c_int>, Error> {
        let missing = || {
            let missing = name.to_str().unwrap_or("?");
            let kind = ErrorKind::NotARuntime {
                path: path.clone(),
                missing,
            };
            Error::new(kind, None, None)
        };
        // SAFETY: cudaRuntimeGetVersion and cudaDriverGetVersion take one `int *` and return a
        // cudaError_t.
        let get = unsafe { library.get::<GetVersionFn>(name) }
            .map(|s| *s)
            .map_err(|_| missing())?;
        let mut version: c_int = 0;
        // SAFETY: a valid pointer to a local.
        let code = unsafe { get(&raw mut version) };
        Ok((code == status::SUCCESS).then_some(version))
    };
    let version = version_of(c"cudaRuntimeGetVersion")?
        .and_then(|v| u32::try_from(v).ok())
        .unwrap_or(0);
    let driver_version = match version_of(c"cudaDriverGetVersion")? {
        None | Some(0) => {
            let kind = ErrorKind::NoDriverForRuntime {
                path,
                runtime_version: version,
            };
            return Err(Error::new(kind, None, None));
        }
        Some(reported) => plausible_driver_version(&path, reported)?,
    };
    // SAFETY: the signature of cudaGetDriverEntryPointByVersion (CUDA 12.5+).
    let by_version = unsafe { library.get::<ByVersionFn>(c"cudaGetDriverEntryPointByVersion") }
        .map(|s| *s)
        .map_err(|_| {
            let kind = ErrorKind::RuntimeWithoutByVersion {
                path: path.clone(),
                runtime_version: version,
            };
            Error::new(kind, None, Some(driver_version))
        })?;
    Ok(Runtime {
        _library: library,
        version,
        driver_version,
        by_version,
    })
}

impl Runtime {
    /// The driver version the runtime reported at load (`cudaDriverGetVersion`).
    pub(crate) fn driver_version(&self) -> u32 {
        self.driver_version
    }

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
        if code != status::SUCCESS {
            let kind = ErrorKind::RuntimeError {
                runtime_version: self.version,
                code,
            };
            return Err(Error::new(kind, Some(request), Some(self.driver_version)));
        }
        answer(request, self.driver_version, status, pfn)
    }
}
