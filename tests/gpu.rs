//! The real driver: every typedef of the table resolved through the crate's runtime and checked
//! against what the real driver answered (tests/ground-truth) or, on another driver, against the
//! export naming rule read off it; plus the run-time errors.
//!
//! Without a real CUDA driver (CI, or the override pointing at a simulator) each GPU test prints
//! `SKIPPED <test>: <why>` past libtest's capture and returns; with `CUDA_ENTRY_REQUIRE_GPU=1`
//! (tests/device/run.sh sets it) it fails instead. The naming rule's own test needs no GPU.

use std::collections::HashMap;
use std::ffi::{CString, c_void};
use std::time::Instant;

use cuda_entry::{DriverInfo, Entry, ErrorKind, Stream};
use cuda_entry_support::{export_name, gpu_check_cannot_run, ground_truth_file};
use cuda_entry_table::{TYPEDEFS, Typedef, lookup};

/// The driver version the ground truth was read from (driver 580.159.04 on an H200).
const GROUND_TRUTH_DRIVER: u32 = 13000;

/// The loaded driver, when it is a real one; otherwise `None`, after [`gpu_check_cannot_run`].
fn real_driver(test: &str) -> Option<(DriverInfo, libloading::Library)> {
    let info = match cuda_entry::driver_info() {
        Ok(info) => info,
        Err(e) => {
            gpu_check_cannot_run(test, &format!("no real CUDA driver on this machine ({e})"));
            return None;
        }
    };
    // SAFETY: the library is loaded already (reopening runs no initialiser); only addresses are
    // looked up in it.
    let library = unsafe { libloading::Library::new(&info.path) }
        .unwrap_or_else(|e| panic!("reopening the loaded driver `{}`: {e}", info.path));
    if exports(&library, "cuda_entry_sim_calls") {
        gpu_check_cannot_run(
            test,
            &format!(
                "`{}` is a simulated driver (through {})",
                info.path,
                cuda_entry::PATH_VARIABLE
            ),
        );
        return None;
    }
    println!(
        "{test}: real driver `{}` reports {}",
        info.path, info.version
    );
    Some((info, library))
}

/// Whether `library` exports `name`.
fn exports(library: &libloading::Library, name: &str) -> bool {
    // SAFETY: only the symbol's address is read, nothing is called.
    unsafe { library.get::<*const c_void>(name.as_bytes()) }.is_ok()
}

/// The export `cuGetProcAddress` hands out for `symbol` at `version`, by the rule the real
/// driver follows (read off tests/ground-truth and held against every row of it by
/// `the_export_naming_rule_matches_every_ground_truth_row`):
///
/// - the legacy typedefs of a symbol, in version order, are the exports `symbol`, `symbol_v2`,
///   `symbol_v3`...: `cuMemAlloc` 3020 is `cuMemAlloc_v2`, `cuCtxCreate` 12050 `cuCtxCreate_v4`;
///   a request reaches the newest typedef at or below its version;
/// - a per-thread request of a symbol with per-thread typedefs reaches the newest one at or below
///   its version: the legacy export at that typedef's version plus `_ptsz` or `_ptds`
///   (`cuMemcpyHtoD` 7000 is `cuMemcpyHtoD_v2_ptds`); a symbol without any answers as legacy.
///
/// `None`: an unknown symbol, or no typedef at or below `version` (`VERSION_NOT_SUFFICIENT`).
fn export_for(symbol: &str, version: u32, per_thread: bool) -> Option<String> {
    let typedefs = lookup(symbol);
    let mut legacy: Vec<u32> = typedefs
        .iter()
        .filter(|t| !t.stream.is_per_thread())
        .map(|t| t.version)
        .collect();
    legacy.sort_unstable();
    legacy.dedup();
    let legacy_export = |version: u32| {
        let index = legacy.iter().rposition(|&v| v <= version)?;
        Some(match index {
            0 => symbol.to_owned(),
            i => format!("{symbol}_v{}", i + 1),
        })
    };
    let twins = || typedefs.iter().filter(|t| t.stream.is_per_thread());
    if per_thread && twins().next().is_some() {
        let twin = twins()
            .filter(|t| t.version <= version)
            .max_by_key(|t| t.version)?;
        Some(legacy_export(twin.version)? + twin.stream.suffix())
    } else {
        legacy_export(version)
    }
}

/// The ground-truth rows of one file (no comments, no header), split on tabs.
fn rows(text: &str) -> Vec<Vec<&str>> {
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("symbol\t"))
        .map(|l| l.split('\t').collect())
        .collect()
}

fn number<T: std::str::FromStr>(row: &[&str], column: usize) -> T {
    row[column]
        .parse()
        .unwrap_or_else(|_| panic!("column {column} of {row:?} is not a number"))
}

#[test]
fn the_export_naming_rule_matches_every_ground_truth_row() {
    for (symbol, version, per_thread, export) in [
        ("cuMemAlloc", 2000, false, Some("cuMemAlloc")),
        ("cuMemAlloc", 3020, false, Some("cuMemAlloc_v2")),
        ("cuMemAlloc", 3020, true, Some("cuMemAlloc_v2")),
        ("cuCtxCreate", 12050, false, Some("cuCtxCreate_v4")),
        ("cuCtxCreate", 12040, false, Some("cuCtxCreate_v3")),
        ("cuMemcpy", 4000, false, Some("cuMemcpy")),
        ("cuMemcpy2D", 3020, false, Some("cuMemcpy2D_v2")),
        ("cuMemcpy", 7000, true, Some("cuMemcpy_ptds")),
        ("cuLaunchKernel", 7000, true, Some("cuLaunchKernel_ptsz")),
        ("cuLaunchKernel", 4000, true, None),
        ("cuMemAlloc", 1000, false, None),
        ("cuDefinitelyNotAFunction", 12000, false, None),
    ] {
        assert_eq!(
            export_for(symbol, version, per_thread).as_deref(),
            export,
            "{symbol} {version} per-thread {per_thread}"
        );
    }
    // cuGetProcAddress_v2(symbol, version, flags): rc 0 rows (rc 1 is a version above the
    // driver); flags 2 is the per-thread request.
    let text = ground_truth_file("driver-13000-getprocaddress.tsv");
    let mut checked = 0;
    let mut wrong = Vec::new();
    for row in rows(&text) {
        let [symbol, _, _, _, _, pfn, exported] = row[..] else {
            panic!("malformed row {row:?}");
        };
        if number::<i32>(&row, 3) != 0 {
            continue;
        }
        let (version, flags) = (number::<u32>(&row, 1), number::<u64>(&row, 2));
        let expected = (pfn == "ptr").then_some(exported);
        let by_rule = export_for(symbol, version, flags == 2);
        checked += 1;
        if by_rule.as_deref() != expected {
            wrong.push(format!("{row:?}: the rule says {by_rule:?}"));
        }
    }
    // The 4-argument cuGetProcAddress (flags 0): rc 0 with the export, or 500 for nothing.
    let text = ground_truth_file("driver-13000-getprocaddress-legacy.tsv");
    for row in rows(&text) {
        let [symbol, _, _, pfn, exported] = row[..] else {
            panic!("malformed row {row:?}");
        };
        let expected = match number::<i32>(&row, 2) {
            0 => {
                assert_eq!(pfn, "ptr", "{row:?}");
                Some(exported)
            }
            500 => None,
            _ => continue,
        };
        let by_rule = export_for(symbol, number(&row, 1), false);
        checked += 1;
        if by_rule.as_deref() != expected {
            wrong.push(format!("{row:?}: the rule says {by_rule:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} rows disagree with the naming rule:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert!(checked > 9000, "only {checked} rows checked");
    // Every typedef the measured driver could serve names one of its exports, unless it exports
    // no function of that symbol at all (cuWGLGetDevice is Windows-only).
    let exports = ground_truth_file("driver-13000-exports.txt");
    let exported = |name: &str| exports.lines().any(|e| e == name);
    let mut unnamed = Vec::new();
    for t in TYPEDEFS.iter().filter(|t| t.version <= GROUND_TRUTH_DRIVER) {
        let export = export_for(t.symbol, t.version, t.stream.is_per_thread())
            .unwrap_or_else(|| panic!("{}: the rule names no export", t.typedef_name()));
        let of_symbol = |e: &str| {
            e.strip_prefix(t.symbol)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('_'))
        };
        if !exported(&export) && exports.lines().any(of_symbol) {
            unnamed.push(format!("{} -> {export}", t.typedef_name()));
        }
    }
    assert!(
        unnamed.is_empty(),
        "the rule names exports driver 13000 does not have:\n{}",
        unnamed.join("\n")
    );
}

/// One row of driver-13000-getprocaddress.tsv.
struct Answer {
    status: i32,
    pfn: String,
    exported: String,
}

fn ground_truth() -> HashMap<(String, u32, u64), Answer> {
    let text = ground_truth_file("driver-13000-getprocaddress.tsv");
    rows(&text)
        .into_iter()
        .map(|row| {
            let key = (row[0].to_owned(), number(&row, 1), number(&row, 2));
            let answer = Answer {
                status: number(&row, 4),
                pfn: row[5].to_owned(),
                exported: row[6].to_owned(),
            };
            (key, answer)
        })
        .collect()
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
    let Some((driver, library)) =
        real_driver("every_typedef_resolves_to_the_export_the_real_driver_names")
    else {
        return;
    };
    let driver_version = driver.version;
    // The measured answers apply to the driver they were measured on; any other is held to the
    // naming rule, export by full name.
    let truth = if driver_version == GROUND_TRUTH_DRIVER {
        ground_truth()
    } else {
        HashMap::new()
    };
    let (mut resolved, mut expected, mut by_rule, mut too_new, mut not_exported) = (0, 0, 0, 0, 0);
    let mut mismatches = Vec::new();
    let start = Instant::now();
    for t in TYPEDEFS {
        let name = t.typedef_name();
        let per_thread = t.stream.is_per_thread();
        let flags = if per_thread { 2 } else { 1 };
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
        let rule = export_for(t.symbol, t.version, per_thread);
        match (
            &outcome,
            truth.get(&(t.symbol.to_owned(), t.version, flags)),
        ) {
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
                // No measured row (another driver; per-thread typedefs at their own version;
                // the GL/EGL/VDPAU/profiler headers): the export the naming rule names.
                resolved += 1;
                by_rule += 1;
                let got = export_name(pfn.as_ptr()).unwrap_or_else(|| "<not an export>".into());
                if rule.as_deref() != Some(got.as_str()) {
                    mismatches.push(format!(
                        "{name}: reached `{got}`, the export naming rule says {rule:?}"
                    ));
                }
            }
            // Headers declare some typedefs for other platforms (cuWGLGetDevice is Windows-only):
            // the driver then knows no such symbol, and exports no function of that name.
            (Err(e), None)
                if e.kind() == &ErrorKind::SymbolNotFound
                    && !exports(&library, t.symbol)
                    && !rule.as_deref().is_some_and(|e| exports(&library, e)) =>
            {
                not_exported += 1
            }
            (Err(e), None) => mismatches.push(format!("{name}: {e}")),
        }
    }
    let elapsed = start.elapsed();
    println!(
        "SUMMARY typedefs={} driver={driver_version} resolved={resolved} checked_against_ground_truth={expected} checked_by_naming_rule={by_rule} newer_than_driver={too_new} not_exported_on_this_platform={not_exported} mismatched={} resolution_total_us={:.0}",
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
    let Some((driver, _)) = real_driver("real_driver_errors_name_symbol_version_and_driver") else {
        return;
    };
    let driver_version = driver.version;
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
        cuda_entry_table::Flavour::Ptsz
    } else {
        cuda_entry_table::Flavour::Legacy
    };
    t
}

#[test]
fn the_runtime_resolver_agrees_with_the_driver() {
    const TEST: &str = "the_runtime_resolver_agrees_with_the_driver";
    let Some(_) = real_driver(TEST) else {
        return;
    };
    let runtime_version = match cuda_entry::runtime_version() {
        Ok(v) => v,
        Err(e) => {
            gpu_check_cannot_run(TEST, &format!("no CUDA runtime >= 12.5 here ({e})"));
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
