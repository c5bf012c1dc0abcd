//! Quickstart: declare driver entry points with `#[cuda_entry]`, see which ABI each version
//! reaches, allocate and free device memory.
//!
//! Without a CUDA driver it says so, then runs the same against the simulated driver
//! (core/sim/simdriver), labelled as simulated.
//!
//!     cargo run --example quickstart
#![warn(clippy::pedantic)]

use std::ffi::c_void;
use std::process::ExitCode;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUcontext, CUdevice, CUdeviceptr, CUresult};

// Each signature is copied from the typedef its version names, in cudaTypedefs.h.
#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuInit", version = 2000)]
    fn init(flags: u32) -> CUresult;
    #[cuda_entry(symbol = "cuDeviceGet", version = 2000)]
    fn device_get(device: *mut CUdevice, ordinal: i32) -> CUresult;
    #[cuda_entry(symbol = "cuDevicePrimaryCtxRetain", version = 7000)]
    fn primary_ctx_retain(pctx: *mut CUcontext, dev: CUdevice) -> CUresult;
    #[cuda_entry(symbol = "cuDevicePrimaryCtxRelease", version = 11000)]
    fn primary_ctx_release(dev: CUdevice) -> CUresult;
    #[cuda_entry(symbol = "cuCtxSetCurrent", version = 4000)]
    fn ctx_set_current(ctx: CUcontext) -> CUresult;
    /// `PFN_cuMemAlloc_v3020`: `size_t` size. (`PFN_cuMemAlloc_v2000` took an `unsigned int`.)
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
    fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;
    #[cuda_entry(symbol = "cuMemFree", version = 3020)]
    fn mem_free(dptr: CUdeviceptr) -> CUresult;
}

// cuCtxCreate has had four ABIs; each declaration names exactly one. They are only resolved
// here, to show which export each version reaches.
#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuCtxCreate", version = 2000)]
    #[allow(dead_code)]
    fn ctx_create_v2000(pctx: *mut CUcontext, flags: u32, dev: CUdevice) -> CUresult;
    #[cuda_entry(symbol = "cuCtxCreate", version = 3020)]
    #[allow(dead_code)]
    fn ctx_create_v3020(pctx: *mut CUcontext, flags: u32, dev: CUdevice) -> CUresult;
    #[cuda_entry(symbol = "cuCtxCreate", version = 11040)]
    #[allow(dead_code)]
    fn ctx_create_v11040(
        pctx: *mut CUcontext,
        params: *mut c_void,
        num_params: i32,
        flags: u32,
        dev: CUdevice,
    ) -> CUresult;
    #[cuda_entry(symbol = "cuCtxCreate", version = 12050)]
    #[allow(dead_code)]
    fn ctx_create_v12050(
        pctx: *mut CUcontext,
        params: *mut c_void,
        flags: u32,
        dev: CUdevice,
    ) -> CUresult;
}

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
        cuda_entry::Cuda(info.version),
        info.bootstrap
    );
    println!("\nWhich export each declaration reaches:");
    let resolved = [
        ("cuMemAlloc", mem_alloc::VERSION, mem_alloc::ENTRY.resolve()),
        (
            "cuCtxCreate",
            ctx_create_v2000::VERSION,
            ctx_create_v2000::ENTRY.resolve(),
        ),
        (
            "cuCtxCreate",
            ctx_create_v3020::VERSION,
            ctx_create_v3020::ENTRY.resolve(),
        ),
        (
            "cuCtxCreate",
            ctx_create_v11040::VERSION,
            ctx_create_v11040::ENTRY.resolve(),
        ),
        (
            "cuCtxCreate",
            ctx_create_v12050::VERSION,
            ctx_create_v12050::ENTRY.resolve(),
        ),
    ];
    for (symbol, version, outcome) in resolved {
        match outcome {
            Ok(pfn) => println!(
                "  {symbol:<12} version {version:>5} -> {}",
                cuda_entry_support::export_name(pfn.as_ptr()).unwrap_or_else(|| format!("{pfn:p}"))
            ),
            Err(error) => println!("  {symbol:<12} version {version:>5} -> {error}"),
        }
    }
    match allocate_and_free() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            println!("\n{error}");
            ExitCode::FAILURE
        }
    }
}

/// Retains the primary context of device 0, allocates 64 MiB, frees it. One `?` per call: a
/// failure to resolve the entry and a status other than `CUDA_SUCCESS` are both an `Error` that
/// names the call.
fn allocate_and_free() -> Result<(), cuda_entry::Error> {
    let mut dev: CUdevice = 0;
    let mut ctx: CUcontext = std::ptr::null_mut();
    let mut dptr: CUdeviceptr = 0;
    let bytes = 64 << 20;
    // SAFETY: each call gets valid out-pointers to locals, in the order the driver API requires.
    unsafe {
        init(0)?;
        device_get(&raw mut dev, 0)?;
        primary_ctx_retain(&raw mut ctx, dev)?;
        ctx_set_current(ctx)?;
        mem_alloc(&raw mut dptr, bytes)?;
        println!(
            "\nallocated {} MiB at device address {dptr:#x}",
            bytes >> 20
        );
        mem_free(dptr)?;
        println!("freed it");
        primary_ctx_release(dev)?;
    }
    Ok(())
}
