//! Every way loading the driver or resolving an entry can fail: one [`Error`], which states the
//! request and the driver version once, and an [`ErrorKind`] for what went wrong.

use std::fmt;
use std::sync::Arc;

use cuda_entry_table::{Cuda, Version};

use crate::library::{LoadAttempt, PATH_VARIABLE, RUNTIME_PATH_VARIABLE};
use crate::request::{Request, Stream};
use crate::status::{Described, Status};

/// Why the driver could not be loaded, or why an entry could not be resolved.
///
/// The [`kind`](Error::kind) says what went wrong; the [`request`](Error::request) (the entry
/// being resolved) and the [`driver_version`](Error::driver_version) are stated once, here, where
/// they are known. `Display` says what to do about it. Errors are cached with the entry that
/// produced them: asking again returns the same error without asking the driver again. Cloning
/// allocates nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    request: Option<Request>,
    driver_version: Option<u32>,
}

/// What went wrong. Each variant's name is also a stable snake_case [`name`](ErrorKind::name)
/// (the command's JSON uses it).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// No driver library could be opened.
    #[non_exhaustive]
    LibraryNotFound {
        /// Every name or path tried, with the loader's message.
        tried: Arc<[LoadAttempt]>,
        /// The override variable that was set but ignored because the process runs in
        /// secure-execution mode (setuid, setgid or file capabilities).
        ignored: Option<&'static str>,
    },
    /// The library found is the CUDA toolkit's stub `libcuda.so` (every call returns
    /// `CUDA_ERROR_STUB_LIBRARY`, 34): it is for linking, not running.
    #[non_exhaustive]
    StubLibrary {
        /// The library that answered 34.
        path: Arc<str>,
    },
    /// The library opened but is not a CUDA driver: it lacks an export every driver has.
    #[non_exhaustive]
    NotADriver {
        /// The library opened.
        path: Arc<str>,
        /// The export it lacks.
        missing: &'static str,
    },
    /// `cuDriverGetVersion` failed, or reported a value that is no [`Version`](crate::Version)
    /// (not `1000 * major + 10 * minor` between CUDA 1.0 and 99.99: 0, -1, 13005, 2147483647),
    /// so no version check is possible. Through the runtime, its `cudaDriverGetVersion` reported
    /// such a value.
    #[non_exhaustive]
    DriverVersionUnavailable {
        /// The library opened.
        path: Arc<str>,
        /// The `CUresult` returned (0 when it succeeded with a value that is no version).
        code: i32,
        /// The value reported, when the call succeeded; `None` when it failed.
        reported: Option<i32>,
    },
    /// The driver has neither `cuGetProcAddress_v2` (CUDA 12.0+) nor `cuGetProcAddress`
    /// (CUDA 11.3+), so entries are found by their exports' names
    /// ([`Bootstrap::ExportName`](crate::Bootstrap::ExportName)), and no export is known to
    /// implement this entry's typedef (a symbol newer than cuda-entry's table, or a typedef the
    /// headers name no export for). Never guessed.
    #[non_exhaustive]
    NoGetProcAddress {
        /// The library opened.
        path: Arc<str>,
    },
    /// A driver without `cuGetProcAddress` (before CUDA 11.3) does not export the function that
    /// implements this entry's typedef.
    #[non_exhaustive]
    NotExported {
        /// The export looked up (`cuMemAlloc_v2`).
        export: &'static str,
    },
    /// The driver is older than the typedef version asked for, so it cannot serve that ABI.
    /// The driver was not asked.
    DriverTooOld,
    /// The driver does not know the symbol (`CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND`).
    SymbolNotFound,
    /// The driver knows the symbol, but no variant of it is as old as the version asked for
    /// (`CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT`), or none exists for the stream flavour.
    VersionNotSufficient,
    /// A CUDA 11.3-11.8 driver (only the 4-argument `cuGetProcAddress`) answered
    /// `CUDA_ERROR_NOT_FOUND` (500), which means either an unknown symbol or a version below the
    /// symbol's first typedef: that query cannot tell which.
    NotFoundByLegacyQuery,
    /// `cuGetProcAddress` returned an error code.
    #[non_exhaustive]
    DriverError {
        /// The `CUresult` returned.
        code: i32,
    },
    /// `cuGetProcAddress` reported success but wrote a NULL pointer. The pointer is never called.
    NullPointer,
    /// `cuGetProcAddress` reported success with an address in the first page, where no function
    /// lives. The pointer is never called.
    #[non_exhaustive]
    ImplausiblePointer {
        /// The address written.
        address: usize,
    },
    /// `cuGetProcAddress_v2` returned success without a valid query status.
    #[non_exhaustive]
    MalformedAnswer {
        /// The status written, or `None` if the driver left it unwritten.
        status: Option<i32>,
    },
    /// No CUDA runtime library could be opened (for `resolver = "runtime"` entries).
    #[non_exhaustive]
    RuntimeNotFound {
        /// Every name or path tried, with the loader's message.
        tried: Arc<[LoadAttempt]>,
        /// The override variable that was set but ignored because the process runs in
        /// secure-execution mode (setuid, setgid or file capabilities).
        ignored: Option<&'static str>,
    },
    /// The library opened as the CUDA runtime lacks an export every runtime has.
    #[non_exhaustive]
    NotARuntime {
        /// The library opened.
        path: Arc<str>,
        /// The export it lacks.
        missing: &'static str,
    },
    /// The runtime reports no CUDA driver (`cudaDriverGetVersion` gave 0 or failed).
    #[non_exhaustive]
    NoDriverForRuntime {
        /// The runtime library opened.
        path: Arc<str>,
        /// The version the runtime reports.
        runtime_version: u32,
    },
    /// The runtime predates `cudaGetDriverEntryPointByVersion` (CUDA 12.5). Its unversioned
    /// `cudaGetDriverEntryPoint` is never used instead.
    #[non_exhaustive]
    RuntimeWithoutByVersion {
        /// The runtime library opened.
        path: Arc<str>,
        /// The version the runtime reports.
        runtime_version: u32,
    },
    /// `cudaGetDriverEntryPointByVersion` returned an error code.
    #[non_exhaustive]
    RuntimeError {
        /// The version the runtime reports.
        runtime_version: u32,
        /// The `cudaError_t` returned.
        code: i32,
    },
    /// The driver function was called and returned a status other than `CUDA_SUCCESS`: the
    /// checked form of a declaration whose typedef returns `CUresult` reports the driver's own
    /// answer here (`Display` names it: `CUDA_ERROR_INVALID_VALUE (1): ...`). Not a resolution
    /// failure: the entry resolved, and [`Error::driver_status`] gives the code.
    #[non_exhaustive]
    DriverStatus {
        /// The `CUresult` the function returned.
        code: i32,
    },
    /// The entry (or the driver or runtime library) was asked for from inside its own resolution
    /// or load, on the same thread: a driver callback or an interposer calling back into
    /// cuda-entry. Waiting would deadlock; the inner call fails instead.
    Reentrant,
    /// The version is not of the form `1000 * major + 10 * minor` (between [`Version::MIN`] and
    /// [`Version::MAX`]). The driver was not asked: it answers success for some such values
    /// (version -1, measured).
    InvalidVersion,
}

impl ErrorKind {
    /// A stable snake_case name for the kind (`"driver_too_old"`), for logs and JSON.
    pub const fn name(&self) -> &'static str {
        match self {
            ErrorKind::LibraryNotFound { .. } => "library_not_found",
            ErrorKind::StubLibrary { .. } => "stub_library",
            ErrorKind::NotADriver { .. } => "not_a_driver",
            ErrorKind::DriverVersionUnavailable { .. } => "driver_version_unavailable",
            ErrorKind::NoGetProcAddress { .. } => "no_get_proc_address",
            ErrorKind::NotExported { .. } => "not_exported",
            ErrorKind::DriverTooOld => "driver_too_old",
            ErrorKind::SymbolNotFound => "symbol_not_found",
            ErrorKind::VersionNotSufficient => "version_not_sufficient",
            ErrorKind::NotFoundByLegacyQuery => "not_found_by_legacy_query",
            ErrorKind::DriverError { .. } => "driver_error",
            ErrorKind::NullPointer => "null_pointer",
            ErrorKind::ImplausiblePointer { .. } => "implausible_pointer",
            ErrorKind::MalformedAnswer { .. } => "malformed_answer",
            ErrorKind::RuntimeNotFound { .. } => "runtime_not_found",
            ErrorKind::NotARuntime { .. } => "not_a_runtime",
            ErrorKind::NoDriverForRuntime { .. } => "no_driver_for_runtime",
            ErrorKind::RuntimeWithoutByVersion { .. } => "runtime_without_by_version",
            ErrorKind::RuntimeError { .. } => "runtime_error",
            ErrorKind::DriverStatus { .. } => "driver_status",
            ErrorKind::Reentrant => "reentrant",
            ErrorKind::InvalidVersion => "invalid_version",
        }
    }
}

impl Error {
    pub(crate) const fn new(
        kind: ErrorKind,
        request: Option<Request>,
        driver_version: Option<u32>,
    ) -> Error {
        Error {
            kind,
            request,
            driver_version,
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The entry request this error is about, if it came from resolving an entry.
    pub fn request(&self) -> Option<&Request> {
        self.request.as_ref()
    }

    /// The version the driver reports, when it was read before the failure.
    pub fn driver_version(&self) -> Option<u32> {
        self.driver_version
    }

    /// The `CUresult` a driver function returned, when this error is that status
    /// ([`ErrorKind::DriverStatus`]); `None` for every failure to resolve. For code that expects
    /// a status, such as `CUDA_ERROR_NOT_READY` from `cuStreamQuery`:
    ///
    /// ```
    /// # fn query() -> Result<(), cuda_entry::Error> { Ok(()) }
    /// use cuda_entry::types::CUresult;
    /// # fn main() -> Result<(), cuda_entry::Error> {
    /// let done = match query() {
    ///     Ok(()) => true,
    ///     Err(e) if e.driver_status() == Some(CUresult::ERROR_NOT_READY.0) => false,
    ///     Err(e) => return Err(e),
    /// };
    /// # let _ = done;
    /// # Ok(())
    /// # }
    /// ```
    pub fn driver_status(&self) -> Option<i32> {
        match self.kind {
            ErrorKind::DriverStatus { code } => Some(code),
            _ => None,
        }
    }

    /// The same error, attributed to `request` (a loading error cached by the process, met by
    /// one entry's resolution).
    pub(crate) fn for_request(mut self, request: Request) -> Error {
        self.request = Some(request);
        self
    }

    /// The driver version, for messages that need it (every kind that has one sets it).
    fn driver(&self) -> Cuda {
        Cuda(self.driver_version.unwrap_or(0))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.kind, &self.request) {
            (ErrorKind::DriverStatus { .. }, Some(request)) => write!(f, "{request} returned ")?,
            (ErrorKind::DriverStatus { .. }, None) => f.write_str("a driver function returned ")?,
            (_, Some(request)) => write!(f, "cannot resolve {request}: ")?,
            (_, None) => {}
        }
        self.write_reason(f)
    }
}

/// An error's [`reason`](Error::reason), written.
struct Reason<'a>(&'a Error);

impl fmt::Display for Reason<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write_reason(f)
    }
}

impl Error {
    /// The message without the request it is about: what `Display` writes after
    /// `cannot resolve <request>: ` (after `<request> returned ` for a
    /// [`DriverStatus`](ErrorKind::DriverStatus)), for output that shows the request already.
    pub fn reason(&self) -> String {
        Reason(self).to_string()
    }

    /// Writes the [`reason`](Error::reason).
    fn write_reason(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let ErrorKind::DriverStatus { code } = self.kind {
            return write!(f, "{}", Described(code));
        }
        let driver = self.driver();
        let (version, symbol, per_thread) = match &self.request {
            Some(r) => (Cuda(r.version), r.symbol, r.stream == Stream::PerThread),
            None => (Cuda(0), "<symbol>", false),
        };
        match &self.kind {
            ErrorKind::LibraryNotFound { tried, ignored } => {
                write!(f, "no CUDA driver library could be loaded (tried ")?;
                write_attempts(f, tried)?;
                write_ignored(f, *ignored)?;
                write!(
                    f,
                    "); install the NVIDIA driver, or set {PATH_VARIABLE} to the driver library's \
                     path"
                )
            }
            ErrorKind::StubLibrary { path } => write!(
                f,
                "`{path}` is the CUDA toolkit's stub library (CUDA_ERROR_STUB_LIBRARY, 34): it is \
                 for linking only; install the NVIDIA driver, or remove the toolkit's \
                 lib64/stubs folder from the library search path"
            ),
            ErrorKind::NotADriver { path, missing } => write!(
                f,
                "`{path}` loaded but does not export `{missing}`, so it is not a CUDA driver; \
                 point {PATH_VARIABLE} at libcuda.so.1 (nvcuda.dll on Windows)"
            ),
            ErrorKind::DriverVersionUnavailable {
                path,
                reported: Some(reported),
                ..
            } => write!(
                f,
                "`{path}` reported the driver version {reported}, which is not a CUDA version (1000 \
                 * major + 10 * minor, between {} and {}); check the driver installation",
                Version::MIN.get(),
                Version::MAX.get()
            ),
            ErrorKind::DriverVersionUnavailable { path, code, .. } => write!(
                f,
                "cuDriverGetVersion of `{path}` failed with {}; check the driver installation",
                Status(*code)
            ),
            ErrorKind::NoGetProcAddress { path } => write!(
                f,
                "the driver `{path}` reports {driver} and has no cuGetProcAddress, and no export \
                 is known to implement this typedef (cuda-entry looks entries up by their \
                 exports' names there, and never guesses one); update the driver to >= CUDA 11.3 \
                 (>= CUDA 12.0 recommended)"
            ),
            ErrorKind::NotExported { export } => write!(
                f,
                "the driver ({driver}) has no cuGetProcAddress and does not export `{export}`, \
                 the function of this typedef; update the driver"
            ),
            ErrorKind::DriverTooOld => write!(
                f,
                "the driver reports {driver} but this ABI needs {version}; update the driver to \
                 >= {version} (the driver was not asked)"
            ),
            ErrorKind::SymbolNotFound => write!(
                f,
                "the driver ({driver}) does not know this symbol; check the spelling of the \
                 symbol and that it is the base name without a `_v2`/`_ptsz`/`_ptds` suffix (the \
                 version selects the variant), or update the driver if the API is newer than it"
            ),
            ErrorKind::VersionNotSufficient => write!(
                f,
                "the driver ({driver}) has no variant of this symbol at or below version {}{}; \
                 use the version of the `PFN_{symbol}_v<N>{}` typedef your signature was copied \
                 from",
                self.request.map_or(0, |r| r.version),
                if per_thread {
                    " for the per-thread default stream"
                } else {
                    ""
                },
                if per_thread { "_ptsz/_ptds" } else { "" },
            ),
            ErrorKind::NotFoundByLegacyQuery => write!(
                f,
                "the driver ({driver}) answered CUDA_ERROR_NOT_FOUND (500) to cuGetProcAddress; \
                 drivers before 12.0 cannot say whether the symbol is unknown or the version is \
                 below its first typedef: check both, or update the driver to >= 12.0 for a \
                 precise answer"
            ),
            ErrorKind::DriverError { code } => write!(
                f,
                "cuGetProcAddress of the driver ({driver}) returned {}",
                Status(*code)
            ),
            ErrorKind::NullPointer => write!(
                f,
                "the driver ({driver}) reported success but returned a NULL pointer; it was not \
                 called (this is a driver fault: report it with the driver version)"
            ),
            ErrorKind::ImplausiblePointer { address } => write!(
                f,
                "the driver ({driver}) reported success but returned the address {address:#x}, \
                 where no function lives; it was not called (this is a driver or interposer \
                 fault: report it with the driver version)"
            ),
            ErrorKind::MalformedAnswer { status: None } => write!(
                f,
                "the driver ({driver}) reported success but left the query status unwritten; the \
                 pointer is not trusted"
            ),
            ErrorKind::MalformedAnswer {
                status: Some(status),
            } => write!(
                f,
                "the driver ({driver}) reported success with the unknown query status {status}; \
                 the pointer is not trusted"
            ),
            ErrorKind::RuntimeNotFound { tried, ignored } => {
                write!(f, "no CUDA runtime library could be loaded (tried ")?;
                write_attempts(f, tried)?;
                write_ignored(f, *ignored)?;
                write!(
                    f,
                    "); install the CUDA runtime (12.5 or newer), set {RUNTIME_PATH_VARIABLE} to \
                     its path, or resolve through the driver (the default)"
                )
            }
            ErrorKind::NotARuntime { path, missing } => write!(
                f,
                "`{path}` loaded but does not export `{missing}`, so it is not a CUDA runtime; \
                 point {RUNTIME_PATH_VARIABLE} at libcudart.so.13 (cudart64_13.dll on Windows)"
            ),
            ErrorKind::NoDriverForRuntime {
                path,
                runtime_version,
            } => write!(
                f,
                "the CUDA runtime `{path}` ({}) reports no CUDA driver; install the NVIDIA driver",
                Cuda(*runtime_version)
            ),
            ErrorKind::RuntimeWithoutByVersion {
                path,
                runtime_version,
            } => write!(
                f,
                "the CUDA runtime `{path}` ({}) has no cudaGetDriverEntryPointByVersion, which \
                 CUDA 12.5 introduced; use a runtime >= 12.5 or resolve through the driver (the \
                 unversioned cudaGetDriverEntryPoint is never used: it returns whatever variant \
                 matches the runtime's version)",
                Cuda(*runtime_version)
            ),
            ErrorKind::RuntimeError {
                runtime_version,
                code,
            } => write!(
                f,
                "cudaGetDriverEntryPointByVersion of the CUDA runtime ({}) returned cudaError_t \
                 {code}",
                Cuda(*runtime_version)
            ),
            ErrorKind::DriverStatus { .. } => Ok(()), // written above
            ErrorKind::Reentrant => f.write_str(
                "it was asked for from inside its own resolution on the same thread (a driver \
                 callback or an interposer calling back into cuda-entry); resolve it before, or \
                 outside, the code that calls back",
            ),
            ErrorKind::InvalidVersion => write!(
                f,
                "a typedef version is 1000 * major + 10 * minor (3020 for CUDA 3.2), between {} \
                 and {}; write the N of the `PFN_<symbol>_v<N>` typedef your signature was copied \
                 from",
                Version::MIN.get(),
                Version::MAX.get()
            ),
        }
    }
}

impl std::error::Error for Error {}

/// The override that was set but ignored, if any.
fn write_ignored(f: &mut fmt::Formatter<'_>, ignored: Option<&str>) -> fmt::Result {
    match ignored {
        Some(variable) => write!(
            f,
            "; {variable} is set but ignored: this process runs in secure-execution mode \
             (setuid, setgid or file capabilities), see \
             `cuda_entry::trust_path_variables_when_privileged`"
        ),
        None => Ok(()),
    }
}

/// Each library tried, with the loader's message.
fn write_attempts(f: &mut fmt::Formatter<'_>, tried: &[LoadAttempt]) -> fmt::Result {
    for (i, attempt) in tried.iter().enumerate() {
        let sep = if i == 0 { "" } else { "; " };
        write!(f, "{sep}`{}`: {}", attempt.path, attempt.message)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::Resolver;

    fn request() -> Request {
        Request::new("cuMemAlloc", 3020, Stream::Legacy, Resolver::Driver)
    }

    #[test]
    fn the_reason_is_the_message_without_the_request() {
        let too_old = Error::new(ErrorKind::DriverTooOld, Some(request()), Some(2000));
        let message = too_old.to_string();
        let prefix = format!("cannot resolve {}: ", request());
        assert_eq!(
            message.strip_prefix(&prefix),
            Some(too_old.reason().as_str())
        );
        assert!(
            too_old.reason().starts_with("the driver reports CUDA 2.0"),
            "{message}"
        );

        // Without a request, there is no prefix: the reason is the message.
        let unloaded = Error::new(ErrorKind::InvalidVersion, None, None);
        assert_eq!(unloaded.reason(), unloaded.to_string());

        // A driver's status: what follows `<request> returned `.
        let status = Error::new(ErrorKind::DriverStatus { code: 2 }, Some(request()), None);
        let prefix = format!("{} returned ", request());
        assert_eq!(
            status.to_string().strip_prefix(&prefix),
            Some(status.reason().as_str())
        );
        assert!(
            status.reason().contains("CUDA_ERROR_OUT_OF_MEMORY"),
            "{}",
            status.reason()
        );
    }
}
