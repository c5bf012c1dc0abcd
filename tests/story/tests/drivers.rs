//! The story program on the kit's simulated drivers, each a driver of its version: it exports only
//! the functions that version had (tests/story/Cargo.toml says how this crate is built twice).
//!
//! Built against cudarc as published, the program works on every driver until it calls a
//! function the driver lacks, and then panics ("Missing symbol cuCtxCreate_v4"), the report this
//! issue started from. Built against the migrated cudarc, the same call answers a status, never a
//! panic, on every driver the original ran on, and `preload_all()` passes on each.

use std::collections::BTreeMap;
use std::process::Command;

use cuda_entry_sim::{Config, Driver};

/// The drivers of the story: what each reports.
fn drivers() -> Vec<(&'static str, Config, u32)> {
    vec![
        ("13.0", Config::new().version(13000), 13000),
        ("12.2", Config::new().version(12020), 12020),
        ("12.0", Config::new().version(12000), 12000),
        ("11.8", Config::new().driver(Driver::Cuda11x), 11080),
        ("11.2", Config::new().driver(Driver::BeforeCuda113), 11020),
    ]
}

/// The program's lines, by step: `(outcome, what it said)`.
fn run(config: &Config) -> (BTreeMap<String, (String, String)>, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_story"));
    config
        .apply_to(&mut command)
        .expect("the simulated driver is built");
    let output = command.output().expect("the program runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let text = format!("{stdout}{}", String::from_utf8_lossy(&output.stderr));
    let mut steps = BTreeMap::new();
    for line in stdout.lines() {
        let Some((outcome, rest)) = line.split_once(' ') else {
            continue;
        };
        if !["ok", "error", "panic"].contains(&outcome) {
            continue;
        }
        let (step, said) = rest.split_once(": ").unwrap_or((rest, ""));
        steps.insert(step.to_owned(), (outcome.to_owned(), said.to_owned()));
    }
    (steps, text)
}

/// The steps every driver of the story serves (CUDA 11.2 and newer): they work, on the original
/// and on the migrated build alike.
const SERVED: [&str; 6] = [
    "context",
    "attribute",
    "memory",
    "second stream",
    "events",
    "pinned",
];

#[test]
fn every_driver_serves_what_it_has_and_refuses_the_rest() {
    for (label, config, version) in drivers() {
        let (steps, text) = run(&config);
        println!("--- the driver of CUDA {label}:\n{text}");
        for step in SERVED {
            let outcome = steps.get(step).map(|(o, _)| o.as_str());
            assert_eq!(outcome, Some("ok"), "CUDA {label}, {step}:\n{text}");
            let said = &steps[step].1;
            assert!(!said.contains("false"), "CUDA {label}, {step}: {said}");
            if step == "errors" {
                // Through cuGetErrorString and cuGetErrorName.
                assert!(
                    said.contains("invalid device ordinal")
                        && said.contains("CUDA_ERROR_INVALID_DEVICE")
                        && said.ends_with("1 is CUDA_ERROR_INVALID_VALUE"),
                    "CUDA {label}: {said}"
                );
            }
        }
        // `cuCtxCreate_v4`, the context of cudarc's 12.9 bindings, exists from CUDA 12.5 on.
        let own = steps
            .get("own context")
            .map(|(o, s)| (o.as_str(), s.as_str()));
        if version >= 12050 {
            assert_eq!(own.map(|o| o.0), Some("ok"), "CUDA {label}:\n{text}");
        } else if cfg!(feature = "migrated") {
            // A status the program can handle, never a panic.
            assert!(
                own.is_some_and(|(o, s)| o == "error" && s.contains("CUDA_ERROR_NOT_FOUND")),
                "CUDA {label}: {own:?}\n{text}"
            );
        } else {
            // cudarc as published panics where the driver lacks the export.
            assert!(
                own.is_some_and(|(o, s)| o == "panic" && s.contains("cuCtxCreate_v4")),
                "CUDA {label}: {own:?}\n{text}"
            );
        }
        if cfg!(feature = "migrated") {
            assert!(
                !steps.values().any(|(o, _)| o == "panic"),
                "CUDA {label}: a panic\n{text}"
            );
            // A migrated bindings crate sets no requirement: the program runs here, and
            // preload_all() says so.
            assert_eq!(
                steps.get("preload_all").map(|(o, _)| o.as_str()),
                Some("ok"),
                "CUDA {label}:\n{text}"
            );
        }
    }
}
