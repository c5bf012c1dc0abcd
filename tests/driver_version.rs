//! A driver version is trusted only when it is one (`cuda_entry::Version`'s rule: `1000 * major +
//! 10 * minor`, between CUDA 1.0 and 99.99): anything else the driver (or the runtime, for its
//! driver) reports is `DriverVersionUnavailable`, naming the value, and no entry is asked for. A
//! value such as 2147483647 would otherwise pass every too-old check. One process per
//! configuration.

use std::process::ExitCode;

use cuda_entry::{Entry, Error, ErrorKind, Resolver, Stream};
use cuda_entry_sim as sim;
use cuda_entry_support::{Driver, Queries, Scenario, run_scenarios, simulator, simulator_at};

const SIM: Driver = Driver::Sim(sim::Driver::Current);

fn main() -> ExitCode {
    run_scenarios(&[
        Scenario {
            name: "the_largest_int_is_no_driver_version",
            driver: SIM,
            env: &[("CUDA_ENTRY_SIM_VERSION", "2147483647")],
            run: || implausible_driver_version(2_147_483_647),
        },
        Scenario {
            name: "a_version_not_a_multiple_of_ten_is_no_driver_version",
            driver: SIM,
            env: &[("CUDA_ENTRY_SIM_VERSION", "13005")],
            run: || implausible_driver_version(13005),
        },
        Scenario {
            name: "a_version_beyond_cuda_99_99_is_no_driver_version",
            driver: SIM,
            env: &[("CUDA_ENTRY_SIM_VERSION", "100000")],
            run: || implausible_driver_version(100_000),
        },
        Scenario {
            name: "the_runtimes_driver_version_is_held_to_the_same_rule",
            driver: Driver::Runtime(sim::Runtime::Current),
            env: &[("CUDA_ENTRY_SIM_VERSION", "13005")],
            run: implausible_driver_version_through_the_runtime,
        },
    ])
}

/// The error names the value, says it is no version, and is no `CUDA x.y` of it.
fn assert_names(err: &Error, reported: i32) {
    assert!(
        matches!(
            err.kind(),
            ErrorKind::DriverVersionUnavailable { code: 0, reported: Some(r), .. } if *r == reported
        ),
        "{err:?}"
    );
    let text = err.to_string();
    assert!(
        text.contains(&format!(
            "reported the driver version {reported}, which is not a CUDA version"
        )),
        "{text}"
    );
    assert!(
        !text.contains("CUDA 2147483") && !text.contains("CUDA 13.0"),
        "{text}"
    );
}

fn implausible_driver_version(reported: i32) {
    let err = cuda_entry::driver_info().expect_err("no driver version");
    assert_names(&err, reported);
    assert_eq!(
        err.driver_version(),
        None,
        "no version is stated: there is none"
    );
    assert_eq!(cuda_entry::driver_version(), Err(err.clone()));
    let entry = Entry::new(c"cuMemAlloc", 3020, Stream::Legacy);
    let resolved = entry.resolve().expect_err("never resolved");
    assert_names(&resolved, reported);
    assert_eq!(resolved.request().map(|r| r.symbol), Some("cuMemAlloc"));
    let sim = simulator();
    assert_eq!(sim.queries(), 0, "the driver was not asked");
}

fn implausible_driver_version_through_the_runtime() {
    let entry = Entry::new(c"cuMemAlloc", 3020, Stream::Legacy).through(Resolver::Runtime);
    let err = entry.resolve().expect_err("never resolved");
    assert_names(&err, 13005);
    assert!(err.to_string().contains("cuda_entry_simruntime"), "{err}");
    let sim = simulator_at("CUDA_ENTRY_RUNTIME_PATH");
    assert_eq!(
        sim.calls("cudaGetDriverEntryPointByVersion"),
        0,
        "the runtime was not asked"
    );
}
