//! The link-time registry and the manifest section: a program (this test) with entries of its own
//! and of a dependency (tests/fixture-entries, one of whose declarations nothing names) lists
//! both, writes both into its binary, and `preload_all` reports exactly the entries a driver
//! cannot serve. Under Wine too (tests/windows/wine-run.sh): on windows-gnu only the expansion's
//! retention keeps what nothing refers to.

use std::collections::BTreeSet;
use std::process::ExitCode;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult, CUstream};
use cuda_entry::{ErrorKind, Resolver, Stream};
use cuda_entry_fixture_entries as fixture;
use cuda_entry_sim as sim;
use cuda_entry_support::{
    Driver, Scenario, manifest_of_this_binary, run_scenarios, target_command,
};

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
    fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;
    #[cuda_entry(
        symbol = "cuStreamBeginCapture",
        version = 10010,
        stream = "per_thread"
    )]
    fn begin_capture(stream: CUstream, mode: u32) -> CUresult;
}

fn main() -> ExitCode {
    run_scenarios(&[
        Scenario {
            name: "entries_of_the_program_and_its_dependencies_are_listed",
            driver: Driver::Default,
            env: &[],
            run: entries_of_the_program_and_its_dependencies_are_listed,
        },
        Scenario {
            name: "first_calls_from_many_threads_share_one_list",
            driver: Driver::Default,
            env: &[],
            run: first_calls_from_many_threads_share_one_list,
        },
        Scenario {
            name: "the_binary_states_the_same_entries",
            driver: Driver::Default,
            env: &[],
            run: the_binary_states_the_same_entries,
        },
        Scenario {
            name: "requirements_name_the_entries_that_set_them",
            driver: Driver::Default,
            env: &[],
            run: requirements_name_the_entries_that_set_them,
        },
        Scenario {
            name: "preload_all_at_13000_resolves_everything",
            driver: Driver::Sim(sim::Driver::Current),
            env: &[],
            run: preload_all_at_13000_resolves_everything,
        },
        Scenario {
            name: "preload_all_at_12040_reports_exactly_the_newer_entries",
            driver: Driver::Sim(sim::Driver::Current),
            env: &[("CUDA_ENTRY_SIM_VERSION", "12040")],
            run: preload_all_at_12040_reports_exactly_the_newer_entries,
        },
        Scenario {
            name: "check_binary_judges_this_binary_without_a_driver",
            driver: Driver::Default,
            env: &[],
            run: check_binary_judges_this_binary_without_a_driver,
        },
        Scenario {
            name: "check_binary_matches_what_running_finds",
            driver: Driver::Sim(sim::Driver::Current),
            env: &[("CUDA_ENTRY_SIM_VERSION", "12040")],
            run: check_binary_matches_what_running_finds,
        },
        Scenario {
            name: "preload_all_at_11080_reports_exactly_the_newer_entries",
            driver: Driver::Sim(sim::Driver::Cuda11x),
            env: &[],
            run: preload_all_at_11080_reports_exactly_the_newer_entries,
        },
    ])
}

/// (symbol, version, stream, resolver) of each registered entry.
fn registered() -> BTreeSet<(String, u32, Stream, Resolver)> {
    cuda_entry::entries()
        .iter()
        .map(|e| {
            let r = e.request();
            (r.symbol.to_owned(), r.version, r.stream, r.resolver)
        })
        .collect()
}

fn entries_of_the_program_and_its_dependencies_are_listed() {
    let expected: BTreeSet<_> = [
        ("cuMemAlloc", 3020, Stream::Legacy),
        ("cuStreamBeginCapture", 10010, Stream::PerThread),
        ("cuCtxGetDevice", 13000, Stream::Legacy),
        ("cuCtxCreate", 12050, Stream::Legacy),
        ("cuCtxSynchronize", 2000, Stream::Legacy),
    ]
    .into_iter()
    .map(|(s, v, st)| (s.to_owned(), v, st, Resolver::Driver))
    .collect();
    assert_eq!(registered(), expected);
    assert!(
        cuda_entry::entries()
            .iter()
            .any(|e| std::ptr::eq(*e, &fixture::ctx_get_device::ENTRY))
    );
    assert!(
        cuda_entry::entries()
            .iter()
            .any(|e| std::ptr::eq(*e, &mem_alloc::ENTRY))
    );
    // The entries as their modules state them (and a use of each declaration, for `dead_code`).
    assert_eq!(
        (
            mem_alloc::SYMBOL,
            begin_capture::VERSION,
            fixture::ctx_create::VERSION
        ),
        ("cuMemAlloc", 10010, 12050)
    );
}

/// In a fresh process, threads that call `entries()` at once (each may gather the list and offer
/// it) all get the one list published, whole.
fn first_calls_from_many_threads_share_one_list() {
    let start = std::sync::Barrier::new(16);
    let lists: Vec<(usize, usize)> = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..16)
            .map(|_| {
                scope.spawn(|| {
                    start.wait();
                    let list = cuda_entry::entries();
                    (list.as_ptr() as usize, list.len())
                })
            })
            .collect();
        threads.into_iter().map(|t| t.join().unwrap()).collect()
    });
    let first = cuda_entry::entries();
    assert_eq!(first.len(), 5, "{first:?}");
    for list in lists {
        assert_eq!(list, (first.as_ptr() as usize, first.len()));
    }
}

fn the_binary_states_the_same_entries() {
    let records = manifest_of_this_binary();
    let stated: BTreeSet<_> = records
        .iter()
        .map(|r| {
            let (stream, resolver) = (r.stream, r.resolver);
            (r.symbol.clone(), r.version, stream, resolver)
        })
        .collect();
    assert_eq!(stated, registered());
    assert_eq!(
        records.len(),
        cuda_entry::entries().len(),
        "one record per declaration"
    );
    let packages: BTreeSet<&str> = records.iter().map(|r| r.package.as_str()).collect();
    assert_eq!(
        packages,
        BTreeSet::from(["cuda-entry-fixture-entries", "cuda-entry-workspace"])
    );
    let from_fixture = records
        .iter()
        .find(|r| r.symbol == "cuCtxGetDevice")
        .expect("fixture record");
    assert_eq!(
        (from_fixture.package.as_str(), from_fixture.unverified),
        ("cuda-entry-fixture-entries", false)
    );
}

fn requirements_name_the_entries_that_set_them() {
    let req = cuda_entry::requirements();
    assert_eq!(req.minimum_driver, 13000);
    assert_eq!(req.set_by.len(), 1);
    assert_eq!(
        (req.set_by[0].symbol, req.set_by[0].version),
        ("cuCtxGetDevice", 13000)
    );
    assert_eq!(req.entries.len(), 5);
    assert!(
        req.entries.windows(2).all(|w| w[0].version >= w[1].version),
        "newest first"
    );
    let text = req.to_string();
    assert_eq!(
        text,
        "5 CUDA driver entries; the program needs a driver of CUDA 13.0 or newer, because of cuCtxGetDevice 13000"
    );
}

fn preload_all_at_13000_resolves_everything() {
    assert_eq!(cuda_entry::preload_all(), Ok(()));
}

fn failing_symbols() -> BTreeSet<(&'static str, u32)> {
    let err = cuda_entry::preload_all().expect_err("some entries are too new");
    for failure in &err.failures {
        assert!(
            matches!(failure.kind(), ErrorKind::DriverTooOld),
            "{failure:?}"
        );
    }
    err.failures
        .iter()
        .filter_map(|f| f.request())
        .map(|r| (r.symbol, r.version))
        .collect()
}

fn preload_all_at_12040_reports_exactly_the_newer_entries() {
    assert_eq!(
        failing_symbols(),
        BTreeSet::from([("cuCtxGetDevice", 13000), ("cuCtxCreate", 12050)])
    );
}

fn preload_all_at_11080_reports_exactly_the_newer_entries() {
    assert_eq!(
        failing_symbols(),
        BTreeSet::from([("cuCtxGetDevice", 13000), ("cuCtxCreate", 12050)]),
        "cuStreamBeginCapture 10010 and cuMemAlloc 3020 are served by an 11.8 driver"
    );
}

/// `cuda-entry check BINARY` on this very test executable, as a deployer would run it.
fn check_this_binary(extra: &[&str]) -> (i32, String) {
    let exe = std::env::current_exe().expect("current_exe");
    let profile_dir = exe
        .parent()
        .and_then(std::path::Path::parent)
        .expect("target/<profile>");
    let cli = profile_dir.join(format!("cuda-entry{}", std::env::consts::EXE_SUFFIX));
    assert!(
        cli.is_file(),
        "{} is not built: cargo build -p cuda-entry-cli",
        cli.display()
    );
    let out = target_command(cli)
        .arg("check")
        .args(extra)
        .arg(&exe)
        .output()
        .expect("run cuda-entry");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

fn check_binary_judges_this_binary_without_a_driver() {
    let (code, text) = check_this_binary(&["--driver-version", "12040"]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("minimum driver: 13000 (CUDA 13.0), set by cuCtxGetDevice"),
        "{text}"
    );
    for failing in ["cuCtxGetDevice@13000", "cuCtxCreate@12050"] {
        assert!(
            text.lines()
                .any(|l| l.contains("FAIL") && l.contains(failing)),
            "{failing}: {text}"
        );
    }
    assert!(
        text.lines().any(|l| l.contains("ok")
            && l.contains("cuMemAlloc@3020")
            && l.contains("in cuda-entry-workspace")),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.contains("in cuda-entry-fixture-entries")),
        "{text}"
    );
    let (code, text) = check_this_binary(&["--driver-version", "13000"]);
    assert_eq!(code, 0, "{text}");
}

fn check_binary_matches_what_running_finds() {
    let (code, text) = check_this_binary(&[]);
    assert_eq!(code, 1, "{text}");
    let stated: BTreeSet<(String, u32)> = text
        .lines()
        .filter(|l| l.contains(": FAIL "))
        .filter_map(|l| l.split_whitespace().find(|w| w.contains('@')))
        .filter_map(|w| {
            w.trim_end_matches(':')
                .split_once('@')
                .map(|(s, v)| (s.to_owned(), v.parse().unwrap_or(0)))
        })
        .collect();
    let found: BTreeSet<(String, u32)> = failing_symbols()
        .into_iter()
        .map(|(s, v)| (s.to_owned(), v))
        .collect();
    assert_eq!(
        stated, found,
        "the check and the running program agree: {text}"
    );
}
