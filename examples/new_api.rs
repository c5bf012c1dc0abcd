//! Code written against an older toolkit calling a driver API newer than that toolkit.
//!
//! A program built with CUDA 12.x headers has no `PFN_cuCtxGetDevice_v13000`, no
//! `cuCtxGetDevice_v2` prototype and no way to link to one, yet the CUDA 13.0 driver it runs on has
//! it. With `cuGetProcAddress` the program asks for it at run time, at the version of the typedef
//! its signature was copied from, and falls back to the old ABI when the driver is older.
//!
//! Then the same for an API newer than every header this crate knows (`unverified`), and, on
//! purpose, each way a run-time request can fail that the compiler cannot judge.
//!
//! Without a CUDA driver it runs against the simulated driver (core/sim/simdriver). Try an older
//! simulated driver with `CUDA_ENTRY_SIM_VERSION=12080 cargo run --example new_api`.
//!
//!     cargo run --example new_api
#![warn(clippy::pedantic)]

use std::process::ExitCode;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUcontext, CUdevice, CUdeviceptr, CUresult};
use cuda_entry::{Cuda, Entry, Error, ErrorKind, Stream};

// Each signature is copied from the typedef its version names, in CUDA 13.0's cudaTypedefs.h.
#[cuda_entry]
unsafe extern "C" {
    /// `PFN_cuInit_v2000(unsigned int Flags)`.
    #[cuda_entry(symbol = "cuInit", version = 2000)]
    fn init(flags: u32) -> CUresult;
    /// `PFN_cuDeviceGet_v2000(CUdevice_v1 *device, int ordinal)`.
    #[cuda_entry(symbol = "cuDeviceGet", version = 2000)]
    fn device_get(device: *mut CUdevice, ordinal: i32) -> CUresult;
    /// `PFN_cuDevicePrimaryCtxRetain_v7000(CUcontext *pctx, CUdevice_v1 dev)`.
    #[cuda_entry(symbol = "cuDevicePrimaryCtxRetain", version = 7000)]
    fn primary_ctx_retain(pctx: *mut CUcontext, dev: CUdevice) -> CUresult;
    /// `PFN_cuDevicePrimaryCtxRelease_v11000(CUdevice_v1 dev)`.
    #[cuda_entry(symbol = "cuDevicePrimaryCtxRelease", version = 11000)]
    fn primary_ctx_release(dev: CUdevice) -> CUresult;
    /// `PFN_cuCtxSetCurrent_v4000(CUcontext ctx)`.
    #[cuda_entry(symbol = "cuCtxSetCurrent", version = 4000)]
    fn ctx_set_current(ctx: CUcontext) -> CUresult;

    /// `PFN_cuCtxGetDevice_v13000(CUdevice *device, CUcontext ctx)`: new in CUDA 13.0 (the
    /// export `cuCtxGetDevice_v2`); a CUDA 12.x toolkit's headers do not have it.
    #[cuda_entry(symbol = "cuCtxGetDevice", version = 13000)]
    fn ctx_get_device_v13000(device: *mut CUdevice, ctx: CUcontext) -> CUresult;
    /// `PFN_cuCtxGetDevice_v2000(CUdevice_v1 *device)`: the current context's device only. Every
    /// driver has it; the fallback.
    #[cuda_entry(symbol = "cuCtxGetDevice", version = 2000)]
    fn ctx_get_device_v2000(device: *mut CUdevice) -> CUresult;
}

// Newer than every header of the typedef table (CUDA 11.7 to 13.5): `unverified` is the opt-in.
// Only the version's form is checked, so the signature is this program's responsibility. The
// function is hypothetical: what matters is what the run time does with it.
#[cuda_entry]
unsafe extern "C" {
    /// A hypothetical CUDA 13.8 API, `CUresult cuDeviceGetFutureCapability(int *value,
    /// CUdevice dev)`.
    #[cuda_entry(symbol = "cuDeviceGetFutureCapability", version = 13080, unverified)]
    #[allow(dead_code, reason = "only resolved, to show the run time's answer")]
    fn device_get_future_capability(value: *mut i32, dev: CUdevice) -> CUresult;
}

// Deliberately wrong requests the compiler cannot judge (the typedef table cannot know about
// symbols it does not have, nor what the driver of the machine will say).
#[cuda_entry]
unsafe extern "C" {
    /// Not a driver API at all (a misspelling, say), at a version every 12.0+ driver has.
    #[cuda_entry(symbol = "cuMemAllocFutureThing", version = 12000, unverified)]
    #[allow(dead_code, reason = "only resolved, to show the run time's answer")]
    fn mem_alloc_future_thing(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;
    /// A version no driver reports yet.
    #[cuda_entry(symbol = "cuDeviceGetFarFuture", version = 99990, unverified)]
    #[allow(dead_code, reason = "only resolved, to show the run time's answer")]
    fn device_get_far_future(value: *mut i32, dev: CUdevice) -> CUresult;
}

/// The per-thread trap through the raw core API: `cuLaunchKernel` at 4000 with the per-thread
/// flag. The per-thread typedef is `PFN_cuLaunchKernel_v7000_ptsz`; there is no 4000 one, and the
/// driver says so. `#[cuda_entry(symbol = "cuLaunchKernel", version = 4000, stream =
/// "per_thread")]` does not compile.
static LAUNCH_KERNEL_PER_THREAD_4000: Entry =
    Entry::new(c"cuLaunchKernel", 4000, Stream::PerThread);

fn main() -> ExitCode {
    let info = match cuda_entry::driver_info() {
        Ok(info) => info,
        Err(error) => {
            return cuda_entry_support::fall_back_to_simulator(&error).unwrap_or(ExitCode::FAILURE);
        }
    };
    let label = if cuda_entry_support::is_simulated() {
        "SIMULATED driver"
    } else {
        "driver"
    };
    println!(
        "{label} `{}`: cuDriverGetVersion = {} ({}), asked through {:?}",
        info.path,
        info.version,
        Cuda(info.version),
        info.bootstrap
    );
    let mut failures = Vec::new();
    if let Err(message) = newer_than_the_toolkit() {
        failures.push(message);
    }
    newer_than_the_table(info.version, &mut failures);
    failure_messages(info.version, &mut failures);
    if failures.is_empty() {
        println!("\nOK: every path behaved as expected");
        ExitCode::SUCCESS
    } else {
        println!("\nFAILED:");
        for failure in &failures {
            println!("  - {failure}");
        }
        ExitCode::FAILURE
    }
}

/// The export an entry reached, by name where the loader knows it.
fn export_of(entry: &Entry) -> String {
    match entry.resolve() {
        Ok(pfn) => {
            cuda_entry_support::export_name(pfn.as_ptr()).unwrap_or_else(|| format!("{pfn:p}"))
        }
        Err(_) => "unavailable (below)".to_owned(),
    }
}

/// A driver call's outcome as a message: the resolution error or the driver's status, both in
/// the `Error` of a checked call.
fn check(what: &str, outcome: Result<(), Error>) -> Result<(), String> {
    outcome.map_err(|error| format!("{what}: {error}"))
}

/// (a) `cuCtxGetDevice` at 13000 when the driver has it, else the 2000 ABI.
fn newer_than_the_toolkit() -> Result<(), String> {
    println!(
        "\n(a) A CUDA 13.0 API that a 12.x toolkit's headers lack: cuCtxGetDevice version 13000 \
         (`{}`)",
        ctx_get_device_v13000::TYPEDEF
    );
    let mut dev: CUdevice = 0;
    let mut ctx: CUcontext = std::ptr::null_mut();
    // SAFETY: valid out-pointers to locals, in the order the driver API requires (cuInit first).
    unsafe {
        check("cuInit", init(0))?;
        check("cuDeviceGet", device_get(&raw mut dev, 0))?;
        check(
            "cuDevicePrimaryCtxRetain",
            primary_ctx_retain(&raw mut ctx, dev),
        )?;
    }
    let result = query_device(ctx, dev);
    // SAFETY: balances the retain above; the context is not used after this.
    let released = check("cuDevicePrimaryCtxRelease", unsafe {
        primary_ctx_release(dev)
    });
    result.and(released)
}

/// Asks which device `ctx` is on: through the 13.0 ABI when the driver has it, else the 2.0 one.
fn query_device(ctx: CUcontext, dev: CUdevice) -> Result<(), String> {
    // SAFETY: `ctx` is the primary context just retained.
    check("cuCtxSetCurrent", unsafe { ctx_set_current(ctx) })?;
    println!(
        "    the two ABIs are two exports: version 13000 -> {}; version 2000 -> {}",
        export_of(&ctx_get_device_v13000::ENTRY),
        export_of(&ctx_get_device_v2000::ENTRY)
    );
    // The driver's version (read once, when it was loaded) and the entry's availability: the
    // entry itself refuses a version above the driver's without asking, so either check alone
    // would do; a program may want the version to explain its choice.
    let driver = cuda_entry::driver_version().map_err(|e| e.to_string())?;
    let new_enough = driver >= ctx_get_device_v13000::VERSION;
    let mut found: CUdevice = -1;
    if new_enough && ctx_get_device_v13000::is_available() {
        // SAFETY: a valid out-pointer and a live context.
        check("cuCtxGetDevice (13000)", unsafe {
            ctx_get_device_v13000(&raw mut found, ctx)
        })?;
        println!(
            "    the driver ({}) has it: cuCtxGetDevice(&device, ctx {ctx:p}) says device {found}",
            Cuda(driver)
        );
    } else {
        // Why not, in the library's words: for a driver older than 13.0 it is DriverTooOld,
        // decided without asking the driver.
        let Err(why) = ctx_get_device_v13000::pointer() else {
            return Err("cuCtxGetDevice 13000 resolved but was not used".to_owned());
        };
        println!("    not on this driver: {why}");
        if new_enough || !matches!(why.kind(), ErrorKind::DriverTooOld) {
            return Err(format!(
                "a {} driver should serve cuCtxGetDevice 13000 or be too old for it: {why}",
                Cuda(driver)
            ));
        }
        // SAFETY: a valid out-pointer; `ctx` is current on this thread.
        check("cuCtxGetDevice (2000)", unsafe {
            ctx_get_device_v2000(&raw mut found)
        })?;
        println!(
            "    fell back to the CUDA 2.0 ABI (the current context's device): device {found}"
        );
    }
    if found == dev {
        Ok(())
    } else {
        Err(format!(
            "cuCtxGetDevice said device {found}, the context is on {dev}"
        ))
    }
}

/// (b) An API newer than the typedef table: what the run time says on this driver.
fn newer_than_the_table(driver: u32, failures: &mut Vec<String>) {
    println!(
        "\n(b) An API newer than the typedef table, declared `unverified`: {} version {}",
        device_get_future_capability::SYMBOL,
        device_get_future_capability::VERSION
    );
    let asked_before = queries();
    let outcome = device_get_future_capability::pointer().err();
    let asked = queries()
        .zip(asked_before)
        .map(|(after, before)| after - before);
    let expected = if driver < device_get_future_capability::VERSION {
        "DriverTooOld"
    } else {
        // Hypothetical: a driver new enough to be asked does not know it.
        "SymbolNotFound"
    };
    report(expected, outcome.as_ref(), failures);
    if let Some(asked) = asked {
        println!("    the simulated driver's cuGetProcAddress* calls for it: {asked}");
        if expected == "DriverTooOld" && asked != 0 {
            failures.push(format!(
                "a too-new version reached the driver ({asked} queries)"
            ));
        }
    }
}

/// (c) Each run-time failure, on purpose.
fn failure_messages(driver: u32, failures: &mut Vec<String>) {
    println!("\n(c) Each run-time failure, on purpose:");

    println!(
        "\n  symbol not found: `{}` (unverified) at version {}, a version every 12.0+ driver serves",
        mem_alloc_future_thing::SYMBOL,
        mem_alloc_future_thing::VERSION
    );
    let expected = if driver < mem_alloc_future_thing::VERSION {
        // The version is the one thing checked before asking.
        "DriverTooOld"
    } else {
        "SymbolNotFound"
    };
    report(
        expected,
        mem_alloc_future_thing::pointer().err().as_ref(),
        failures,
    );

    println!(
        "\n  version not sufficient: the raw core API's `Entry::new(c\"cuLaunchKernel\", 4000, \
         Stream::PerThread)`; #[cuda_entry] rejects `version = 4000, stream = \"per_thread\"` at \
         compile time (the per-thread typedef is PFN_cuLaunchKernel_v7000_ptsz)"
    );
    let expected = if driver < 12000 {
        // Drivers 11.3-11.8 answer CUDA_ERROR_NOT_FOUND for both "unknown" and "too low".
        "NotFoundByLegacyQuery"
    } else {
        "VersionNotSufficient"
    };
    report(
        expected,
        LAUNCH_KERNEL_PER_THREAD_4000.resolve().err().as_ref(),
        failures,
    );

    println!(
        "\n  driver too old: `{}` (unverified) at version {}",
        device_get_far_future::SYMBOL,
        device_get_far_future::VERSION
    );
    report(
        "DriverTooOld",
        device_get_far_future::pointer().err().as_ref(),
        failures,
    );
}

/// Prints the error's kind and `Display`; records a failure when it is not the expected kind.
fn report(expected: &str, outcome: Option<&Error>, failures: &mut Vec<String>) {
    let Some(error) = outcome else {
        println!("    resolved (expected {expected})");
        failures.push(format!("expected {expected}, but the entry resolved"));
        return;
    };
    let kind = match error.kind() {
        ErrorKind::DriverTooOld => "DriverTooOld",
        ErrorKind::SymbolNotFound => "SymbolNotFound",
        ErrorKind::VersionNotSufficient => "VersionNotSufficient",
        ErrorKind::NotFoundByLegacyQuery => "NotFoundByLegacyQuery",
        _ => "another error",
    };
    println!("    {kind}: {error}");
    if kind != expected {
        failures.push(format!("expected {expected}, got {kind}: {error}"));
    }
}

/// How many times the simulated driver has been asked for an entry point; `None` on a real
/// driver (which keeps no such count).
fn queries() -> Option<u64> {
    if !cuda_entry_support::is_simulated() {
        return None;
    }
    let path = std::env::var_os(cuda_entry::PATH_VARIABLE)?;
    let records = cuda_entry_sim::Simulator::open(path).ok()?;
    Some(cuda_entry_support::Queries::queries(&records))
}
