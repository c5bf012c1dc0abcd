//! The simulated driver API: one device, fake handles, device memory backed by host buffers.
//!
//! Behaviour follows the CUDA documentation where it matters to a caller: calls other than
//! `cuDriverGetVersion`/`cuGetProcAddress*` need `cuInit(0)` first (3, NOT_INITIALIZED), memory,
//! module and launch calls need a current context on the calling thread (201, INVALID_CONTEXT),
//! and a kernel launch is synchronous host arithmetic (there is no GPU).
//!
//! Every function returns a [`SimResult`]: `Err` returns its code with nothing written. The
//! export (`exports::answer`) turns it into the `CUresult`.

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{CStr, c_char, c_int, c_uint, c_void};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

use super::config::{self, Mode};
use super::{
    CUcontext, CUctxCreateParams, CUdevice, CUdeviceptr, CUdeviceptrV1, CUexecAffinityParam,
    CUfunction, CUmodule, CUstream, CUuuid, SimError, SimResult,
};

/// The single simulated device's UUID ("cuda-entry-sim01").
const UUID: [u8; 16] = *b"cuda-entry-sim01";
/// The primary context of device 0: a fixed fake handle.
const PRIMARY_CTX: usize = 0x7c7c_0000_0000;
/// Where other fake handles start (contexts, modules, functions share one counter).
const FIRST_HANDLE: usize = 0x7c7c_0001_0000;
/// Where fake device pointers start: low enough for the 32-bit `CUdeviceptr_v1` of `cuMemAlloc`.
const FIRST_DPTR: u64 = 0x1000_0000;
/// The most simulated device memory in use at once (host memory really backs it).
const MEMORY_LIMIT: usize = 4 << 30;

static INITIALIZED: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// The calling thread's current context (0: none), as the driver keeps one per thread.
    static CURRENT: Cell<usize> = const { Cell::new(0) };
}

#[derive(Debug)]
struct Module {
    /// The image as text when it is PTX (NUL-terminated text with `.entry`); `None` for binary
    /// images, which the simulator does not parse.
    ptx: Option<String>,
}

#[derive(Debug)]
struct State {
    next_dptr: u64,
    next_handle: usize,
    in_use: usize,
    allocations: BTreeMap<u64, Vec<u8>>,
    contexts: BTreeSet<usize>,
    primary_refs: u32,
    modules: BTreeMap<usize, Module>,
    /// Function handle -> (module, kernel name).
    functions: BTreeMap<usize, (usize, String)>,
}

static STATE: Mutex<State> = Mutex::new(State {
    next_dptr: FIRST_DPTR,
    next_handle: FIRST_HANDLE,
    in_use: 0,
    allocations: BTreeMap::new(),
    contexts: BTreeSet::new(),
    primary_refs: 0,
    modules: BTreeMap::new(),
    functions: BTreeMap::new(),
});

fn state() -> MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

impl State {
    fn handle(&mut self) -> usize {
        let h = self.next_handle;
        self.next_handle += 0x100;
        h
    }

    fn context_alive(&self, ctx: usize) -> bool {
        (ctx == PRIMARY_CTX && self.primary_refs > 0) || self.contexts.contains(&ctx)
    }

    /// The allocation holding `[ptr, ptr + len)`: its base and the offset of `ptr` in it.
    fn find(&mut self, ptr: u64, len: usize) -> Option<(&mut Vec<u8>, usize)> {
        let (&base, buf) = self.allocations.range_mut(..=ptr).next_back()?;
        let offset = usize::try_from(ptr - base).ok()?;
        (offset.checked_add(len)? <= buf.len()).then_some((buf, offset))
    }

    fn alloc(&mut self, size: usize, limit: u64) -> SimResult<u64> {
        if size == 0 {
            return Err(SimError::InvalidValue);
        }
        if size > MEMORY_LIMIT - self.in_use {
            return Err(SimError::OutOfMemory);
        }
        let base = self.next_dptr;
        // 512-byte alignment like the real allocator, plus a gap so off-by-one pointers miss.
        let span = (size as u64).div_ceil(512) * 512 + 4096;
        if base.saturating_add(size as u64) > limit {
            return Err(SimError::OutOfMemory);
        }
        let mut buf = Vec::new();
        buf.try_reserve_exact(size)
            .map_err(|_| SimError::OutOfMemory)?;
        buf.resize(size, 0);
        self.next_dptr = base + span;
        self.in_use += size;
        self.allocations.insert(base, buf);
        Ok(base)
    }

    fn free(&mut self, ptr: u64) -> SimResult {
        let buf = self
            .allocations
            .remove(&ptr)
            .ok_or(SimError::InvalidValue)?;
        self.in_use -= buf.len();
        Ok(())
    }
}

/// `cuInit` done?
fn initialized() -> SimResult {
    if INITIALIZED.load(Ordering::Acquire) {
        Ok(())
    } else {
        Err(SimError::NotInitialized)
    }
}

/// `cuInit` done and a live current context on this thread?
fn with_context() -> SimResult<MutexGuard<'static, State>> {
    initialized()?;
    let st = state();
    let ctx = CURRENT.with(Cell::get);
    if ctx != 0 && st.context_alive(ctx) {
        Ok(st)
    } else {
        Err(SimError::InvalidContext)
    }
}

/// As [`with_context`], when the state is not needed.
pub(crate) fn current_context() -> SimResult {
    with_context().map(drop)
}

/// `ctx` names a live context?
fn alive(ctx: CUcontext) -> SimResult {
    if state().context_alive(ctx as usize) {
        Ok(())
    } else {
        Err(SimError::InvalidContext)
    }
}

fn valid_stream(stream: CUstream) -> SimResult {
    super::work::valid_stream(stream)
}

/// The only device is 0.
fn valid_device(dev: CUdevice) -> SimResult {
    if dev == 0 {
        Ok(())
    } else {
        Err(SimError::InvalidDevice)
    }
}

/// Fails with INVALID_VALUE for a NULL pointer.
fn non_null<T>(ptr: *const T) -> SimResult {
    if ptr.is_null() {
        Err(SimError::InvalidValue)
    } else {
        Ok(())
    }
}

/// Writes `value` through `ptr`, or fails with INVALID_VALUE for NULL.
///
/// # Safety
///
/// `ptr` must be NULL or valid for a write of `T`.
unsafe fn put<T>(ptr: *mut T, value: T) -> SimResult {
    non_null(ptr)?;
    // SAFETY: non-NULL, and the caller promises it is writable.
    unsafe { ptr.write(value) };
    Ok(())
}

/// `cuDriverGetVersion(int *driverVersion)`.
///
/// # Safety
///
/// `version` must be NULL or writable.
pub unsafe fn driver_get_version(version: *mut c_int) -> SimResult {
    let config = config::get();
    if config.mode == Mode::VersionFails {
        return Err(SimError::NotInitialized);
    }
    // SAFETY: the caller's contract.
    unsafe { put(version, config.version) }
}

/// `cuInit(unsigned int Flags)`: Flags must be 0.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn init(flags: c_uint) -> SimResult {
    if flags != 0 {
        return Err(SimError::InvalidValue);
    }
    INITIALIZED.store(true, Ordering::Release);
    Ok(())
}

/// `cuDeviceGetCount(int *count)`: one device.
///
/// # Safety
///
/// `count` must be NULL or writable.
pub unsafe fn device_get_count(count: *mut c_int) -> SimResult {
    initialized()?;
    // SAFETY: the caller's contract.
    unsafe { put(count, 1) }
}

/// `cuDeviceGet(CUdevice *device, int ordinal)`.
///
/// # Safety
///
/// `device` must be NULL or writable.
pub unsafe fn device_get(device: *mut CUdevice, ordinal: c_int) -> SimResult {
    initialized()?;
    valid_device(ordinal)?;
    // SAFETY: the caller's contract.
    unsafe { put(device, 0) }
}

/// `cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)` and `cuDeviceGetUuid_v2` (same signature).
///
/// # Safety
///
/// `uuid` must be NULL or writable.
pub unsafe fn device_get_uuid(uuid: *mut CUuuid, dev: CUdevice) -> SimResult {
    initialized()?;
    valid_device(dev)?;
    let bytes = UUID.map(|b| b as c_char);
    // SAFETY: the caller's contract.
    unsafe { put(uuid, CUuuid { bytes }) }
}

fn create_context(pctx: *mut CUcontext, dev: CUdevice) -> SimResult {
    initialized()?;
    non_null(pctx)?;
    valid_device(dev)?;
    let mut st = state();
    let ctx = st.handle();
    st.contexts.insert(ctx);
    // cuCtxCreate makes the new context current on the calling thread.
    CURRENT.with(|c| c.set(ctx));
    // SAFETY: `pctx` is non-NULL and the caller promises it is writable.
    unsafe { pctx.write(ctx as CUcontext) };
    Ok(())
}

/// `cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev)` (2.0 and `_v2`, 3.2: same
/// signature).
///
/// # Safety
///
/// `pctx` must be NULL or writable.
pub unsafe fn ctx_create(pctx: *mut CUcontext, _flags: c_uint, dev: CUdevice) -> SimResult {
    create_context(pctx, dev)
}

/// `cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *paramsArray, int numParams,
/// unsigned int flags, CUdevice dev)` (11.4).
///
/// # Safety
///
/// `pctx` must be NULL or writable; `params` NULL or readable for `num_params` elements.
pub unsafe fn ctx_create_v3(
    pctx: *mut CUcontext,
    params: *mut CUexecAffinityParam,
    num_params: c_int,
    _flags: c_uint,
    dev: CUdevice,
) -> SimResult {
    if num_params < 0 || (num_params > 0 && params.is_null()) {
        return Err(SimError::InvalidValue);
    }
    create_context(pctx, dev)
}

/// `cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags,
/// CUdevice dev)` (12.5). NULL params: a plain context; otherwise exactly one of
/// `execAffinityParams` and `cigParams` must be non-NULL (cuda.h).
///
/// # Safety
///
/// `pctx` must be NULL or writable; `params` NULL or readable.
pub unsafe fn ctx_create_v4(
    pctx: *mut CUcontext,
    params: *mut CUctxCreateParams,
    _flags: c_uint,
    dev: CUdevice,
) -> SimResult {
    if !params.is_null() {
        // SAFETY: non-NULL, and the caller promises it is readable.
        let p = unsafe { params.read() };
        if p.exec_affinity_params.is_null() == p.cig_params.is_null() {
            return Err(SimError::InvalidValue);
        }
    }
    create_context(pctx, dev)
}

/// `cuCtxDestroy(CUcontext ctx)` and `cuCtxDestroy_v2` (same signature).
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn ctx_destroy(ctx: CUcontext) -> SimResult {
    initialized()?;
    if !state().contexts.remove(&(ctx as usize)) {
        return Err(SimError::InvalidContext);
    }
    CURRENT.with(|c| {
        if c.get() == ctx as usize {
            c.set(0);
        }
    });
    Ok(())
}

/// `cuCtxGetCurrent(CUcontext *pctx)`: NULL when none.
///
/// # Safety
///
/// `pctx` must be NULL or writable.
pub unsafe fn ctx_get_current(pctx: *mut CUcontext) -> SimResult {
    initialized()?;
    let current = CURRENT.with(Cell::get) as CUcontext;
    // SAFETY: the caller's contract.
    unsafe { put(pctx, current) }
}

/// `cuCtxSetCurrent(CUcontext ctx)`: NULL unbinds.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn ctx_set_current(ctx: CUcontext) -> SimResult {
    initialized()?;
    if !ctx.is_null() {
        alive(ctx)?;
    }
    CURRENT.with(|c| c.set(ctx as usize));
    Ok(())
}

/// `cuCtxGetDevice(CUdevice *device)` (2.0): the device of the current context (the only device,
/// 0).
///
/// # Safety
///
/// `device` must be NULL or writable.
pub unsafe fn ctx_get_device(device: *mut CUdevice) -> SimResult {
    current_context()?;
    // SAFETY: the caller's contract.
    unsafe { put(device, 0) }
}

/// `cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)` (13.0): the device of `ctx`; NULL means
/// the current context.
///
/// # Safety
///
/// `device` must be NULL or writable.
pub unsafe fn ctx_get_device_v2(device: *mut CUdevice, ctx: CUcontext) -> SimResult {
    if ctx.is_null() {
        // SAFETY: the caller's contract.
        return unsafe { ctx_get_device(device) };
    }
    initialized()?;
    alive(ctx)?;
    // SAFETY: the caller's contract.
    unsafe { put(device, 0) }
}

/// `cuCtxSynchronize(void)` (2.0): the current context; its pending work is done.
///
/// # Safety
///
/// None.
pub unsafe fn ctx_synchronize() -> SimResult {
    current_context()?;
    super::work::synchronized_all();
    Ok(())
}

/// `cuCtxSynchronize_v2(CUcontext ctx)` (13.0): NULL means the current context.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn ctx_synchronize_v2(ctx: CUcontext) -> SimResult {
    if ctx.is_null() {
        // SAFETY: no pointer is dereferenced.
        return unsafe { ctx_synchronize() };
    }
    initialized()?;
    alive(ctx)
}

/// `cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)`.
///
/// # Safety
///
/// `pctx` must be NULL or writable.
pub unsafe fn primary_ctx_retain(pctx: *mut CUcontext, dev: CUdevice) -> SimResult {
    initialized()?;
    valid_device(dev)?;
    // SAFETY: the caller's contract.
    unsafe { put(pctx, PRIMARY_CTX as CUcontext) }?;
    state().primary_refs += 1;
    Ok(())
}

/// `cuDevicePrimaryCtxRelease(CUdevice dev)` (7.0) and `cuDevicePrimaryCtxRelease_v2` (11.0, same
/// signature).
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn primary_ctx_release(dev: CUdevice) -> SimResult {
    initialized()?;
    valid_device(dev)?;
    let mut st = state();
    if st.primary_refs == 0 {
        return Err(SimError::InvalidContext);
    }
    st.primary_refs -= 1;
    Ok(())
}

fn mem_alloc(size: usize, limit: u64) -> SimResult<u64> {
    with_context()?.alloc(size, limit)
}

/// `cuMemAlloc(CUdeviceptr_v1 *dptr, unsigned int bytesize)`: the CUDA 2.0 ABI, 32-bit pointer
/// and size.
///
/// # Safety
///
/// `dptr` must be NULL or writable.
pub unsafe fn mem_alloc_v1(dptr: *mut CUdeviceptrV1, bytesize: c_uint) -> SimResult {
    non_null(dptr)?;
    let p = mem_alloc(bytesize as usize, u64::from(u32::MAX))?;
    // SAFETY: non-NULL, the caller promises it is writable; p fits (limit above).
    unsafe { dptr.write(p as CUdeviceptrV1) };
    Ok(())
}

/// `cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)`.
///
/// # Safety
///
/// `dptr` must be NULL or writable.
pub unsafe fn mem_alloc_v2(dptr: *mut CUdeviceptr, bytesize: usize) -> SimResult {
    non_null(dptr)?;
    let p = mem_alloc(bytesize, u64::MAX)?;
    // SAFETY: non-NULL, and the caller promises it is writable.
    unsafe { dptr.write(p) };
    Ok(())
}

/// `cuMemFree(CUdeviceptr_v1 dptr)`.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn mem_free_v1(dptr: CUdeviceptrV1) -> SimResult {
    // SAFETY: no pointer is dereferenced.
    unsafe { mem_free_v2(CUdeviceptr::from(dptr)) }
}

/// `cuMemFree_v2(CUdeviceptr dptr)`: `dptr` must be an allocation's base.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn mem_free_v2(dptr: CUdeviceptr) -> SimResult {
    with_context()?.free(dptr)
}

/// `cuMemcpyHtoD(CUdeviceptr_v1, const void *, unsigned int)`.
///
/// # Safety
///
/// `src` must be readable for `count` bytes.
pub unsafe fn memcpy_htod_v1(dst: CUdeviceptrV1, src: *const c_void, count: c_uint) -> SimResult {
    // SAFETY: the caller's contract.
    unsafe { memcpy_htod_v2(CUdeviceptr::from(dst), src, count as usize) }
}

/// `cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)` (and
/// `_v2_ptds`): copies into the host buffer behind the allocation.
///
/// # Safety
///
/// `src` must be readable for `count` bytes.
pub unsafe fn memcpy_htod_v2(dst: CUdeviceptr, src: *const c_void, count: usize) -> SimResult {
    let mut st = with_context()?;
    if count == 0 {
        return Ok(());
    }
    non_null(src)?;
    let (buf, offset) = st.find(dst, count).ok_or(SimError::InvalidValue)?;
    // SAFETY: the caller promises `src` is readable for `count` bytes; `find` checked the
    // destination range lies in `buf`; a host pointer cannot alias the simulator's own buffer.
    unsafe {
        std::ptr::copy_nonoverlapping(src.cast::<u8>(), buf.as_mut_ptr().add(offset), count);
    }
    Ok(())
}

/// `cuMemcpyDtoH(void *, CUdeviceptr_v1, unsigned int)`.
///
/// # Safety
///
/// `dst` must be writable for `count` bytes.
pub unsafe fn memcpy_dtoh_v1(dst: *mut c_void, src: CUdeviceptrV1, count: c_uint) -> SimResult {
    // SAFETY: the caller's contract.
    unsafe { memcpy_dtoh_v2(dst, CUdeviceptr::from(src), count as usize) }
}

/// `cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)` (and `_v2_ptds`).
///
/// # Safety
///
/// `dst` must be writable for `count` bytes.
pub unsafe fn memcpy_dtoh_v2(dst: *mut c_void, src: CUdeviceptr, count: usize) -> SimResult {
    let mut st = with_context()?;
    if count == 0 {
        return Ok(());
    }
    non_null(dst)?;
    let (buf, offset) = st.find(src, count).ok_or(SimError::InvalidValue)?;
    // SAFETY: `find` checked the source range; the caller promises `dst` is writable for `count`
    // bytes and it cannot alias the simulator's own buffer.
    unsafe { std::ptr::copy_nonoverlapping(buf.as_ptr().add(offset), dst.cast::<u8>(), count) };
    Ok(())
}

/// `cuModuleLoadData(CUmodule *module, const void *image)`.
///
/// A PTX image (NUL-terminated text) is kept to check kernel names against its `.entry`
/// directives; a binary image (cubin/fatbin, starting with a non-text byte) is accepted as is.
///
/// # Safety
///
/// `module` must be NULL or writable; `image` NULL or a PTX string or a binary image whose first
/// byte is readable.
pub unsafe fn module_load_data(module: *mut CUmodule, image: *const c_void) -> SimResult {
    let mut st = with_context()?;
    non_null(module)?;
    non_null(image)?;
    // SAFETY: the caller promises at least the first byte is readable.
    let first = unsafe { image.cast::<u8>().read() };
    let ptx = if first.is_ascii() && first != 0x7f && first != 0 {
        // SAFETY: a text image is a NUL-terminated PTX string (the driver's contract).
        let text = unsafe { CStr::from_ptr(image.cast::<c_char>()) };
        Some(text.to_string_lossy().into_owned())
    } else {
        None
    };
    let handle = st.handle();
    st.modules.insert(handle, Module { ptx });
    // SAFETY: non-NULL, and the caller promises it is writable.
    unsafe { module.write(handle as CUmodule) };
    Ok(())
}

/// Whether PTX text declares the kernel `name` (`.entry name(` / `.entry name `).
fn ptx_declares(ptx: &str, name: &str) -> bool {
    ptx.match_indices(".entry").any(|(i, _)| {
        let rest = ptx[i + ".entry".len()..].trim_start();
        rest.strip_prefix(name)
            .is_some_and(|after| after.starts_with(|c: char| c == '(' || c.is_whitespace()))
    })
}

/// `cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)`: 500 (NOT_FOUND)
/// when a PTX module has no such `.entry`.
///
/// # Safety
///
/// `hfunc` must be NULL or writable; `name` NULL or NUL-terminated.
pub unsafe fn module_get_function(
    hfunc: *mut CUfunction,
    hmod: CUmodule,
    name: *const c_char,
) -> SimResult {
    let mut st = with_context()?;
    non_null(hfunc)?;
    non_null(name)?;
    // SAFETY: non-NULL, and the caller promises a NUL-terminated string.
    let name = unsafe { CStr::from_ptr(name) }
        .to_string_lossy()
        .into_owned();
    let module = st
        .modules
        .get(&(hmod as usize))
        .ok_or(SimError::InvalidHandle)?;
    if module
        .ptx
        .as_deref()
        .is_some_and(|ptx| !ptx_declares(ptx, &name))
    {
        return Err(SimError::NotFound);
    }
    let handle = st.handle();
    st.functions.insert(handle, (hmod as usize, name));
    // SAFETY: non-NULL, and the caller promises it is writable.
    unsafe { hfunc.write(handle as CUfunction) };
    Ok(())
}

/// `cuModuleUnload(CUmodule hmod)`: its functions become invalid.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn module_unload(hmod: CUmodule) -> SimResult {
    let mut st = with_context()?;
    let hmod = hmod as usize;
    st.modules.remove(&hmod).ok_or(SimError::InvalidHandle)?;
    st.functions.retain(|_, (m, _)| *m != hmod);
    Ok(())
}

/// `cuStreamSynchronize(CUstream)` (and `_ptsz`): launches run at once; the stream's pending
/// work is done.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn stream_synchronize(stream: CUstream) -> SimResult {
    current_context()?;
    valid_stream(stream)?;
    super::work::synchronized(stream);
    Ok(())
}

/// `cuStreamBeginCapture(CUstream)` (10.0, and `_ptsz`): the only streams are the special ones,
/// which cannot be captured (cuda.h: STREAM_CAPTURE_UNSUPPORTED for CU_STREAM_LEGACY).
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn stream_begin_capture(stream: CUstream) -> SimResult {
    // SAFETY: no pointer is dereferenced.
    unsafe { stream_begin_capture_v2(stream, 0) }
}

/// `cuStreamBeginCapture_v2(CUstream, CUstreamCaptureMode)` (10.1, and `_v2_ptsz`).
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn stream_begin_capture_v2(stream: CUstream, mode: c_int) -> SimResult {
    current_context()?;
    if !(0..=2).contains(&mode) {
        return Err(SimError::InvalidValue);
    }
    valid_stream(stream)?;
    Err(SimError::StreamCaptureUnsupported)
}

/// The part of a kernel the simulator can run on the host: `vector_add(const float *a,
/// const float *b, float *c, int n)` computes `c[i] = a[i] + b[i]` for `i < n` (and `i` below the
/// launch's thread count in x), as host arithmetic over the buffers behind the allocations.
fn vector_add(st: &mut State, params: *mut *mut c_void, threads: u64) -> SimResult {
    non_null(params)?;
    let mut arg = [0u64; 3];
    for (i, slot) in arg.iter_mut().enumerate() {
        // SAFETY: kernelParams holds one pointer per kernel parameter (4 for vector_add), each
        // pointing at the argument's value (cuLaunchKernel's contract).
        *slot = unsafe { params.add(i).read().cast::<CUdeviceptr>().read_unaligned() };
    }
    // SAFETY: as above, the fourth parameter is the int n.
    let n = unsafe { params.add(3).read().cast::<c_int>().read_unaligned() };
    let count = u64::try_from(n).unwrap_or(0).min(threads) as usize;
    let bytes = count * 4;
    let read = |st: &mut State, ptr| -> SimResult<Vec<f32>> {
        let (buf, offset) = st.find(ptr, bytes).ok_or(SimError::IllegalAddress)?;
        Ok(buf[offset..offset + bytes]
            .chunks_exact(4)
            .map(|c| f32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    };
    if count == 0 {
        return Ok(());
    }
    let a = read(st, arg[0])?;
    let b = read(st, arg[1])?;
    let (out, offset) = st.find(arg[2], bytes).ok_or(SimError::IllegalAddress)?;
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        out[offset + 4 * i..offset + 4 * i + 4].copy_from_slice(&(x + y).to_ne_bytes());
    }
    Ok(())
}

/// `cuLaunchKernel(CUfunction f, unsigned gridDimX..Z, unsigned blockDimX..Z,
/// unsigned sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)` (and `_ptsz`).
///
/// Runs synchronously on the host: `vector_add` is computed (see `vector_add`), any other kernel
/// does nothing.
///
/// # Safety
///
/// `kernel_params` must be NULL or hold one readable pointer per kernel parameter.
#[allow(clippy::too_many_arguments)]
pub unsafe fn launch_kernel(
    f: CUfunction,
    grid_x: c_uint,
    grid_y: c_uint,
    grid_z: c_uint,
    block_x: c_uint,
    block_y: c_uint,
    block_z: c_uint,
    _shared_mem_bytes: c_uint,
    stream: CUstream,
    kernel_params: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> SimResult {
    let mut st = with_context()?;
    let (_, name) = st
        .functions
        .get(&(f as usize))
        .ok_or(SimError::InvalidHandle)?;
    let is_vector_add = name == "vector_add";
    if [grid_x, grid_y, grid_z, block_x, block_y, block_z].contains(&0)
        || (!kernel_params.is_null() && !extra.is_null())
    {
        return Err(SimError::InvalidValue);
    }
    valid_stream(stream)?;
    if is_vector_add {
        let threads = u64::from(grid_x) * u64::from(block_x);
        vector_add(&mut st, kernel_params, threads)?;
    }
    drop(st);
    super::work::launched(stream);
    Ok(())
}
