//! The `cuGetProcAddress` protocol, shared by the driver and the runtime resolver: the flags, the
//! guide's two checks before asking, and what an answer means.

use std::ffi::{c_int, c_void};
use std::ptr::NonNull;

use cuda_entry_table::Version;

use crate::error::{Error, ErrorKind};
use crate::request::{Request, Stream};

/// `CU_GET_PROC_ADDRESS_LEGACY_STREAM` / `CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM` (the
/// runtime's `cudaEnableLegacyStream` / `cudaEnablePerThreadDefaultStream` have the same values).
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

/// `CU_GET_PROC_ADDRESS_SUCCESS`.
pub(crate) const FOUND: c_int = 0;
/// `CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND`.
const SYMBOL_NOT_FOUND: c_int = 1;
/// `CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT`.
const VERSION_NOT_SUFFICIENT: c_int = 2;

/// No function lives in the first page of the address space; an answer there is not a function
/// (and could be mistaken for the entry cache's own state markers, 1 and 2).
pub(crate) const FIRST_FUNCTION_ADDRESS: usize = 4096;

/// The guide's two rules, before any query: the version is well-formed, and the driver is at least
/// that new (a driver older than the typedef cannot serve its ABI: do not ask). Returns the version
/// as the driver's `int`.
#[inline]
pub(crate) fn precheck(request: Request, driver_version: u32) -> Result<c_int, Error> {
    match c_int::try_from(request.version) {
        // A valid version is at most `Version::MAX`, so it fits.
        Ok(version) if Version::is_valid(request.version) && driver_version >= request.version => {
            Ok(version)
        }
        _ => Err(refused(request, driver_version)),
    }
}

/// Why [`precheck`] refused `request` (the error path only).
#[cold]
fn refused(request: Request, driver_version: u32) -> Error {
    let kind = if Version::is_valid(request.version) {
        ErrorKind::DriverTooOld
    } else {
        ErrorKind::InvalidVersion
    };
    Error::new(kind, Some(request), Some(driver_version))
}

/// Maps a successful query's status (`CUdriverProcAddressQueryResult`, or the runtime's
/// `cudaDriverEntryPointQueryResult`: the same values) and pointer to the outcome.
#[inline]
pub(crate) fn answer(
    request: Request,
    driver_version: u32,
    status: c_int,
    pfn: *mut c_void,
) -> Result<NonNull<c_void>, Error> {
    match NonNull::new(pfn) {
        Some(found) if status == FOUND && found.addr().get() >= FIRST_FUNCTION_ADDRESS => Ok(found),
        _ => Err(unusable(request, driver_version, status, pfn)),
    }
}

/// What an answer that is no function pointer means (the error path only).
#[cold]
fn unusable(request: Request, driver_version: u32, status: c_int, pfn: *mut c_void) -> Error {
    let kind = match status {
        FOUND => match NonNull::new(pfn) {
            Some(pfn) => ErrorKind::ImplausiblePointer {
                address: pfn.addr().get(),
            },
            None => ErrorKind::NullPointer,
        },
        SYMBOL_NOT_FOUND => ErrorKind::SymbolNotFound,
        VERSION_NOT_SUFFICIENT => ErrorKind::VersionNotSufficient,
        STATUS_UNWRITTEN => ErrorKind::MalformedAnswer { status: None },
        other => ErrorKind::MalformedAnswer {
            status: Some(other),
        },
    };
    Error::new(kind, Some(request), Some(driver_version))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::Resolver;

    const REQUEST: Request = Request::new("cuMemAlloc", 3020, Stream::Legacy, Resolver::Driver);

    fn at(address: usize) -> *mut c_void {
        std::ptr::without_provenance_mut(address)
    }

    #[test]
    fn an_answer_in_the_first_page_is_never_a_function() {
        for address in [1, 2, FIRST_FUNCTION_ADDRESS - 1] {
            let error = answer(REQUEST, 13000, FOUND, at(address)).unwrap_err();
            assert_eq!(error.kind(), &ErrorKind::ImplausiblePointer { address });
            assert_eq!(error.request(), Some(&REQUEST));
            assert_eq!(error.driver_version(), Some(13000));
        }
        let error = answer(REQUEST, 13000, FOUND, at(0)).unwrap_err();
        assert_eq!(error.kind(), &ErrorKind::NullPointer);
        let pfn = answer(REQUEST, 13000, FOUND, at(FIRST_FUNCTION_ADDRESS)).unwrap();
        assert_eq!(pfn.addr().get(), FIRST_FUNCTION_ADDRESS);
    }

    #[test]
    fn statuses_map_to_their_kinds() {
        let kind = |status| {
            answer(REQUEST, 13000, status, at(0x10000))
                .unwrap_err()
                .kind()
                .clone()
        };
        assert_eq!(kind(SYMBOL_NOT_FOUND), ErrorKind::SymbolNotFound);
        assert_eq!(
            kind(VERSION_NOT_SUFFICIENT),
            ErrorKind::VersionNotSufficient
        );
        assert_eq!(
            kind(STATUS_UNWRITTEN),
            ErrorKind::MalformedAnswer { status: None }
        );
        assert_eq!(kind(7), ErrorKind::MalformedAnswer { status: Some(7) });
    }

    #[test]
    fn the_version_is_checked_before_asking() {
        let old = precheck(REQUEST, 3010).unwrap_err();
        assert_eq!(old.kind(), &ErrorKind::DriverTooOld);
        let bad = Request::new("cuMemAlloc", 3025, Stream::Legacy, Resolver::Driver);
        assert_eq!(
            precheck(bad, 13000).unwrap_err().kind(),
            &ErrorKind::InvalidVersion
        );
        assert_eq!(precheck(REQUEST, 13000), Ok(3020));
    }
}
