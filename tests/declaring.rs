//! Declarations wherever users write them, linked into one program: through a renamed dependency
//! and a renamed attribute import (tests/fixture-renamed), through a re-export with `crate = ...`
//! and a `macro_rules!` (tests/fixture-service over tests/fixture-gpu-sys), inside a function
//! body; and an optional entry with its fallback, which sets no requirement and fails no preload.

use std::collections::BTreeSet;
use std::process::ExitCode;

use cuda_entry::manifest::{self, OwnedRecord};
use cuda_entry::types::CUcontext;
use cuda_entry::{Entry, ErrorKind, Stream};
use cuda_entry_fixture_renamed as renamed;
use cuda_entry_fixture_service as service;
use cuda_entry_sim as sim;
use cuda_entry_support::{Driver, Scenario, run_scenarios, simulator};
use object::{Object, ObjectSection};

fn main() -> ExitCode {
    run_scenarios(&[
        Scenario {
            name: "every_declaration_is_registered_once",
            driver: Driver::Default,
            env: &[],
            run: every_declaration_is_registered_once,
        },
        Scenario {
            name: "requirements_leave_optional_entries_out",
            driver: Driver::Default,
            env: &[],
            run: requirements_leave_optional_entries_out,
        },
        Scenario {
            name: "the_manifest_marks_the_optional_record",
            driver: Driver::Default,
            env: &[],
            run: the_manifest_marks_the_optional_record,
        },
        Scenario {
            name: "at_12040_preload_all_passes_and_the_fallback_takes_3020",
            driver: Driver::Sim(sim::Driver::Current),
            env: &[("CUDA_ENTRY_SIM_VERSION", "12040")],
            run: at_12040_preload_all_passes_and_the_fallback_takes_3020,
        },
        Scenario {
            name: "at_13000_the_fallback_takes_12050",
            driver: Driver::Sim(sim::Driver::Current),
            env: &[],
            run: at_13000_the_fallback_takes_12050,
        },
    ])
}

/// The entries of the two fixtures, as (symbol, version, optional).
fn declared() -> BTreeSet<(&'static str, u32, bool)> {
    BTreeSet::from([
        ("cuInit", 2000, false),
        ("cuCtxCreate", 12050, true),
        ("cuCtxCreate", 3020, false),
        ("cuMemFree", 3020, false),
        ("cuDeviceGetCount", 2000, false),
        ("cuMemAlloc", 3020, false),
        ("cuMemcpyHtoD", 3020, false),
        ("cuCtxSynchronize", 2000, false),
    ])
}

fn every_declaration_is_registered_once() {
    let registered: Vec<(&str, u32, bool)> = cuda_entry::entries()
        .iter()
        .map(|e| {
            let r = e.request();
            (r.symbol, r.version, e.is_optional())
        })
        .collect();
    // cuDeviceGetCount 2000 is declared twice: in a function body and by the service's macro.
    assert_eq!(registered.len(), declared().len() + 1, "{registered:?}");
    assert_eq!(
        registered.iter().copied().collect::<BTreeSet<_>>(),
        declared()
    );
    let is_registered = |entry: &Entry| {
        cuda_entry::entries()
            .iter()
            .any(|e| std::ptr::eq(*e, entry))
    };
    assert!(is_registered(&service::device_get_count::ENTRY));
    assert!(is_registered(&renamed::ctx_create_v4::ENTRY));
    assert!(renamed::ctx_create_v4::ENTRY.is_optional());
    assert!(!renamed::ctx_create_v2::ENTRY.is_optional());
    assert_eq!(
        (
            renamed::ctx_create_v4::TYPEDEF,
            service::ctx_synchronize::TYPEDEF
        ),
        ("PFN_cuCtxCreate_v12050", "PFN_cuCtxSynchronize_v2000")
    );
    assert_eq!(service::memcpy_htod::STREAM, Stream::Legacy);
}

fn requirements_leave_optional_entries_out() {
    let req = cuda_entry::requirements();
    assert_eq!(
        req.minimum_driver, 3020,
        "not 12050: that entry is optional"
    );
    let set_by: BTreeSet<&str> = req.set_by.iter().map(|r| r.symbol).collect();
    assert_eq!(
        set_by,
        BTreeSet::from(["cuCtxCreate", "cuMemAlloc", "cuMemFree", "cuMemcpyHtoD"])
    );
    assert!(req.entries.iter().all(|r| r.version != 12050));
    assert_eq!(req.entries.len(), declared().len() - 1);
    let optional: Vec<(&str, u32)> = req.optional.iter().map(|r| (r.symbol, r.version)).collect();
    assert_eq!(optional, [("cuCtxCreate", 12050)]);
    let text = req.to_string();
    assert!(
        text.starts_with("7 CUDA driver entries; the program needs a driver of CUDA 3.2 or newer")
            && text.ends_with("; 1 optional: cuCtxCreate 12050"),
        "{text}"
    );
}

/// The manifest records read from the executable's file, as `cuda-entry check BINARY` reads them.
fn manifest_of_this_binary() -> Vec<OwnedRecord> {
    let data = std::fs::read(std::env::current_exe().expect("current_exe")).expect("read");
    let file = object::File::parse(&*data).expect("an object file");
    let section = file
        .section_by_name(cuda_entry::MANIFEST_SECTION)
        .expect("the manifest section");
    manifest::parse(section.data().expect("section data")).expect("well-formed records")
}

fn the_manifest_marks_the_optional_record() {
    let records = manifest_of_this_binary();
    let stated: BTreeSet<(&str, u32, bool)> = records
        .iter()
        .map(|r| (r.symbol.as_str(), r.version, r.optional))
        .collect();
    assert_eq!(stated, declared());
    let packages: BTreeSet<&str> = records.iter().map(|r| r.package.as_str()).collect();
    assert_eq!(
        packages,
        BTreeSet::from(["cuda-entry-fixture-renamed", "cuda-entry-fixture-service"])
    );
}

/// `cuInit`, then the fallback chain; the export the simulator saw.
fn create_context() -> String {
    let sim = simulator();
    let mut ctx: CUcontext = std::ptr::null_mut();
    // SAFETY: a valid out-pointer, device 0 of the simulator.
    unsafe {
        assert_eq!(renamed::init(0), Ok(()));
        assert_eq!(renamed::ctx_create(&mut ctx, 0, 0), Ok(()));
    }
    assert!(!ctx.is_null());
    sim.last_call()
}

fn at_12040_preload_all_passes_and_the_fallback_takes_3020() {
    assert_eq!(cuda_entry::preload_all(), Ok(()));
    let unavailable = renamed::ctx_create_v4::pointer().expect_err("12050 needs CUDA 12.5");
    assert_eq!(unavailable.kind(), &ErrorKind::DriverTooOld);
    assert!(!renamed::ctx_create_v4::is_available());
    assert_eq!(create_context(), "cuCtxCreate_v2");
}

fn at_13000_the_fallback_takes_12050() {
    assert_eq!(cuda_entry::preload_all(), Ok(()));
    assert_eq!(create_context(), "cuCtxCreate_v4");
    // The declaration inside a function body calls its driver function too.
    assert_eq!(renamed::device_count(), Ok(1));
    assert_eq!(simulator().last_call(), "cuDeviceGetCount");
}
