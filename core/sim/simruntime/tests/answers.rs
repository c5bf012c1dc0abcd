//! `cudaGetDriverEntryPointByVersion` answers as the driver simulator's `cuGetProcAddress_v2`.
//!
//! The runtime is called in-process through its rlib; the driver simulator through its built
//! cdylib (`libcuda_entry_simdriver.so`, `dlopen`ed): both rlibs define the same `#[no_mangle]`
//! driver exports, so they cannot be linked into one test binary. Every comparison runs in a
//! child process of this test binary with a controlled environment, so both sides read the same
//! `CUDA_ENTRY_SIM_*` configuration (the cdylib reads only the environment).

#[path = "../../simdriver/tests/support/mod.rs"]
mod support;

use std::ffi::{CString, c_int, c_void};
use std::path::PathBuf;

use cuda_entry_simruntime as rt;
use support::{GetProcAddressV2, Library};

/// Written into `funcPtr` before each call: still there afterwards means "unset".
const SENTINEL: *mut c_void = 0x05e1_71e1_usize as *mut c_void;
/// Written into the status before each call: still there afterwards means "left unwritten".
const STATUS_UNSET: c_int = -1;

/// One answer, in the ground truth's vocabulary: rc, status (-1: unwritten), and `unset`, `null`
/// or the name of the export the pointer is.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Answer {
    rc: c_int,
    status: c_int,
    pfn: String,
}

impl Answer {
    fn new(rc: c_int, status: c_int, pfn: &str) -> Answer {
        Answer {
            rc,
            status,
            pfn: pfn.to_owned(),
        }
    }
}

fn pfn_name(pfn: *mut c_void, name_of: impl Fn(*mut c_void) -> Option<String>) -> String {
    if pfn == SENTINEL {
        "unset".to_owned()
    } else if pfn.is_null() {
        "null".to_owned()
    } else {
        name_of(pfn).unwrap_or_else(|| format!("<{pfn:p}: not an export>"))
    }
}

/// The simulated runtime's answer (in-process, through the rlib's export).
fn runtime(symbol: &str, version: u32, flags: u64) -> Answer {
    let symbol = CString::new(symbol).expect("no NUL");
    let (mut pfn, mut status) = (SENTINEL, STATUS_UNSET);
    // SAFETY: a NUL-terminated symbol, writable funcPtr and status.
    let rc = unsafe {
        rt::cudaGetDriverEntryPointByVersion(symbol.as_ptr(), &mut pfn, version, flags, &mut status)
    };
    let name = pfn_name(pfn, |p| rt::export_name_of(p).map(str::to_owned));
    Answer::new(rc, status, &name)
}

/// The driver simulator's cdylib, `dlopen`ed as cuda-entry loads libcuda.so.1 (never closed).
struct Driver {
    gpa2: GetProcAddressV2,
    exports: Vec<(*mut c_void, String)>,
}

impl Driver {
    fn open() -> Driver {
        let lib = Library::open(&support::cdylib_path("cuda_entry_simdriver"));
        let gpa2 = lib.sym("cuGetProcAddress_v2");
        assert!(!gpa2.is_null());
        // SAFETY: the export has this C type (PFN_cuGetProcAddress_v12000).
        let gpa2 = unsafe { std::mem::transmute::<*mut c_void, GetProcAddressV2>(gpa2) };
        // The simulated API is the same source in both libraries: the runtime's list of driver
        // exports names the driver simulator's too.
        let exports = rt::all_exports()
            .into_iter()
            .map(|name| (lib.sym(name), name.to_owned()))
            .collect();
        Driver { gpa2, exports }
    }

    fn ask(&self, symbol: &str, version: c_int, flags: u64) -> Answer {
        let symbol = CString::new(symbol).expect("no NUL");
        let (mut pfn, mut status) = (SENTINEL, STATUS_UNSET);
        // SAFETY: a NUL-terminated symbol, writable pfn and status.
        let rc = unsafe { (self.gpa2)(symbol.as_ptr(), &mut pfn, version, flags, &mut status) };
        let name = pfn_name(pfn, |p| {
            self.exports
                .iter()
                .find(|(q, _)| *q == p)
                .map(|(_, n)| n.clone())
        });
        Answer::new(rc, status, &name)
    }
}

/// The requests libcudart.so.13 was measured with (tests/ground-truth/README.md), and what the
/// real runtime (= the real driver) answered.
fn measured_requests() -> Vec<(&'static str, u32, u64, Answer)> {
    let ok = |export| Answer::new(0, 0, export);
    let not_found = Answer::new(0, 1, "null");
    let too_old = Answer::new(0, 2, "null");
    let invalid = Answer::new(1, STATUS_UNSET, "unset");
    let mut requests = Vec::new();
    for flags in [0, 1, 2] {
        requests.extend([
            ("cuMemAlloc", 1000, flags, too_old.clone()),
            ("cuMemAlloc", 2000, flags, ok("cuMemAlloc")),
            ("cuMemAlloc", 3020, flags, ok("cuMemAlloc_v2")),
            ("cuMemAlloc", 13020, flags, invalid.clone()),
            ("cuMemAlloc", 99999, flags, invalid.clone()),
            ("cuCtxCreate", 12050, flags, ok("cuCtxCreate_v4")),
            ("cuFoo", 13000, flags, not_found.clone()),
        ]);
    }
    requests.extend([
        ("cuLaunchKernel", 4000, 1, ok("cuLaunchKernel")),
        ("cuLaunchKernel", 4000, 2, too_old.clone()),
        ("cuLaunchKernel", 7000, 1, ok("cuLaunchKernel")),
        ("cuLaunchKernel", 7000, 2, ok("cuLaunchKernel_ptsz")),
        // "BAD flags99 rc=1 st=-1" (edge cases).
        ("cuMemAlloc", 3020, 99, invalid.clone()),
    ]);
    requests
}

fn ground_truth_rows() -> Vec<Vec<String>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../tests/ground-truth/driver-13000-getprocaddress.tsv");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("symbol\t") && !l.is_empty())
        .map(|l| l.split('\t').map(str::to_owned).collect())
        .collect()
}

/// Every (symbol, version, flags) worth asking: each implemented symbol at each of its typedef
/// versions, 10 either side, the measured versions, and every flag value; plus unknown,
/// misspelled, suffixed and empty names.
fn sweep() -> Vec<(String, u32, u64)> {
    let mut symbols: Vec<String> = rt::implemented_symbols()
        .into_iter()
        .map(str::to_owned)
        .collect();
    symbols.extend(
        [
            "cuFoo",
            "CUmemAlloc",
            "cuMemAlloc_v2",
            "cuLaunchKernel_ptsz",
            "",
        ]
        .map(str::to_owned),
    );
    let mut versions = vec![
        0, 1000, 2000, 11080, 12000, 12040, 12050, 13000, 13020, 99999,
    ];
    for symbol in rt::shared::table::SYMBOLS {
        for variant in symbol.variants {
            let v = u32::try_from(variant.version).expect("positive typedef version");
            versions.extend([v - 10, v, v + 10]);
        }
    }
    versions.sort_unstable();
    versions.dedup();
    let mut requests = Vec::new();
    for symbol in &symbols {
        for &version in &versions {
            for flags in [0, 1, 2, 3, 99] {
                requests.push((symbol.clone(), version, flags));
            }
        }
    }
    requests
}

/// Runs `test` of this binary again in a child with only `env` of the simulators' variables set,
/// to do its comparison there; asserts it passed and returns its output.
fn compare_in_child(test: &str, env: &[(&str, &str)]) -> String {
    support::assert_passed(test, env, &support::run_again(test, "compare", env))
}

/// Whether this process is the child that does the comparison (see [`compare_in_child`]).
fn comparing() -> bool {
    match support::child_role().as_deref() {
        Some("compare") => true,
        Some(other) => panic!("no child role {other}"),
        None => false,
    }
}

/// The child's line starting at `marker` (with `--nocapture` it follows `test NAME ... `).
fn report<'a>(out: &'a str, marker: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.find(marker).map(|i| &l[i..]))
        .unwrap_or_else(|| panic!("no {marker:?} line in the child's output: {out}"))
}

/// In the child: every measured request, against the runtime, the driver simulator and the TSV.
fn measured_requests_in_this_process() {
    let driver = Driver::open();
    let rows = ground_truth_rows();
    let mut against_ground_truth = 0;
    for (symbol, version, flags, expected) in measured_requests() {
        let got = runtime(symbol, version, flags);
        let version_i = c_int::try_from(version).expect("small version");
        assert_eq!(got, expected, "runtime {symbol} {version} flags {flags}");
        assert_eq!(
            driver.ask(symbol, version_i, flags),
            got,
            "driver simulator vs runtime: {symbol} {version} flags {flags}"
        );
        let key = [symbol.to_owned(), version.to_string(), flags.to_string()];
        if let Some(row) = rows.iter().find(|r| r[..3] == key) {
            let exported = if row[5] == "ptr" { &row[6] } else { &row[5] };
            let real = Answer::new(
                row[3].parse().expect("rc"),
                row[4].parse().expect("status"),
                exported,
            );
            assert_eq!(got, real, "real driver (TSV) vs runtime: {row:?}");
            against_ground_truth += 1;
        }
    }
    println!("measured requests: {against_ground_truth} also compared with the TSV");
    assert!(against_ground_truth >= 20);
}

#[test]
fn the_measured_requests_answer_as_the_real_runtime_did() {
    const TEST: &str = "the_measured_requests_answer_as_the_real_runtime_did";
    if comparing() {
        return measured_requests_in_this_process();
    }
    let out = compare_in_child(TEST, &[]);
    println!("{}", report(&out, "measured requests: "));
}

/// In the child: every TSV row of a symbol the runtime simulates.
fn every_tsv_row_in_this_process() {
    let implemented = rt::implemented_symbols();
    let mut compared = 0;
    for row in ground_truth_rows() {
        let known = implemented.contains(&row[0].as_str());
        let unknown = [
            "cuFoo",
            "CUmemAlloc",
            "cuMemAlloc_v2",
            "cuLaunchKernel_ptsz",
        ]
        .contains(&row[0].as_str());
        let Ok(version) = row[1].parse::<u32>() else {
            continue; // negative versions cannot be asked through an `unsigned int`
        };
        if !(known || unknown) {
            continue;
        }
        let flags: u64 = row[2].parse().expect("flags");
        let exported = if row[5] == "ptr" { &row[6] } else { &row[5] };
        let real = Answer::new(
            row[3].parse().expect("rc"),
            row[4].parse().expect("status"),
            exported,
        );
        assert_eq!(runtime(&row[0], version, flags), real, "{row:?}");
        compared += 1;
    }
    println!("compared {compared} rows of driver-13000-getprocaddress.tsv");
    assert!(compared > 500, "only {compared} rows compared");
}

#[test]
fn every_ground_truth_row_of_a_simulated_symbol_matches() {
    const TEST: &str = "every_ground_truth_row_of_a_simulated_symbol_matches";
    if comparing() {
        return every_tsv_row_in_this_process();
    }
    let out = compare_in_child(TEST, &[]);
    println!("{}", report(&out, "compared "));
}

/// In the child: the sweep, under the configuration the environment sets.
fn sweep_in_this_process() {
    let driver = Driver::open();
    let requests = sweep();
    for (symbol, version, flags) in &requests {
        let version_i = c_int::try_from(*version).expect("small version");
        assert_eq!(
            runtime(symbol, *version, *flags),
            driver.ask(symbol, version_i, *flags),
            "{symbol:?} {version} flags {flags} (env {:?} {:?})",
            std::env::var("CUDA_ENTRY_SIM_VERSION"),
            std::env::var("CUDA_ENTRY_SIM_MODE"),
        );
    }
    println!("swept {} requests", requests.len());
}

/// The driver's configuration reaches both the same way; in every driver mode the runtime passes
/// on what its driver said (the runtime's own modes are in modes.rs).
#[test]
fn the_runtime_answers_as_the_driver_simulator_for_every_request_and_driver_configuration() {
    const TEST: &str =
        "the_runtime_answers_as_the_driver_simulator_for_every_request_and_driver_configuration";
    if comparing() {
        return sweep_in_this_process();
    }
    let configurations: &[&[(&str, &str)]] = &[
        &[],
        &[("CUDA_ENTRY_SIM_VERSION", "12040")],
        &[("CUDA_ENTRY_SIM_VERSION", "11080")],
        &[("CUDA_ENTRY_SIM_VERSION", "12050")],
        &[("CUDA_ENTRY_SIM_MODE", "status-unwritten")],
        &[("CUDA_ENTRY_SIM_MODE", "null-success")],
        &[("CUDA_ENTRY_SIM_MODE", "rc=999")],
        &[("CUDA_ENTRY_SIM_MODE", "stub")],
        &[("CUDA_ENTRY_SIM_MODE", "no-v2")],
        &[("CUDA_ENTRY_SIM_MODE", "version-fails")],
    ];
    for env in configurations {
        let out = compare_in_child(TEST, env);
        println!("{env:?}: {}", report(&out, "swept "));
    }
}
