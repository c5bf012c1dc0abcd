//! `cuGetProcAddress_v2` and the 4-argument `cuGetProcAddress`, answering as driver 580.159.04
//! did (tests/ground-truth/). Each build's crate root exports the ones it has (`build!`).

use std::ffi::{CStr, c_char, c_int, c_void};
use std::sync::atomic::{AtomicBool, Ordering};

use super::config::{self, Mode};
use super::say;
use super::table::{self, Lookup};
use super::{CUdriverProcAddressQueryResult, Cuuint64, SimError, SimResult, status};

/// Where the real driver would crash, the simulator stops the process loudly instead: a NULL
/// `pfn` or `symbol` is always a bug of the caller (measured: SIGSEGV, edge-cases "BAD nullpfn
/// crashed signal=11", "BAD nullsym crashed signal=11").
fn abort_on_null(what: &str, export: &str) -> ! {
    say(format_args!(
        "cuda-entry simulated driver: NULL {what} passed to {export} (the real driver segfaults here)"
    ));
    std::process::abort();
}

/// The answer common to both exports once the arguments are known to be non-NULL: return 0 and
/// write `*pfn` (NULL or the export) and the status, or fail with nothing written.
fn answer(
    symbol: &CStr,
    version: c_int,
    flags: Cuuint64,
    config: config::Config,
) -> SimResult<(*mut c_void, CUdriverProcAddressQueryResult)> {
    // Flags other than DEFAULT (0), LEGACY_STREAM (1), PER_THREAD_DEFAULT_STREAM (2): rc 1, nothing
    // written ("BAD flags99 rc=1 st=-1").
    let per_thread = match flags {
        0 | 1 => false,
        2 => true,
        _ => return Err(SimError::InvalidValue),
    };
    // Above the driver's own version: rc 1, pfn and status unwritten (rows at 13020 and 99999).
    if version > config.version {
        return Err(SimError::InvalidValue);
    }
    if config.mode == Mode::NullSuccess {
        return Ok((std::ptr::null_mut(), status::SUCCESS));
    }
    // Version -1 answered rc 0, status 0 ("BAD negver rc=0 st=0"): a status of SUCCESS means the
    // driver handed out a variant, and the only one it can mean is the newest it has, i.e. the one
    // for its own version. The simulator returns that (a real pointer, not NULL), so a caller that
    // lets -1 through gets the silent ABI drift the design warns about. Other negative versions are
    // unmeasured and treated alike.
    let version = if version < 0 { config.version } else { version };
    Ok(
        match table::lookup(symbol.to_bytes(), version, per_thread, config.mode) {
            Lookup::Found(export) => match super::export_address(export) {
                Some(ptr) => (ptr, status::SUCCESS),
                // Unreachable: lookup only returns exports of this build.
                None => (std::ptr::null_mut(), status::SYMBOL_NOT_FOUND),
            },
            // Unknown, misspelled, suffixed or empty symbol: rc 0, status 1, pfn set to NULL.
            Lookup::SymbolNotFound => (std::ptr::null_mut(), status::SYMBOL_NOT_FOUND),
            // Below the first typedef: rc 0, status 2, pfn set to NULL.
            Lookup::VersionNotSufficient => (std::ptr::null_mut(), status::VERSION_NOT_SUFFICIENT),
        },
    )
}

static NO_V2_WARNED: AtomicBool = AtomicBool::new(false);

/// `CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion,
/// cuuint64_t flags, CUdriverProcAddressQueryResult *symbolStatus)`.
///
/// # Safety
///
/// `symbol` must be NULL or a NUL-terminated string; `pfn` NULL or writable; `symbol_status` NULL
/// or writable. (NULL `symbol`/`pfn` abort the process on purpose.)
pub unsafe fn get_proc_address_v2(
    symbol: *const c_char,
    pfn: *mut *mut c_void,
    cuda_version: c_int,
    flags: Cuuint64,
    symbol_status: *mut CUdriverProcAddressQueryResult,
) -> SimResult {
    if symbol.is_null() {
        abort_on_null("symbol", "cuGetProcAddress_v2");
    }
    if pfn.is_null() {
        abort_on_null("pfn", "cuGetProcAddress_v2");
    }
    let config = config::get();
    match config.mode {
        Mode::Rc(n) => return Err(SimError::Injected(n)),
        Mode::NoV2 => {
            if !NO_V2_WARNED.swap(true, Ordering::Relaxed) {
                say(format_args!(
                    "cuda-entry simulated driver: cuGetProcAddress_v2 called in no-v2 mode, where \
                     the driver has no such export; returning 500 (use cuGetProcAddress)"
                ));
            }
            return Err(SimError::NotFound);
        }
        _ => {}
    }
    // SAFETY: `symbol` is non-NULL and the caller promises a NUL-terminated string.
    let symbol = unsafe { CStr::from_ptr(symbol) };
    let (ptr, st) = answer(symbol, cuda_version, flags, config)?;
    // SAFETY: `pfn` is non-NULL and the caller promises it is writable.
    unsafe { pfn.write(ptr) };
    // A NULL status pointer is allowed ("BAD nullstatus rc=0 p=ptr").
    if !symbol_status.is_null() && config.mode != Mode::StatusUnwritten {
        // SAFETY: non-NULL, and the caller promises it is writable.
        unsafe { symbol_status.write(st) };
    }
    Ok(())
}

/// `CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags)`,
/// the only one drivers 11.3-11.8 have. It has no status: unknown symbol and version below the
/// first typedef both return 500 with `*pfn` unwritten; above the driver, 1 (legacy TSV).
///
/// # Safety
///
/// As [`get_proc_address_v2`], without the status pointer.
pub unsafe fn get_proc_address(
    symbol: *const c_char,
    pfn: *mut *mut c_void,
    cuda_version: c_int,
    flags: Cuuint64,
) -> SimResult {
    if symbol.is_null() {
        abort_on_null("symbol", "cuGetProcAddress");
    }
    if pfn.is_null() {
        abort_on_null("pfn", "cuGetProcAddress");
    }
    let config = config::get();
    if let Mode::Rc(n) = config.mode {
        return Err(SimError::Injected(n));
    }
    // SAFETY: `symbol` is non-NULL and the caller promises a NUL-terminated string.
    let symbol = unsafe { CStr::from_ptr(symbol) };
    match answer(symbol, cuda_version, flags, config)? {
        (ptr, status::SUCCESS) => {
            // SAFETY: `pfn` is non-NULL and the caller promises it is writable.
            unsafe { pfn.write(ptr) };
            Ok(())
        }
        _ => Err(SimError::NotFound),
    }
}

/// Declares the crate root's build: the version `cuDriverGetVersion` reports by default (also
/// defined as `DEFAULT_VERSION`) and the `cuGetProcAddress*` exports it has, which this defines.
///
/// ```text
/// cuda_entry_simdriver_core::build! {
///     default_version: 11080,
///     exports: [cuGetProcAddress],
/// }
/// ```
///
/// `exports` lists any of `cuGetProcAddress_v2` and `cuGetProcAddress` (or none).
#[macro_export]
macro_rules! build {
    (default_version: $version:expr, exports: [$($name:ident),* $(,)?] $(,)?) => {
        $($crate::build!(@export $name);)*

        /// The version `cuDriverGetVersion` reports when `CUDA_ENTRY_SIM_VERSION` is unset.
        pub const DEFAULT_VERSION: i32 = $version;

        $crate::register_build!(BUILD in $crate::build::BUILDS: DEFAULT_VERSION, [$($name),*]);
    };
    (@export cuGetProcAddress_v2) => {
        $crate::export! {
            cuGetProcAddress_v2(
                symbol: *const ::std::ffi::c_char,
                pfn: *mut *mut ::std::ffi::c_void,
                cuda_version: ::std::ffi::c_int,
                flags: $crate::Cuuint64,
                symbol_status: *mut $crate::CUdriverProcAddressQueryResult
            ) => $crate::gpa::get_proc_address_v2;
        }
    };
    (@export cuGetProcAddress) => {
        $crate::export! {
            cuGetProcAddress(
                symbol: *const ::std::ffi::c_char,
                pfn: *mut *mut ::std::ffi::c_void,
                cuda_version: ::std::ffi::c_int,
                flags: $crate::Cuuint64
            ) => $crate::gpa::get_proc_address;
        }
    };
}
