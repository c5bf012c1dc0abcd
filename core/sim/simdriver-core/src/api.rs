//! The simulated driver API: one device, fake handles, device memory backed by host buffers.
//!
//! Behaviour follows the CUDA documentation where it matters to a caller: calls other than
//! `cuDriverGetVersion`/`cuGetProcAddress*` need `cuInit(0)` first (3, NOT_INITIALIZED), memory,
//! module and launch calls need a current context on the calling thread (201, INVALID_CONTEXT),
//! and a kernel launch is synchronous host arithmetic (there is no GPU).
//!
//! Every function returns a [`SimResult`]: `Err` returns its code with nothing written. The
//! export (`exports::answer`) turns it into the `CUresult`.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{c_char, c_int, c_uint};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

use super::config::{self, Mode};
use super::{CUcontext, CUdevice, CUstream, CUuuid, SimError, SimResult};

mod context;
mod device;
mod host;
mod launch;
mod memory;
mod module;
mod pool;
pub mod work;

pub use context::{
    ctx_create, ctx_create_v3, ctx_create_v4, ctx_destroy, ctx_get_current, ctx_get_device,
    ctx_get_device_v2, ctx_get_flags, ctx_pop_current, ctx_push_current, ctx_set_current,
    ctx_set_flags, ctx_synchronize, ctx_synchronize_v2, primary_ctx_release, primary_ctx_retain,
    primary_ctx_set_flags,
};
pub(crate) use device::clamp_priority;
pub use device::{
    ctx_get_stream_priority_range, device_compute_capability, device_get_attribute,
    device_get_name, device_get_pci_bus_id, device_total_mem, get_error_name, get_error_string,
    mem_get_info, primary_ctx_get_state,
};
pub use host::{
    mem_alloc_host, mem_free_host, mem_host_alloc, mem_host_get_device_pointer, mem_host_register,
    mem_host_unregister,
};
pub use launch::{
    launch_kernel, stream_begin_capture, stream_begin_capture_v2, stream_synchronize,
};
pub use memory::{
    mem_alloc_async, mem_alloc_v1, mem_alloc_v2, mem_free_async, mem_free_v1, mem_free_v2, memcpy,
    memcpy_async, memcpy_dtod, memcpy_dtod_async, memcpy_dtoh_async, memcpy_dtoh_v1,
    memcpy_dtoh_v2, memcpy_htod_async, memcpy_htod_v1, memcpy_htod_v2, memset_d8, memset_d8_async,
    memset_d16, memset_d16_async, memset_d32, memset_d32_async,
};
pub use module::{module_get_function, module_load_data, module_unload};
pub use pool::{
    device_get_default_mem_pool, device_get_mem_pool, mem_alloc_from_pool_async,
    mem_pool_get_attribute, mem_pool_set_attribute, mem_pool_trim_to,
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
    /// The calling thread's current context (0: none), as the driver keeps one per thread: the
    /// top of its context stack.
    static CURRENT: Cell<usize> = const { Cell::new(0) };
    /// The rest of the calling thread's context stack, bottom first (`cuCtxPushCurrent` pushes the
    /// current context here; never holds 0).
    static BELOW: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

/// A page-locked host allocation (`cuMemHostAlloc`, `cuMemAllocHost`) or a registered host range
/// (`cuMemHostRegister`).
#[derive(Debug)]
struct HostRange {
    len: usize,
    /// The layout it was allocated with; `None` for a registered range (the caller's memory).
    layout: Option<std::alloc::Layout>,
}

/// The device's one memory pool (`cuDeviceGetDefaultMemPool`).
#[derive(Debug)]
struct Pool {
    /// `CU_MEMPOOL_ATTR_REUSE_*` (1-3), as set (all enabled by default).
    reuse: [c_int; 3],
    /// `CU_MEMPOOL_ATTR_RELEASE_THRESHOLD` (4).
    release_threshold: u64,
    /// Bytes allocated from the pool and not freed (`CU_MEMPOOL_ATTR_USED_MEM_CURRENT`, and
    /// `RESERVED_MEM_CURRENT`: the simulator keeps nothing in reserve).
    used: u64,
    /// The high-water marks of `RESERVED_MEM_HIGH` and `USED_MEM_HIGH` (both reset by a 0 set).
    reserved_high: u64,
    used_high: u64,
    /// The allocations made from the pool: base -> size.
    allocations: BTreeMap<u64, u64>,
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
    /// The flags of each created context (`cuCtxCreate`, `cuCtxSetFlags`).
    ctx_flags: BTreeMap<usize, c_uint>,
    primary_refs: u32,
    /// The primary context's flags (`cuDevicePrimaryCtxSetFlags`, `cuCtxSetFlags`).
    primary_flags: c_uint,
    /// Page-locked and registered host memory: base address -> range.
    host: BTreeMap<usize, HostRange>,
    pool: Pool,
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
    ctx_flags: BTreeMap::new(),
    primary_refs: 0,
    primary_flags: 0,
    host: BTreeMap::new(),
    pool: Pool {
        reuse: [1; 3],
        release_threshold: 0,
        used: 0,
        reserved_high: 0,
        used_high: 0,
        allocations: BTreeMap::new(),
    },
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
        if let Some(size) = self.pool.allocations.remove(&ptr) {
            self.pool.used -= size;
        }
        Ok(())
    }

    /// Where `[ptr, ptr + len)` lives, for a copy or a memset: in a device allocation, or in
    /// page-locked or registered host memory, whose device address is its host address (unified
    /// addressing, `cuMemHostGetDevicePointer`). `None` when neither holds the whole range.
    fn region(&mut self, ptr: u64, len: usize) -> Option<*mut u8> {
        if let Some((buf, offset)) = self.find(ptr, len) {
            // SAFETY: `find` checked `offset + len <= buf.len()`.
            return Some(unsafe { buf.as_mut_ptr().add(offset) });
        }
        let addr = usize::try_from(ptr).ok()?;
        let (&base, range) = self.host.range(..=addr).next_back()?;
        (addr - base)
            .checked_add(len)
            .filter(|&end| end <= range.len)?;
        Some(addr as *mut u8)
    }

    /// Whether `ptr` lies where the simulator hands out device pointers (allocated or not): such
    /// a pointer is never taken for a host pointer.
    fn in_device_window(&self, ptr: u64) -> bool {
        (FIRST_DPTR..self.next_dptr).contains(&ptr)
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
    work::valid_stream(stream)
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
