//! What `#[cuda_entry]` expansions name. Not a public API: it changes without notice.

pub use crate::entry::Entry;
pub use crate::error::Error;
pub use crate::registry::ENTRIES;
pub use crate::request::{Resolver, Stream};
pub use core::result::Result;
pub use cuda_entry_table::manifest;
pub use linkme;

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

/// The manifest code of an entry's stream flavour.
pub const fn manifest_stream(stream: Stream) -> manifest::StreamCode {
    match stream {
        Stream::Legacy => manifest::StreamCode::Legacy,
        Stream::PerThread => manifest::StreamCode::PerThread,
    }
}

/// The manifest code of an entry's resolver.
pub const fn manifest_resolver(resolver: Resolver) -> manifest::ResolverCode {
    match resolver {
        Resolver::Driver => manifest::ResolverCode::Driver,
        Resolver::Runtime => manifest::ResolverCode::Runtime,
    }
}

/// The checked form of a call whose typedef returns `CUresult`: `Ok(())` for `CUDA_SUCCESS`, else
/// the status as an [`Error`] of `entry`. `R` is the declaration's own return type, whose size and
/// alignment the expansion asserts are `CUresult`'s (4 and 4): an `i32`, a `u32`, a
/// `#[repr(transparent)]` newtype of one, or a `#[repr(i32)]`/`#[repr(u32)]` enum. The cost over
/// the raw call: one compare and a branch not taken.
#[inline(always)]
pub fn checked_status<R: Copy>(status: R, entry: &Entry) -> Result<(), Error> {
    const { assert!(size_of::<R>() == size_of::<i32>(), "a CUresult is 4 bytes") };
    // SAFETY: `R` is 4 bytes (asserted above) of an integer-like type without padding (the
    // expansion's size and alignment assertions, and the documented contract of a `CUresult`
    // return type); any 4 bytes are a valid `i32`.
    let code: i32 = unsafe { core::mem::transmute_copy(&status) };
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

/// The longest message an ABI assertion prints.
const MESSAGE: usize = 512;

const fn push(buf: &mut [u8; MESSAGE], mut len: usize, bytes: &[u8]) -> usize {
    let mut i = 0;
    while i < bytes.len() && len < MESSAGE {
        buf[len] = bytes[i];
        len += 1;
        i += 1;
    }
    len
}

const fn push_number(buf: &mut [u8; MESSAGE], len: usize, mut n: usize) -> usize {
    let mut digits = [0u8; 20];
    let mut count = 0;
    loop {
        digits[digits.len() - 1 - count] = b'0' + (n % 10) as u8;
        count += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let (_, used) = digits.split_at(digits.len() - count);
    push(buf, len, used)
}

/// Fails compilation, naming both layouts, when `T` is not `size` bytes aligned to `align`.
/// `what` names the parameter, its C type and the C layout.
pub const fn check_abi<T>(size: usize, align: usize, what: &str) {
    let (found_size, found_align) = (size_of::<T>(), align_of::<T>());
    if found_size == size && found_align == align {
        return;
    }
    let mut buf = [0u8; MESSAGE];
    let mut len = push(&mut buf, 0, what.as_bytes());
    len = push(&mut buf, len, b", but the declared Rust type is ");
    len = push_number(&mut buf, len, found_size);
    len = push(&mut buf, len, b" bytes, align ");
    len = push_number(&mut buf, len, found_align);
    len = push(&mut buf, len, b": declare it with a type of the C layout");
    let (message, _) = buf.split_at(len);
    match core::str::from_utf8(message) {
        Ok(message) => panic!("{}", message),
        Err(_) => panic!("a declared type does not have the C type's size and alignment"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    #[test]
    fn a_checked_status_is_ok_only_for_success() {
        static ENTRY: Entry = Entry::new(c"cuMemAlloc", 3020, Stream::Legacy);
        #[allow(dead_code)]
        #[derive(Clone, Copy)]
        #[repr(u32)]
        enum Code {
            Success = 0,
            InvalidValue = 1,
        }
        assert_eq!(checked_status(0i32, &ENTRY), Ok(()));
        assert_eq!(checked_status(Code::Success, &ENTRY), Ok(()));
        for error in [
            checked_status(1i32, &ENTRY).unwrap_err(),
            checked_status(1u32, &ENTRY).unwrap_err(),
            checked_status(Code::InvalidValue, &ENTRY).unwrap_err(),
            checked_status(crate::types::CUresult::ERROR_INVALID_VALUE, &ENTRY).unwrap_err(),
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
    fn matching_layouts_pass() {
        check_abi::<u64>(8, 8, "unused");
        check_abi::<*mut u8>(size_of::<usize>(), align_of::<usize>(), "unused");
    }

    #[test]
    fn a_mismatch_names_both_layouts() {
        let message = std::panic::catch_unwind(|| {
            check_abi::<u32>(
                8,
                8,
                "parameter 2 `bytesize` is `size_t bytesize` (8 bytes, align 8)",
            );
        })
        .expect_err("a mismatch fails");
        let message = message
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| message.downcast_ref::<&str>().copied())
            .unwrap_or_default();
        assert_eq!(
            message,
            "parameter 2 `bytesize` is `size_t bytesize` (8 bytes, align 8), but the declared \
             Rust type is 4 bytes, align 4: declare it with a type of the C layout"
        );
    }

    #[test]
    fn numbers_are_written_in_decimal() {
        let mut buf = [0u8; MESSAGE];
        let len = push_number(&mut buf, 0, 1_234_567_890);
        assert_eq!(&buf[..len], b"1234567890");
        let len = push_number(&mut buf, 0, 0);
        assert_eq!(&buf[..len], b"0");
    }

    #[test]
    fn the_default_stream_follows_the_feature() {
        assert_eq!(default_stream_version(4000, 0), 4000);
        assert_eq!(default_stream(0), Stream::Legacy);
        let twin = default_stream_version(4000, 7000);
        assert_eq!(twin, if PER_THREAD_DEFAULT { 7000 } else { 4000 });
    }
}
