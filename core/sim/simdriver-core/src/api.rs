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
use std::ffi::{c_char, c_int, c_uint};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

use super::config::{self, Mode};
use super::{CUcontext, CUdevice, CUstream, CUuuid, SimError, SimResult};

mod context;
mod launch;
mod memory;
mod module;

pub use context::{
    ctx_create, ctx_create_v3, ctx_create_v4, ctx_destroy, ctx_get_current, ctx_get_device,
    ctx_get_device_v2, ctx_set_current, ctx_synchronize, ctx_synchronize_v2, primary_ctx_release,
    primary_ctx_retain,
};
pub use launch::{
    launch_kernel, stream_begin_capture, stream_begin_capture_v2, stream_synchronize,
};
pub use memory::{
    mem_alloc_v1, mem_alloc_v2, mem_free_v1, mem_free_v2, memcpy_dtoh_v1, memcpy_dtoh_v2,
    memcpy_htod_v1, memcpy_htod_v2,
};
pub use module::{module_get_function, module_load_data, module_unload};

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
