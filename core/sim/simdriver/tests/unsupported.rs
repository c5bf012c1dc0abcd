//! The exports the simulator does not implement (a stub for each of the real driver's other
//! functions) and the instrumentation the test kit uses: `cuda_entry_sim_configure`,
//! `cuda_entry_sim_each_call`, `cuda_entry_sim_implements`. In-process, through the rlib.

use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::sync::Mutex;

use cuda_entry_simdriver as sim;
use sim::{Config, Mode};

/// Tests of one binary share the simulator's global configuration and counters.
static LOCK: Mutex<()> = Mutex::new(());

fn lock() -> std::sync::MutexGuard<'static, ()> {
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// The pointer `cuGetProcAddress_v2` hands out for `symbol` at `version` (flags 0), and its status.
fn resolve(symbol: &str, version: c_int) -> (c_int, *mut c_void) {
    let symbol = CString::new(symbol).expect("no NUL");
    let (mut pfn, mut status) = (std::ptr::null_mut(), -1);
    // SAFETY: NUL-terminated symbol, writable pfn and status.
    let rc =
        unsafe { sim::cuGetProcAddress_v2(symbol.as_ptr(), &mut pfn, version, 0, &mut status) };
    assert_eq!(rc, 0, "cuGetProcAddress_v2({symbol:?}, {version})");
    (status, pfn)
}

/// `cuMemsetD2D32_v2(CUdeviceptr, size_t dstPitch, unsigned int, size_t Width, size_t Height)`,
/// as a caller declares it.
type MemsetD2D32 = unsafe extern "C" fn(u64, usize, u32, usize, usize) -> c_int;

fn implements(name: &str) -> c_int {
    let name = CString::new(name).expect("no NUL");
    // SAFETY: a NUL-terminated name.
    unsafe { sim::cuda_entry_sim_implements(name.as_ptr()) }
}

#[test]
fn an_unimplemented_function_is_handed_out_and_answers_801_recorded_by_name() {
    let _guard = lock();
    sim::set_config(Config {
        version: 13000,
        mode: Mode::Normal,
    });
    sim::reset();
    // The real driver hands out cuMemsetD2D32_v2 for version 3020; so does the simulator.
    let (status, pfn) = resolve("cuMemsetD2D32", 3020);
    assert_eq!(status, 0);
    assert_eq!(sim::export_name_of(pfn), Some("cuMemsetD2D32_v2"));
    assert!(!sim::is_implemented("cuMemsetD2D32_v2"));
    assert!(sim::unsupported::NAMES.contains(&"cuMemsetD2D32_v2"));
    // SAFETY: the pointer is the export for PFN_cuMemsetD2D32_v3020, called with its arguments
    // (the stub reads none of them).
    let memset: MemsetD2D32 = unsafe { std::mem::transmute::<*mut c_void, MemsetD2D32>(pfn) };
    // SAFETY: as above.
    let rc = unsafe { memset(0x1000_0000, 64, 7, 16, 2) };
    assert_eq!(rc, sim::rc::NOT_SUPPORTED);
    assert_eq!(rc, 801);
    assert_eq!(sim::last_call(), "cuMemsetD2D32_v2");
    assert_eq!(sim::calls("cuMemsetD2D32_v2"), 1);
    assert!(sim::recorded().contains(&("cuMemsetD2D32_v2", 1)));
    // In stub mode it answers 34 like every export.
    sim::set_mode(Mode::Stub);
    // SAFETY: as above.
    assert_eq!(unsafe { memset(0x1000_0000, 64, 7, 16, 2) }, 34);
    assert_eq!(sim::calls("cuMemsetD2D32_v2"), 2);
    sim::set_mode(Mode::Normal);
}

#[test]
fn every_symbol_the_driver_resolves_reaches_an_export_of_this_library() {
    let _guard = lock();
    sim::set_config(Config {
        version: 13000,
        mode: Mode::Normal,
    });
    let resolvable = sim::resolvable_symbols();
    assert!(resolvable.len() > 400, "only {} symbols", resolvable.len());
    for symbol in resolvable {
        let (status, pfn) = resolve(symbol, 13000);
        if status == 0 {
            assert!(
                sim::export_name_of(pfn).is_some(),
                "{symbol}: {pfn:p} is no export"
            );
        } else {
            // Only symbols whose first typedef is per-thread-only or newer answer otherwise.
            assert_eq!(status, 2, "{symbol}");
        }
    }
    // The implemented ones are a small, known part.
    for name in ["cuMemAlloc_v2", "cuCtxCreate_v4", "cuGetProcAddress_v2"] {
        assert!(sim::is_implemented(name), "{name}");
    }
    let stubs = sim::unsupported::NAMES;
    assert!(stubs.len() > 500, "{}", stubs.len());
    assert!(stubs.windows(2).all(|w| w[0] < w[1]), "sorted");
    for name in stubs {
        assert!(
            !sim::is_implemented(name),
            "{name} is implemented and a stub"
        );
    }
}

#[test]
fn implements_tells_implemented_stubbed_and_unknown_apart() {
    assert_eq!(implements("cuMemAlloc_v2"), 1);
    assert_eq!(implements("cuGetProcAddress_v2"), 1);
    assert_eq!(implements("cuMemsetD2D32_v2"), 0);
    assert_eq!(implements("cuFoo"), -1);
    assert_eq!(implements("cuda_entry_sim_calls"), -1);
    // SAFETY: NULL is allowed.
    let null = unsafe { sim::cuda_entry_sim_implements(std::ptr::null()) };
    assert_eq!(null, -1);
}

/// Calls `cuda_entry_sim_configure` and returns its message, if any.
fn configure(version: c_int, mode: Option<&str>) -> Option<String> {
    let mode = mode.map(|m| CString::new(m).expect("no NUL"));
    let mode_ptr = mode.as_ref().map_or(std::ptr::null(), |m| m.as_ptr());
    // SAFETY: NULL or a NUL-terminated mode.
    let message = unsafe { sim::cuda_entry_sim_configure(version, mode_ptr) };
    if message.is_null() {
        return None;
    }
    // SAFETY: a static NUL-terminated message.
    Some(
        unsafe { CStr::from_ptr(message) }
            .to_string_lossy()
            .into_owned(),
    )
}

#[test]
fn configure_sets_what_it_is_given_and_refuses_malformed_values_changing_nothing() {
    let _guard = lock();
    sim::reset_config();
    assert_eq!(configure(12040, Some("rc=999")), None);
    assert_eq!(
        sim::config::get(),
        Config {
            version: 12040,
            mode: Mode::Rc(999)
        }
    );
    let message = configure(0, Some("stubb")).expect("a malformed mode is refused");
    assert!(
        message.contains("CUDA_ENTRY_SIM_MODE=\"stubb\" is not one of normal, stub"),
        "{message}"
    );
    assert_eq!(sim::config::get().mode, Mode::Rc(999), "nothing changed");
    let message = configure(-5, None).expect("a negative version is refused");
    assert!(message.contains("is not a positive integer"), "{message}");
    // 0 and NULL: the environment, here unset (the test command sets neither variable), so the
    // build's defaults.
    if std::env::var_os("CUDA_ENTRY_SIM_VERSION").is_none()
        && std::env::var_os("CUDA_ENTRY_SIM_MODE").is_none()
    {
        assert_eq!(configure(0, None), None);
        assert_eq!(
            sim::config::get(),
            Config {
                version: 13000,
                mode: Mode::Normal
            }
        );
    }
    sim::reset_config();
}

unsafe extern "C" fn collect(context: *mut c_void, name: *const c_char, calls: u64) {
    // SAFETY: `context` is the Vec passed below; `name` a NUL-terminated string.
    let seen = unsafe { &mut *context.cast::<Vec<(String, u64)>>() };
    // SAFETY: as above.
    let name = unsafe { CStr::from_ptr(name) }
        .to_string_lossy()
        .into_owned();
    seen.push((name, calls));
}

#[test]
fn each_call_visits_every_recorded_export_with_its_count() {
    let _guard = lock();
    sim::set_config(Config {
        version: 13000,
        mode: Mode::Normal,
    });
    sim::reset();
    let mut version = 0;
    // SAFETY: writable ints.
    unsafe {
        sim::cuDriverGetVersion(&mut version);
        sim::cuDriverGetVersion(&mut version);
    }
    let _ = resolve("cuMemAlloc", 3020);
    let mut seen: Vec<(String, u64)> = Vec::new();
    // SAFETY: `collect` is called with the Vec as context, as it expects.
    unsafe { sim::cuda_entry_sim_each_call(Some(collect), (&raw mut seen).cast()) };
    assert_eq!(
        seen,
        [
            ("cuDriverGetVersion".to_owned(), 2),
            ("cuGetProcAddress_v2".to_owned(), 1)
        ]
    );
    // SAFETY: NULL visitor: nothing happens.
    unsafe { sim::cuda_entry_sim_each_call(None, std::ptr::null_mut()) };
}
