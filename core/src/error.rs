//! Every way loading the driver or resolving an entry can fail, in one enum.

use std::fmt;
use std::sync::Arc;

use crate::{Resolver, Stream};

/// What an entry asked the driver for: the symbol, the typedef version and the stream flavour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Request {
    /// The base symbol passed to `cuGetProcAddress` (`"cuMemAlloc"`).
    pub symbol: &'static str,
    /// The typedef version asked for (the `N` of `PFN_cuMemAlloc_vN`).
    pub version: u32,
    /// The default-stream flavour, which selects the flag passed with the request.
    pub stream: Stream,
    /// Who is asked: the driver's `cuGetProcAddress`, or the runtime's
    /// `cudaGetDriverEntryPointByVersion`.
    pub resolver: Resolver,
}

impl fmt::Display for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} version {} (", self.symbol, self.version)?;
        if crate::driver::is_valid_version(self.version) {
            write!(f, "{}, ", Version(self.version))?;
        }
        write!(
            f,
            "{} default stream{})",
            self.stream,
            match self.resolver {
                Resolver::Driver => "",
                Resolver::Runtime => ", through the CUDA runtime",
            }
        )
    }
}

/// One attempt to open a driver library: the name or path tried and what the loader said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadAttempt {
    /// The file name or path passed to the system loader.
    pub path: String,
    /// The loader's message (`dlerror()` / `GetLastError()` text).
    pub message: String,
}

/// Why the driver could not be loaded, or why an entry could not be resolved.
///
/// Every variant's `Display` says what to do about it. Errors are cached with the entry that
/// produced them: asking again returns the same error without asking the driver again.
/// Errors are cheap to clone (no allocation).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// No driver library could be opened.
    #[non_exhaustive]
    LibraryNotFound {
        /// The entry whose resolution loaded the driver, if any.
        request: Option<Request>,
        /// Every name or path tried, with the loader's message.
        tried: Arc<[LoadAttempt]>,
    },
    /// The library found is the CUDA toolkit's stub `libcuda.so` (every call returns
    /// `CUDA_ERROR_STUB_LIBRARY`, 34): it is for linking, not running.
    #[non_exhaustive]
    StubLibrary {
        /// The entry whose resolution loaded the driver, if any.
        request: Option<Request>,
        /// The library that answered 34.
        path: Arc<str>,
    },
    /// The library opened but is not a CUDA driver: it lacks an export every driver has.
    #[non_exhaustive]
    NotADriver {
        /// The entry whose resolution loaded the driver, if any.
        request: Option<Request>,
        /// The library opened.
        path: Arc<str>,
        /// The export it lacks.
        missing: &'static str,
    },
    /// `cuDriverGetVersion` failed, so no version check is possible.
    #[non_exhaustive]
    DriverVersionUnavailable {
        /// The entry whose resolution loaded the driver, if any.
        request: Option<Request>,
        /// The library opened.
        path: Arc<str>,
        /// The `CUresult` returned.
        code: i32,
    },
    /// The driver has neither `cuGetProcAddress_v2` (CUDA 12.0+) nor `cuGetProcAddress`
    /// (CUDA 11.3+): it predates driver entry point access.
    #[non_exhaustive]
    NoGetProcAddress {
        /// The entry whose resolution loaded the driver, if any.
        request: Option<Request>,
        /// The library opened.
        path: Arc<str>,
        /// The version the driver reports.
        driver_version: u32,
    },
    /// The driver is older than the typedef version asked for, so it cannot serve that ABI.
    /// The driver was not asked.
    #[non_exhaustive]
    DriverTooOld {
        /// What was asked for.
        request: Request,
        /// The version the driver reports.
        driver_version: u32,
    },
    /// The driver does not know the symbol (`CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND`).
    #[non_exhaustive]
    SymbolNotFound {
        /// What was asked for.
        request: Request,
        /// The version the driver reports.
        driver_version: u32,
    },
    /// The driver knows the symbol, but no variant of it is as old as the version asked for
    /// (`CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT`), or none exists for the stream flavour.
    #[non_exhaustive]
    VersionNotSufficient {
        /// What was asked for.
        request: Request,
        /// The version the driver reports.
        driver_version: u32,
    },
    /// A CUDA 11.3-11.8 driver (only the 4-argument `cuGetProcAddress`) answered
    /// `CUDA_ERROR_NOT_FOUND` (500), which means either an unknown symbol or a version below the
    /// symbol's first typedef: that query cannot tell which.
    #[non_exhaustive]
    NotFoundByLegacyQuery {
        /// What was asked for.
        request: Request,
        /// The version the driver reports.
        driver_version: u32,
    },
    /// `cuGetProcAddress` returned an error code.
    #[non_exhaustive]
    DriverError {
        /// What was asked for.
        request: Request,
        /// The version the driver reports.
        driver_version: u32,
        /// The `CUresult` returned.
        code: i32,
    },
    /// `cuGetProcAddress` reported success but wrote a NULL pointer. The pointer is never called.
    #[non_exhaustive]
    NullPointer {
        /// What was asked for.
        request: Request,
        /// The version the driver reports.
        driver_version: u32,
    },
    /// `cuGetProcAddress_v2` returned success without a valid query status.
    #[non_exhaustive]
    MalformedAnswer {
        /// What was asked for.
        request: Request,
        /// The version the driver reports.
        driver_version: u32,
        /// The status written, or `None` if the driver left it unwritten.
        status: Option<i32>,
    },
    /// No CUDA runtime library could be opened (for `resolver = "runtime"` entries).
    #[non_exhaustive]
    RuntimeNotFound {
        /// The entry whose resolution loaded the runtime, if any.
        request: Option<Request>,
        /// Every name or path tried, with the loader's message.
        tried: Arc<[LoadAttempt]>,
    },
    /// The library opened as the CUDA runtime lacks an export every runtime has.
    #[non_exhaustive]
    NotARuntime {
        /// The entry whose resolution loaded the runtime, if any.
        request: Option<Request>,
        /// The library opened.
        path: Arc<str>,
        /// The export it lacks.
        missing: &'static str,
    },
    /// The runtime reports no CUDA driver (`cudaDriverGetVersion` gave 0 or failed).
    #[non_exhaustive]
    NoDriverForRuntime {
        /// The entry whose resolution loaded the runtime, if any.
        request: Option<Request>,
        /// The runtime library opened.
        path: Arc<str>,
        /// The version the runtime reports.
        runtime_version: u32,
    },
    /// The runtime predates `cudaGetDriverEntryPointByVersion` (CUDA 12.5). Its unversioned
    /// `cudaGetDriverEntryPoint` is never used instead.
    #[non_exhaustive]
    RuntimeWithoutByVersion {
        /// The entry whose resolution loaded the runtime, if any.
        request: Option<Request>,
        /// The runtime library opened.
        path: Arc<str>,
        /// The version the runtime reports.
        runtime_version: u32,
    },
    /// `cudaGetDriverEntryPointByVersion` returned an error code.
    #[non_exhaustive]
    RuntimeError {
        /// What was asked for.
        request: Request,
        /// The version the runtime reports.
        runtime_version: u32,
        /// The `cudaError_t` returned.
        code: i32,
    },
    /// The version is not of the form `1000 * major + 10 * minor` (at least 1000). The driver was
    /// not asked: it answers success for some such values (version -1, measured).
    #[non_exhaustive]
    InvalidVersion {
        /// What was asked for.
        request: Request,
    },
}

impl Error {
    /// The entry request this error is about, if it came from resolving an entry.
    pub fn request(&self) -> Option<&Request> {
        match self {
            Error::LibraryNotFound { request, .. }
            | Error::StubLibrary { request, .. }
            | Error::NotADriver { request, .. }
            | Error::DriverVersionUnavailable { request, .. }
            | Error::NoGetProcAddress { request, .. }
            | Error::RuntimeNotFound { request, .. }
            | Error::NotARuntime { request, .. }
            | Error::NoDriverForRuntime { request, .. }
            | Error::RuntimeWithoutByVersion { request, .. } => request.as_ref(),
            Error::DriverTooOld { request, .. }
            | Error::SymbolNotFound { request, .. }
            | Error::VersionNotSufficient { request, .. }
            | Error::NotFoundByLegacyQuery { request, .. }
            | Error::DriverError { request, .. }
            | Error::NullPointer { request, .. }
            | Error::MalformedAnswer { request, .. }
            | Error::RuntimeError { request, .. }
            | Error::InvalidVersion { request } => Some(request),
        }
    }

    /// The version the driver reports, when it was read before the failure.
    pub fn driver_version(&self) -> Option<u32> {
        match self {
            Error::NoGetProcAddress { driver_version, .. }
            | Error::DriverTooOld { driver_version, .. }
            | Error::SymbolNotFound { driver_version, .. }
            | Error::VersionNotSufficient { driver_version, .. }
            | Error::NotFoundByLegacyQuery { driver_version, .. }
            | Error::DriverError { driver_version, .. }
            | Error::NullPointer { driver_version, .. }
            | Error::MalformedAnswer { driver_version, .. } => Some(*driver_version),
            _ => None,
        }
    }

    /// The same driver-loading error, attributed to `request`.
    pub(crate) fn for_request(mut self, new: Request) -> Error {
        match &mut self {
            Error::LibraryNotFound { request, .. }
            | Error::StubLibrary { request, .. }
            | Error::NotADriver { request, .. }
            | Error::DriverVersionUnavailable { request, .. }
            | Error::NoGetProcAddress { request, .. }
            | Error::RuntimeNotFound { request, .. }
            | Error::NotARuntime { request, .. }
            | Error::NoDriverForRuntime { request, .. }
            | Error::RuntimeWithoutByVersion { request, .. } => *request = Some(new),
            _ => {}
        }
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(request) = self.request() {
            write!(f, "cannot resolve {request}: ")?;
        }
        match self {
            Error::LibraryNotFound { tried, .. } => {
                write!(f, "no CUDA driver library could be loaded (tried ")?;
                write_attempts(f, tried)?;
                write!(
                    f,
                    "); install the NVIDIA driver, or set {} to the driver library's path",
                    crate::driver::PATH_VARIABLE
                )
            }
            Error::StubLibrary { path, .. } => write!(
                f,
                "`{path}` is the CUDA toolkit's stub library (CUDA_ERROR_STUB_LIBRARY, 34): it is \
                 for linking only; install the NVIDIA driver, or remove the toolkit's \
                 lib64/stubs folder from the library search path"
            ),
            Error::NotADriver { path, missing, .. } => write!(
                f,
                "`{path}` loaded but does not export `{missing}`, so it is not a CUDA driver; \
                 point {} at libcuda.so.1 (nvcuda.dll on Windows)",
                crate::driver::PATH_VARIABLE
            ),
            Error::DriverVersionUnavailable { path, code: 0, .. } => write!(
                f,
                "cuDriverGetVersion of `{path}` succeeded but reported no valid version; check \
                 the driver installation"
            ),
            Error::DriverVersionUnavailable { path, code, .. } => write!(
                f,
                "cuDriverGetVersion of `{path}` failed with {}; check the driver installation",
                CuResult(*code)
            ),
            Error::NoGetProcAddress {
                path,
                driver_version,
                ..
            } => write!(
                f,
                "the driver `{path}` reports {} and has no cuGetProcAddress; update the driver \
                 to >= CUDA 11.3 (>= CUDA 12.0 recommended)",
                Version(*driver_version)
            ),
            Error::DriverTooOld {
                request,
                driver_version,
            } => write!(
                f,
                "the driver reports {} but this ABI needs {}; update the driver to >= {} \
                 (the driver was not asked)",
                Version(*driver_version),
                Version(request.version),
                Version(request.version)
            ),
            Error::SymbolNotFound { driver_version, .. } => write!(
                f,
                "the driver ({}) does not know this symbol; check the spelling of the symbol and \
                 that it is the base name without a `_v2`/`_ptsz`/`_ptds` suffix (the version \
                 selects the variant), or update the driver if the API is newer than it",
                Version(*driver_version)
            ),
            Error::VersionNotSufficient {
                request,
                driver_version,
            } => write!(
                f,
                "the driver ({}) has no variant of this symbol at or below version {}{}; use the \
                 version of the `PFN_{}_v<N>{}` typedef your signature was copied from",
                Version(*driver_version),
                request.version,
                if request.stream == Stream::PerThread {
                    " for the per-thread default stream"
                } else {
                    ""
                },
                request.symbol,
                if request.stream == Stream::PerThread {
                    "_ptsz/_ptds"
                } else {
                    ""
                },
            ),
            Error::NotFoundByLegacyQuery { driver_version, .. } => write!(
                f,
                "the driver ({}) answered CUDA_ERROR_NOT_FOUND (500) to cuGetProcAddress; \
                 drivers before 12.0 cannot say whether the symbol is unknown or the version is \
                 below its first typedef: check both, or update the driver to >= 12.0 for a \
                 precise answer",
                Version(*driver_version)
            ),
            Error::DriverError {
                driver_version,
                code,
                ..
            } => write!(
                f,
                "cuGetProcAddress of the driver ({}) returned {}",
                Version(*driver_version),
                CuResult(*code)
            ),
            Error::NullPointer { driver_version, .. } => write!(
                f,
                "the driver ({}) reported success but returned a NULL pointer; it was not called \
                 (this is a driver fault: report it with the driver version)",
                Version(*driver_version)
            ),
            Error::MalformedAnswer {
                driver_version,
                status,
                ..
            } => match status {
                None => write!(
                    f,
                    "the driver ({}) reported success but left the query status unwritten; the \
                     pointer is not trusted",
                    Version(*driver_version)
                ),
                Some(status) => write!(
                    f,
                    "the driver ({}) reported success with the unknown query status {status}; \
                     the pointer is not trusted",
                    Version(*driver_version)
                ),
            },
            Error::RuntimeNotFound { tried, .. } => {
                write!(f, "no CUDA runtime library could be loaded (tried ")?;
                write_attempts(f, tried)?;
                write!(
                    f,
                    "); install the CUDA runtime (12.5 or newer), set {} to its path, or resolve \
                     through the driver (the default)",
                    crate::runtime::RUNTIME_PATH_VARIABLE
                )
            }
            Error::NotARuntime { path, missing, .. } => write!(
                f,
                "`{path}` loaded but does not export `{missing}`, so it is not a CUDA runtime; \
                 point {} at libcudart.so.13 (cudart64_13.dll on Windows)",
                crate::runtime::RUNTIME_PATH_VARIABLE
            ),
            Error::NoDriverForRuntime {
                path,
                runtime_version,
                ..
            } => write!(
                f,
                "the CUDA runtime `{path}` ({}) reports no CUDA driver; install the NVIDIA driver",
                Version(*runtime_version)
            ),
            Error::RuntimeWithoutByVersion {
                path,
                runtime_version,
                ..
            } => write!(
                f,
                "the CUDA runtime `{path}` ({}) has no cudaGetDriverEntryPointByVersion, which \
                 CUDA 12.5 introduced; use a runtime >= 12.5 or resolve through the driver (the \
                 unversioned cudaGetDriverEntryPoint is never used: it returns whatever variant \
                 matches the runtime's version)",
                Version(*runtime_version)
            ),
            Error::RuntimeError {
                runtime_version,
                code,
                ..
            } => write!(
                f,
                "cudaGetDriverEntryPointByVersion of the CUDA runtime ({}) returned cudaError_t {code}",
                Version(*runtime_version)
            ),
            Error::InvalidVersion { .. } => f.write_str(
                "a typedef version is 1000 * major + 10 * minor (3020 for CUDA 3.2); write the \
                 N of the `PFN_<symbol>_v<N>` typedef your signature was copied from",
            ),
        }
    }
}

impl std::error::Error for Error {}

/// Each library tried, with the loader's message.
fn write_attempts(f: &mut fmt::Formatter<'_>, tried: &[LoadAttempt]) -> fmt::Result {
    for (i, attempt) in tried.iter().enumerate() {
        let sep = if i == 0 { "" } else { "; " };
        write!(f, "{sep}`{}`: {}", attempt.path, attempt.message)?;
    }
    Ok(())
}

/// A CUDA version number (`1000 * major + 10 * minor`) displayed as `CUDA major.minor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Version(pub(crate) u32);

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CUDA {}.{}", self.0 / 1000, self.0 % 1000 / 10)
    }
}

/// A `CUresult` displayed with its name where it is one the loader can meet.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CuResult(pub(crate) i32);

impl fmt::Display for CuResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self.0 {
            1 => "CUDA_ERROR_INVALID_VALUE",
            2 => "CUDA_ERROR_OUT_OF_MEMORY",
            3 => "CUDA_ERROR_NOT_INITIALIZED",
            4 => "CUDA_ERROR_DEINITIALIZED",
            34 => "CUDA_ERROR_STUB_LIBRARY",
            35 => "CUDA_ERROR_INSUFFICIENT_DRIVER",
            100 => "CUDA_ERROR_NO_DEVICE",
            500 => "CUDA_ERROR_NOT_FOUND",
            999 => "CUDA_ERROR_UNKNOWN",
            _ => return write!(f, "CUresult {}", self.0),
        };
        write!(f, "{name} ({})", self.0)
    }
}

/// Every entry of a [`preload`](crate::preload) that could not be resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreloadError {
    /// One error per entry that failed, in the order the entries were given.
    pub failures: Vec<Error>,
}

impl fmt::Display for PreloadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} CUDA driver entries cannot be resolved:",
            self.failures.len()
        )?;
        for failure in &self.failures {
            write!(f, "\n  - {failure}")?;
        }
        Ok(())
    }
}

impl std::error::Error for PreloadError {}
