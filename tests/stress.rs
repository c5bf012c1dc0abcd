//! Stress: 64 threads x every entry the simulated driver serves x 1000 iterations, racing on
//! first use; each answer must be the export the real driver named (tests/ground-truth), never a
//! lost or torn value. Then the same under a fault-mode driver, in a process of its own.

use std::collections::HashSet;
use std::ffi::CString;
use std::process::ExitCode;
use std::sync::Barrier;

use cuda_entry::{Entry, Error, ErrorKind, Stream};
use cuda_entry_sim as sim;
use cuda_entry_support::{Driver, Queries, Scenario, ground_truth_file, run_scenarios, simulator};

const THREADS: usize = 64;
const ITERATIONS: usize = 1000;

fn main() -> ExitCode {
    run_scenarios(&[
        Scenario {
            name: "sixty_four_threads_agree_with_the_ground_truth",
            driver: Driver::Sim(sim::Driver::Current),
            env: &[],
            run: sixty_four_threads_agree_with_the_ground_truth,
        },
        Scenario {
            name: "sixty_four_threads_see_one_fault_consistently",
            driver: Driver::Sim(sim::Driver::Current),
            env: &[("CUDA_ENTRY_SIM_MODE", "null-success")],
            run: sixty_four_threads_see_one_fault_consistently,
        },
    ])
}

/// Every (symbol, version, flags) row of the ground truth whose answer is an export the simulator
/// has, as a fresh entry and the address it must resolve to.
fn served_entries(sim: &sim::Simulator) -> Vec<(&'static Entry, usize)> {
    let text = ground_truth_file("driver-13000-getprocaddress.tsv");
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let (Some(symbol), Ok(version), Ok(flags), Some(&"ptr"), Some(export)) = (
            f.first(),
            f[1].parse::<u32>(),
            f[2].parse::<u64>(),
            f.get(5),
            f.get(6),
        ) else {
            continue;
        };
        let stream = match flags {
            1 => Stream::Legacy,
            2 => Stream::PerThread,
            _ => continue,
        };
        let Some(address) = sim.address(export) else {
            continue; // an export the simulator does not implement
        };
        if !seen.insert((symbol.to_string(), version, flags)) {
            continue;
        }
        let symbol: &'static std::ffi::CStr =
            Box::leak(CString::new(*symbol).expect("no NUL").into_boxed_c_str());
        out.push((
            &*Box::leak(Box::new(Entry::new(symbol, version, stream))),
            address as usize,
        ));
    }
    out
}

fn hammer<T: Send>(per_thread: impl Fn() -> T + Sync) -> Vec<T> {
    let barrier = Barrier::new(THREADS);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|_| {
                s.spawn(|| {
                    barrier.wait();
                    per_thread()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no thread panics"))
            .collect()
    })
}

fn sixty_four_threads_agree_with_the_ground_truth() {
    let sim = simulator();
    let entries = served_entries(&sim);
    assert!(entries.len() > 100, "only {} entries", entries.len());
    let mismatches = hammer(|| {
        let mut wrong = 0usize;
        for _ in 0..ITERATIONS {
            for (entry, expected) in &entries {
                match entry.resolve() {
                    Ok(pfn) if pfn.as_ptr() as usize == *expected => {}
                    _ => wrong += 1,
                }
            }
        }
        wrong
    });
    assert_eq!(mismatches.iter().sum::<usize>(), 0, "lost or torn answers");
    println!(
        "{THREADS} threads x {} entries x {ITERATIONS} iterations: every answer right",
        entries.len()
    );
    // Each (symbol, version, flag) was asked exactly once, whatever the race.
    assert_eq!(sim.queries() as usize, entries.len());
}

fn sixty_four_threads_see_one_fault_consistently() {
    let sim = simulator();
    let entries: Vec<&'static Entry> = served_entries(&sim).into_iter().map(|(e, _)| e).collect();
    let outcomes = hammer(|| {
        let mut first: Vec<Option<Error>> = vec![None; entries.len()];
        for _ in 0..ITERATIONS / 10 {
            for (i, entry) in entries.iter().enumerate() {
                let err = entry
                    .resolve()
                    .expect_err("a NULL pointer is never returned");
                assert!(matches!(err.kind(), ErrorKind::NullPointer), "{err:?}");
                match &first[i] {
                    None => first[i] = Some(err),
                    Some(e) => assert_eq!(*e, err, "the cached error never changes"),
                }
            }
        }
        first
    });
    for per_thread in &outcomes[1..] {
        assert_eq!(
            per_thread, &outcomes[0],
            "every thread sees the same errors"
        );
    }
    assert_eq!(sim.queries() as usize, entries.len());
}
