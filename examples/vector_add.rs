//! A kernel launched entirely through `#[cuda_entry]` declarations: load hand-written PTX, copy
//! two vectors of 2^24 `f32` to the device, run `c[i] = a[i] + b[i]` once on the legacy default
//! stream (`cuLaunchKernel`, `PFN_cuLaunchKernel_v4000`) and once on the per-thread default stream
//! (`PFN_cuLaunchKernel_v7000_ptsz`), copy the result back and check every element.
//!
//! No CUDA header, no `libcuda` at link time: every driver function is resolved at run time
//! through `cuGetProcAddress_v2` with the version of the typedef its signature was copied from.
//! Without a CUDA driver it says so, then runs the same against the simulated driver
//! (core/sim/simdriver), where the kernel is host arithmetic: the output says so.
//!
//!     cargo run --example vector_add
#![warn(clippy::pedantic)]

use std::ffi::{CStr, c_char, c_void};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use cuda_entry::cuda_entry;
use cuda_entry::types::{
    CUcontext, CUdevice, CUdeviceptr, CUfunction, CUmodule, CUresult, CUstream,
};

// Each signature is copied from the typedef its version names, in cudaTypedefs.h (CUDA 13.0).
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
    /// `PFN_cuModuleLoadData_v2000(CUmodule *module, const void *image)`.
    #[cuda_entry(symbol = "cuModuleLoadData", version = 2000)]
    fn module_load_data(module: *mut CUmodule, image: *const c_void) -> CUresult;
    /// `PFN_cuModuleGetFunction_v2000(CUfunction *hfunc, CUmodule hmod, const char *name)`.
    #[cuda_entry(symbol = "cuModuleGetFunction", version = 2000)]
    fn module_get_function(hfunc: *mut CUfunction, hmod: CUmodule, name: *const c_char)
    -> CUresult;
    /// `PFN_cuModuleUnload_v2000(CUmodule hmod)`.
    #[cuda_entry(symbol = "cuModuleUnload", version = 2000)]
    fn module_unload(hmod: CUmodule) -> CUresult;
    /// `PFN_cuMemAlloc_v3020(CUdeviceptr_v2 *dptr, size_t bytesize)`.
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
    fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;
    /// `PFN_cuMemFree_v3020(CUdeviceptr_v2 dptr)`.
    #[cuda_entry(symbol = "cuMemFree", version = 3020)]
    fn mem_free(dptr: CUdeviceptr) -> CUresult;
    /// `PFN_cuMemcpyHtoD_v3020(CUdeviceptr_v2 dstDevice, const void *srcHost, size_t ByteCount)`.
    #[cuda_entry(symbol = "cuMemcpyHtoD", version = 3020)]
    fn memcpy_htod(dst: CUdeviceptr, src: *const c_void, bytes: usize) -> CUresult;
    /// `PFN_cuMemcpyDtoH_v3020(void *dstHost, CUdeviceptr_v2 srcDevice, size_t ByteCount)`.
    #[cuda_entry(symbol = "cuMemcpyDtoH", version = 3020)]
    fn memcpy_dtoh(dst: *mut c_void, src: CUdeviceptr, bytes: usize) -> CUresult;
    /// `PFN_cuLaunchKernel_v4000(CUfunction f, unsigned int gridDimX, gridDimY, gridDimZ,
    /// blockDimX, blockDimY, blockDimZ, sharedMemBytes, CUstream hStream, void **kernelParams,
    /// void **extra)`: the NULL stream is the legacy default stream.
    #[cuda_entry(symbol = "cuLaunchKernel", version = 4000)]
    #[allow(clippy::too_many_arguments, reason = "the C signature")]
    fn launch_kernel(
        f: CUfunction,
        grid_x: u32,
        grid_y: u32,
        grid_z: u32,
        block_x: u32,
        block_y: u32,
        block_z: u32,
        shared_mem_bytes: u32,
        stream: CUstream,
        kernel_params: *mut *mut c_void,
        extra: *mut *mut c_void,
    ) -> CUresult;
    /// `PFN_cuLaunchKernel_v7000_ptsz`: the same parameters; the NULL stream is the calling
    /// thread's per-thread default stream. (Version 4000 with the per-thread flag does not exist:
    /// the macro rejects it.)
    #[cuda_entry(symbol = "cuLaunchKernel", version = 7000, stream = "per_thread")]
    #[allow(clippy::too_many_arguments, reason = "the C signature")]
    fn launch_kernel_per_thread(
        f: CUfunction,
        grid_x: u32,
        grid_y: u32,
        grid_z: u32,
        block_x: u32,
        block_y: u32,
        block_z: u32,
        shared_mem_bytes: u32,
        stream: CUstream,
        kernel_params: *mut *mut c_void,
        extra: *mut *mut c_void,
    ) -> CUresult;
    /// `PFN_cuStreamSynchronize_v2000(CUstream hStream)`: NULL is the legacy default stream.
    #[cuda_entry(symbol = "cuStreamSynchronize", version = 2000)]
    fn stream_synchronize(stream: CUstream) -> CUresult;
    /// `PFN_cuStreamSynchronize_v7000_ptsz(CUstream hStream)`: NULL is the per-thread default
    /// stream.
    #[cuda_entry(symbol = "cuStreamSynchronize", version = 7000, stream = "per_thread")]
    fn stream_synchronize_per_thread(stream: CUstream) -> CUresult;
    /// `PFN_cuCtxSynchronize_v2000(void)`: the current context. (`PFN_cuCtxSynchronize_v13000`
    /// takes a `CUcontext`: another ABI.)
    #[cuda_entry(symbol = "cuCtxSynchronize", version = 2000)]
    fn ctx_synchronize() -> CUresult;
}

/// `vector_add(a, b, c, n)`: `c[i] = a[i] + b[i]` over `f32` for `i < n`, one thread per element.
/// Written by hand for PTX ISA 7.0 and `sm_52`: the driver JIT-compiles it for the GPU present.
const PTX: &CStr = c"
.version 7.0
.target sm_52
.address_size 64

.visible .entry vector_add(
    .param .u64 vector_add_a,
    .param .u64 vector_add_b,
    .param .u64 vector_add_c,
    .param .u32 vector_add_n
)
{
    .reg .pred  %p<2>;
    .reg .b32   %r<6>;
    .reg .f32   %f<4>;
    .reg .b64   %rd<11>;

    ld.param.u64        %rd1, [vector_add_a];
    ld.param.u64        %rd2, [vector_add_b];
    ld.param.u64        %rd3, [vector_add_c];
    ld.param.u32        %r1, [vector_add_n];
    mov.u32             %r2, %ctaid.x;
    mov.u32             %r3, %ntid.x;
    mov.u32             %r4, %tid.x;
    mad.lo.u32          %r5, %r2, %r3, %r4;
    setp.ge.u32         %p1, %r5, %r1;
    @%p1 bra            DONE;
    cvta.to.global.u64  %rd4, %rd1;
    cvta.to.global.u64  %rd5, %rd2;
    cvta.to.global.u64  %rd6, %rd3;
    mul.wide.u32        %rd7, %r5, 4;
    add.s64             %rd8, %rd4, %rd7;
    add.s64             %rd9, %rd5, %rd7;
    add.s64             %rd10, %rd6, %rd7;
    ld.global.f32       %f1, [%rd8];
    ld.global.f32       %f2, [%rd9];
    add.rn.f32          %f3, %f1, %f2;
    st.global.f32       [%rd10], %f3;
DONE:
    ret;
}
";

/// The kernel's name, as its `.entry` declares it.
const KERNEL: &CStr = c"vector_add";
/// Elements per vector: 2^24 `f32`, 64 MiB each.
const N: usize = 1 << 24;
/// Threads per block.
const BLOCK: u32 = 256;
/// What the output buffer is filled with before each launch, so an element the kernel did not
/// write cannot pass for a result.
const SENTINEL: f32 = -1.0;

fn main() -> ExitCode {
    let info = match cuda_entry::driver_info() {
        Ok(info) => info,
        Err(error) => {
            return cuda_entry_support::fall_back_to_simulator(&error).unwrap_or(ExitCode::FAILURE);
        }
    };
    let simulated = cuda_entry_support::is_simulated();
    let label = if simulated {
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
    if simulated {
        println!(
            "The simulated driver runs `vector_add` as host arithmetic on the CPU: there is no GPU \
             here, and the timings below are not GPU timings."
        );
    }
    if !print_exports() {
        return ExitCode::FAILURE;
    }
    match run(simulated) {
        Ok(()) => {
            println!("\nOK: both launches verified");
            ExitCode::SUCCESS
        }
        Err(message) => {
            println!("\nFAILED: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Resolves every declaration and prints which driver export it reached; `false` if any failed.
fn print_exports() -> bool {
    let entries = [
        &init::ENTRY,
        &device_get::ENTRY,
        &primary_ctx_retain::ENTRY,
        &primary_ctx_release::ENTRY,
        &ctx_set_current::ENTRY,
        &module_load_data::ENTRY,
        &module_get_function::ENTRY,
        &module_unload::ENTRY,
        &mem_alloc::ENTRY,
        &mem_free::ENTRY,
        &memcpy_htod::ENTRY,
        &memcpy_dtoh::ENTRY,
        &launch_kernel::ENTRY,
        &launch_kernel_per_thread::ENTRY,
        &stream_synchronize::ENTRY,
        &stream_synchronize_per_thread::ENTRY,
        &ctx_synchronize::ENTRY,
    ];
    println!("\nWhich export each declaration reaches:");
    let mut ok = true;
    for entry in entries {
        let request = entry.request();
        let what = format!(
            "{:<26} version {:>5} {:<10}",
            request.symbol,
            request.version,
            request.stream.to_string()
        );
        match entry.resolve() {
            Ok(pfn) => println!(
                "  {what} -> {}",
                cuda_entry_support::export_name(pfn.as_ptr()).unwrap_or_else(|| format!("{pfn:p}"))
            ),
            Err(error) => {
                println!("  {what} -> ERROR: {error}");
                ok = false;
            }
        }
    }
    ok
}

/// A driver call's outcome as a message: the resolution error or the driver's status.
fn check(what: &str, outcome: Result<(), cuda_entry::Error>) -> Result<(), String> {
    outcome.map_err(|error| format!("{what}: {error}"))
}

/// The device objects to give back, whatever happened.
#[derive(Default)]
struct Resources {
    module: Option<CUmodule>,
    buffers: Vec<CUdeviceptr>,
}

/// Sets up device 0's primary context, runs the two launches, and releases everything, also after
/// a failure (the first error is reported).
fn run(simulated: bool) -> Result<(), String> {
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
    let mut resources = Resources::default();
    // SAFETY: `ctx` is the primary context just retained.
    let result = check("cuCtxSetCurrent", unsafe { ctx_set_current(ctx) })
        .and_then(|()| compute(&mut resources, simulated));
    let mut cleanup = Ok(());
    for dptr in resources.buffers.drain(..) {
        // SAFETY: each pointer came from cuMemAlloc in this context and is freed once.
        cleanup = cleanup.and(check("cuMemFree", unsafe { mem_free(dptr) }));
    }
    if let Some(module) = resources.module.take() {
        // SAFETY: the module came from cuModuleLoadData and is unloaded once.
        cleanup = cleanup.and(check("cuModuleUnload", unsafe { module_unload(module) }));
    }
    // SAFETY: balances the retain above; the context is no longer used after this.
    cleanup = cleanup.and(check("cuDevicePrimaryCtxRelease", unsafe {
        primary_ctx_release(dev)
    }));
    result?;
    cleanup?;
    println!("freed the buffers, unloaded the module, released the primary context");
    Ok(())
}

/// Allocates, copies in, launches twice (legacy, then per-thread default stream), verifies each.
#[allow(clippy::float_cmp, reason = "the sums are exact integers in f64")]
fn compute(resources: &mut Resources, simulated: bool) -> Result<(), String> {
    let mut module: CUmodule = std::ptr::null_mut();
    // SAFETY: PTX is a NUL-terminated PTX image; `module` is a valid out-pointer.
    check("cuModuleLoadData", unsafe {
        module_load_data(&raw mut module, PTX.as_ptr().cast())
    })?;
    resources.module = Some(module);
    let mut function: CUfunction = std::ptr::null_mut();
    // SAFETY: a loaded module, a NUL-terminated name, a valid out-pointer.
    check("cuModuleGetFunction", unsafe {
        module_get_function(&raw mut function, module, KERNEL.as_ptr())
    })?;
    println!(
        "\nloaded the PTX module, found kernel `{}`",
        KERNEL.to_string_lossy()
    );

    let a: Vec<f32> = (0..N).map(|i| small(i % 1024)).collect();
    let b: Vec<f32> = (0..N).map(|i| small(2 * (i % 1024))).collect();
    let bytes = N * size_of::<f32>();
    let mut device = [0 as CUdeviceptr; 3];
    for dptr in &mut device {
        // SAFETY: a valid out-pointer; a context is current.
        check("cuMemAlloc", unsafe { mem_alloc(dptr, bytes) })?;
        resources.buffers.push(*dptr);
    }
    let [a_dev, b_dev, c_dev] = device;
    // SAFETY: each host slice holds `bytes` bytes; each device buffer was allocated with `bytes`.
    unsafe {
        check(
            "cuMemcpyHtoD(a)",
            memcpy_htod(a_dev, a.as_ptr().cast(), bytes),
        )?;
        check(
            "cuMemcpyHtoD(b)",
            memcpy_htod(b_dev, b.as_ptr().cast(), bytes),
        )?;
    }
    println!(
        "allocated 3 x {} MiB at {a_dev:#x}, {b_dev:#x}, {c_dev:#x}; copied a and b to the device",
        bytes >> 20
    );

    // Exact in f32 and in the f64 sum: every a[i] + b[i] = 3 * (i % 1024) <= 3069, and the sum
    // (< 2^35) is an integer far below 2^53.
    let expected: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    let expected_sum: f64 = expected.iter().map(|&x| f64::from(x)).sum();
    let closed_form =
        3.0 * f64::from(1023 * 1024 / 2) * f64::from(u32::try_from(N / 1024).unwrap_or(0));
    if expected_sum != closed_form {
        return Err(format!(
            "host arithmetic is off: sum {expected_sum} != closed form {closed_form}"
        ));
    }

    let n = u32::try_from(N).map_err(|_| "N does not fit the kernel's u32 n".to_owned())?;
    let grid = n.div_ceil(BLOCK);
    let mut c = vec![SENTINEL; N];
    for flavour in [Flavour::Legacy, Flavour::PerThread] {
        c.fill(SENTINEL);
        // SAFETY: `c` holds `bytes` bytes; `c_dev` was allocated with `bytes`.
        check("cuMemcpyHtoD(c, sentinel)", unsafe {
            memcpy_htod(c_dev, c.as_ptr().cast(), bytes)
        })?;
        let elapsed = launch(flavour, function, [a_dev, b_dev, c_dev], n, grid)?;
        // SAFETY: `c` holds `bytes` writable bytes; `c_dev` holds `bytes`.
        check("cuMemcpyDtoH(c)", unsafe {
            memcpy_dtoh(c.as_mut_ptr().cast(), c_dev, bytes)
        })?;
        let seconds = elapsed.as_secs_f64();
        println!(
            "\n{}: {grid} blocks x {BLOCK} threads, launch + synchronize took {:.3} ms ({:.1} GB/s \
             for 3 x {} MiB){}",
            flavour.describe(),
            seconds * 1e3,
            3.0 * 4.0 * f64::from(n) / seconds / 1e9,
            bytes >> 20,
            if simulated {
                " [SIMULATED: host arithmetic, not a GPU]"
            } else {
                ""
            }
        );
        verify(&c, &expected, expected_sum)?;
    }
    // SAFETY: a context is current; waits for all its work.
    check("cuCtxSynchronize", unsafe { ctx_synchronize() })?;
    Ok(())
}

/// `x` as `f32`, exactly (the program's values are all below 2^24).
fn small(x: usize) -> f32 {
    f32::from(u16::try_from(x).unwrap_or(u16::MAX))
}

/// Which default stream a launch goes to.
#[derive(Clone, Copy)]
enum Flavour {
    Legacy,
    PerThread,
}

impl Flavour {
    fn describe(self) -> &'static str {
        match self {
            Flavour::Legacy => "cuLaunchKernel (version 4000, legacy default stream)",
            Flavour::PerThread => "cuLaunchKernel (version 7000, per-thread default stream)",
        }
    }
}

/// Launches `vector_add(a, b, c, n)` on the NULL stream of `flavour` and waits for it.
fn launch(
    flavour: Flavour,
    function: CUfunction,
    [a, b, c]: [CUdeviceptr; 3],
    n: u32,
    grid: u32,
) -> Result<Duration, String> {
    // kernelParams: one pointer per kernel parameter, each pointing at that argument's value
    // (a CUdeviceptr for each .u64, a u32 for the .u32). The driver copies the values at launch.
    let (mut a, mut b, mut c, mut n) = (a, b, c, n);
    let mut params: [*mut c_void; 4] = [
        (&raw mut a).cast(),
        (&raw mut b).cast(),
        (&raw mut c).cast(),
        (&raw mut n).cast(),
    ];
    let null_stream: CUstream = std::ptr::null_mut();
    let start = Instant::now();
    match flavour {
        Flavour::Legacy => {
            // SAFETY: a function of the current context's module; `params` matches its four
            // parameters and outlives the call; no `extra`.
            check("cuLaunchKernel", unsafe {
                launch_kernel(
                    function,
                    grid,
                    1,
                    1,
                    BLOCK,
                    1,
                    1,
                    0,
                    null_stream,
                    params.as_mut_ptr(),
                    std::ptr::null_mut(),
                )
            })?;
            // SAFETY: NULL is the legacy default stream.
            check("cuStreamSynchronize", unsafe {
                stream_synchronize(null_stream)
            })?;
        }
        Flavour::PerThread => {
            // SAFETY: as above; NULL is this thread's per-thread default stream.
            check("cuLaunchKernel (per-thread)", unsafe {
                launch_kernel_per_thread(
                    function,
                    grid,
                    1,
                    1,
                    BLOCK,
                    1,
                    1,
                    0,
                    null_stream,
                    params.as_mut_ptr(),
                    std::ptr::null_mut(),
                )
            })?;
            // SAFETY: NULL is this thread's per-thread default stream.
            check("cuStreamSynchronize (per-thread)", unsafe {
                stream_synchronize_per_thread(null_stream)
            })?;
        }
    }
    Ok(start.elapsed())
}

/// Checks every element against the host's result and the f64 sum against the expected one.
#[allow(clippy::float_cmp, reason = "the sums are exact integers in f64")]
fn verify(c: &[f32], expected: &[f32], expected_sum: f64) -> Result<(), String> {
    let mismatches: Vec<usize> = c
        .iter()
        .zip(expected)
        .enumerate()
        .filter(|(_, (got, want))| got.to_bits() != want.to_bits())
        .map(|(i, _)| i)
        .collect();
    let sum: f64 = c.iter().map(|&x| f64::from(x)).sum();
    println!(
        "  sum of the {} results (f64) = {sum}, expected {expected_sum}",
        c.len()
    );
    if let Some(&first) = mismatches.first() {
        return Err(format!(
            "{} of {} elements differ; first at index {first}: got {}, expected {}",
            mismatches.len(),
            c.len(),
            c[first],
            expected[first]
        ));
    }
    if sum != expected_sum {
        return Err(format!("the sum {sum} differs from {expected_sum}"));
    }
    println!("  verified all {} elements: c[i] == a[i] + b[i]", c.len());
    Ok(())
}
