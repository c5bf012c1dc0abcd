//! The examples, run as built, against the simulated driver: each one exits 0 and prints what it
//! should (which export each entry reached, the verified results, each failure message); and none
//! of them links to libcuda.
//!
//! Nothing is built here: `cargo test` builds the examples (into `target/<profile>/examples/`)
//! before it runs the integration tests. `cargo test --test examples` alone does not: build them
//! first with `cargo build --examples`.

use std::path::{Path, PathBuf};

use cuda_entry_sim as sim;
use cuda_entry_support::{elf, target_command};
use object::Object;

/// The built example `name`: `target/<profile>/examples/<name>`, beside this test's `deps/`.
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    let mut dir = exe.parent().expect("the test's folder").to_path_buf();
    if dir.ends_with("deps") {
        dir.pop();
    }
    let path = dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.is_file(),
        "the example `{name}` is not built ({} is missing): `cargo test` builds the examples, \
         `cargo test --test examples` alone does not; run `cargo build --examples` first",
        path.display()
    );
    if let Some(source) = newer_source(&path) {
        panic!(
            "the example `{name}` is older than its source {}: `cargo test --test examples` alone \
             does not rebuild the examples; run `cargo build --examples` (or plain `cargo test`)",
            source.display()
        );
    }
    path
}

/// A source file the binary was built from that changed after it was built, read off the
/// dep-info file cargo writes beside it (`<name>.d`: `binary: source source ...`); `None` when
/// all are older or there is no dep-info to read.
fn newer_source(binary: &Path) -> Option<PathBuf> {
    let built = std::fs::metadata(binary).and_then(|m| m.modified()).ok()?;
    let info = std::fs::read_to_string(binary.with_extension("d")).ok()?;
    let first = info.lines().next()?;
    let (_, sources) = first.split_once(": ")?;
    // Make escapes a space inside a path as `\ `.
    let sources = sources.replace("\\ ", "\0");
    sources
        .split_whitespace()
        .map(|s| PathBuf::from(s.replace('\0', " ")))
        .find(|source| {
            std::fs::metadata(source)
                .and_then(|m| m.modified())
                .is_ok_and(|changed| changed > built)
        })
}

/// Runs an example against `simulator` with `env` added; returns its exit status's success and
/// its stdout (stderr appended).
fn run(name: &str, simulator: sim::Driver, env: &[(&str, &str)]) -> (bool, String) {
    let driver = simulator.path().unwrap_or_else(|e| panic!("{e}"));
    let mut command = target_command(example(name));
    command
        .env("CUDA_ENTRY_DRIVER_PATH", &driver)
        .env("CUDA_ENTRY_SIMULATED", "1")
        .env_remove("CUDA_ENTRY_SIM_VERSION")
        .env_remove("CUDA_ENTRY_SIM_MODE");
    for (key, value) in env {
        command.env(key, value);
    }
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("running the example `{name}`: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    println!("---- {name} {env:?} ({})\n{text}", output.status);
    (output.status.success(), text)
}

/// Runs an example that must succeed; returns its output.
fn run_ok(name: &str, simulator: sim::Driver, env: &[(&str, &str)]) -> String {
    let (ok, text) = run(name, simulator, env);
    assert!(ok, "the example `{name}` failed:\n{text}");
    text
}

/// Whether `text` has a line `<symbol> version <version> [<stream>] -> <export>` (the tables of
/// quickstart and vector_add), whitespace aside.
fn reaches(text: &str, symbol: &str, version: u32, stream: Option<&str>, export: &str) -> bool {
    let version = version.to_string();
    text.lines().any(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        let expected: Vec<&str> = [symbol, "version", version.as_str()]
            .into_iter()
            .chain(stream)
            .chain(["->", export])
            .collect();
        words == expected
    })
}

fn assert_contains(text: &str, needle: &str) {
    assert!(text.contains(needle), "expected `{needle}` in:\n{text}");
}

fn count(text: &str, needle: &str) -> usize {
    text.matches(needle).count()
}

#[test]
fn vector_add_runs_and_verifies_both_launches() {
    let text = run_ok("vector_add", sim::Driver::Current, &[]);
    assert_contains(&text, "SIMULATED driver");
    assert_contains(&text, "host arithmetic");
    for (symbol, version, stream, export) in [
        ("cuInit", 2000, "legacy", "cuInit"),
        (
            "cuDevicePrimaryCtxRelease",
            11000,
            "legacy",
            "cuDevicePrimaryCtxRelease_v2",
        ),
        ("cuModuleLoadData", 2000, "legacy", "cuModuleLoadData"),
        ("cuMemAlloc", 3020, "legacy", "cuMemAlloc_v2"),
        ("cuMemFree", 3020, "legacy", "cuMemFree_v2"),
        ("cuMemcpyHtoD", 3020, "legacy", "cuMemcpyHtoD_v2"),
        ("cuMemcpyDtoH", 3020, "legacy", "cuMemcpyDtoH_v2"),
        ("cuLaunchKernel", 4000, "legacy", "cuLaunchKernel"),
        ("cuLaunchKernel", 7000, "per-thread", "cuLaunchKernel_ptsz"),
        ("cuStreamSynchronize", 2000, "legacy", "cuStreamSynchronize"),
        (
            "cuStreamSynchronize",
            7000,
            "per-thread",
            "cuStreamSynchronize_ptsz",
        ),
        ("cuCtxSynchronize", 2000, "legacy", "cuCtxSynchronize"),
    ] {
        assert!(
            reaches(&text, symbol, version, Some(stream), export),
            "expected {symbol} {version} {stream} -> {export} in:\n{text}"
        );
    }
    assert_contains(&text, "legacy default stream): 65536 blocks x 256 threads");
    assert_contains(
        &text,
        "per-thread default stream): 65536 blocks x 256 threads",
    );
    // 2^24 elements of 3 * (i % 1024): 16384 * 3 * 523776.
    assert_eq!(
        count(
            &text,
            "sum of the 16777216 results (f64) = 25744637952, expected 25744637952"
        ),
        2,
        "{text}"
    );
    assert_eq!(count(&text, "verified all 16777216 elements"), 2, "{text}");
    assert_contains(
        &text,
        "freed the buffers, unloaded the module, released the primary context",
    );
    assert_contains(&text, "OK: both launches verified");
}

#[test]
fn vector_add_exits_non_zero_with_the_error_on_a_too_old_driver() {
    // CUDA 6.5 predates the per-thread default stream (PFN_cuLaunchKernel_v7000_ptsz).
    let (ok, text) = run(
        "vector_add",
        sim::Driver::Current,
        &[("CUDA_ENTRY_SIM_VERSION", "6050")],
    );
    assert!(!ok, "vector_add should fail on a CUDA 6.5 driver:\n{text}");
    let line = text
        .lines()
        .find(|l| l.contains("cuLaunchKernel") && l.contains("per-thread"))
        .unwrap_or_else(|| panic!("no per-thread cuLaunchKernel line in:\n{text}"));
    assert!(line.contains("-> ERROR: "), "{line}");
    assert!(line.contains("CUDA 6.5"), "{line}");
    assert!(!text.contains("verified all"), "{text}");
}

#[test]
fn new_api_on_a_13_0_driver_calls_the_13_0_abi() {
    let text = run_ok("new_api", sim::Driver::Current, &[]);
    assert_contains(
        &text,
        "the two ABIs are two exports: version 13000 -> cuCtxGetDevice_v2; version 2000 -> \
         cuCtxGetDevice",
    );
    assert_contains(
        &text,
        "the driver (CUDA 13.0) has it: cuCtxGetDevice(&device, ctx",
    );
    assert_contains(&text, "says device 0");
    assert!(!text.contains("fell back"), "{text}");
    // (b): too new for this driver, and the driver was never asked.
    assert_contains(&text, "cuDeviceGetFutureCapability version 13080");
    assert_contains(
        &text,
        "DriverTooOld: cannot resolve cuDeviceGetFutureCapability version 13080",
    );
    assert_contains(
        &text,
        "the simulated driver's cuGetProcAddress* calls for it: 0",
    );
    // (c): each failure, by kind, with its message.
    assert_contains(
        &text,
        "SymbolNotFound: cannot resolve cuMemAllocFutureThing version 12000",
    );
    assert_contains(
        &text,
        "VersionNotSufficient: cannot resolve cuLaunchKernel version 4000",
    );
    assert_contains(
        &text,
        "DriverTooOld: cannot resolve cuDeviceGetFarFuture version 99990",
    );
    assert_contains(&text, "OK: every path behaved as expected");
}

#[test]
fn new_api_on_a_12_8_driver_falls_back_to_the_2_0_abi() {
    let text = run_ok(
        "new_api",
        sim::Driver::Current,
        &[("CUDA_ENTRY_SIM_VERSION", "12080")],
    );
    assert_contains(&text, "cuDriverGetVersion = 12080");
    assert_contains(
        &text,
        "version 13000 -> unavailable (below); version 2000 -> cuCtxGetDevice",
    );
    assert_contains(
        &text,
        "not on this driver: cannot resolve cuCtxGetDevice version 13000",
    );
    assert_contains(
        &text,
        "fell back to the CUDA 2.0 ABI (the current context's device): device 0",
    );
    assert_contains(
        &text,
        "SymbolNotFound: cannot resolve cuMemAllocFutureThing version 12000",
    );
    assert_contains(
        &text,
        "VersionNotSufficient: cannot resolve cuLaunchKernel version 4000",
    );
    assert_contains(&text, "OK: every path behaved as expected");
}

#[test]
fn new_api_on_an_11_8_driver_explains_the_ambiguous_answer() {
    let text = run_ok("new_api", sim::Driver::Cuda11x, &[]);
    assert_contains(&text, "asked through GetProcAddress\n");
    assert_contains(
        &text,
        "fell back to the CUDA 2.0 ABI (the current context's device): device 0",
    );
    // 12000 is above an 11.8 driver: refused before asking.
    assert_contains(
        &text,
        "DriverTooOld: cannot resolve cuMemAllocFutureThing version 12000",
    );
    assert_contains(
        &text,
        "NotFoundByLegacyQuery: cannot resolve cuLaunchKernel version 4000",
    );
    assert_contains(&text, "OK: every path behaved as expected");
}

#[test]
fn quickstart_reaches_each_cuctxcreate_abi() {
    let text = run_ok("quickstart", sim::Driver::Current, &[]);
    assert_contains(&text, "SIMULATED driver");
    for (version, export) in [
        (2000, "cuCtxCreate"),
        (3020, "cuCtxCreate_v2"),
        (11040, "cuCtxCreate_v3"),
        (12050, "cuCtxCreate_v4"),
    ] {
        assert!(
            reaches(&text, "cuCtxCreate", version, None, export),
            "expected cuCtxCreate {version} -> {export} in:\n{text}"
        );
    }
    assert!(
        reaches(&text, "cuMemAlloc", 3020, None, "cuMemAlloc_v2"),
        "{text}"
    );
    assert_contains(&text, "allocated 64 MiB");
}

/// The libraries an executable links to at load time: its `DT_NEEDED` entries on Linux (the
/// workspace's own ELF reader), the DLLs of its PE import table on Windows; `None` elsewhere.
fn load_time_libraries(path: &Path) -> Option<Vec<String>> {
    if cfg!(target_os = "linux") {
        return Some(elf::needed_libraries(path).unwrap_or_else(|e| panic!("{e}")));
    }
    if !cfg!(windows) {
        return None;
    }
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file = object::File::parse(&*bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut dlls = Vec::new();
    for import in file
        .imports()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    {
        let import = import.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        dlls.push(String::from_utf8_lossy(import.library()).to_ascii_lowercase());
    }
    dlls.sort();
    dlls.dedup();
    Some(dlls)
}

/// The driver library an example must not link to: resolved at run time instead.
fn is_the_driver(library: &str) -> bool {
    library.starts_with("libcuda") || library.eq_ignore_ascii_case("nvcuda.dll")
}

/// The examples resolve everything at run time: neither a `DT_NEEDED` entry nor a PE import
/// names the driver.
#[test]
fn examples_do_not_link_to_libcuda() {
    // Every Rust program links to it: the reader really reads the table.
    let always = if cfg!(windows) {
        "kernel32.dll"
    } else {
        "libc.so.6"
    };
    for name in ["vector_add", "quickstart", "new_api"] {
        let path = example(name);
        let Some(needed) = load_time_libraries(&path) else {
            println!(
                "skipped: the link-time check reads ELF and PE files, and this target ({}) \
                 builds neither",
                std::env::consts::OS
            );
            return;
        };
        println!("{name}: links to {needed:?}");
        assert!(
            needed.iter().any(|n| n == always),
            "{name}: {always} not among {needed:?}; the reader is wrong"
        );
        assert!(
            !needed.iter().any(|n| is_the_driver(n)),
            "{name} links to the driver at load time: {needed:?}"
        );
    }
}

#[test]
fn the_elf_reader_rejects_what_is_not_elf64() {
    assert!(elf::needed_libraries_of(b"").is_err());
    assert!(elf::needed_libraries_of(b"#!/bin/sh\necho not an ELF file\n").is_err());
    let mut elf32 = vec![0u8; 64];
    elf32[..6].copy_from_slice(b"\x7fELF\x01\x01");
    assert!(elf::needed_libraries_of(&elf32).is_err());
    if cfg!(target_os = "linux") {
        // A real file cut short: its section headers (at the end) are gone.
        let bytes = std::fs::read(example("quickstart")).expect("read quickstart");
        let cut = &bytes[..bytes.len() / 2];
        assert!(elf::needed_libraries_of(cut).is_err());
    }
}

/// Against the simulator named by `CUDA_ENTRY_DRIVER_PATH` alone, where cudarc's loader cannot
/// find it, the example says the cudarc part did not run and why, runs the cuda-entry part on a
/// context of its own (the 13.0 `cuCtxGetDevice` ABI on a 13.0 driver, the 2.0 one on a 12.8
/// driver), never panics, and exits 0. It also does not link to libcuda: cudarc is built with
/// `dynamic-loading`. (Through the kit, cudarc runs too: the next test.)
#[test]
fn cudarc_interop_runs_the_cuda_entry_part_and_says_cudarc_needs_a_real_driver() {
    let text = run_ok("cudarc_interop", sim::Driver::Current, &[]);
    assert_contains(&text, "SIMULATED driver");
    for (symbol, version, export) in [
        ("cuCtxGetDevice", 13000, "cuCtxGetDevice_v2"),
        ("cuCtxGetDevice", 2000, "cuCtxGetDevice"),
        ("cuDeviceGetUuid", 11040, "cuDeviceGetUuid_v2"),
        // Resolved as on the real driver (the simulator does not implement it: not called).
        ("cuMemsetD32", 3020, "cuMemsetD32_v2"),
    ] {
        assert!(
            reaches(&text, symbol, version, Some("legacy"), export),
            "expected {symbol} {version} legacy -> {export} in:\n{text}"
        );
    }
    assert_contains(&text, "cudarc: not run: ");
    assert_contains(
        &text,
        "The cudarc part needs the driver cuda-entry uses, where cudarc's loader finds it",
    );
    assert!(!text.contains("CudaContext::new(0) retained"), "{text}");
    assert_contains(
        &text,
        "cuCtxGetDevice version 13000 (the context passed explicitly): context ",
    );
    assert_contains(&text, "is on device 0");
    // The simulated device's UUID is the bytes of "cuda-entry-sim01".
    assert_contains(
        &text,
        "cuDeviceGetUuid version 11040: GPU-63756461-2d65-6e74-7279-2d73696d3031",
    );
    assert_contains(
        &text,
        "OK: the cuda-entry part ran against the SIMULATED driver; the cudarc part did not run \
         (see above)",
    );
    assert!(!text.contains("panicked"), "{text}");

    // A 12.8 driver: the 13.0 ABI is refused without asking, the 2.0 one answers.
    let text = run_ok(
        "cudarc_interop",
        sim::Driver::Current,
        &[("CUDA_ENTRY_SIM_VERSION", "12080")],
    );
    assert_contains(
        &text,
        "cuCtxGetDevice version 13000 is not on this driver: cannot resolve cuCtxGetDevice \
         version 13000",
    );
    assert_contains(
        &text,
        "fell back to cuCtxGetDevice version 2000 (the current context): device 0",
    );
    assert_contains(
        &text,
        "OK: the cuda-entry part ran against the SIMULATED driver",
    );
    assert!(!text.contains("panicked"), "{text}");

    if let Some(needed) = load_time_libraries(&example("cudarc_interop")) {
        println!("cudarc_interop: links to {needed:?}");
        assert!(
            !needed.iter().any(|n| is_the_driver(n)),
            "cudarc_interop links to the driver at load time: {needed:?}"
        );
    }
}

/// Through the testing kit (`Config::apply_to`, which puts the simulated driver on the child's
/// `LD_LIBRARY_PATH` as `libcuda.so`), cudarc's loader opens the very library cuda-entry uses,
/// and the whole example runs on the simulator: cudarc's context, stream and memory, and the
/// declarations on cudarc's handles. Before the simulator implemented what cudarc's safe API
/// calls, `CudaContext::new` failed there with 801.
#[cfg(target_os = "linux")]
#[test]
fn cudarc_interop_runs_whole_through_the_kit() {
    let mut command = target_command(example("cudarc_interop"));
    command.env("CUDA_ENTRY_SIMULATED", "1");
    sim::Config::new()
        .version(13000)
        .apply_to(&mut command)
        .expect("the simulated driver is built");
    let output = command.output().expect("the example runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    println!("{text}");
    assert!(output.status.success(), "{text}");
    assert_contains(
        &text,
        "cudarc: its loader opened the library cuda-entry uses",
    );
    assert_contains(&text, "CudaContext::new(0) retained");
    assert!(!text.contains("not run"), "{text}");
    assert!(!text.contains("panicked"), "{text}");
}
