//! cudarc and `#[cuda_entry]` in one program: cudarc owns the context, the stream and the device
//! memory; `#[cuda_entry]` declarations call the driver functions the program needs at the exact
//! ABI it was written for, on cudarc's handles, with cudarc's own `sys` types.
//!
//! With a CUDA driver: cudarc's `CudaContext::new(0)` retains device 0's primary context and its
//! default stream uploads a buffer (`clone_htod`); then, through cuda-entry, `cuCtxGetDevice`
//! (`PFN_cuCtxGetDevice_v13000`, the context passed explicitly, falling back to the 2.0 ABI on an
//! older driver) asks which device cudarc's context is on, `cuDeviceGetUuid`
//! (`PFN_cuDeviceGetUuid_v11040`) reads the device's UUID, and `cuMemsetD32`
//! (`PFN_cuMemsetD32_v3020`) fills half of cudarc's allocation, which cudarc reads back
//! (`clone_dtoh`) and the program verifies.
//!
//! Without a driver: cudarc's loader would panic (it `dlopen`s its standard names and panics with
//! `Unable to dynamically load the "cuda" shared library` when none opens), so the program asks
//! cuda-entry first (`cuda_entry::driver_info()`), says so, and re-runs itself against the
//! simulated driver (core/sim/simdriver), through the testing kit's `Config::apply_to`, which
//! also puts the simulated driver on `LD_LIBRARY_PATH` as `libcuda.so` (Linux). cudarc's loader,
//! which has no variable naming a library file and opens only its standard names, then finds it,
//! and the whole program runs there: the simulator implements what cudarc's safe API calls here.
//! Wherever cudarc would open another library than cuda-entry's, or none (a run with only
//! `CUDA_ENTRY_DRIVER_PATH` set, Windows), the program shows the cuda-entry part on a context of
//! its own and says why the cudarc part did not run (`cudarc_can_share_the_driver`).
//!
//!     cargo run --example cudarc_interop
//!
//! # Why the exact version matters next to cudarc
//!
//! cudarc 0.19 (`dynamic-loading`) resolves every function with `dlsym` on an *export name* fixed
//! by the `cuda-*` feature it was built with: `sys::cuCtxGetDevice` is the export
//! `cuCtxGetDevice` (the 2.0 ABI, `(CUdevice *)`), `sys::cuCtxGetDevice_v2` the export of the
//! 13.0 ABI (`(CUdevice *, CUcontext)`), present only in `cuda-13*` builds. Three consequences:
//!
//! - A missing export panics on the first call (`Missing symbol cuCtxGetDevice_v2`): a program
//!   built with `cuda-13000` that calls `sys::cuCtxGetDevice_v2` dies on a CUDA 12.x driver. The
//!   declaration below asks `cuGetProcAddress_v2` for version 13000 only when the driver is that
//!   new and otherwise returns `Err(DriverTooOld)`, so the program picks the 2.0 ABI at run time.
//! - Which ABI a cudarc call reaches is a build-time choice: `CudaContext::uuid()` calls
//!   `cuDeviceGetUuid` (the 9.2 behaviour) in `cuda-11*`/`cuda-12*` builds and `cuDeviceGetUuid_v2`
//!   (11.4: the MIG instance's UUID in MIG mode) in `cuda-13*` builds. Both typedefs have the same
//!   parameters, so nothing but the version tells them apart. The declaration names 11040.
//! - Asking `cuGetProcAddress` with the toolkit's version instead (13000 for a `cuda-13000` build)
//!   silently returns the newest ABI at or below it: `cuCtxGetDevice` at 13000 is the two-parameter
//!   `cuCtxGetDevice_v2`, wrong under a one-parameter signature. The macro checks a declaration
//!   against the typedef its version names: a one-parameter signature at 13000 does not compile.
//!
//! # Return type
//!
//! The declarations return `cuda_entry::types::CUresult` (a `#[repr(transparent)]` `i32`), not
//! cudarc's `sys::CUresult`. cudarc's is the Rust enum `cudaError_enum` (`#[repr(u32)]`, 4 bytes,
//! so it would pass the macro's size check), and a Rust enum must never hold a value it does not
//! list: that is undefined behaviour at the moment the call returns. The enum lists the codes of the
//! header cudarc was generated from; a newer driver returns codes it lacks (the `cuda-13000` enum
//! has no 227 `CUDA_ERROR_INSUFFICIENT_LOADER_VERSION`, 917, 918 or 919, which the 13.x headers
//! added). An integer newtype is valid for every code.
#![warn(clippy::pedantic)]

use std::ffi::c_void;
use std::mem::MaybeUninit;
use std::process::ExitCode;
use std::sync::Arc;

use cuda_entry::types::CUresult;
use cuda_entry::{Cuda, DriverInfo, Entry, Error, ErrorKind, cuda_entry};
use cudarc::driver::sys::{CUcontext, CUdevice, CUdeviceptr, CUuuid};
use cudarc::driver::{CudaContext, CudaStream, DevicePtrMut};

// The driver functions this program calls on cudarc's handles. Each signature is copied from the
// typedef its version names (CUDA 13.0's cudaTypedefs.h), with cudarc's `sys` types: the macro's
// assertions check each one's size and alignment against the C type's.
#[cuda_entry]
unsafe extern "C" {
    /// `PFN_cuCtxGetDevice_v13000(CUdevice *device, CUcontext ctx)`: the device of any context,
    /// not only the current one. New in CUDA 13.0 (the export `cuCtxGetDevice_v2`).
    #[cuda_entry(symbol = "cuCtxGetDevice", version = 13000)]
    fn ctx_get_device_v13000(device: *mut CUdevice, ctx: CUcontext) -> CUresult;
    /// `PFN_cuCtxGetDevice_v2000(CUdevice_v1 *device)`: the current context's device. Every driver
    /// has it: the fallback.
    #[cuda_entry(symbol = "cuCtxGetDevice", version = 2000)]
    fn ctx_get_device_v2000(device: *mut CUdevice) -> CUresult;
    /// `PFN_cuDeviceGetUuid_v11040(CUuuid *uuid, CUdevice_v1 dev)`: same parameters as
    /// `PFN_cuDeviceGetUuid_v9020`; in MIG mode it returns the MIG instance's UUID. cudarc's
    /// `CUuuid` carries no proof that it holds every value the driver may write
    /// (`cuda_entry::FromDriver`), so the driver writes a `MaybeUninit` of it, read once written.
    #[cuda_entry(symbol = "cuDeviceGetUuid", version = 11040)]
    fn device_get_uuid(uuid: *mut MaybeUninit<CUuuid>, dev: CUdevice) -> CUresult;
    /// `PFN_cuMemsetD32_v3020(CUdeviceptr_v2 dstDevice, unsigned int ui, size_t N)`. (The 2000
    /// typedef took a 32-bit pointer and an `unsigned int` count.) `stream = "legacy"` pins the
    /// legacy default stream, which is what cudarc's default stream (the NULL handle) is in its
    /// own calls, even when cuda-entry's `per-thread-default-stream` feature would otherwise pick
    /// the `_ptds` twin (`PFN_cuMemsetD32_v7000_ptds`).
    #[cuda_entry(symbol = "cuMemsetD32", version = 3020, stream = "legacy")]
    fn memset_d32(dst: CUdeviceptr, value: u32, count: usize) -> CUresult;
}

// Only where cudarc cannot run (the simulated driver): a context of the program's own.
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
}

/// The buffer cudarc allocates: `N` words of `u32`, the upper half filled through cuda-entry.
const N: usize = 1 << 20;
/// What `cuMemsetD32` writes.
const PATTERN: u32 = 0xC0DE_C0DE;

fn main() -> ExitCode {
    // Ask cuda-entry first: cudarc's loader panics when no driver library opens.
    let info = match cuda_entry::driver_info() {
        Ok(info) => info,
        Err(error) => {
            return cuda_entry_support::fall_back_to_simulator(&error).unwrap_or_else(|| {
                println!("The simulated driver could not be used either: {error}");
                ExitCode::FAILURE
            });
        }
    };
    let simulated = cuda_entry_support::is_simulated();
    println!(
        "{} `{}`: cuDriverGetVersion = {} ({}), asked through {:?}",
        if simulated {
            "SIMULATED driver"
        } else {
            "driver"
        },
        info.path,
        info.version,
        Cuda(info.version),
        info.bootstrap
    );
    print_exports(simulated);

    let driver = if simulated {
        "the SIMULATED driver"
    } else {
        "the driver"
    };
    let outcome = match cudarc_can_share_the_driver() {
        Ok(how) => {
            println!("\ncudarc: {how}");
            with_cudarc(&info)
        }
        Err(why) => {
            println!(
                "\ncudarc: not run: {why}. The cudarc part needs the driver cuda-entry uses, where \
                 cudarc's loader finds it (for the simulated driver: a run through the testing \
                 kit's Config::apply_to, which puts it on LD_LIBRARY_PATH)."
            );
            cuda_entry_alone(&info, driver, "did not run (see above)")
        }
    };
    match outcome {
        Ok(summary) => {
            println!("\nOK: {summary}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            println!("\nFAILED: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Resolves every declaration this program may call on cudarc's handles and prints which driver
/// export each reached (or why none). Nothing fails here: the calls below decide what to use.
fn print_exports(simulated: bool) {
    let entries: [&Entry; 4] = [
        &ctx_get_device_v13000::ENTRY,
        &ctx_get_device_v2000::ENTRY,
        &device_get_uuid::ENTRY,
        &memset_d32::ENTRY,
    ];
    println!("\nWhich export each declaration reaches:");
    for entry in entries {
        let request = entry.request();
        let what = format!(
            "{:<16} version {:>5} {:<6}",
            request.symbol,
            request.version,
            request.stream.to_string()
        );
        match entry.resolve() {
            Ok(pfn) => println!(
                "  {what} -> {}",
                cuda_entry_support::export_name(pfn.as_ptr()).unwrap_or_else(|| format!("{pfn:p}"))
            ),
            Err(error) => println!(
                "  {what} -> unavailable{}: {error}",
                if simulated && matches!(error.kind(), ErrorKind::SymbolNotFound) {
                    " (the simulated driver does not implement it)"
                } else {
                    ""
                }
            ),
        }
    }
}

/// A driver call's outcome as a message: the resolution error or the driver's status, both in
/// the `Error` of a checked call.
fn check(what: &str, outcome: Result<(), Error>) -> Result<(), String> {
    outcome.map_err(|error| format!("{what}: {error}"))
}

/// Whether cudarc would open the very driver library cuda-entry uses, decided without letting
/// cudarc panic; `Ok` says how it was established.
///
/// Both must be the same library: handles of one driver are meaningless to another, and
/// cuda-entry may have been pointed elsewhere (`CUDA_ENTRY_DRIVER_PATH`), or cudarc may find the
/// toolkit's stub `libcuda.so` first on `LD_LIBRARY_PATH`. The real driver's `cuGetProcAddress`
/// answers with the address of an export (tests/ground-truth: `cuCtxGetDevice` at 2000 is the
/// export `cuCtxGetDevice`), so the same library gives cudarc's `dlsym` the same address.
fn cudarc_can_share_the_driver() -> Result<String, String> {
    // SAFETY: only opens (and closes) the driver library under cudarc's candidate names; a
    // library already loaded is not re-initialised.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Err(
            "cudarc's loader finds no library under its names (libcuda.so, libcuda.so.1, ... on \
             the system's library search path)"
                .to_owned(),
        );
    }
    // SAFETY: a library opened under one of cudarc's names just above, so `culib` (which tries
    // the same names in the same order) finds one and does not panic.
    let library = unsafe { cudarc::driver::sys::culib() };
    // SAFETY: only the symbol's address is read; it is never called through this type.
    let theirs = unsafe { library.get::<*mut c_void>(b"cuCtxGetDevice\0") }
        .map(|symbol| *symbol)
        .map_err(|e| format!("cudarc's library has no export cuCtxGetDevice ({e})"))?;
    let ours = ctx_get_device_v2000::ENTRY
        .resolve()
        .map_err(|e| format!("cuda-entry cannot resolve cuCtxGetDevice at 2000 ({e})"))?;
    if theirs != ours.as_ptr() {
        return Err(format!(
            "cudarc's loader opened another library than cuda-entry's (cuCtxGetDevice is \
             {theirs:p} there, {:p} in cuda-entry's)",
            ours.as_ptr()
        ));
    }
    // cudarc panics on the first call of a function its library does not export: check them all
    // before the first call.
    let missing: Vec<&str> = CUDARC_CALLS
        .iter()
        .copied()
        // SAFETY: only looks the name up; nothing is called.
        .filter(|name| unsafe { library.get::<*mut c_void>(name.as_bytes()) }.is_err())
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "the driver library does not export {} (cudarc would panic calling it)",
            missing.join(", ")
        ));
    }
    Ok(format!(
        "its loader opened the library cuda-entry uses (cudarc's dlsym of cuCtxGetDevice and \
         cuda-entry's cuGetProcAddress_v2 answer at 2000 are both {theirs:p}), which exports the \
         {} functions cudarc calls here",
        CUDARC_CALLS.len()
    ))
}

/// The exports cudarc 0.19 (`cuda-13000`) resolves with `dlsym` on this program's path, read off
/// its `driver::result` and `driver::safe`: `CudaContext::new` and its drop, `uuid`,
/// `clone_htod`/`clone_dtoh` with their events, `synchronize`, and the buffer's drop (the async
/// or the synchronous allocator, depending on `CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED`).
const CUDARC_CALLS: [&str; 19] = [
    "cuInit",
    "cuDeviceGet",
    "cuDevicePrimaryCtxRetain",
    "cuDeviceGetAttribute",
    "cuCtxGetCurrent",
    "cuCtxSetCurrent",
    "cuDeviceGetUuid_v2",
    "cuMemAllocAsync",
    "cuMemAlloc_v2",
    "cuEventCreate",
    "cuEventRecord",
    "cuStreamWaitEvent",
    "cuMemcpyHtoDAsync_v2",
    "cuMemcpyDtoHAsync_v2",
    "cuStreamSynchronize",
    "cuMemFreeAsync",
    "cuMemFree_v2",
    "cuEventDestroy_v2",
    "cuDevicePrimaryCtxRelease_v2",
];

/// The device of `ctx`, through the 13.0 ABI when the driver has it, else through the 2.0 one
/// (which reads the current context: `ctx` must be current on this thread).
fn device_of(ctx: CUcontext, driver: u32) -> Result<CUdevice, String> {
    let mut device: CUdevice = -1;
    match ctx_get_device_v13000::pointer() {
        Ok(get) => {
            // SAFETY: a valid out-pointer and a live context.
            // The raw pointer hands back the driver's status itself.
            let code = unsafe { get(&raw mut device, ctx) };
            if !code.is_success() {
                return Err(format!("cuCtxGetDevice (13000) returned {code}"));
            }
            println!(
                "  cuCtxGetDevice version 13000 (the context passed explicitly): context {ctx:p} is \
                 on device {device}"
            );
        }
        Err(why) => {
            // On a driver older than 13.0 the entry refuses without asking the driver; anything
            // else on a 13.0+ driver is a real problem.
            if driver >= ctx_get_device_v13000::VERSION {
                return Err(format!(
                    "a {} driver should serve cuCtxGetDevice 13000: {why}",
                    Cuda(driver)
                ));
            }
            println!("  cuCtxGetDevice version 13000 is not on this driver: {why}");
            // SAFETY: a valid out-pointer; the caller made `ctx` current.
            check("cuCtxGetDevice (2000)", unsafe {
                ctx_get_device_v2000(&raw mut device)
            })?;
            println!(
                "  fell back to cuCtxGetDevice version 2000 (the current context): device {device}"
            );
        }
    }
    Ok(device)
}

/// `dev`'s UUID through `PFN_cuDeviceGetUuid_v11040`, written as nvidia-smi does.
fn uuid_of(dev: CUdevice) -> Result<String, String> {
    let mut uuid = MaybeUninit::<CUuuid>::uninit();
    // SAFETY: a valid out-pointer; `dev` came from the driver.
    check("cuDeviceGetUuid (11040)", unsafe {
        device_get_uuid(&raw mut uuid, dev)
    })?;
    // SAFETY: the driver wrote the UUID (it returned CUDA_SUCCESS): 16 bytes, `c_char`s, each
    // of which holds any value.
    Ok(format_uuid(&unsafe { uuid.assume_init() }))
}

/// `GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`.
fn format_uuid(uuid: &CUuuid) -> String {
    let hex: Vec<String> = uuid
        .bytes
        .iter()
        .map(|b| format!("{:02x}", u8::from_ne_bytes(b.to_ne_bytes())))
        .collect();
    format!(
        "GPU-{}-{}-{}-{}-{}",
        hex[0..4].concat(),
        hex[4..6].concat(),
        hex[6..8].concat(),
        hex[8..10].concat(),
        hex[10..16].concat()
    )
}

/// The whole program on a real driver: cudarc's context, stream and memory; cuda-entry's calls.
fn with_cudarc(info: &DriverInfo) -> Result<String, String> {
    let ctx = CudaContext::new(0).map_err(|e| format!("cudarc CudaContext::new(0): {e}"))?;
    let stream = ctx.default_stream();
    println!(
        "cudarc: CudaContext::new(0) retained context {:p} of device {} and made it current; \
         default stream {:p} (NULL: the legacy default stream)",
        ctx.cu_ctx(),
        ctx.cu_device(),
        stream.cu_stream()
    );

    println!("\ncuda-entry on cudarc's context and device:");
    let device = device_of(ctx.cu_ctx(), info.version)?;
    if device != ctx.cu_device() {
        return Err(format!(
            "cuCtxGetDevice says device {device}, cudarc's context is on {}",
            ctx.cu_device()
        ));
    }
    let uuid = uuid_of(ctx.cu_device())?;
    println!("  cuDeviceGetUuid version 11040: {uuid}");
    // cudarc's own answer, for comparison: in a `cuda-13*` build it calls the same export.
    match ctx.uuid() {
        Ok(theirs) if format_uuid(&theirs) == uuid => {
            println!("  cudarc's CudaContext::uuid() agrees");
        }
        Ok(theirs) => println!(
            "  cudarc's CudaContext::uuid() says {} (another export: MIG mode?)",
            format_uuid(&theirs)
        ),
        Err(e) => println!("  cudarc's CudaContext::uuid() failed: {e}"),
    }

    fill_cudarc_memory(&stream)?;
    Ok("cudarc and cuda-entry shared the context, the device and the allocation".to_owned())
}

/// cudarc uploads `0, 1, 2, ...`; cuda-entry's `cuMemsetD32` overwrites the upper half on the
/// legacy default stream; cudarc downloads; every word is checked.
fn fill_cudarc_memory(stream: &Arc<CudaStream>) -> Result<(), String> {
    let words = u32::try_from(N).map_err(|_| "N does not fit a u32".to_owned())?;
    let host: Vec<u32> = (0..words).collect();
    let mut buffer = stream
        .clone_htod(&host)
        .map_err(|e| format!("cudarc clone_htod: {e}"))?;
    let half = N / 2;
    {
        // cudarc's raw pointer, with the intent to write: it orders the stream after earlier work
        // on the buffer now, and records the write when `_written` drops, after the memset.
        let (dptr, _written) = buffer.device_ptr_mut(stream);
        let offset = u64::try_from(half * size_of::<u32>()).map_err(|e| e.to_string())?;
        println!(
            "\ncudarc: clone_htod copied {N} words (0, 1, 2, ...) to {dptr:#x}; cuda-entry: \
             cuMemsetD32 version 3020 writes {PATTERN:#x} to the upper {} words at {:#x}",
            N - half,
            dptr + offset
        );
        // SAFETY: the upper `N - half` words of cudarc's live allocation; the memset runs on the
        // legacy default stream after cudarc's upload (issued on the same NULL stream).
        check("cuMemsetD32 (3020)", unsafe {
            memset_d32(dptr + offset, PATTERN, N - half)
        })?;
    }
    let back = stream
        .clone_dtoh(&buffer)
        .map_err(|e| format!("cudarc clone_dtoh: {e}"))?;
    stream
        .synchronize()
        .map_err(|e| format!("cudarc synchronize: {e}"))?;
    let wrong = back
        .iter()
        .zip(&host)
        .enumerate()
        .find(|&(i, (&got, &original))| got != if i < half { original } else { PATTERN });
    if let Some((i, (got, _))) = wrong {
        return Err(format!("word {i} read back as {got:#x}"));
    }
    println!(
        "cudarc: clone_dtoh read it back: words 0..{half} are still 0..{half}, words \
         {half}..{N} are all {PATTERN:#x}: verified all {N} words"
    );
    Ok(())
}

/// Where cudarc cannot run: the cuda-entry calls on a primary context the program retains itself.
fn cuda_entry_alone(info: &DriverInfo, which: &str, cudarc: &str) -> Result<String, String> {
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
    println!("\ncuda-entry alone, on device {dev}'s primary context {ctx:p}:");
    let result = cuda_entry_calls(ctx, dev, info.version);
    // SAFETY: balances the retain above; the context is not used after this.
    let released = check("cuDevicePrimaryCtxRelease", unsafe {
        primary_ctx_release(dev)
    });
    result.and(released)?;
    Ok(format!(
        "the cuda-entry part ran against {which}; the cudarc part {cudarc}"
    ))
}

/// [`cuda_entry_alone`]'s calls on the retained context.
fn cuda_entry_calls(ctx: CUcontext, dev: CUdevice, driver: u32) -> Result<(), String> {
    // SAFETY: `ctx` is the primary context just retained.
    check("cuCtxSetCurrent", unsafe { ctx_set_current(ctx) })?;
    let device = device_of(ctx, driver)?;
    if device != dev {
        return Err(format!(
            "cuCtxGetDevice says device {device}, the context is on {dev}"
        ));
    }
    println!("  cuDeviceGetUuid version 11040: {}", uuid_of(dev)?);
    println!(
        "  cuMemsetD32 version 3020: not called; it fills cudarc's allocation, which needs a real \
         driver"
    );
    Ok(())
}
