//! The real driver: every typedef of the table resolved through the crate's runtime and checked
//! against what the real driver answered (tests/ground-truth), plus the run-time errors.
//!
//! Without a real CUDA driver (CI, or the override pointing at a simulator) each test prints a
//! loud SKIPPED line and returns: these tests are for a machine with a GPU (tests/device/).

use std::collections::HashMap;
use std::ffi::CString;
use std::time::Instant;

use cuda_entry::{Entry, ErrorKind, Stream};
use cuda_entry_support::{export_name, ground_truth_file};
use cuda_entry_table::{TYPEDEFS, Typedef};

/// The driver version the ground truth was read from (driver 580.159.04 on an H200).
const GROUND_TRUTH_DRIVER: u32 = 13000;

/// The loaded driver's version, or `None` (after saying why) when it is not a real driver.
fn real_driver(test: &str) -> Option<u32> {
    if let Some(path) = std::env::var_os(cuda_entry::PATH_VARIABLE)
        && path.to_string_lossy().contains("simdriver")
    {
        eprintln!(
            "SKIPPED {test}: {} points at a simulated driver",
            cuda_entry::PATH_VARIABLE
        );
        return None;
    }
    match cuda_entry::driver_info() {
        Ok(info) => {
            eprintln!(
                "{test}: real driver `{}` reports {}",
                info.path, info.version
            );
            Some(info.version)
        }
        Err(e) => {
            loud(&format!(
                "SKIPPED {test}: no real CUDA driver on this machine ({e})"
            ));
            None
        }
    }
}

/// Writes past libtest's output capture, so a skip shows in every run's output.
fn loud(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// One row of driver-13000-getprocaddress.tsv.
struct Answer {
    status: i32,
    pfn: String,
    exported: String,
}

fn ground_truth() -> HashMap<(String, u32, u64), Answer> {
    let text = ground_truth_file("driver-13000-getprocaddress.tsv");
    let mut rows = HashMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("symbol\t"))
    {
        let f: Vec<&str> = line.split('\t').collect();
        let (Ok(version), Ok(flags), Ok(status)) = (f[1].parse(), f[2].parse(), f[4].parse())
        else {
            continue;
        };
        rows.insert(
            (f[0].to_owned(), version, flags),
            Answer {
                status,
                pfn: f[5].to_owned(),
                exported: f[6].to_owned(),
            },
        );
    }
    rows
}

fn entry_for(t: &Typedef) -> &'static Entry {
    let symbol: &'static std::ffi::CStr =
        Box::leak(CString::new(t.symbol).expect("no NUL").into_boxed_c_str());
    let stream = if t.stream.is_per_thread() {
        Stream::PerThread
    } else {
        Stream::Legacy
    };
    Box::leak(Box::new(Entry::new(symbol, t.version, stream)))
}

#[test]
fn every_typedef_resolves_to_the_export_the_real_driver_names() {
    let Some(driver_version) = real_driver("every_typedef") else {
        return;
    };
    let truth = ground_truth();
    let exports = ground_truth_file("driver-13000-exports.txt");
    let exported = |symbol: &str| {
        exports.lines().any(|e| {
            e == symbol
                || e.strip_prefix(symbol)
                    .is_some_and(|rest| rest.starts_with('_'))
        })
    };
    let mut not_exported = 0;
    let exact_truth = driver_version == GROUND_TRUTH_DRIVER;
    let (mut resolved, mut expected, mut too_new, mut unchecked) = (0, 0, 0, 0);
    let mut mismatches = Vec::new();
    let start = Instant::now();
    for t in TYPEDEFS {
        let name = t.typedef_name();
        let flags = if t.stream.is_per_thread() { 2 } else { 1 };
        let outcome = entry_for(t).resolve();
        if t.version > driver_version {
            too_new += 1;
            match &outcome {
                Err(e)
                    if e.kind() == &ErrorKind::DriverTooOld
                        && e.driver_version() == Some(driver_version) => {}
                other => mismatches.push(format!(
                    "{name}: newer than the driver, expected DriverTooOld, got {other:?}"
                )),
            }
            continue;
        }
        let row = truth
            .get(&(t.symbol.to_owned(), t.version, flags))
            .filter(|_| exact_truth);
        match (&outcome, row) {
            (Ok(pfn), Some(answer)) if answer.pfn == "ptr" => {
                resolved += 1;
                expected += 1;
                let got = export_name(pfn.as_ptr()).unwrap_or_else(|| "<not an export>".into());
                if got != answer.exported {
                    mismatches.push(format!(
                        "{name}: reached {got}, the ground truth says {}",
                        answer.exported
                    ));
                }
            }
            (Err(e), Some(answer))
                if e.kind() == &ErrorKind::SymbolNotFound && answer.status == 1 =>
            {
                expected += 1
            }
            (Err(e), Some(answer))
                if e.kind() == &ErrorKind::VersionNotSufficient && answer.status == 2 =>
            {
                expected += 1
            }
            (_, Some(answer)) => mismatches.push(format!(
                "{name}: got {outcome:?}, the ground truth says status {} pfn {} export {}",
                answer.status, answer.pfn, answer.exported
            )),
            (Ok(pfn), None) => {
                // No row (per-thread typedefs at their own version, the GL/EGL/VDPAU/profiler
                // headers): the pointer must still be an export of this symbol, of the right kind.
                resolved += 1;
                unchecked += 1;
                let got = export_name(pfn.as_ptr()).unwrap_or_default();
                let right_kind =
                    !t.stream.is_per_thread() || got.ends_with("_ptsz") || got.ends_with("_ptds");
                if !got.starts_with(t.symbol) || !right_kind {
                    mismatches.push(format!(
                        "{name}: reached `{got}`, not an export of {} of this flavour",
                        t.symbol
                    ));
                }
            }
            // Headers declare some typedefs for other platforms (cuWGLGetDevice is Windows-only):
            // the driver then knows no such symbol, and its export list agrees.
            (Err(e), None)
                if e.kind() == &ErrorKind::SymbolNotFound && exact_truth && !exported(t.symbol) =>
            {
                not_exported += 1
            }
            (Err(e), None) => mismatches.push(format!("{name}: {e}")),
        }
    }
    let elapsed = start.elapsed();
    println!(
        "SUMMARY typedefs={} resolved={resolved} checked_against_ground_truth={expected} without_ground_truth={unchecked} newer_than_driver={too_new} not_exported_on_this_platform={not_exported} mismatched={} resolution_total_us={:.0}",
        TYPEDEFS.len(),
        mismatches.len(),
        elapsed.as_secs_f64() * 1e6
    );
    for m in &mismatches {
        println!("MISMATCH {m}");
    }
    assert!(mismatches.is_empty(), "{} mismatches", mismatches.len());
    assert!(
        resolved > 600,
        "the real driver should serve most of the table"
    );
}

#[test]
fn real_driver_errors_name_symbol_version_and_driver() {
    let Some(driver_version) = real_driver("real_driver_errors") else {
        return;
    };
    let unknown = entry_for(&probe("cuDefinitelyNotAFunction", 12000, false))
        .resolve()
        .unwrap_err();
    assert!(
        matches!(unknown.kind(), ErrorKind::SymbolNotFound),
        "{unknown:?}"
    );
    let suffixed = entry_for(&probe("cuMemAlloc_v2", 3020, false))
        .resolve()
        .unwrap_err();
    assert!(
        matches!(suffixed.kind(), ErrorKind::SymbolNotFound),
        "{suffixed:?}"
    );
    let trap = entry_for(&probe("cuLaunchKernel", 4000, true))
        .resolve()
        .unwrap_err();
    assert!(
        matches!(trap.kind(), ErrorKind::VersionNotSufficient),
        "{trap:?}"
    );
    let too_low = entry_for(&probe("cuLaunchKernel", 3990, false))
        .resolve()
        .unwrap_err();
    assert!(
        matches!(too_low.kind(), ErrorKind::VersionNotSufficient),
        "{too_low:?}"
    );
    let too_new = entry_for(&probe("cuMemAlloc", driver_version + 10, false))
        .resolve()
        .unwrap_err();
    assert!(
        matches!(too_new.kind(), ErrorKind::DriverTooOld),
        "{too_new:?}"
    );
    for e in [&unknown, &trap, &too_new] {
        let text = e.to_string();
        println!("ERROR {text}");
        assert!(
            text.contains(&format!(
                "CUDA {}.{}",
                driver_version / 1000,
                driver_version % 1000 / 10
            )),
            "{text}"
        );
    }
    let per_thread = entry_for(&probe("cuLaunchKernel", 7000, true))
        .resolve()
        .expect("per-thread launch");
    assert_eq!(
        export_name(per_thread.as_ptr()).as_deref(),
        Some("cuLaunchKernel_ptsz")
    );
    let legacy = entry_for(&probe("cuLaunchKernel", 4000, false))
        .resolve()
        .expect("legacy launch");
    assert_eq!(
        export_name(legacy.as_ptr()).as_deref(),
        Some("cuLaunchKernel")
    );
}

/// A request outside the table, for error paths.
fn probe(symbol: &'static str, version: u32, per_thread: bool) -> Typedef {
    let mut t = TYPEDEFS[0];
    t.symbol = symbol;
    t.version = version;
    t.stream = if per_thread {
        cuda_entry_table::Stream::Ptsz
    } else {
        cuda_entry_table::Stream::Legacy
    };
    t
}

#[test]
fn the_runtime_resolver_agrees_with_the_driver() {
    let Some(_) = real_driver("runtime_resolver") else {
        return;
    };
    let runtime_version = match cuda_entry::runtime_version() {
        Ok(v) => v,
        Err(e) => {
            loud(&format!(
                "SKIPPED runtime_resolver: no CUDA runtime >= 12.5 here ({e})"
            ));
            return;
        }
    };
    println!("runtime_resolver: runtime reports {runtime_version}");
    for (symbol, version, per_thread) in [
        ("cuMemAlloc", 3020, false),
        ("cuCtxCreate", 12050, false),
        ("cuLaunchKernel", 4000, false),
        ("cuLaunchKernel", 7000, true),
        ("cuStreamBeginCapture", 10010, true),
    ] {
        let t = probe(symbol, version, per_thread);
        let through_driver = entry_for(&t).resolve().expect("the driver serves it");
        let runtime_entry: &'static Entry = Box::leak(Box::new(
            Entry::new(
                Box::leak(CString::new(symbol).expect("no NUL").into_boxed_c_str()),
                version,
                if per_thread {
                    Stream::PerThread
                } else {
                    Stream::Legacy
                },
            )
            .through(cuda_entry::Resolver::Runtime),
        ));
        let through_runtime = runtime_entry.resolve().expect("the runtime serves it");
        println!(
            "runtime_resolver: {symbol} {version}{} -> {:?}",
            if per_thread { " per-thread" } else { "" },
            export_name(through_runtime.as_ptr())
        );
        assert_eq!(through_runtime, through_driver, "{symbol} {version}");
    }
    let trap = Entry::new(c"cuLaunchKernel", 4000, Stream::PerThread)
        .through(cuda_entry::Resolver::Runtime);
    let err = trap.resolve().unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::VersionNotSufficient, "{err}");
}
