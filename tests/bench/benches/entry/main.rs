//! The cuda-entry benchmark suite: criterion groups, then the ratios of this same run.
//!
//! ```sh
//! cargo bench -p cuda-entry-bench            # everything (about 2 minutes), then the ratio table
//! cargo bench -p cuda-entry-bench -- call    # only the call groups (the table marks the rest n/a)
//! ```
//!
//! Without a usable CUDA driver it re-runs itself against the simulated one (core/sim/simdriver);
//! `CUDA_ENTRY_BENCH_DRIVER=sim` forces that. See tests/bench/README.md and docs/performance.md.

mod count;
mod fresh;
mod ratios;
mod setup;

use std::ffi::{CString, c_int, c_void};
use std::hint::black_box;
use std::process::ExitCode;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::{Barrier, OnceLock};
use std::time::{Duration, Instant, SystemTime};

use criterion::{BatchSize, Criterion, SamplingMode};
use cuda_entry::types::{CUcontext, CUresult};
use cuda_entry::{Entry, Stream, cuda_entry};

use setup::Raw;

// The signatures of PFN_cuInit_v2000, PFN_cuDriverGetVersion_v2020, PFN_cuCtxGetCurrent_v4000.
#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuInit", version = 2000)]
    fn init(flags: u32) -> CUresult;
    #[cuda_entry(symbol = "cuDriverGetVersion", version = 2020)]
    fn driver_get_version(version: *mut c_int) -> CUresult;
    #[cuda_entry(symbol = "cuCtxGetCurrent", version = 4000)]
    fn ctx_get_current(pctx: *mut CUcontext) -> CUresult;
}

/// How many threads call concurrently in the `threads` group (`CUDA_ENTRY_BENCH_THREADS` changes it).
const THREADS: usize = 64;
/// How many fresh processes time the driver load, per kind.
const LOAD_RUNS: usize = 9;

/// The raw pointers, for the thread benchmarks' plain `fn()`s.
static RAW: OnceLock<Raw> = OnceLock::new();

fn raw() -> &'static Raw {
    RAW.get().expect("RAW is set before the benchmarks run")
}

fn main() -> ExitCode {
    if let Ok(what) = std::env::var(fresh::CHILD_VARIABLE) {
        return fresh::child(&what);
    }
    let info = match setup::driver() {
        Ok(info) => info,
        Err(code) => return code,
    };
    let simulated = if setup::is_simulated() {
        "SIMULATED "
    } else {
        ""
    };
    let driver = format!(
        "{simulated}driver `{}`, cuDriverGetVersion = {}, {:?}",
        info.path, info.version, info.bootstrap
    );
    println!("{driver}");
    let raw = match Raw::open(&info) {
        Ok(raw) => RAW.get_or_init(|| raw),
        Err(e) => {
            println!("cannot set up the raw comparison: {e}");
            return ExitCode::FAILURE;
        }
    };
    // SAFETY: cuInit's contract: flags 0.
    match unsafe { init(0) } {
        Ok(()) => {}
        other => {
            println!("cuInit(0) failed: {other:?}");
            return ExitCode::FAILURE;
        }
    }
    let cudarc = cudarc_check(raw);
    if let Err(e) = &cudarc {
        println!("NOTE: the cudarc comparison is skipped: {e}");
    }
    let served = served_entries(raw, info.version);
    if std::env::var_os(count::COUNT_VARIABLE).is_some() {
        return count::run(raw, &served, cudarc.is_ok());
    }
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let n_threads = std::env::var("CUDA_ENTRY_BENCH_THREADS")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&n| n > 1)
        .unwrap_or(THREADS);
    let args: Vec<String> = std::env::args().collect();
    let listing = args.iter().any(|a| a == "--list");
    // As criterion decides: without `--bench` (`cargo test --benches`) or with `--test`, each
    // benchmark runs once as a test and nothing is measured.
    let testing = !args.iter().any(|a| a == "--bench") || args.iter().any(|a| a == "--test");

    let loadavg_before = ratios::loadavg();
    let dir = output_directory();
    let since = SystemTime::now() - Duration::from_secs(1);
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(60)
        .output_directory(&dir)
        .configure_from_args();
    calls(&mut c, cudarc.is_ok());
    first_resolution(&mut c);
    preload(&mut c, &served);
    let per_core_threads = (cores > 1 && cores < n_threads).then_some(cores);
    threads(&mut c, n_threads, per_core_threads);
    c.final_summary();
    if listing {
        return ExitCode::SUCCESS;
    }
    let load_runs = if testing { 1 } else { LOAD_RUNS };
    let loads = fresh::measure(load_runs);
    if testing {
        println!("driver loads (test mode, one run each): {loads:?}");
        return ExitCode::SUCCESS;
    }
    ratios::report(&ratios::Run {
        dir: &dir,
        since,
        driver,
        cores,
        threads: n_threads,
        per_core_threads,
        preload_entries: served.len(),
        cudarc,
        loads,
        load_runs,
        loadavg_before,
    });
    ExitCode::SUCCESS
}

/// Where criterion writes (and the summary reads): `$CRITERION_HOME`, else
/// `$CARGO_TARGET_DIR/criterion`, else `target/criterion` next to this executable's
/// `target/<profile>/deps/`, else `./target/criterion`.
fn output_directory() -> std::path::PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return home.into();
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return std::path::PathBuf::from(target).join("criterion");
    }
    let exe = std::env::current_exe().unwrap_or_default();
    match exe.parent() {
        Some(deps) if deps.ends_with("deps") => deps
            .parent()
            .and_then(|profile| profile.parent())
            .map_or_else(|| "target/criterion".into(), |t| t.join("criterion")),
        _ => "target/criterion".into(),
    }
}

/// Whether cudarc loaded the same library as cuda-entry: its `cuDriverGetVersion` export must be
/// the one the raw comparison's handle (the library cuda-entry opened) finds. (Exports, not the
/// pointers `cuGetProcAddress` returns, which a driver may point elsewhere.) cudarc panics when it
/// finds no library at all.
fn cudarc_check(raw: &Raw) -> Result<(), String> {
    let found = std::panic::catch_unwind(|| {
        // SAFETY: only an address is looked up, never called through this type.
        unsafe { cudarc::driver::sys::culib().get::<*mut c_void>(b"cuDriverGetVersion") }
            .map(|s| *s as usize)
            .map_err(|e| e.to_string())
    })
    .map_err(|_| "cudarc found no CUDA driver library (its panic is above)".to_owned())??;
    if found != raw.export_address {
        return Err(format!(
            "cudarc loaded another library: its cuDriverGetVersion export is at {found:#x}, the \
             one of the library cuda-entry opened at {:#x} (an LD_LIBRARY_PATH with the \
             toolkit's stubs?)",
            raw.export_address
        ));
    }
    Ok(())
}

/// a. One call: the generated function (pointer() + call + `Result`), the raw pointer, cudarc.
fn calls(c: &mut Criterion, with_cudarc: bool) {
    let raw = raw();
    let mut g = c.benchmark_group("call-cuDriverGetVersion");
    g.bench_function("raw", |b| {
        let f = raw.driver_get_version;
        let mut v: c_int = 0;
        // SAFETY: a valid out-pointer.
        b.iter(|| unsafe { f(black_box(&raw mut v)) }.is_success());
    });
    g.bench_function("entry", |b| {
        let mut v: c_int = 0;
        b.iter(|| {
            // SAFETY: a valid out-pointer.
            unsafe { driver_get_version(black_box(&raw mut v)) }.is_ok()
        });
    });
    if with_cudarc {
        g.bench_function("cudarc", |b| {
            let mut v: c_int = 0;
            b.iter(|| {
                // SAFETY: a valid out-pointer.
                let r = unsafe { cudarc::driver::sys::cuDriverGetVersion(black_box(&raw mut v)) };
                r == cudarc::driver::sys::CUresult::CUDA_SUCCESS
            });
        });
    }
    g.finish();

    let mut g = c.benchmark_group("call-cuCtxGetCurrent");
    g.bench_function("raw", |b| {
        let f = raw.ctx_get_current;
        let mut ctx: CUcontext = std::ptr::null_mut();
        // SAFETY: a valid out-pointer; cuInit was called.
        b.iter(|| unsafe { f(black_box(&raw mut ctx)) }.is_success());
    });
    g.bench_function("entry", |b| {
        let mut ctx: CUcontext = std::ptr::null_mut();
        b.iter(|| {
            // SAFETY: a valid out-pointer; cuInit was called.
            unsafe { ctx_get_current(black_box(&raw mut ctx)) }.is_ok()
        });
    });
    if with_cudarc {
        g.bench_function("cudarc", |b| {
            let mut ctx: cudarc::driver::sys::CUcontext = std::ptr::null_mut();
            b.iter(|| {
                // SAFETY: a valid out-pointer; cuInit was called.
                let r = unsafe { cudarc::driver::sys::cuCtxGetCurrent(black_box(&raw mut ctx)) };
                r == cudarc::driver::sys::CUresult::CUDA_SUCCESS
            });
        });
    }
    g.finish();
}

/// b. The first resolution of an entry (a fresh `Entry` each iteration; the driver is loaded) vs
/// one raw `cuGetProcAddress_v2` call; then the same two with the memory made equal, to tell the
/// entry's own work from the cost of touching a cache line nobody has touched yet:
/// - `raw-cold-slot`: the raw query storing its answer into a fresh 64-byte slot laid out as the
///   entries are (what any lazy loader does with the pointer: keep it somewhere), from a batch
///   criterion builds as it builds the fresh entries';
/// - `raw-oncelock`: the raw query inside a fresh `std::sync::OnceLock`'s `get_or_init`: the
///   floor of any cache that asks once (a claim, the query, a publication);
/// - `entry-hot`: fresh entries built in place in a pool of 64 (4 KiB, in the first-level cache)
///   just before a timed run over the pool: the claim, the checks and the publication, without
///   the cache miss.
fn first_resolution(c: &mut Criterion) {
    let gpa = raw().get_proc_address;
    let mut g = c.benchmark_group("first-resolution");
    g.bench_function("raw-getprocaddress", |b| {
        b.iter(|| setup::raw_query(gpa, black_box(c"cuDriverGetVersion"), 2020, 1).is_some());
    });
    g.bench_function("entry", |b| {
        // Fresh entries built (and later dropped) outside the timing, like the `static`s
        // `#[cuda_entry]` generates, whose construction is compile-time.
        b.iter_batched_ref(
            || Entry::new(c"cuDriverGetVersion", 2020, Stream::Legacy),
            |entry| black_box(&*entry).resolve().is_ok(),
            BatchSize::SmallInput,
        );
    });
    g.bench_function("raw-cold-slot", |b| {
        b.iter_batched_ref(
            Slot::default,
            |slot| {
                let answer = setup::raw_query(gpa, black_box(c"cuDriverGetVersion"), 2020, 1);
                if let Some(pfn) = answer {
                    black_box(&*slot).pfn.store(pfn, Ordering::Release);
                }
                answer.is_some()
            },
            BatchSize::SmallInput,
        );
    });
    g.bench_function("raw-oncelock", |b| {
        // The standard library's once-cell around the raw query: what a careful hand-written
        // lazy loader is (one claim, the query, one publication), fresh like the entries.
        b.iter_batched_ref(
            Once::default,
            |cell| {
                let pfn = black_box(&*cell).0.get_or_init(|| {
                    setup::raw_query(gpa, black_box(c"cuDriverGetVersion"), 2020, 1)
                        .map_or(0, |p| p.addr())
                });
                *pfn != 0
            },
            BatchSize::SmallInput,
        );
    });
    g.bench_function("entry-hot", |b| {
        let mut pool: Vec<Entry> = (0..POOL)
            .map(|_| Entry::new(c"cuDriverGetVersion", 2020, Stream::Legacy))
            .collect();
        b.iter_custom(|iters| {
            let mut timed = Duration::ZERO;
            let mut left = iters;
            while left > 0 {
                let n = left.min(POOL as u64) as usize;
                for entry in &mut pool[..n] {
                    *entry = Entry::new(c"cuDriverGetVersion", 2020, Stream::Legacy);
                }
                let start = Instant::now();
                for entry in &pool[..n] {
                    black_box(black_box(entry).resolve().is_ok());
                }
                timed += start.elapsed();
                left -= n as u64;
            }
            timed
        });
    });
    g.finish();
}

/// How many fresh entries `entry-hot` resolves per timed run (64 entries of 64 bytes: 4 KiB).
const POOL: usize = 64;

/// A raw lazy loader's once-cell for one pointer (its address; 0: the query failed), laid out as
/// an `Entry` (one per cache line).
#[repr(align(64))]
#[derive(Default)]
struct Once(OnceLock<usize>);

/// Where a raw lazy loader keeps one pointer, laid out as an `Entry` (one per cache line), for
/// the raw comparisons with the same memory.
#[repr(align(64))]
#[derive(Default)]
struct Slot {
    pfn: AtomicPtr<c_void>,
}

/// One (symbol, version, stream) the driver serves, from the typedef table.
#[derive(Debug)]
pub(crate) struct Served {
    symbol: &'static std::ffi::CStr,
    version: u32,
    stream: Stream,
    flags: u64,
}

/// Every typedef of the table at or below the driver's version that the driver answers with a
/// pointer (asked once, raw), deduplicated by (symbol, version, flags).
fn served_entries(raw: &Raw, driver_version: u32) -> Vec<Served> {
    let mut seen = std::collections::HashSet::new();
    let mut served = Vec::new();
    for t in cuda_entry_table::TYPEDEFS {
        let (stream, flags) = if t.stream.is_per_thread() {
            (Stream::PerThread, 2)
        } else {
            (Stream::Legacy, 1)
        };
        if t.version > driver_version || !seen.insert((t.symbol, t.version, flags)) {
            continue;
        }
        let symbol: &'static std::ffi::CStr = Box::leak(
            CString::new(t.symbol)
                .expect("no NUL in a symbol")
                .into_boxed_c_str(),
        );
        if setup::raw_query(raw.get_proc_address, symbol, t.version, flags).is_some() {
            served.push(Served {
                symbol,
                version: t.version,
                stream,
                flags,
            });
        }
    }
    served
}

/// c. `cuda_entry::preload` over fresh entries of every served typedef vs a raw loop of
/// `cuGetProcAddress_v2` over the same requests, storing each pointer; then the same with the
/// memory made equal (see [`first_resolution`]): `raw-loop-cold` stores into fresh slots laid
/// out as the entries, `raw-loop-oncelock` asks inside fresh `OnceLock`s, `entry-preload-hot` preloads fresh entries built in place just before
/// (43 KiB for 671 entries, in the second-level cache).
fn preload(c: &mut Criterion, served: &[Served]) {
    let gpa = raw().get_proc_address;
    let mut g = c.benchmark_group("preload");
    g.bench_function("raw-loop", |b| {
        let mut pointers: Vec<*mut c_void> = vec![std::ptr::null_mut(); served.len()];
        b.iter(|| {
            let mut failures = 0usize;
            for (s, slot) in served.iter().zip(pointers.iter_mut()) {
                match setup::raw_query(gpa, s.symbol, s.version, s.flags) {
                    Some(p) => *slot = p,
                    None => failures += 1,
                }
            }
            black_box(&pointers);
            failures
        });
    });
    let fresh = || {
        served
            .iter()
            .map(|s| Entry::new(s.symbol, s.version, s.stream))
            .collect::<Vec<Entry>>()
    };
    g.bench_function("entry-preload", |b| {
        b.iter_batched(
            fresh,
            |entries| {
                // The slice of references preload takes (one small allocation, timed).
                let refs: Vec<&Entry> = entries.iter().collect();
                black_box(cuda_entry::preload(&refs).is_ok());
                drop(refs);
                entries // dropped after the timing
            },
            BatchSize::SmallInput,
        );
    });
    g.bench_function("raw-loop-cold", |b| {
        b.iter_batched_ref(
            || {
                (0..served.len())
                    .map(|_| Slot::default())
                    .collect::<Vec<Slot>>()
            },
            |slots| {
                let mut failures = 0usize;
                for (s, slot) in served.iter().zip(slots.iter()) {
                    match setup::raw_query(gpa, s.symbol, s.version, s.flags) {
                        Some(p) => slot.pfn.store(p, Ordering::Release),
                        None => failures += 1,
                    }
                }
                black_box(&*slots);
                failures
            },
            BatchSize::SmallInput,
        );
    });
    g.bench_function("raw-loop-oncelock", |b| {
        b.iter_batched_ref(
            || {
                (0..served.len())
                    .map(|_| Once::default())
                    .collect::<Vec<Once>>()
            },
            |cells| {
                let mut failures = 0usize;
                for (s, cell) in served.iter().zip(cells.iter()) {
                    let pfn = cell.0.get_or_init(|| {
                        setup::raw_query(gpa, s.symbol, s.version, s.flags).map_or(0, |p| p.addr())
                    });
                    failures += usize::from(*pfn == 0);
                }
                black_box(&*cells);
                failures
            },
            BatchSize::SmallInput,
        );
    });
    g.bench_function("entry-preload-hot", |b| {
        let mut entries = fresh();
        b.iter_custom(|iters| {
            let mut timed = Duration::ZERO;
            for _ in 0..iters {
                for (entry, s) in entries.iter_mut().zip(served) {
                    *entry = Entry::new(s.symbol, s.version, s.stream);
                }
                let start = Instant::now();
                let refs: Vec<&Entry> = entries.iter().collect();
                black_box(cuda_entry::preload(&refs).is_ok());
                drop(refs);
                timed += start.elapsed();
            }
            timed
        });
    });
    g.finish();
}

fn entry_call() {
    let mut v: c_int = 0;
    // SAFETY: a valid out-pointer.
    black_box(unsafe { driver_get_version(black_box(&raw mut v)) }.is_ok());
}

fn raw_call() {
    let mut v: c_int = 0;
    // SAFETY: a valid out-pointer.
    black_box(unsafe { (raw().driver_get_version)(black_box(&raw mut v)) }.is_success());
}

fn entry_pointer() {
    black_box(driver_get_version::pointer().is_ok());
}

/// Runs `f` `iters` times on each of `threads` threads released together; the wall time from the
/// first start to the last end (so the time per iteration is the inverse per-thread throughput).
fn parallel(threads: usize, iters: u64, f: fn()) -> Duration {
    let barrier = Barrier::new(threads);
    let spans: Vec<(Instant, Instant)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    barrier.wait();
                    let start = Instant::now();
                    for _ in 0..iters {
                        f();
                    }
                    (start, Instant::now())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("bench thread"))
            .collect()
    });
    let start = spans.iter().map(|s| s.0).min().expect("a thread");
    let end = spans.iter().map(|s| s.1).max().expect("a thread");
    end - start
}

/// d. 1 vs `n_threads` threads (and one per core, where there are fewer cores) calling
/// `cuDriverGetVersion` through the entry; the same through the raw pointer, and the entry's fast
/// path without the call, to tell the entry's scaling from the driver's.
fn threads(c: &mut Criterion, n_threads: usize, per_core: Option<usize>) {
    let mut g = c.benchmark_group("threads");
    g.sampling_mode(SamplingMode::Flat);
    for (name, f) in [
        ("entry-call", entry_call as fn()),
        ("raw-call", raw_call),
        ("entry-pointer", entry_pointer),
    ] {
        for n in [Some(1), per_core, Some(n_threads)].into_iter().flatten() {
            g.bench_function(format!("{name}-{n}"), |b| {
                b.iter_custom(|iters| parallel(n, iters, f));
            });
        }
    }
    g.finish();
}
