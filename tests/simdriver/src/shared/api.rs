//! The simulated driver API: one device, fake handles, device memory backed by host buffers.
//!
//! Behaviour follows the CUDA documentation where it matters to a caller: calls other than
//! `cuDriverGetVersion`/`cuGetProcAddress*` need `cuInit(0)` first (3, NOT_INITIALIZED), memory,
//! module and launch calls need a current context on the calling thread (201, INVALID_CONTEXT),
//! and a kernel launch is synchronous host arithmetic (there is no GPU).

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{CStr, c_char, c_int, c_uint, c_void};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

use super::config::{self, Mode};
use super::{
    CUcontext, CUctxCreateParams, CUdevice, CUdeviceptr, CUdeviceptrV1, CUexecAffinityParam,
    CUfunction, CUmodule, CUresult, CUstream, CUuuid, rc,
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

    fn alloc(&mut self, size: usize, limit: u64) -> Result<u64, CUresult> {
        if size == 0 {
            return Err(rc::INVALID_VALUE);
        }
        if size > MEMORY_LIMIT - self.in_use {
            return Err(rc::OUT_OF_MEMORY);
        }
        let base = self.next_dptr;
        // 512-byte alignment like the real allocator, plus a gap so off-by-one pointers miss.
        let span = (size as u64).div_ceil(512) * 512 + 4096;
        if base.saturating_add(size as u64) > limit {
            return Err(rc::OUT_OF_MEMORY);
        }
        let mut buf = Vec::new();
        buf.try_reserve_exact(size).map_err(|_| rc::OUT_OF_MEMORY)?;
        buf.resize(size, 0);
        self.next_dptr = base + span;
        self.in_use += size;
        self.allocations.insert(base, buf);
        Ok(base)
    }

    fn free(&mut self, ptr: u64) -> CUresult {
        match self.allocations.remove(&ptr) {
            Some(buf) => {
                self.in_use -= buf.len();
                rc::SUCCESS
            }
            None => rc::INVALID_VALUE,
        }
    }
}

/// `cuInit` done?
fn initialized() -> Result<(), CUresult> {
    if INITIALIZED.load(Ordering::Acquire) {
        Ok(())
    } else {
        Err(rc::NOT_INITIALIZED)
    }
}

/// `cuInit` done and a live current context on this thread?
fn with_context() -> Result<MutexGuard<'static, State>, CUresult> {
    initialized()?;
    let st = state();
    let ctx = CURRENT.with(Cell::get);
    if ctx != 0 && st.context_alive(ctx) {
        Ok(st)
    } else {
        Err(rc::INVALID_CONTEXT)
    }
}

fn valid_stream(stream: CUstream) -> Result<(), CUresult> {
    // The simulator has no stream creation: only NULL, CU_STREAM_LEGACY (1) and
    // CU_STREAM_PER_THREAD (2) exist.
    if (stream as usize) <= 2 {
        Ok(())
    } else {
        Err(rc::INVALID_HANDLE)
    }
}

fn code(result: Result<(), CUresult>) -> CUresult {
    result.err().unwrap_or(rc::SUCCESS)
}

/// Writes `value` through `ptr`, or fails with INVALID_VALUE for NULL.
///
/// # Safety
///
/// `ptr` must be NULL or valid for a write of `T`.
unsafe fn put<T>(ptr: *mut T, value: T) -> Result<(), CUresult> {
    if ptr.is_null() {
        return Err(rc::INVALID_VALUE);
    }
    // SAFETY: non-NULL, and the caller promises it is writable.
    unsafe { ptr.write(value) };
    Ok(())
}

/// `cuDriverGetVersion(int *driverVersion)`.
///
/// # Safety
///
/// `version` must be NULL or writable.
pub unsafe fn driver_get_version(version: *mut c_int) -> CUresult {
    let config = config::get();
    if config.mode == Mode::VersionFails {
        return rc::NOT_INITIALIZED;
    }
    // SAFETY: the caller's contract.
    code(unsafe { put(version, config.version) })
}

/// `cuInit(unsigned int Flags)`: Flags must be 0.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn init(flags: c_uint) -> CUresult {
    if flags != 0 {
        return rc::INVALID_VALUE;
    }
    INITIALIZED.store(true, Ordering::Release);
    rc::SUCCESS
}

/// `cuDeviceGetCount(int *count)`: one device.
///
/// # Safety
///
/// `count` must be NULL or writable.
pub unsafe fn device_get_count(count: *mut c_int) -> CUresult {
    // SAFETY: the caller's contract.
    code(initialized().and_then(|()| unsafe { put(count, 1) }))
}

/// `cuDeviceGet(CUdevice *device, int ordinal)`.
///
/// # Safety
///
/// `device` must be NULL or writable.
pub unsafe fn device_get(device: *mut CUdevice, ordinal: c_int) -> CUresult {
    code(initialized().and_then(|()| {
        if ordinal != 0 {
            return Err(rc::INVALID_DEVICE);
        }
        // SAFETY: the caller's contract.
        unsafe { put(device, 0) }
    }))
}

/// `cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)` and `cuDeviceGetUuid_v2` (same signature).
///
/// # Safety
///
/// `uuid` must be NULL or writable.
pub unsafe fn device_get_uuid(uuid: *mut CUuuid, dev: CUdevice) -> CUresult {
    code(initialized().and_then(|()| {
        if dev != 0 {
            return Err(rc::INVALID_DEVICE);
        }
        let bytes = UUID.map(|b| b as c_char);
        // SAFETY: the caller's contract.
        unsafe { put(uuid, CUuuid { bytes }) }
    }))
}

fn create_context(pctx: *mut CUcontext, dev: CUdevice) -> Result<(), CUresult> {
    initialized()?;
    if pctx.is_null() {
        return Err(rc::INVALID_VALUE);
    }
    if dev != 0 {
        return Err(rc::INVALID_DEVICE);
    }
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
pub unsafe fn ctx_create(pctx: *mut CUcontext, _flags: c_uint, dev: CUdevice) -> CUresult {
    code(create_context(pctx, dev))
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
) -> CUresult {
    if num_params < 0 || (num_params > 0 && params.is_null()) {
        return rc::INVALID_VALUE;
    }
    code(create_context(pctx, dev))
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
) -> CUresult {
    if !params.is_null() {
        // SAFETY: non-NULL, and the caller promises it is readable.
        let p = unsafe { params.read() };
        if p.exec_affinity_params.is_null() == p.cig_params.is_null() {
            return rc::INVALID_VALUE;
        }
    }
    code(create_context(pctx, dev))
}

/// `cuCtxDestroy(CUcontext ctx)` and `cuCtxDestroy_v2` (same signature).
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn ctx_destroy(ctx: CUcontext) -> CUresult {
    code(initialized().and_then(|()| {
        if !state().contexts.remove(&(ctx as usize)) {
            return Err(rc::INVALID_CONTEXT);
        }
        CURRENT.with(|c| {
            if c.get() == ctx as usize {
                c.set(0);
            }
        });
        Ok(())
    }))
}

/// `cuCtxGetCurrent(CUcontext *pctx)`: NULL when none.
///
/// # Safety
///
/// `pctx` must be NULL or writable.
pub unsafe fn ctx_get_current(pctx: *mut CUcontext) -> CUresult {
    let current = CURRENT.with(Cell::get) as CUcontext;
    // SAFETY: the caller's contract.
    code(initialized().and_then(|()| unsafe { put(pctx, current) }))
}

/// `cuCtxSetCurrent(CUcontext ctx)`: NULL unbinds.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn ctx_set_current(ctx: CUcontext) -> CUresult {
    code(initialized().and_then(|()| {
        if !ctx.is_null() && !state().context_alive(ctx as usize) {
            return Err(rc::INVALID_CONTEXT);
        }
        CURRENT.with(|c| c.set(ctx as usize));
        Ok(())
    }))
}

/// `cuCtxGetDevice(CUdevice *device)` (2.0): the device of the current context (the only device,
/// 0).
///
/// # Safety
///
/// `device` must be NULL or writable.
pub unsafe fn ctx_get_device(device: *mut CUdevice) -> CUresult {
    // SAFETY: the caller's contract.
    code(with_context().and_then(|_| unsafe { put(device, 0) }))
}

/// `cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)` (13.0): the device of `ctx`; NULL means
/// the current context.
///
/// # Safety
///
/// `device` must be NULL or writable.
pub unsafe fn ctx_get_device_v2(device: *mut CUdevice, ctx: CUcontext) -> CUresult {
    if ctx.is_null() {
        // SAFETY: the caller's contract.
        return unsafe { ctx_get_device(device) };
    }
    code(initialized().and_then(|()| {
        if !state().context_alive(ctx as usize) {
            return Err(rc::INVALID_CONTEXT);
        }
        // SAFETY: the caller's contract.
        unsafe { put(device, 0) }
    }))
}

/// `cuCtxSynchronize(void)` (2.0): the current context; nothing is ever pending.
///
/// # Safety
///
/// None.
pub unsafe fn ctx_synchronize() -> CUresult {
    code(with_context().map(drop))
}

/// `cuCtxSynchronize_v2(CUcontext ctx)` (13.0): NULL means the current context.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn ctx_synchronize_v2(ctx: CUcontext) -> CUresult {
    if ctx.is_null() {
        return code(with_context().map(drop));
    }
    code(initialized().and_then(|()| {
        if state().context_alive(ctx as usize) {
            Ok(())
        } else {
            Err(rc::INVALID_CONTEXT)
        }
    }))
}

/// `cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)`.
///
/// # Safety
///
/// `pctx` must be NULL or writable.
pub unsafe fn primary_ctx_retain(pctx: *mut CUcontext, dev: CUdevice) -> CUresult {
    code(initialized().and_then(|()| {
        if dev != 0 {
            return Err(rc::INVALID_DEVICE);
        }
        // SAFETY: the caller's contract.
        unsafe { put(pctx, PRIMARY_CTX as CUcontext) }?;
        state().primary_refs += 1;
        Ok(())
    }))
}

/// `cuDevicePrimaryCtxRelease(CUdevice dev)` (7.0) and `cuDevicePrimaryCtxRelease_v2` (11.0, same
/// signature).
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn primary_ctx_release(dev: CUdevice) -> CUresult {
    code(initialized().and_then(|()| {
        if dev != 0 {
            return Err(rc::INVALID_DEVICE);
        }
        let mut st = state();
        if st.primary_refs == 0 {
            return Err(rc::INVALID_CONTEXT);
        }
        st.primary_refs -= 1;
        Ok(())
    }))
}

fn mem_alloc(size: usize, limit: u64) -> Result<u64, CUresult> {
    with_context()?.alloc(size, limit)
}

/// `cuMemAlloc(CUdeviceptr_v1 *dptr, unsigned int bytesize)`: the CUDA 2.0 ABI, 32-bit pointer
/// and size.
///
/// # Safety
///
/// `dptr` must be NULL or writable.
pub unsafe fn mem_alloc_v1(dptr: *mut CUdeviceptrV1, bytesize: c_uint) -> CUresult {
    if dptr.is_null() {
        return rc::INVALID_VALUE;
    }
    code(mem_alloc(bytesize as usize, u64::from(u32::MAX)).map(|p| {
        // SAFETY: non-NULL, the caller promises it is writable; p fits (limit above).
        unsafe { dptr.write(p as CUdeviceptrV1) }
    }))
}

/// `cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)`.
///
/// # Safety
///
/// `dptr` must be NULL or writable.
pub unsafe fn mem_alloc_v2(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult {
    if dptr.is_null() {
        return rc::INVALID_VALUE;
    }
    // SAFETY: non-NULL, and the caller promises it is writable.
    code(mem_alloc(bytesize, u64::MAX).map(|p| unsafe { dptr.write(p) }))
}

/// `cuMemFree(CUdeviceptr_v1 dptr)`.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn mem_free_v1(dptr: CUdeviceptrV1) -> CUresult {
    // SAFETY: no pointer is dereferenced.
    unsafe { mem_free_v2(CUdeviceptr::from(dptr)) }
}

/// `cuMemFree_v2(CUdeviceptr dptr)`: `dptr` must be an allocation's base.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn mem_free_v2(dptr: CUdeviceptr) -> CUresult {
    match with_context() {
        Ok(mut st) => st.free(dptr),
        Err(e) => e,
    }
}

/// `cuMemcpyHtoD(CUdeviceptr_v1, const void *, unsigned int)`.
///
/// # Safety
///
/// `src` must be readable for `count` bytes.
pub unsafe fn memcpy_htod_v1(dst: CUdeviceptrV1, src: *const c_void, count: c_uint) -> CUresult {
    // SAFETY: the caller's contract.
    unsafe { memcpy_htod_v2(CUdeviceptr::from(dst), src, count as usize) }
}

/// `cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)` (and
/// `_v2_ptds`): copies into the host buffer behind the allocation.
///
/// # Safety
///
/// `src` must be readable for `count` bytes.
pub unsafe fn memcpy_htod_v2(dst: CUdeviceptr, src: *const c_void, count: usize) -> CUresult {
    let mut st = match with_context() {
        Ok(st) => st,
        Err(e) => return e,
    };
    if count == 0 {
        return rc::SUCCESS;
    }
    if src.is_null() {
        return rc::INVALID_VALUE;
    }
    let Some((buf, offset)) = st.find(dst, count) else {
        return rc::INVALID_VALUE;
    };
    // SAFETY: the caller promises `src` is readable for `count` bytes; `find` checked the
    // destination range lies in `buf`; a host pointer cannot alias the simulator's own buffer.
    unsafe {
        std::ptr::copy_nonoverlapping(src.cast::<u8>(), buf.as_mut_ptr().add(offset), count);
    }
    rc::SUCCESS
}

/// `cuMemcpyDtoH(void *, CUdeviceptr_v1, unsigned int)`.
///
/// # Safety
///
/// `dst` must be writable for `count` bytes.
pub unsafe fn memcpy_dtoh_v1(dst: *mut c_void, src: CUdeviceptrV1, count: c_uint) -> CUresult {
    // SAFETY: the caller's contract.
    unsafe { memcpy_dtoh_v2(dst, CUdeviceptr::from(src), count as usize) }
}

/// `cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)` (and `_v2_ptds`).
///
/// # Safety
///
/// `dst` must be writable for `count` bytes.
pub unsafe fn memcpy_dtoh_v2(dst: *mut c_void, src: CUdeviceptr, count: usize) -> CUresult {
    let mut st = match with_context() {
        Ok(st) => st,
        Err(e) => return e,
    };
    if count == 0 {
        return rc::SUCCESS;
    }
    if dst.is_null() {
        return rc::INVALID_VALUE;
    }
    let Some((buf, offset)) = st.find(src, count) else {
        return rc::INVALID_VALUE;
    };
    // SAFETY: `find` checked the source range; the caller promises `dst` is writable for `count`
    // bytes and it cannot alias the simulator's own buffer.
    unsafe { std::ptr::copy_nonoverlapping(buf.as_ptr().add(offset), dst.cast::<u8>(), count) };
    rc::SUCCESS
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
pub unsafe fn module_load_data(module: *mut CUmodule, image: *const c_void) -> CUresult {
    let mut st = match with_context() {
        Ok(st) => st,
        Err(e) => return e,
    };
    if module.is_null() || image.is_null() {
        return rc::INVALID_VALUE;
    }
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
    rc::SUCCESS
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
) -> CUresult {
    let mut st = match with_context() {
        Ok(st) => st,
        Err(e) => return e,
    };
    if hfunc.is_null() || name.is_null() {
        return rc::INVALID_VALUE;
    }
    // SAFETY: non-NULL, and the caller promises a NUL-terminated string.
    let name = unsafe { CStr::from_ptr(name) }
        .to_string_lossy()
        .into_owned();
    let Some(module) = st.modules.get(&(hmod as usize)) else {
        return rc::INVALID_HANDLE;
    };
    if module
        .ptx
        .as_deref()
        .is_some_and(|ptx| !ptx_declares(ptx, &name))
    {
        return rc::NOT_FOUND;
    }
    let handle = st.handle();
    st.functions.insert(handle, (hmod as usize, name));
    // SAFETY: non-NULL, and the caller promises it is writable.
    unsafe { hfunc.write(handle as CUfunction) };
    rc::SUCCESS
}

/// `cuModuleUnload(CUmodule hmod)`: its functions become invalid.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn module_unload(hmod: CUmodule) -> CUresult {
    let mut st = match with_context() {
        Ok(st) => st,
        Err(e) => return e,
    };
    let hmod = hmod as usize;
    if st.modules.remove(&hmod).is_none() {
        return rc::INVALID_HANDLE;
    }
    st.functions.retain(|_, (m, _)| *m != hmod);
    rc::SUCCESS
}

/// `cuStreamSynchronize(CUstream)` (and `_ptsz`): launches are synchronous, nothing to wait for.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn stream_synchronize(stream: CUstream) -> CUresult {
    code(with_context().and_then(|_| valid_stream(stream)))
}

/// `cuStreamBeginCapture(CUstream)` (10.0, and `_ptsz`): the only streams are the special ones,
/// which cannot be captured (cuda.h: STREAM_CAPTURE_UNSUPPORTED for CU_STREAM_LEGACY).
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn stream_begin_capture(stream: CUstream) -> CUresult {
    // SAFETY: no pointer is dereferenced.
    unsafe { stream_begin_capture_v2(stream, 0) }
}

/// `cuStreamBeginCapture_v2(CUstream, CUstreamCaptureMode)` (10.1, and `_v2_ptsz`).
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn stream_begin_capture_v2(stream: CUstream, mode: c_int) -> CUresult {
    code(with_context().and_then(|_| {
        if !(0..=2).contains(&mode) {
            return Err(rc::INVALID_VALUE);
        }
        valid_stream(stream)?;
        Err(rc::STREAM_CAPTURE_UNSUPPORTED)
    }))
}

/// The part of a kernel the simulator can run on the host: `vector_add(const float *a,
/// const float *b, float *c, int n)` computes `c[i] = a[i] + b[i]` for `i < n` (and `i` below the
/// launch's thread count in x), as host arithmetic over the buffers behind the allocations.
fn vector_add(st: &mut State, params: *mut *mut c_void, threads: u64) -> Result<(), CUresult> {
    if params.is_null() {
        return Err(rc::INVALID_VALUE);
    }
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
    let read = |st: &mut State, ptr| -> Result<Vec<f32>, CUresult> {
        let (buf, offset) = st.find(ptr, bytes).ok_or(rc::ILLEGAL_ADDRESS)?;
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
    let (out, offset) = st.find(arg[2], bytes).ok_or(rc::ILLEGAL_ADDRESS)?;
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
) -> CUresult {
    let mut st = match with_context() {
        Ok(st) => st,
        Err(e) => return e,
    };
    let Some((_, name)) = st.functions.get(&(f as usize)) else {
        return rc::INVALID_HANDLE;
    };
    let name = name.clone();
    if [grid_x, grid_y, grid_z, block_x, block_y, block_z].contains(&0)
        || (!kernel_params.is_null() && !extra.is_null())
    {
        return rc::INVALID_VALUE;
    }
    if let Err(e) = valid_stream(stream) {
        return e;
    }
    if name == "vector_add" {
        let threads = u64::from(grid_x) * u64::from(block_x);
        return code(vector_add(&mut st, kernel_params, threads));
    }
    rc::SUCCESS
}
