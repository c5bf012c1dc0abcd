//! Instrumentation: which export was called, and how often.
//!
//! Tests of the library prove an entry reached the right ABI variant (`cuCtxCreate` version 12050
//! must land in `cuCtxCreate_v4`) by asking these exports after the call.

use std::collections::BTreeMap;
use std::ffi::{CStr, c_char, c_void};
use std::sync::Mutex;
use std::sync::atomic::{AtomicPtr, Ordering};

/// The empty C string `cuda_entry_sim_last_call` returns before any call.
const NONE: &CStr = c"";

/// The NUL-terminated name of the most recent export called (always a `'static` string).
static LAST: AtomicPtr<c_char> = AtomicPtr::new(NONE.as_ptr().cast_mut());
/// Calls per export: its name without the NUL -> (calls, the name with its NUL).
static COUNTS: Mutex<BTreeMap<&'static str, (u64, &'static str)>> = Mutex::new(BTreeMap::new());

/// Records a call of the export `name_nul` (its name with a trailing NUL, `'static`).
pub fn enter(name_nul: &'static str) {
    let name = name_nul.strip_suffix('\0').unwrap_or(name_nul);
    COUNTS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(name)
        .or_insert((0, name_nul))
        .0 += 1;
    // Only a string with its NUL may be published: the C side reads up to it.
    if name_nul.ends_with('\0') {
        LAST.store(
            name_nul.as_ptr().cast::<c_char>().cast_mut(),
            Ordering::Release,
        );
    }
}

/// How many times the export `name` was called since the last reset (Rust API).
pub fn calls(name: &str) -> u64 {
    COUNTS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(name)
        .map_or(0, |&(count, _)| count)
}

/// Every export called since the last reset, with its count, by name (Rust API).
pub fn recorded() -> Vec<(&'static str, u64)> {
    COUNTS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .map(|(&name, &(count, _))| (name, count))
        .collect()
}

/// The export most recently called, or `""` (Rust API).
pub fn last_call() -> &'static str {
    let ptr = LAST.load(Ordering::Acquire);
    // SAFETY: LAST only ever holds NONE or a `'static` NUL-terminated name stored by `enter`.
    let name = unsafe { CStr::from_ptr(ptr) };
    name.to_str().unwrap_or("")
}

/// Forgets all calls (Rust API).
pub fn reset() {
    COUNTS.lock().unwrap_or_else(|e| e.into_inner()).clear();
    LAST.store(NONE.as_ptr().cast_mut(), Ordering::Release);
}

/// `const char *cuda_entry_sim_last_call(void)`: the name of the export most recently called
/// (NUL-terminated, static: valid for the life of the library), `""` before any call.
#[unsafe(no_mangle)]
pub extern "C" fn cuda_entry_sim_last_call() -> *const c_char {
    LAST.load(Ordering::Acquire).cast_const()
}

/// `uint64_t cuda_entry_sim_calls(const char *name)`: how many times the export `name` was called
/// since the last reset (0 for a NULL or unknown name).
///
/// # Safety
///
/// `name` must be NULL or point to a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuda_entry_sim_calls(name: *const c_char) -> u64 {
    if name.is_null() {
        return 0;
    }
    // SAFETY: non-NULL, and the caller promises a NUL-terminated string.
    let name = unsafe { CStr::from_ptr(name) };
    name.to_str().map(calls).unwrap_or(0)
}

/// `void cuda_entry_sim_reset(void)`: forgets all calls (the last call becomes `""`). Allocations,
/// contexts and the configuration are kept.
#[unsafe(no_mangle)]
pub extern "C" fn cuda_entry_sim_reset() {
    reset();
}

/// The visitor [`cuda_entry_sim_each_call`] calls: `(context, name, calls)`.
pub type CallVisitor = unsafe extern "C" fn(*mut c_void, *const c_char, u64);

/// `void cuda_entry_sim_each_call(void (*visit)(void *context, const char *name, uint64_t calls),
/// void *context)`: calls `visit` once per export called since the last reset, in name order, with
/// its name (NUL-terminated, static) and count. A NULL `visit` does nothing.
///
/// # Safety
/// `visit` must be NULL or a function safe to call with `context` and each name.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuda_entry_sim_each_call(
    visit: Option<CallVisitor>,
    context: *mut c_void,
) {
    let Some(visit) = visit else { return };
    // Copied first: the visitor may call into the simulator, which records under the same lock.
    let calls: Vec<(&'static str, u64)> = COUNTS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .values()
        .map(|&(count, name_nul)| (name_nul, count))
        .collect();
    // Only names with their NUL can be handed to C (every export records one).
    for (name_nul, count) in calls.into_iter().filter(|(name, _)| name.ends_with('\0')) {
        // SAFETY: the caller promises `visit` may be called with `context`; the name is a static,
        // NUL-terminated string.
        unsafe { visit(context, name_nul.as_ptr().cast(), count) };
    }
}
