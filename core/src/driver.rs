//! The driver: loaded once per process, described, and asked for entry points.
//!
//! Its thread-safety and platform behaviour are documented on [`driver_info`] and
//! [`PATH_VARIABLE`], where users read them.

use std::ffi::{CStr, c_char, c_int, c_void};
use std::ptr::{self, NonNull};
use std::sync::Arc;

use cuda_entry_table::Version;
use libloading::Library;

use crate::error::{Error, ErrorKind};
use crate::library::{DRIVER_LIBRARIES, NotOpened, Opened, PATH_VARIABLE, Search, open_first};
use crate::query::{FOUND, STATUS_UNWRITTEN, answer, flags, precheck};
use crate::request::Request;
use crate::status;
use crate::sync::{Leaked, Reentered};

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
    /// Neither (drivers before CUDA 11.3): each entry is looked up by the name of the export that
    /// implements its exact typedef, as a program linked against that driver would.
    Export,
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
    /// No `cuGetProcAddress` at all (drivers before CUDA 11.3): each entry is the export that
    /// implements its exact typedef (`cuMemAlloc` at 3020 is the export `cuMemAlloc_v2`), found
    /// by name where the headers name it; an entry without a known export is refused with
    /// [`ErrorKind::NoGetProcAddress`](crate::ErrorKind::NoGetProcAddress), one the driver does
    /// not export with [`ErrorKind::NotExported`](crate::ErrorKind::NotExported).
    ExportName,
}

/// The loaded driver library.
#[derive(Debug)]
pub(crate) struct Driver {
    /// Kept for the life of the process (the driver lives in a `static`), so every pointer
    /// resolved from it stays valid.
    library: Library,
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

/// The process's driver, loaded on first call (the cached loading error after a failed load).
#[inline]
pub(crate) fn driver() -> Result<&'static Driver, Error> {
    match DRIVER.get() {
        Some(Ok(loaded)) => Ok(loaded),
        _ => load_or_error(),
    }
}

/// [`driver`] before the driver was loaded, or after it failed to load.
#[cold]
fn load_or_error() -> Result<&'static Driver, Error> {
    match DRIVER.get_or_init(load) {
        Ok(loaded) => loaded.as_ref().map_err(Clone::clone),
        Err(Reentered) => Err(Error::new(ErrorKind::Reentrant, None, None)),
    }
}

/// The driver, if it was loaded successfully; never loads it.
pub(crate) fn loaded() -> Option<&'static Driver> {
    DRIVER.get().and_then(|d| d.as_ref().ok())
}

/// Whether the driver's one-time load has begun: from then on [`PATH_VARIABLE`] is not read again.
#[cfg(not(loom))]
pub(crate) fn load_started() -> bool {
    DRIVER.started()
}

/// Loads the driver (once per process) and describes it.
///
/// # Errors
/// Every loading failure: [`ErrorKind::LibraryNotFound`], [`ErrorKind::StubLibrary`],
/// [`ErrorKind::NotADriver`], [`ErrorKind::DriverVersionUnavailable`],
/// [`ErrorKind::NoGetProcAddress`].
///
/// # Thread-safety
/// The driver is loaded on first use, once per process: threads racing on the first use all wait
/// for the one load and see the same outcome, success or error, for the life of the process. The
/// library is never unloaded, so every pointer resolved from it stays valid.
///
/// # Platform-specific behaviour
/// Which library is opened: see [`PATH_VARIABLE`].
pub fn driver_info() -> Result<DriverInfo, Error> {
    let driver = driver()?;
    Ok(DriverInfo {
        path: driver.path.to_string(),
        version: driver.version,
        bootstrap: match driver.query {
            Query::V2(_) => Bootstrap::GetProcAddressV2,
            Query::V1(_) => Bootstrap::GetProcAddress,
            Query::Export => Bootstrap::ExportName,
        },
    })
}

/// The version the driver reports (`cuDriverGetVersion`, read once): `13000` for CUDA 13.0.
///
/// # Errors
/// As [`driver_info`].
///
/// # Thread-safety
/// As [`driver_info`]: the first use loads the driver once for every thread; after that, a read
/// of the version kept from the load, the same on every call.
pub fn driver_version() -> Result<u32, Error> {
    driver().map(|d| d.version)
}

fn load() -> Result<Driver, Error> {
    let Opened { library, path } = open_first(PATH_VARIABLE, DRIVER_LIBRARIES, Search::System)
        .map_err(|NotOpened { tried, ignored }| {
            let kind = ErrorKind::LibraryNotFound { tried, ignored };
            Error::new(kind, None, None)
        })?;
    bootstrap(library, path)
}

/// The driver version `path` reported, when it is a [`Version`] (`1000 * major + 10 * minor`
/// between CUDA 1.0 and 99.99): any other value would pass or fail the too-old checks at random
/// (2147483647 passes them all), so it is [`ErrorKind::DriverVersionUnavailable`], naming it.
/// The driver's `cuDriverGetVersion` and the runtime's `cudaDriverGetVersion` both go through it.
pub(crate) fn plausible_driver_version(path: &Arc<str>, reported: c_int) -> Result<u32, Error> {
    match u32::try_from(reported) {
        Ok(version) if Version::is_valid(version) => Ok(version),
        _ => {
            let kind = ErrorKind::DriverVersionUnavailable {
                path: path.clone(),
                code: status::SUCCESS,
                reported: Some(reported),
            };
            Err(Error::new(kind, None, None))
        }
    }
}

fn bootstrap(library: Library, path: Arc<str>) -> Result<Driver, Error> {
    let not_a_driver = |missing| {
        let path = path.clone();
        Error::new(ErrorKind::NotADriver { path, missing }, None, None)
    };
    // SAFETY: cuDriverGetVersion has had this signature since CUDA 2.2.
    let get_version = unsafe { library.get::<DriverGetVersionFn>(c"cuDriverGetVersion") }
        .map(|s| *s)
        .map_err(|_| not_a_driver("cuDriverGetVersion"))?;
    let mut version: c_int = 0;
    // SAFETY: a valid pointer to a local; the driver writes one int.
    let code = unsafe { get_version(&raw mut version) };
    if code == status::STUB_LIBRARY {
        return Err(Error::new(ErrorKind::StubLibrary { path }, None, None));
    }
    if code != status::SUCCESS {
        let kind = ErrorKind::DriverVersionUnavailable {
            path,
            code,
            reported: None,
        };
        return Err(Error::new(kind, None, None));
    }
    let version = plausible_driver_version(&path, version)?;
    // SAFETY: cuGetProcAddress_v2's signature is fixed by its name (CUDA 12.0+).
    let v2 = unsafe { library.get::<GetProcAddressV2Fn>(c"cuGetProcAddress_v2") }.map(|s| *s);
    let query = match v2 {
        Ok(f) => Query::V2(f),
        // SAFETY: the export named cuGetProcAddress has had the 4-argument signature since
        // CUDA 11.3 (drivers of 12.x keep it for old callers).
        Err(_) => match unsafe { library.get::<GetProcAddressV1Fn>(c"cuGetProcAddress") } {
            Ok(f) => Query::V1(*f),
            // A driver before CUDA 11.3: entries are found by their exports' names.
            Err(_) => Query::Export,
        },
    };
    Ok(Driver {
        library,
        path,
        version,
        query,
    })
}

impl Driver {
    /// `cuDriverGetVersion`, read at load.
    pub(crate) fn version(&self) -> u32 {
        self.version
    }

    /// Asks the driver for `request`'s pointer: the guide's two rules, then the one query.
    #[inline]
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
                if code == status::SUCCESS {
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
                if code == status::SUCCESS {
                    return answer(request, driver_version, FOUND, pfn);
                }
                code
            }
            Query::Export => return self.by_export_name(request),
        };
        Err(self.query_failed(request, code))
    }

    /// A driver without `cuGetProcAddress`: the export that implements the request's exact
    /// typedef, by name. Only where the headers name that export (`cuda_entry_table::EXPORTS`,
    /// checked against the real driver's answers): a symbol the table does not know, or a
    /// typedef no export is named for, is refused rather than guessed.
    #[cold]
    fn by_export_name(&self, request: Request) -> Result<NonNull<c_void>, Error> {
        let refuse = |kind| Error::new(kind, Some(request), Some(self.version));
        let Some(export) = export_for(request) else {
            let path = self.path.clone();
            return Err(refuse(ErrorKind::NoGetProcAddress { path }));
        };
        let mut name = Vec::with_capacity(export.len() + 1);
        name.extend_from_slice(export.as_bytes());
        name.push(0);
        // SAFETY: the symbol is read as an address only; the macro's expansion transmutes it to
        // the declaration's signature, which the table proves equal to the typedef this export
        // implements (the same proof a cuGetProcAddress answer relies on).
        let found = unsafe { self.library.get::<*mut c_void>(name.as_slice()) };
        match found {
            Ok(symbol) => answer(request, self.version, FOUND, *symbol),
            Err(_) => Err(refuse(ErrorKind::NotExported { export })),
        }
    }

    /// The error for a query that returned `code` instead of `CUDA_SUCCESS` (the error path only).
    #[cold]
    fn query_failed(&self, request: Request, code: c_int) -> Error {
        let kind = match (self.query, code) {
            // The 4-argument query has no status: an unknown symbol and a too-low version look
            // the same.
            (Query::V1(_), status::NOT_FOUND) => ErrorKind::NotFoundByLegacyQuery,
            (_, status::STUB_LIBRARY) => ErrorKind::StubLibrary {
                path: self.path.clone(),
            },
            _ => ErrorKind::DriverError { code },
        };
        Error::new(kind, Some(request), Some(self.version))
    }
}

/// The driver export implementing `request`'s typedef, where the headers name one: the export of
/// that exact (symbol, version) in the request's default-stream flavour, or in the legacy one
/// when the symbol has no per-thread exports (as `cuGetProcAddress` answers flags 2 for
/// `cuMemAlloc`).
fn export_for(request: Request) -> Option<&'static str> {
    let exports = || {
        cuda_entry_table::EXPORTS
            .iter()
            .filter(move |e| e.symbol == request.symbol)
    };
    let per_thread = request.stream == crate::request::Stream::PerThread
        && exports().any(|e| e.stream.is_per_thread());
    exports()
        .find(|e| e.version == request.version && e.stream.is_per_thread() == per_thread)
        .map(|e| e.name)
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use crate::request::{Resolver, Stream};

    /// A "driver" without cuGetProcAddress whose library exports none of the driver's functions.
    #[cfg(not(miri))]
    fn without_exports() -> Driver {
        // SAFETY: the C library's initialisers are already run in this process.
        let library = unsafe { Library::new("libc.so.6") }.expect("libc");
        Driver {
            library,
            path: "libc.so.6".into(),
            version: 11020,
            query: Query::Export,
        }
    }

    #[test]
    // Miri cannot dlopen a library; the test runs in every native stage.
    #[cfg(not(miri))]
    fn an_export_the_driver_lacks_is_named() {
        let request = Request::new("cuMemAlloc", 3020, Stream::Legacy, Resolver::Driver);
        let err = without_exports()
            .resolve(c"cuMemAlloc", request)
            .unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::NotExported {
                export: "cuMemAlloc_v2"
            }
        );
        let text = err.to_string();
        assert!(
            text.contains("cuMemAlloc version 3020")
                && text.contains("CUDA 11.2")
                && text.contains("does not export `cuMemAlloc_v2`"),
            "{text}"
        );
    }

    #[test]
    fn exports_are_those_of_the_exact_typedef() {
        let at = |symbol, version, stream| {
            export_for(Request::new(symbol, version, stream, Resolver::Driver))
        };
        assert_eq!(at("cuMemAlloc", 2000, Stream::Legacy), Some("cuMemAlloc"));
        assert_eq!(
            at("cuMemAlloc", 3020, Stream::Legacy),
            Some("cuMemAlloc_v2")
        );
        assert_eq!(
            at("cuMemAlloc", 3020, Stream::PerThread),
            Some("cuMemAlloc_v2")
        );
        assert_eq!(at("cuMemAlloc", 3010, Stream::Legacy), None);
        assert_eq!(
            at("cuStreamSynchronize", 7000, Stream::PerThread),
            Some("cuStreamSynchronize_ptsz")
        );
        assert_eq!(at("cuStreamSynchronize", 2000, Stream::PerThread), None);
        assert_eq!(
            at("cuStreamSynchronize", 2000, Stream::Legacy),
            Some("cuStreamSynchronize")
        );
        assert_eq!(at("cuFoo", 2000, Stream::Legacy), None);
    }
}
