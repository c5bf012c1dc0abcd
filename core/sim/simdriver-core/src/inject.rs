//! Statuses injected into named driver functions, and how many queries simulated work stays
//! pending: what a test of a user's error handling configures.
//!
//! `CUDA_ENTRY_SIM_STATUS` lists the injections, `NAME=STATUS[@N[-M]]` separated by commas:
//! `cuMemAlloc=2@1` makes the first call of `cuMemAlloc` (any of its ABI variants: a base
//! symbol names them all, an export name such as `cuMemAlloc_v2` only itself) return 2
//! (`CUDA_ERROR_OUT_OF_MEMORY`) without doing anything; `@2-4` the second to fourth calls;
//! without `@`, every call. Calls are counted per injection, from the configuration on (the call
//! records' reset does not restart them). `CUDA_ENTRY_SIM_PENDING` is how many
//! `cuStreamQuery`/`cuEventQuery` calls answer `CUDA_ERROR_NOT_READY` (600) after work was
//! launched on a stream or an event recorded, before they answer success (default 1; 0: never).
//! Both are read from the environment at the first call that needs them, or set by the
//! `cuda_entry_sim_configure_calls` export (the test kit).

use std::collections::HashMap;
use std::ffi::{CStr, CString, c_char, c_int};
use std::sync::{Mutex, OnceLock};

use super::{CUresult, table};

/// The variable listing the injected statuses.
pub const STATUS_VARIABLE: &str = "CUDA_ENTRY_SIM_STATUS";
/// The variable holding how many queries work stays pending.
pub const PENDING_VARIABLE: &str = "CUDA_ENTRY_SIM_PENDING";
/// How many queries work stays pending when nothing says.
pub const DEFAULT_PENDING: u32 = 1;

/// One injected status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Injection {
    /// A base symbol (every variant) or an export name.
    pub function: String,
    /// What the call returns.
    pub status: CUresult,
    /// The calls it applies to, 1-based and inclusive; `None`: every call.
    pub calls: Option<(u64, u64)>,
    /// The calls of `function` seen so far.
    seen: u64,
}

/// The call configuration: injections and the pending queries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Calls {
    pub injections: Vec<Injection>,
    pub pending: u32,
}

static CALLS: Mutex<Option<Calls>> = Mutex::new(None);

/// Parses `CUDA_ENTRY_SIM_STATUS`'s value.
pub fn parse(text: &str) -> Result<Vec<Injection>, String> {
    let mut injections = Vec::new();
    for entry in text.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let refused = |why: &str| {
            format!(
                "{STATUS_VARIABLE}: {entry:?}: {why}; write NAME=STATUS, NAME=STATUS@N (the Nth \
                 call) or NAME=STATUS@N-M (calls N to M), e.g. cuMemAlloc=2@1"
            )
        };
        let (function, rest) = entry.split_once('=').ok_or_else(|| refused("no `=`"))?;
        let function = function.trim();
        if function.is_empty()
            || !function
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(refused("the name is not a function's"));
        }
        let (status, calls) = match rest.split_once('@') {
            Some((status, calls)) => (status, Some(calls)),
            None => (rest, None),
        };
        let status: CUresult = status
            .trim()
            .parse()
            .map_err(|_| refused("the status is not an integer"))?;
        let calls = match calls.map(|c| c.split_once('-').unwrap_or((c, c))) {
            None => None,
            Some((from, to)) => match (from.trim().parse::<u64>(), to.trim().parse::<u64>()) {
                (Ok(from), Ok(to)) if 1 <= from && from <= to => Some((from, to)),
                _ => return Err(refused("the calls are not N or N-M with 1 <= N <= M")),
            },
        };
        injections.push(Injection {
            function: function.to_owned(),
            status,
            calls,
            seen: 0,
        });
    }
    Ok(injections)
}

/// The configuration the two values describe (`None`: the default).
pub fn from_values(status: Option<&str>, pending: Option<&str>) -> Result<Calls, String> {
    let injections = match status {
        Some(text) => parse(text)?,
        None => Vec::new(),
    };
    let pending = match pending.map(str::trim) {
        None | Some("") => DEFAULT_PENDING,
        Some(n) => n.parse().map_err(|_| {
            format!("{PENDING_VARIABLE}={n:?} is not a number of queries such as 1")
        })?,
    };
    Ok(Calls {
        injections,
        pending,
    })
}

/// Runs `f` on the current configuration, reading the environment the first time (a malformed
/// variable aborts with a message: a test of an error path must not pass for the wrong reason).
fn with<T>(f: impl FnOnce(&mut Calls) -> T) -> T {
    let mut slot = CALLS.lock().unwrap_or_else(|e| e.into_inner());
    if slot.is_none() {
        let status = std::env::var(STATUS_VARIABLE).ok();
        let pending = std::env::var(PENDING_VARIABLE).ok();
        match from_values(status.as_deref(), pending.as_deref()) {
            Ok(calls) => *slot = Some(calls),
            Err(message) => {
                super::say(format_args!("cuda-entry simulated driver: {message}"));
                std::process::abort();
            }
        }
    }
    match slot.as_mut() {
        Some(calls) => f(calls),
        None => unreachable!("set above"),
    }
}

/// The base symbol of each export the table knows (`cuMemAlloc_v2` -> `cuMemAlloc`).
fn symbol_of(export: &str) -> Option<&'static str> {
    static SYMBOLS: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    let symbols = SYMBOLS.get_or_init(|| {
        table::SYMBOLS
            .iter()
            .flat_map(|s| s.variants.iter().map(move |v| (v.export, s.name)))
            .collect()
    });
    symbols.get(export).copied()
}

/// The status injected into this call of the export `name`, if any (counting the call).
pub fn injected(name: &str) -> Option<CUresult> {
    with(|calls| {
        let mut answer = None;
        for injection in &mut calls.injections {
            let named = injection.function == name || symbol_of(name) == Some(&*injection.function);
            if !named {
                continue;
            }
            injection.seen += 1;
            let applies = injection
                .calls
                .is_none_or(|(from, to)| (from..=to).contains(&injection.seen));
            if applies && answer.is_none() {
                answer = Some(injection.status);
            }
        }
        answer
    })
}

/// How many queries work stays pending.
pub fn pending_queries() -> u32 {
    with(|calls| calls.pending)
}

/// Sets the configuration from the values given, each `None` from its variable.
///
/// # Errors
/// A malformed value, nothing changed.
pub fn configure(status: Option<&str>, pending: Option<&str>) -> Result<(), String> {
    let status = status
        .map(str::to_owned)
        .or_else(|| std::env::var(STATUS_VARIABLE).ok());
    let pending = pending
        .map(str::to_owned)
        .or_else(|| std::env::var(PENDING_VARIABLE).ok());
    let calls = from_values(status.as_deref(), pending.as_deref())?;
    *CALLS.lock().unwrap_or_else(|e| e.into_inner()) = Some(calls);
    Ok(())
}

/// `const char *cuda_entry_sim_configure_calls(const char *statuses, int pending)`: sets the
/// injected statuses (as `CUDA_ENTRY_SIM_STATUS` writes them) and the pending queries; NULL and
/// a negative `pending` mean "as the variable says". Returns NULL, or a message (kept for the
/// life of the library) when a value is malformed, nothing changed. For the test kit.
///
/// # Safety
/// `statuses` must be NULL or a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuda_entry_sim_configure_calls(
    statuses: *const c_char,
    pending: c_int,
) -> *const c_char {
    let statuses = (!statuses.is_null()).then(|| {
        // SAFETY: non-NULL, and the caller promises a NUL-terminated string.
        unsafe { CStr::from_ptr(statuses) }
            .to_string_lossy()
            .into_owned()
    });
    let pending = (pending >= 0).then(|| pending.to_string());
    match configure(statuses.as_deref(), pending.as_deref()) {
        Ok(()) => std::ptr::null(),
        Err(message) => CString::new(message.replace('\0', " "))
            .unwrap_or_default()
            .into_raw()
            .cast_const(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn injections_read_as_written() {
        let parsed = parse("cuMemAlloc=2@1, cuStreamQuery_ptsz=600@2-4,cuInit=-1").expect("ok");
        assert_eq!(parsed.len(), 3);
        assert_eq!(
            (
                parsed[0].function.as_str(),
                parsed[0].status,
                parsed[0].calls
            ),
            ("cuMemAlloc", 2, Some((1, 1)))
        );
        assert_eq!(parsed[1].calls, Some((2, 4)));
        assert_eq!((parsed[2].status, parsed[2].calls), (-1, None));
        assert_eq!(parse(""), Ok(Vec::new()));
        for bad in [
            "cuInit",
            "=2",
            "cuInit=x",
            "cuInit=2@0",
            "cuInit=2@3-2",
            "a b=2",
        ] {
            let e = parse(bad).expect_err(bad);
            assert!(e.starts_with(STATUS_VARIABLE), "{e}");
        }
        assert_eq!(from_values(None, None).map(|c| c.pending), Ok(1));
        assert_eq!(from_values(None, Some("3")).map(|c| c.pending), Ok(3));
        assert!(from_values(None, Some("-1")).is_err());
    }
}
