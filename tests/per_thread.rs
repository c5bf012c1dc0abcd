//! Per-thread default stream entries against the simulated driver: explicit `stream` arguments
//! always win; a declaration that names no stream resolves its legacy typedef, or its per-thread
//! twin when the facade's `per-thread-default-stream` feature is on. tests/run-all.sh runs this
//! file both ways.

use std::ffi::c_void;
use std::process::ExitCode;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUfunction, CUresult, CUstream};
use cuda_entry::{Entry, Stream};
use cuda_entry_sim as sim;
use cuda_entry_support::{Driver, Scenario, manifest_of_this_binary, run_scenarios, simulator};

const FEATURE: bool = cfg!(feature = "per-thread-default-stream");

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuLaunchKernel", version = 4000)]
    fn launch_default(
        f: CUfunction,
        grid_x: u32,
        grid_y: u32,
        grid_z: u32,
        block_x: u32,
        block_y: u32,
        block_z: u32,
        shared_bytes: u32,
        stream: CUstream,
        params: *mut *mut c_void,
        extra: *mut *mut c_void,
    ) -> CUresult;
    #[cuda_entry(symbol = "cuLaunchKernel", version = 4000, stream = "legacy")]
    fn launch_legacy(
        f: CUfunction,
        grid_x: u32,
        grid_y: u32,
        grid_z: u32,
        block_x: u32,
        block_y: u32,
        block_z: u32,
        shared_bytes: u32,
        stream: CUstream,
        params: *mut *mut c_void,
        extra: *mut *mut c_void,
    ) -> CUresult;
    #[cuda_entry(symbol = "cuLaunchKernel", version = 7000, stream = "per_thread")]
    fn launch_per_thread(
        f: CUfunction,
        grid_x: u32,
        grid_y: u32,
        grid_z: u32,
        block_x: u32,
        block_y: u32,
        block_z: u32,
        shared_bytes: u32,
        stream: CUstream,
        params: *mut *mut c_void,
        extra: *mut *mut c_void,
    ) -> CUresult;
    #[cuda_entry(symbol = "cuMemcpyHtoD", version = 3020)]
    fn memcpy_htod(dst: CUdeviceptr, src: *const c_void, bytes: usize) -> CUresult;
    #[cuda_entry(symbol = "cuStreamBeginCapture", version = 10010)]
    fn begin_capture(stream: CUstream, mode: u32) -> CUresult;
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
    fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;
    /// `PFN_cuMemcpy2D_v2000` takes a `CUDA_MEMCPY2D_v1 *`; the per-thread `v7000_ptds` a
    /// `CUDA_MEMCPY2D_v2 *`: same layout of the pointer, a different struct behind it. Not a twin.
    #[cuda_entry(symbol = "cuMemcpy2D", version = 2000)]
    #[allow(
        dead_code,
        reason = "only its module is checked: the simulator has no cuMemcpy2D to call"
    )]
    fn memcpy_2d_v1(copy: *const c_void) -> CUresult;
}

fn main() -> ExitCode {
    println!(
        "per-thread-default-stream feature: {}",
        if FEATURE { "on" } else { "off" }
    );
    run_scenarios(&[
        Scenario {
            name: "explicit_streams_ignore_the_feature",
            driver: Driver::Sim(sim::Driver::Current),
            env: &[],
            run: explicit_streams_ignore_the_feature,
        },
        Scenario {
            name: "unnamed_streams_follow_the_feature",
            driver: Driver::Sim(sim::Driver::Current),
            env: &[],
            run: unnamed_streams_follow_the_feature,
        },
        Scenario {
            name: "entries_without_a_twin_are_unaffected",
            driver: Driver::Sim(sim::Driver::Current),
            env: &[],
            run: entries_without_a_twin_are_unaffected,
        },
        Scenario {
            name: "the_manifest_records_the_entry_the_feature_chose",
            driver: Driver::Sim(sim::Driver::Current),
            env: &[],
            run: the_manifest_records_the_entry_the_feature_chose,
        },
    ])
}

fn reaches(sim: &sim::Simulator, entry: &Entry) -> String {
    let pfn = entry.resolve().unwrap_or_else(|e| panic!("{e}"));
    let names = [
        "cuLaunchKernel",
        "cuLaunchKernel_ptsz",
        "cuMemcpyHtoD_v2",
        "cuMemcpyHtoD_v2_ptds",
        "cuStreamBeginCapture_v2",
        "cuStreamBeginCapture_v2_ptsz",
        "cuMemAlloc_v2",
    ];
    names
        .iter()
        .find(|n| sim.address(n) == Some(pfn.as_ptr()))
        .map_or_else(|| format!("{pfn:p}"), |n| (*n).to_owned())
}

fn explicit_streams_ignore_the_feature() {
    let sim = simulator();
    assert_eq!(reaches(&sim, &launch_legacy::ENTRY), "cuLaunchKernel");
    assert_eq!(launch_legacy::STREAM, Stream::Legacy);
    assert_eq!(
        reaches(&sim, &launch_per_thread::ENTRY),
        "cuLaunchKernel_ptsz"
    );
    assert_eq!(launch_per_thread::VERSION, 7000);
}

fn unnamed_streams_follow_the_feature() {
    let sim = simulator();
    let cases: [(&Entry, &str, &str, u32, &str); 3] = [
        (
            &launch_default::ENTRY,
            "cuLaunchKernel",
            "cuLaunchKernel_ptsz",
            7000,
            launch_default::TYPEDEF,
        ),
        (
            &memcpy_htod::ENTRY,
            "cuMemcpyHtoD_v2",
            "cuMemcpyHtoD_v2_ptds",
            7000,
            memcpy_htod::TYPEDEF,
        ),
        (
            &begin_capture::ENTRY,
            "cuStreamBeginCapture_v2",
            "cuStreamBeginCapture_v2_ptsz",
            10010,
            begin_capture::TYPEDEF,
        ),
    ];
    for (entry, legacy, per_thread, twin_version, typedef) in cases {
        let got = reaches(&sim, entry);
        if FEATURE {
            assert_eq!(got, per_thread, "{entry:?}");
            assert_eq!(entry.stream(), Stream::PerThread);
            assert_eq!(entry.version(), twin_version);
            assert!(
                typedef.ends_with("_ptsz") || typedef.ends_with("_ptds"),
                "{typedef}"
            );
        } else {
            assert_eq!(got, legacy, "{entry:?}");
            assert_eq!(entry.stream(), Stream::Legacy);
            assert!(!typedef.contains("_pt"), "{typedef}");
        }
    }
    assert_eq!(launch_default::VERSION, if FEATURE { 7000 } else { 4000 });
    assert_eq!(
        launch_default::STREAM,
        if FEATURE {
            Stream::PerThread
        } else {
            Stream::Legacy
        }
    );
}

fn entries_without_a_twin_are_unaffected() {
    let sim = simulator();
    assert_eq!(reaches(&sim, &mem_alloc::ENTRY), "cuMemAlloc_v2");
    assert_eq!(
        (mem_alloc::VERSION, mem_alloc::STREAM),
        (3020, Stream::Legacy)
    );
    assert_eq!(mem_alloc::TYPEDEF, "PFN_cuMemAlloc_v3020");
    // cuMemcpy2D has a per-thread typedef (v7000_ptds), but of another ABI (a CUDA_MEMCPY2D_v2
    // behind the pointer): not a twin of the 2000 one, which stays legacy whatever the feature.
    assert_eq!(memcpy_2d_v1::TYPEDEF, "PFN_cuMemcpy2D_v2000");
    assert_eq!(
        (memcpy_2d_v1::VERSION, memcpy_2d_v1::STREAM),
        (2000, Stream::Legacy)
    );
    assert_eq!(
        (memcpy_2d_v1::ENTRY.version(), memcpy_2d_v1::ENTRY.stream()),
        (2000, Stream::Legacy)
    );
}

/// The manifest record of a declaration with a twin is the one the feature chose (the attribute
/// writes both, the facade's `PER_THREAD_DEFAULT` picks), the same as the module's constants and
/// the entry say.
fn the_manifest_records_the_entry_the_feature_chose() {
    let mut recorded: Vec<(String, u32, Stream)> = manifest_of_this_binary()
        .into_iter()
        .filter(|r| r.package == env!("CARGO_PKG_NAME"))
        .map(|r| (r.symbol, r.version, r.stream))
        .collect();
    recorded.sort();
    let mut declared: Vec<(String, u32, Stream)> = [
        (
            launch_default::SYMBOL,
            launch_default::VERSION,
            launch_default::STREAM,
        ),
        (
            launch_legacy::SYMBOL,
            launch_legacy::VERSION,
            launch_legacy::STREAM,
        ),
        (
            launch_per_thread::SYMBOL,
            launch_per_thread::VERSION,
            launch_per_thread::STREAM,
        ),
        (
            memcpy_htod::SYMBOL,
            memcpy_htod::VERSION,
            memcpy_htod::STREAM,
        ),
        (
            begin_capture::SYMBOL,
            begin_capture::VERSION,
            begin_capture::STREAM,
        ),
        (mem_alloc::SYMBOL, mem_alloc::VERSION, mem_alloc::STREAM),
        (
            memcpy_2d_v1::SYMBOL,
            memcpy_2d_v1::VERSION,
            memcpy_2d_v1::STREAM,
        ),
    ]
    .into_iter()
    .map(|(symbol, version, stream)| (symbol.to_owned(), version, stream))
    .collect();
    declared.sort();
    assert_eq!(recorded, declared);
    let default = (
        launch_default::ENTRY.version(),
        launch_default::ENTRY.stream(),
    );
    let chosen = if FEATURE {
        (7000, Stream::PerThread)
    } else {
        (4000, Stream::Legacy)
    };
    assert_eq!(default, chosen);
    let launch = |version, stream| {
        recorded
            .iter()
            .filter(|r| r.0 == "cuLaunchKernel" && r.1 == version && r.2 == stream)
            .count()
    };
    // Two declarations at the chosen one (the explicit and the default), one at the other.
    let other = if FEATURE {
        (4000, Stream::Legacy)
    } else {
        (7000, Stream::PerThread)
    };
    assert_eq!(launch(chosen.0, chosen.1), 2, "{recorded:?}");
    assert_eq!(launch(other.0, other.1), 1, "{recorded:?}");
}
