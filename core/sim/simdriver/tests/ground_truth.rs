//! The simulator against the real driver's answers (tests/ground-truth/, read off driver
//! 580.159.04 reporting 13000): every row of the two TSV files for a symbol the simulator
//! resolves, the unknown-symbol rows, and the measured edge cases.

use std::ffi::{CString, c_int, c_void};
use std::path::PathBuf;
use std::sync::Mutex;

use cuda_entry_simdriver as sim;

/// Written into `pfn` before each call: still there afterwards means "unset".
const SENTINEL: *mut c_void = 0x05e1_71e1_usize as *mut c_void;
/// Written into `status` before each call: still there afterwards means -1, "left unwritten".
const STATUS_UNSET: c_int = -1;

/// Tests of one binary share the simulator's global configuration.
static LOCK: Mutex<()> = Mutex::new(());

fn ground_truth(file: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../tests/ground-truth")
        .join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The rows of a ground-truth TSV (no comments, no header), split on tabs.
fn rows(text: &str) -> Vec<Vec<&str>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("symbol\t") && !l.is_empty())
        .map(|l| l.split('\t').collect())
        .collect()
}

/// What a call answered, in the ground truth's vocabulary.
#[derive(Debug, PartialEq, Eq)]
struct Seen {
    rc: c_int,
    status: c_int,
    pfn: &'static str,
    exported: String,
}

fn describe(rc: c_int, status: c_int, pfn: *mut c_void) -> Seen {
    let (state, exported) = if pfn == SENTINEL {
        ("unset", "-".to_owned())
    } else if pfn.is_null() {
        ("null", "-".to_owned())
    } else {
        (
            "ptr",
            sim::export_name_of(pfn)
                .unwrap_or("<not an export>")
                .to_owned(),
        )
    };
    Seen {
        rc,
        status,
        pfn: state,
        exported,
    }
}

fn ask_v2(symbol: &str, version: c_int, flags: u64, with_status: bool) -> Seen {
    let symbol = CString::new(symbol).expect("no NUL in symbol");
    let mut pfn = SENTINEL;
    let mut status = STATUS_UNSET;
    let status_ptr = if with_status {
        &raw mut status
    } else {
        std::ptr::null_mut()
    };
    // SAFETY: a NUL-terminated symbol and writable pfn/status (or NULL status, which is allowed).
    let rc =
        unsafe { sim::cuGetProcAddress_v2(symbol.as_ptr(), &mut pfn, version, flags, status_ptr) };
    describe(rc, status, pfn)
}

fn ask_legacy(symbol: &str, version: c_int) -> Seen {
    let symbol = CString::new(symbol).expect("no NUL in symbol");
    let mut pfn = SENTINEL;
    // SAFETY: a NUL-terminated symbol and a writable pfn.
    let rc = unsafe { sim::cuGetProcAddress(symbol.as_ptr(), &mut pfn, version, 0) };
    describe(rc, STATUS_UNSET, pfn)
}

fn driver_13000() {
    sim::set_config(sim::Config {
        version: 13000,
        mode: sim::Mode::Normal,
    });
}

/// Symbols in the TSVs the simulator does not resolve but whose rows it must match anyway:
/// the measured unknown and misspelled (wrong case) names.
const UNKNOWN: &[&str] = &["cuFoo", "CUmemAlloc"];

/// Every row: the simulator resolves every symbol the driver did, implemented or a stub.
fn compared_symbol(symbol: &str) -> bool {
    static RESOLVABLE: std::sync::OnceLock<Vec<&str>> = std::sync::OnceLock::new();
    UNKNOWN.contains(&symbol)
        || RESOLVABLE
            .get_or_init(sim::resolvable_symbols)
            .contains(&symbol)
}

#[test]
fn get_proc_address_v2_matches_every_row() {
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    driver_13000();
    let text = ground_truth("driver-13000-getprocaddress.tsv");
    let mut compared = 0;
    let mut symbols = std::collections::BTreeSet::new();
    let mut mismatches = Vec::new();
    for row in rows(&text) {
        let [symbol, version, flags, rc, status, pfn, exported] = row[..] else {
            panic!("malformed row {row:?}");
        };
        if !compared_symbol(symbol) {
            continue;
        }
        let version: c_int = version.parse().expect("version");
        let flags: u64 = flags.parse().expect("flags");
        let expected = Seen {
            rc: rc.parse().expect("rc"),
            status: status.parse().expect("status"),
            pfn: match pfn {
                "unset" => "unset",
                "null" => "null",
                "ptr" => "ptr",
                other => panic!("pfn column {other:?}"),
            },
            exported: exported.to_owned(),
        };
        let seen = ask_v2(symbol, version, flags, true);
        compared += 1;
        symbols.insert(symbol);
        if seen != expected {
            mismatches.push(format!(
                "{symbol} {version} flags {flags}: real {expected:?}, simulated {seen:?}"
            ));
        }
    }
    println!(
        "cuGetProcAddress_v2: compared {compared} ground-truth rows over {} symbols",
        symbols.len()
    );
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    // Every implemented symbol has rows (none silently skipped because of a typo in the table).
    for s in sim::implemented_symbols() {
        assert!(
            symbols.contains(s),
            "no ground-truth rows for implemented symbol {s}"
        );
    }
    assert!(compared >= 500, "only {compared} rows compared");
}

#[test]
fn legacy_get_proc_address_matches_every_row() {
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    driver_13000();
    let text = ground_truth("driver-13000-getprocaddress-legacy.tsv");
    let mut compared = 0;
    let mut mismatches = Vec::new();
    for row in rows(&text) {
        let [symbol, version, rc, pfn, exported] = row[..] else {
            panic!("malformed row {row:?}");
        };
        if !compared_symbol(symbol) {
            continue;
        }
        let version: c_int = version.parse().expect("version");
        let expected_rc: c_int = rc.parse().expect("rc");
        let seen = ask_legacy(symbol, version);
        compared += 1;
        if (seen.rc, seen.pfn, seen.exported.as_str()) != (expected_rc, pfn, exported) {
            mismatches.push(format!(
                "{symbol} {version}: real rc {expected_rc} pfn {pfn} {exported}, simulated {seen:?}"
            ));
        }
    }
    println!("cuGetProcAddress (4 arguments): compared {compared} ground-truth rows");
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    assert!(compared >= 150, "only {compared} rows compared");
}

/// The expectation of one `BAD <key> ...` line of driver-13000-edge-cases.txt.
#[derive(Debug, Default)]
struct Edge {
    rc: Option<c_int>,
    status: Option<c_int>,
    pfn: Option<String>,
}

fn edge_cases() -> std::collections::BTreeMap<String, Edge> {
    let text = ground_truth("driver-13000-edge-cases.txt");
    let mut map = std::collections::BTreeMap::new();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        if words.next() != Some("BAD") {
            continue;
        }
        let key = words.next().expect("edge-case key").to_owned();
        let number = |v: &str| -> c_int {
            v.parse()
                .unwrap_or_else(|_| panic!("BAD {key}: `{v}` is not a number: {line}"))
        };
        let mut edge = Edge::default();
        for word in words {
            match word.split_once('=') {
                Some(("rc", v)) => edge.rc = Some(number(v)),
                Some(("st", v)) => edge.status = Some(number(v)),
                Some(("p", v)) => edge.pfn = Some(v.to_owned()),
                // The crashes (NULL pfn, NULL symbol) are checked in modes.rs, in a child.
                Some(("signal", v)) => _ = number(v),
                None if word == "crashed" => {}
                _ => panic!("BAD {key}: unknown field `{word}`: {line}"),
            }
        }
        map.insert(key, edge);
    }
    map
}

#[test]
fn edge_cases_match() {
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    driver_13000();
    let edges = edge_cases();
    // The edge-case file does not say which symbol each probe used; any resolvable one answers the
    // same. NULL pfn / NULL symbol (crashes) are covered by modes.rs, in a child process.
    let probes: &[(&str, &str, c_int, u64, bool)] = &[
        ("flags99", "cuMemAlloc", 3020, 99, true),
        ("nullstatus", "cuMemAlloc", 3020, 0, false),
        ("emptysym", "", 13000, 0, true),
        ("negver", "cuMemAlloc", -1, 0, true),
        ("suffixed", "cuMemAlloc_v2", 13000, 0, true),
        ("ptszname", "cuLaunchKernel_ptsz", 13000, 2, true),
    ];
    for &(key, symbol, version, flags, with_status) in probes {
        let edge = edges
            .get(key)
            .unwrap_or_else(|| panic!("no BAD {key} line"));
        let seen = ask_v2(symbol, version, flags, with_status);
        if let Some(rc) = edge.rc {
            assert_eq!(seen.rc, rc, "{key}: {seen:?}");
        }
        if let Some(status) = edge.status {
            assert_eq!(seen.status, status, "{key}: {seen:?}");
        }
        match edge.pfn.as_deref() {
            Some("ptr") => assert_eq!(seen.pfn, "ptr", "{key}: {seen:?}"),
            Some("null") => assert_eq!(seen.pfn, "null", "{key}: {seen:?}"),
            // "p=(nil)" after rc 1: the probe's own NULL initial value, i.e. nothing written.
            Some("(nil)") => assert_eq!(seen.pfn, "unset", "{key}: {seen:?}"),
            Some(other) => panic!("{key}: unexpected p={other}"),
            None => {}
        }
        println!("edge case {key}: {seen:?}");
    }
    // Version -1: measured rc 0, status 0 and nothing about pfn. The simulator hands out the
    // variant for the driver's own version (see gpa.rs), so a -1 that slips through is caught by
    // the ABI drift it causes, never by a NULL call.
    assert_eq!(ask_v2("cuMemAlloc", -1, 0, true).exported, "cuMemAlloc_v2");
    assert_eq!(
        ask_v2("cuCtxCreate", -1, 1, true).exported,
        "cuCtxCreate_v4"
    );
}
