//! `cuda-entry probe`, run as a process against the simulated driver at several versions.

mod common;

use common::{cuda_entry, json, run, simulated};
use serde_json::Value;

/// The `legacy` or `per_thread` answer of `symbol` in a `--json` document.
fn answer<'a>(doc: &'a Value, symbol: &str, flavour: &str) -> &'a Value {
    let symbols = doc["symbols"].as_array().expect("symbols array");
    let row = symbols
        .iter()
        .find(|s| s["symbol"] == symbol)
        .unwrap_or_else(|| panic!("{symbol} missing"));
    &row[flavour]
}

#[test]
fn the_table_shows_the_newest_served_versions() {
    let out = run(
        simulated(None),
        &[
            "probe",
            "--symbol",
            "cuCtxCreate",
            "--symbol",
            "cuLaunchKernel",
            "--symbol",
            // A table symbol the driver does not export (so neither does the simulated one).
            "cuEventCreateFromEGLSync",
        ],
    );
    assert_eq!(out.status, 0, "{out:?}");
    assert!(
        out.stdout.contains("version    13000 (CUDA 13.0)"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("bootstrap  cuGetProcAddress_v2"),
        "{}",
        out.stdout
    );
    let row = |symbol: &str| {
        out.stdout
            .lines()
            .find(|l| l.starts_with(symbol))
            .unwrap_or_else(|| panic!("no row for {symbol}:\n{}", out.stdout))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(row("cuCtxCreate"), "cuCtxCreate 12050 -");
    assert_eq!(row("cuLaunchKernel"), "cuLaunchKernel 4000 7000");
    assert_eq!(
        row("cuEventCreateFromEGLSync"),
        "cuEventCreateFromEGLSync symbol not found -"
    );
    assert!(
        out.stdout
            .contains("3 symbols: 2 served, 1 not served, 0 newer than the driver (CUDA 13.0)"),
        "{}",
        out.stdout
    );
    // Not a terminal: no progress bar.
    assert_eq!(out.stderr, "");
}

#[test]
fn json_answers_follow_the_driver_version() {
    // (driver version, cuCtxCreate, cuCtxSynchronize) newest served legacy versions.
    for (driver, ctx_create, ctx_synchronize) in [
        (13000, 12050, 13000),
        (12040, 11040, 2000),
        (11040, 11040, 2000),
        (11020, 3020, 2000),
    ] {
        let out = run(simulated(Some(driver)), &["probe", "--json"]);
        assert_eq!(out.status, 0, "{out:?}");
        let doc = json(&out);
        assert_eq!(doc["driver"]["version"], driver);
        assert_eq!(doc["driver"]["bootstrap"], "cuGetProcAddress_v2");
        assert!(
            doc["driver"]["path"]
                .as_str()
                .is_some_and(|p| p.ends_with(".so") || p.ends_with(".dll")),
            "{}",
            doc["driver"]
        );
        assert_eq!(answer(&doc, "cuCtxCreate", "legacy")["version"], ctx_create);
        assert_eq!(answer(&doc, "cuCtxCreate", "legacy")["status"], "served");
        assert_eq!(answer(&doc, "cuCtxCreate", "per_thread"), &Value::Null);
        assert_eq!(
            answer(&doc, "cuCtxSynchronize", "legacy")["version"],
            ctx_synchronize
        );
        // Versions above the driver are listed as not asked.
        let newer = answer(&doc, "cuCtxCreate", "legacy")["newer_than_driver"].clone();
        let expected: Vec<u32> = [2000, 3020, 11040, 12050]
            .into_iter()
            .filter(|&v| v > driver)
            .collect();
        assert_eq!(newer, serde_json::json!(expected), "driver {driver}");
        assert_eq!(
            answer(&doc, "cuLaunchKernel", "per_thread")["version"],
            7000
        );

        // Totals: every table symbol, each counted once.
        let symbols = doc["symbols"].as_array().expect("symbols");
        assert_eq!(symbols.len(), cuda_entry_table::symbols().count());
        let totals = &doc["totals"];
        assert_eq!(totals["symbols"], symbols.len());
        let count = |status: &str| symbols.iter().filter(|s| s["status"] == status).count();
        assert_eq!(totals["served"], count("served"));
        assert_eq!(totals["not_served"], count("not_served"));
        assert_eq!(totals["newer_than_driver"], count("newer_than_driver"));
        assert_eq!(
            count("served") + count("not_served") + count("newer_than_driver"),
            symbols.len()
        );
        assert!(count("served") >= 20, "{totals}");
    }
}

#[test]
fn symbols_newer_than_the_driver_are_not_asked() {
    // cuCtxRecordEvent's only typedef is 12050.
    let old = json(&run(
        simulated(Some(12040)),
        &["probe", "--json", "--symbol", "cuCtxRecordEvent"],
    ));
    let legacy = answer(&old, "cuCtxRecordEvent", "legacy");
    assert_eq!(legacy["status"], "newer_than_driver");
    assert_eq!(legacy["version"], Value::Null);
    assert_eq!(old["totals"]["newer_than_driver"], 1);
    // At 13000 it is asked, and served, as by the real 13.0 driver.
    let new = json(&run(
        simulated(Some(13000)),
        &["probe", "--json", "--symbol", "cuCtxRecordEvent"],
    ));
    let legacy = answer(&new, "cuCtxRecordEvent", "legacy");
    assert_eq!(legacy["status"], "served");
    assert_eq!(legacy["version"], 12050);
    assert_eq!(new["totals"]["served"], 1);
}

#[test]
fn simulated_finds_the_built_simulator() {
    let out = run(
        cuda_entry(),
        &["probe", "--simulated", "--symbol", "cuMemAlloc"],
    );
    assert_eq!(out.status, 0, "{out:?}");
    assert!(out.stdout.contains("(SIMULATED)"), "{}", out.stdout);
    assert!(
        out.stdout.contains("cuda_entry_simdriver"),
        "{}",
        out.stdout
    );
    let doc = json(&run(
        cuda_entry(),
        &["probe", "--simulated", "--json", "--symbol", "cuMemAlloc"],
    ));
    assert_eq!(doc["driver"]["simulated"], true);
    assert_eq!(answer(&doc, "cuMemAlloc", "legacy")["version"], 3020);
}

#[test]
fn a_misspelled_symbol_is_bad_input() {
    let out = run(simulated(None), &["probe", "--symbol", "cuMemAloc"]);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(
        out.stderr.contains("did you mean `cuMemAlloc`"),
        "{}",
        out.stderr
    );
    assert_eq!(out.stdout, "");
}

#[test]
fn no_driver_is_reported_with_a_way_out() {
    let mut command = cuda_entry();
    command.env("CUDA_ENTRY_DRIVER_PATH", "/nonexistent/libcuda.so.1");
    let out = run(command, &["probe"]);
    assert_eq!(out.status, 1, "{out:?}");
    assert!(
        out.stderr.contains("/nonexistent/libcuda.so.1"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("--simulated"), "{}", out.stderr);

    let mut stub = simulated(None);
    stub.env("CUDA_ENTRY_SIM_MODE", "stub");
    let out = run(stub, &["probe", "--json"]);
    assert_eq!(out.status, 1, "{out:?}");
    assert!(out.stderr.contains("stub library"), "{}", out.stderr);
}

#[test]
fn an_implausible_driver_version_is_no_driver_version() {
    // Neither is `1000 * major + 10 * minor` within CUDA 1.0 to 99.99: no "CUDA 2147483.64".
    for reported in [2_147_483_647, 13005] {
        for json in [false, true] {
            let mut args = vec!["probe", "--symbol", "cuMemAlloc"];
            if json {
                args.push("--json");
            }
            let out = run(simulated(Some(reported)), &args);
            assert_eq!(out.status, 1, "{reported}: {out:?}");
            assert_eq!(out.stdout, "", "{reported}");
            assert!(
                out.stderr.contains(&format!(
                    "reported the driver version {reported}, which is not a CUDA version"
                )),
                "{}",
                out.stderr
            );
            assert!(!out.stderr.contains("CUDA 2147483"), "{}", out.stderr);
        }
    }
}
