//! What `#[cuda_entry]` expansions name. Not a public API: it changes without notice.

#[path = "private/abi.rs"]
mod abi;
#[path = "private/callback.rs"]
mod callback;
#[path = "private/seal.rs"]
mod seal;
#[path = "private/values.rs"]
mod values;
#[cfg(test)]
#[path = "private/verdicts.rs"]
mod verdicts;

pub use crate::by_value::{Byte, Classes};
pub use crate::entry::Entry;
pub use crate::error::Error;
pub use crate::registry::Registered;
pub use crate::request::{Resolver, Stream};
pub use abi::{
    CPointer, CPointerSlot, CSlot, ClassFallback, ClassProbe, Expect, Layout, Message, NO_LAYOUTS,
    NO_OTHERS, NumberClass, Passed, PassedFallback, Pointee, PointeeShape, Probe, ProbeFallback,
    c_classes, class_mismatch, extent, layout, pointee, pointer, raw_pointee, slot, value,
};
pub use callback::{CCallback, CFn, CValue, FnAbi, NoParameter, callback, callback_portable};
pub use values::{
    AccessFallback, AccessProbe, InteriorMutable, InvalidValues, Produced, Proven, ProvenFallback,
    ValueFallback, ValueProbe, WriteThrough, second_level, status, valid, writable,
};
/// The probes' fallback traits, brought into scope by one glob import per declaration.
pub mod fallbacks {
    pub use super::{
        AccessFallback as _, ClassFallback as _, PassedFallback as _, ProbeFallback as _,
        ProvenFallback as _, ValueFallback as _,
    };
}
// The language's items the expansion names, through this crate so that a crate of any edition
// (2015's `::core` is the crate's own root) reaches them.
pub use core::ffi::c_int;
// The cast of a resolved address to a declaration's pointer type: an intrinsic, so no function
// is instantiated per declaration (a generic one would be, with its debug info, in every crate).
pub use core::mem::transmute;
pub use core::result::Result;

/// The body of a rejected declaration's stub, which never runs: the build fails.
pub fn never<T>() -> T {
    unreachable!("the stub of a rejected `#[cuda_entry]` declaration")
}
pub use cuda_entry_table::manifest;

/// Whether this process's driver library was loaded, or is being loaded: from then on
/// `CUDA_ENTRY_DRIVER_PATH` is not read again. For the test kit (`cuda-entry-sim`), which sets it
/// and must say so when it is too late.
pub fn driver_load_started() -> bool {
    crate::driver::load_started()
}

/// Whether this process's runtime library was loaded, or is being loaded (as
/// [`driver_load_started`], for `CUDA_ENTRY_RUNTIME_PATH`).
pub fn runtime_load_started() -> bool {
    crate::runtime::load_started()
}

/// The checked form of a call whose typedef returns `CUresult`: `Ok(())` for `CUDA_SUCCESS`, else
/// the status as an [`Error`] of `entry`. The expansion calls the driver through a pointer whose
/// return type is the C `int`, whatever type the declaration names, so a status that type could
/// not hold is an error here, never an invalid value. The cost over the raw call: one compare and
/// a branch not taken.
#[inline(always)]
pub fn checked_status(code: i32, entry: &Entry) -> Result<(), Error> {
    if code == crate::status::SUCCESS {
        Ok(())
    } else {
        Err(entry.status_error(code))
    }
}

/// Whether entries that name no stream use their per-thread twin: the facade's
/// `per-thread-default-stream` feature, the analogue of `CUDA_API_PER_THREAD_DEFAULT_STREAM`.
pub const PER_THREAD_DEFAULT: bool = cfg!(feature = "per-thread-default-stream");

/// The entry of a declaration that names no stream: its legacy typedef, or under
/// [`PER_THREAD_DEFAULT`] its per-thread twin (`twin_version`, 0 when it has none; the macro
/// checked the twin's signature equals the legacy one).
pub const fn default_stream_entry(
    symbol: &'static core::ffi::CStr,
    version: u32,
    twin_version: u32,
) -> Entry {
    Entry::new(
        symbol,
        default_stream_version(version, twin_version),
        default_stream(twin_version),
    )
}

/// The version a declaration that names no stream resolves at.
pub const fn default_stream_version(version: u32, twin_version: u32) -> u32 {
    if PER_THREAD_DEFAULT && twin_version != 0 {
        twin_version
    } else {
        version
    }
}

/// The stream flavour a declaration that names no stream resolves in.
pub const fn default_stream(twin_version: u32) -> Stream {
    if PER_THREAD_DEFAULT && twin_version != 0 {
        Stream::PerThread
    } else {
        Stream::Legacy
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    #[test]
    fn a_checked_status_is_ok_only_for_success() {
        static ENTRY: Entry = Entry::new(c"cuMemAlloc", 3020, Stream::Legacy);
        assert_eq!(checked_status(0, &ENTRY), Ok(()));
        for error in [
            checked_status(1, &ENTRY).unwrap_err(),
            checked_status(crate::types::CUresult::ERROR_INVALID_VALUE.0, &ENTRY).unwrap_err(),
        ] {
            assert_eq!(error.kind(), &ErrorKind::DriverStatus { code: 1 });
            assert_eq!(error.driver_status(), Some(1));
            assert_eq!(error.request(), Some(&ENTRY.request()));
            assert_eq!(error.kind().name(), "driver_status");
            let text = error.to_string();
            assert!(
                text.starts_with(
                    "cuMemAlloc version 3020 (CUDA 3.2, legacy default stream) returned \
                     CUDA_ERROR_INVALID_VALUE (1): This indicates"
                ),
                "{text}"
            );
        }
        let unknown = checked_status(-77i32, &ENTRY).unwrap_err();
        assert_eq!(unknown.driver_status(), Some(-77));
        assert!(
            unknown
                .to_string()
                .contains("CUresult -77 (a code no cuda.h defines")
        );
        // A resolution failure is never a status.
        assert_eq!(
            Error::new(ErrorKind::DriverTooOld, None, Some(3010)).driver_status(),
            None
        );
    }

    #[test]
    fn the_default_stream_follows_the_feature() {
        assert_eq!(default_stream_version(4000, 0), 4000);
        assert_eq!(default_stream(0), Stream::Legacy);
        let twin = default_stream_version(4000, 7000);
        assert_eq!(twin, if PER_THREAD_DEFAULT { 7000 } else { 4000 });
    }
}
