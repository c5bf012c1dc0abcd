//! Instruction counts: with `CUDA_ENTRY_BENCH_COUNT=<n>` the executable runs each compared
//! operation `n` times in a function of its own and exits, for `valgrind --tool=callgrind` to
//! count (repeatable where timings are not). tests/bench/callgrind.sh runs it and prints the
//! instructions per operation and their ratios.

use std::ffi::{c_int, c_void};
use std::hint::black_box;
use std::process::ExitCode;
use std::sync::OnceLock;

use cuda_entry::{Entry, Stream};

use crate::setup::{self, Raw};
use crate::{Served, driver_get_version};

/// How many times each operation runs (preload: how many rounds over the served entries).
pub(crate) const COUNT_VARIABLE: &str = "CUDA_ENTRY_BENCH_COUNT";

pub(crate) fn run(raw: &Raw, served: &[Served], with_cudarc: bool) -> ExitCode {
    let n: u32 = std::env::var(COUNT_VARIABLE)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let mut ok = 0;
    ok += count_raw_call(raw, n);
    ok += count_entry_call(n);
    if with_cudarc {
        ok += count_cudarc_call(n);
    }
    ok += count_raw_first(raw, n);
    let fresh: Vec<Entry> = (0..n)
        .map(|_| Entry::new(c"cuDriverGetVersion", 2020, Stream::Legacy))
        .collect();
    ok += count_entry_first(&fresh);
    let cells: Vec<OnceLock<usize>> = (0..n).map(|_| OnceLock::new()).collect();
    ok += count_oncelock_first(raw, &cells);
    let rounds = (n / 10).max(1);
    ok += count_raw_loop(raw, served, rounds);
    let batches: Vec<Vec<Entry>> = (0..rounds)
        .map(|_| {
            served
                .iter()
                .map(|s| Entry::new(s.symbol, s.version, s.stream))
                .collect()
        })
        .collect();
    ok += count_entry_preload(&batches);
    let cell_batches: Vec<Vec<OnceLock<usize>>> = (0..rounds)
        .map(|_| served.iter().map(|_| OnceLock::new()).collect())
        .collect();
    ok += count_oncelock_loop(raw, served, &cell_batches);
    println!(
        "counted n={n} (preload: {rounds} rounds of {} entries), {ok} successes",
        served.len()
    );
    ExitCode::SUCCESS
}

#[inline(never)]
fn count_raw_call(raw: &Raw, n: u32) -> u32 {
    let f = black_box(raw.driver_get_version);
    let mut v: c_int = 0;
    // SAFETY: a valid out-pointer.
    (0..n)
        .map(|_| u32::from(unsafe { f(black_box(&raw mut v)) }.is_success()))
        .sum()
}

#[inline(never)]
fn count_entry_call(n: u32) -> u32 {
    let mut v: c_int = 0;
    (0..n)
        .map(|_| {
            // SAFETY: a valid out-pointer.
            let r = unsafe { driver_get_version(black_box(&raw mut v)) };
            u32::from(r.is_ok())
        })
        .sum()
}

#[inline(never)]
fn count_cudarc_call(n: u32) -> u32 {
    let mut v: c_int = 0;
    (0..n)
        .map(|_| {
            // SAFETY: a valid out-pointer.
            let r = unsafe { cudarc::driver::sys::cuDriverGetVersion(black_box(&raw mut v)) };
            u32::from(r == cudarc::driver::sys::CUresult::CUDA_SUCCESS)
        })
        .sum()
}

#[inline(never)]
fn count_raw_first(raw: &Raw, n: u32) -> u32 {
    let gpa = raw.get_proc_address;
    (0..n)
        .map(|_| {
            u32::from(setup::raw_query(gpa, black_box(c"cuDriverGetVersion"), 2020, 1).is_some())
        })
        .sum()
}

#[inline(never)]
fn count_entry_first(fresh: &[Entry]) -> u32 {
    fresh
        .iter()
        .map(|e| u32::from(black_box(e).resolve().is_ok()))
        .sum()
}

/// The raw query inside a fresh `OnceLock` (a once-cell's floor; main.rs, `raw-oncelock`).
#[inline(never)]
fn count_oncelock_first(raw: &Raw, cells: &[OnceLock<usize>]) -> u32 {
    let gpa = raw.get_proc_address;
    cells
        .iter()
        .map(|cell| {
            let pfn = black_box(cell).get_or_init(|| {
                setup::raw_query(gpa, black_box(c"cuDriverGetVersion"), 2020, 1)
                    .map_or(0, |p| p.addr())
            });
            u32::from(*pfn != 0)
        })
        .sum()
}

/// The raw loop asking inside fresh `OnceLock`s (main.rs, `raw-loop-oncelock`).
#[inline(never)]
fn count_oncelock_loop(raw: &Raw, served: &[Served], batches: &[Vec<OnceLock<usize>>]) -> u32 {
    let gpa = raw.get_proc_address;
    batches
        .iter()
        .map(|cells| {
            let mut failures = 0u32;
            for (s, cell) in served.iter().zip(cells) {
                let pfn = cell.get_or_init(|| {
                    setup::raw_query(gpa, s.symbol, s.version, s.flags).map_or(0, |p| p.addr())
                });
                failures += u32::from(*pfn == 0);
            }
            u32::from(failures == 0)
        })
        .sum()
}

#[inline(never)]
fn count_raw_loop(raw: &Raw, served: &[Served], rounds: u32) -> u32 {
    let gpa = raw.get_proc_address;
    let mut pointers: Vec<*mut c_void> = vec![std::ptr::null_mut(); served.len()];
    let mut ok = 0;
    for _ in 0..rounds {
        let mut failures = 0u32;
        for (s, slot) in served.iter().zip(pointers.iter_mut()) {
            match setup::raw_query(gpa, s.symbol, s.version, s.flags) {
                Some(p) => *slot = p,
                None => failures += 1,
            }
        }
        black_box(&pointers);
        ok += u32::from(failures == 0);
    }
    ok
}

#[inline(never)]
fn count_entry_preload(batches: &[Vec<Entry>]) -> u32 {
    batches
        .iter()
        .map(|entries| {
            let refs: Vec<&Entry> = entries.iter().collect();
            u32::from(cuda_entry::preload(&refs).is_ok())
        })
        .sum()
}
