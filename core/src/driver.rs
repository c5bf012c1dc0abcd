//! Loading the driver library once per process and asking it for entry points.
//!
//! # Thread-safety
//! The driver is loaded on first use, once (`sync::Leaked`): racing threads all wait for the one
//! load and see the same outcome, success or error, for the life of the process.
//!
//! # Platform-specific behaviour
//! Linux opens `libcuda.so.1`, never the unversioned `libcuda.so`, which is usually the toolkit's
//! stub. Windows opens `nvcuda.dll` from System32 only. [`PATH_VARIABLE`] replaces both with
//! one path; nothing else changes the search.

use std::ffi::{CStr, c_char, c_int, c_void};
use std::ptr::{self, NonNull};
use std::sync::Arc;

use libloading::Library;

use crate::Stream;
use crate::error::{Error, LoadAttempt, Request};
use crate::sync::Leaked;

/// The environment variable that, when set and not empty, is the only driver library tried.
///
/// For tests (the simulated driver) and unusual installs. It is read once, on first use.
pub const PATH_VARIABLE: &str = "CUDA_ENTRY_DRIVER_PATH";

#[cfg(windows)]
const DEFAULT_LIBRARIES: &[&str] = &["nvcuda.dll"];
#[cfg(not(windows))]
const DEFAULT_LIBRARIES: &[&str] = &["libcuda.so.1"];

/// `CUDA_ERROR_STUB_LIBRARY`: what every export of the toolkit's stub libcuda returns.
const CUDA_ERROR_STUB_LIBRARY: i32 = 34;
/// `CUDA_ERROR_NOT_FOUND`: the 4-argument `cuGetProcAddress`'s only "no" answer.
const CUDA_ERROR_NOT_FOUND: i32 = 500;

/// `CU_GET_PROC_ADDRESS_LEGACY_STREAM` / `CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM`.
/// `CU_GET_PROC_ADDRESS_DEFAULT` (0) is never passed: it would follow how the *driver's caller*
/// was compiled, which a Rust program does not have.
pub(crate) const fn flags(stream: Stream) -> u64 {
    match stream {
        Stream::Legacy => 1,
        Stream::PerThread => 2,
    }
}

/// A value no driver writes as a `CUdriverProcAddressQueryResult`, to detect an unwritten status.
pub(crate) const STATUS_UNWRITTEN: c_int = c_int::MIN;

type DriverGetVersionFn = unsafe extern "system" fn(*mut c_int) -> c_int;
type GetProcAddressV2Fn =
    unsafe extern "system" fn(*const c_char, *mut *mut c_void, c_int, u64, *mut c_int) -> c_int;
type GetProcAddressV1Fn =
    unsafe extern "system" fn(*const c_char, *mut *mut c_void, c_int, u64) -> c_int;

/// Which bootstrap the driver offers.
#[derive(Clone, Copy, Debug)]
enum Query {
    /// `cuGetProcAddress_v2` (CUDA 12.0+): has a query status.
    V2(GetProcAddressV2Fn),
    /// The 4-argument `cuGetProcAddress` (CUDA 11.3-11.8): no status.
    V1(GetProcAddressV1Fn),
}

/// Which `cuGetProcAddress` export the loaded driver is asked through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Bootstrap {
    /// `cuGetProcAddress_v2`, with a query status (drivers of CUDA 12.0 and newer).
    GetProcAddressV2,
    /// The 4-argument `cuGetProcAddress` (drivers of CUDA 11.3 to 11.8): no status, so an unknown
    /// symbol and a too-low version both answer `CUDA_ERROR_NOT_FOUND`.
    GetProcAddress,
}

/// The loaded driver library.
#[derive(Debug)]
pub(crate) struct Driver {
    /// Kept for the life of the process (the driver lives in a `static`), so every pointer
    /// resolved from it stays valid.
    _library: Library,
    path: Arc<str>,
    version: u32,
    query: Query,
}

/// What is known about the loaded driver.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DriverInfo {
    /// The name or path the library was opened by.
    pub path: String,
    /// `cuDriverGetVersion`: `1000 * major + 10 * minor` of the newest CUDA the driver supports.
    pub version: u32,
    /// Which `cuGetProcAddress` the driver is asked through.
    pub bootstrap: Bootstrap,
}

#[cfg(not(loom))]
static DRIVER: Leaked<Result<Driver, Error>> = Leaked::new();
#[cfg(loom)]
loom::lazy_static! {
    static ref DRIVER: Leaked<Result<Driver, Error>> = Leaked::new();
}

/// The process's driver, loaded on first call.
pub(crate) fn driver() -> Result<&'static Driver, &'static Error> {
    DRIVER.get_or_init(load).as_ref()
}

/// Loads the driver (once per process) and describes it.
///
/// # Errors
/// Every loading failure: [`Error::LibraryNotFound`], [`Error::StubLibrary`],
/// [`Error::NotADriver`], [`Error::DriverVersionUnavailable`], [`Error::NoGetProcAddress`].
pub fn driver_info() -> Result<DriverInfo, Error> {
    let driver = driver().map_err(Clone::clone)?;
    Ok(DriverInfo {
        path: driver.path.to_string(),
        version: driver.version,
        bootstrap: match driver.query {
            Query::V2(_) => Bootstrap::GetProcAddressV2,
            Query::V1(_) => Bootstrap::GetProcAddress,
        },
    })
}

/// The version the driver reports (`cuDriverGetVersion`, read once): `13000` for CUDA 13.0.
///
/// # Errors
/// As [`driver_info`].
pub fn driver_version() -> Result<u32, Error> {
    driver().map(|d| d.version).map_err(Clone::clone)
}

fn load() -> Result<Driver, Error> {
    let (library, path) =
        open_first(PATH_VARIABLE, DEFAULT_LIBRARIES, Search::System).map_err(|tried| {
            Error::LibraryNotFound {
                request: None,
                tried,
            }
        })?;
    bootstrap(library, path)
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

/// Opens the library named by `variable` when it is set and not empty, else the first of
/// `defaults` that opens; on failure, every attempt with the loader's message.
pub(crate) fn open_first(
    variable: &str,
    defaults: &[&str],
    search: Search,
) -> Result<(Library, Arc<str>), Arc<[LoadAttempt]>> {
    let overridden = std::env::var(variable).ok().filter(|p| !p.is_empty());
    let candidates: Vec<String> = match overridden {
        Some(path) => vec![path],
        None => defaults.iter().map(|s| (*s).to_owned()).collect(),
    };
    let mut tried = Vec::new();
    for path in candidates {
        match open(&path, search) {
            Ok(library) => return Ok((library, path.into())),
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
fn open(path: &str, _search: Search) -> Result<Library, libloading::Error> {
    // SAFETY: opening a library runs its initialisers; the driver's are made to be run by any
    // process that uses CUDA. The name is either libcuda.so.1 or the user's explicit override.
    unsafe { Library::new(path) }
}

#[cfg(windows)]
fn open(path: &str, search: Search) -> Result<Library, libloading::Error> {
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

fn bootstrap(library: Library, path: Arc<str>) -> Result<Driver, Error> {
    let not_a_driver = |missing| Error::NotADriver {
        request: None,
        path: path.clone(),
        missing,
    };
    // SAFETY: cuDriverGetVersion has had this signature since CUDA 2.2.
    let get_version = unsafe { library.get::<DriverGetVersionFn>(c"cuDriverGetVersion") }
        .map(|s| *s)
        .map_err(|_| not_a_driver("cuDriverGetVersion"))?;
    let mut version: c_int = 0;
    // SAFETY: a valid pointer to a local; the driver writes one int.
    let code = unsafe { get_version(&raw mut version) };
    if code == CUDA_ERROR_STUB_LIBRARY {
        return Err(Error::StubLibrary {
            request: None,
            path,
        });
    }
    let version = match u32::try_from(version) {
        Ok(version) if code == 0 && version > 0 => version,
        _ => {
            return Err(Error::DriverVersionUnavailable {
                request: None,
                path,
                code,
            });
        }
    };
    // SAFETY: cuGetProcAddress_v2's signature is fixed by its name (CUDA 12.0+).
    let v2 = unsafe { library.get::<GetProcAddressV2Fn>(c"cuGetProcAddress_v2") }.map(|s| *s);
    let query = match v2 {
        Ok(f) => Query::V2(f),
        // SAFETY: the export named cuGetProcAddress has had the 4-argument signature since
        // CUDA 11.3 (drivers of 12.x keep it for old callers).
        Err(_) => match unsafe { library.get::<GetProcAddressV1Fn>(c"cuGetProcAddress") } {
            Ok(f) => Query::V1(*f),
            Err(_) => {
                return Err(Error::NoGetProcAddress {
                    request: None,
                    path,
                    driver_version: version,
                });
            }
        },
    };
    Ok(Driver {
        _library: library,
        path,
        version,
        query,
    })
}

/// Whether `version` has the form `1000 * major + 10 * minor`, is at least 1.0, and fits the
/// driver's `int`.
pub(crate) const fn is_valid_version(version: u32) -> bool {
    version >= 1000 && version.is_multiple_of(10) && version <= i32::MAX as u32
}

/// The guide's two rules, before any query: the version is well-formed, and the driver is at least
/// that new (a driver older than the typedef cannot serve its ABI: do not ask). Returns the version
/// as the driver's `int`.
pub(crate) fn precheck(request: Request, driver_version: u32) -> Result<c_int, Error> {
    if !is_valid_version(request.version) {
        return Err(Error::InvalidVersion { request });
    }
    if driver_version < request.version {
        return Err(Error::DriverTooOld {
            request,
            driver_version,
        });
    }
    Ok(request.version as c_int) // fits: checked by is_valid_version
}

/// Maps a successful query's status (`CUdriverProcAddressQueryResult`, or the runtime's
/// `cudaDriverEntryPointQueryResult`: the same values) and pointer to the outcome.
pub(crate) fn answer(
    request: Request,
    driver_version: u32,
    status: c_int,
    pfn: *mut c_void,
) -> Result<NonNull<c_void>, Error> {
    match status {
        0 => NonNull::new(pfn).ok_or(Error::NullPointer {
            request,
            driver_version,
        }),
        1 => Err(Error::SymbolNotFound {
            request,
            driver_version,
        }),
        2 => Err(Error::VersionNotSufficient {
            request,
            driver_version,
        }),
        STATUS_UNWRITTEN => Err(Error::MalformedAnswer {
            request,
            driver_version,
            status: None,
        }),
        other => Err(Error::MalformedAnswer {
            request,
            driver_version,
            status: Some(other),
        }),
    }
}

impl Driver {
    /// Asks the driver for `request`'s pointer: the guide's two rules, then the one query.
    pub(crate) fn resolve(
        &self,
        symbol: &CStr,
        request: Request,
    ) -> Result<NonNull<c_void>, Error> {
        let driver_version = self.version;
        let version = precheck(request, driver_version)?;
        let mut pfn: *mut c_void = ptr::null_mut();
        let code = match self.query {
            Query::V2(query) => {
                let mut status: c_int = STATUS_UNWRITTEN;
                // SAFETY: symbol is NUL-terminated and non-NULL; pfn and status point at locals
                // (the real driver segfaults on a NULL pfn or symbol: neither can happen here).
                let code = unsafe {
                    query(
                        symbol.as_ptr(),
                        &raw mut pfn,
                        version,
                        flags(request.stream),
                        &raw mut status,
                    )
                };
                if code == 0 {
                    return answer(request, driver_version, status, pfn);
                }
                code
            }
            Query::V1(query) => {
                // SAFETY: as above; this export has no status argument.
                let code = unsafe {
                    query(
                        symbol.as_ptr(),
                        &raw mut pfn,
                        version,
                        flags(request.stream),
                    )
                };
                if code == 0 {
                    return answer(request, driver_version, 0, pfn);
                }
                if code == CUDA_ERROR_NOT_FOUND {
                    return Err(Error::NotFoundByLegacyQuery {
                        request,
                        driver_version,
                    });
                }
                code
            }
        };
        if code == CUDA_ERROR_STUB_LIBRARY {
            return Err(Error::StubLibrary {
                request: Some(request),
                path: self.path.clone(),
            });
        }
        Err(Error::DriverError {
            request,
            driver_version,
            code,
        })
    }
}
