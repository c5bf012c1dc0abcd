//! Streams, events and pending work: what code that polls the driver sees.
//!
//! Work is pending after a kernel launch on a stream (until that stream, or the context, is
//! synchronised) and after an event is recorded (until it is synchronised): the next
//! [`pending_queries`] queries of it answer
//! `CUDA_ERROR_NOT_READY` (600), then success, as a real stream's work finishes some time after
//! the launch. The kernels themselves still run at once, on the host (`api::launch_kernel`).

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::c_uint;
use std::sync::{Mutex, MutexGuard};

use super::api::current_context;
use super::inject::pending_queries;
use super::{CUevent, CUstream, SimError, SimResult};

/// Where stream and event handles start.
const FIRST_HANDLE: usize = 0x7c7d_0000_0000;

#[derive(Debug)]
struct Work {
    next: usize,
    streams: BTreeSet<usize>,
    events: BTreeSet<usize>,
    /// Stream or event handle -> the queries left that answer NOT_READY.
    pending: BTreeMap<usize, u32>,
}

static WORK: Mutex<Work> = Mutex::new(Work {
    next: FIRST_HANDLE,
    streams: BTreeSet::new(),
    events: BTreeSet::new(),
    pending: BTreeMap::new(),
});

fn work() -> MutexGuard<'static, Work> {
    WORK.lock().unwrap_or_else(|e| e.into_inner())
}

impl Work {
    fn handle(&mut self) -> usize {
        let h = self.next;
        self.next += 0x100;
        h
    }

    /// One query of `handle`: NOT_READY while work is pending.
    fn query(&mut self, handle: usize) -> SimResult {
        match self.pending.get_mut(&handle) {
            Some(left) if *left > 0 => {
                *left -= 1;
                Err(SimError::NotReady)
            }
            _ => Ok(()),
        }
    }
}

/// Whether `stream` names a stream: NULL, `CU_STREAM_LEGACY` (1), `CU_STREAM_PER_THREAD` (2) or
/// one created and not destroyed.
pub fn valid_stream(stream: CUstream) -> SimResult {
    let stream = stream as usize;
    if stream <= 2 || work().streams.contains(&stream) {
        Ok(())
    } else {
        Err(SimError::InvalidHandle)
    }
}

/// Work was launched on `stream`: it is pending.
pub fn launched(stream: CUstream) {
    let pending = pending_queries();
    work().pending.insert(stream as usize, pending);
}

/// `stream`'s work is done (`cuStreamSynchronize`).
pub fn synchronized(stream: CUstream) {
    work().pending.remove(&(stream as usize));
}

/// All work is done (`cuCtxSynchronize`).
pub fn synchronized_all() {
    work().pending.clear();
}

/// `cuStreamCreate(CUstream *phStream, unsigned int Flags)`.
///
/// # Safety
/// `stream` must be NULL or writable.
pub unsafe fn stream_create(stream: *mut CUstream, _flags: c_uint) -> SimResult {
    current_context()?;
    if stream.is_null() {
        return Err(SimError::InvalidValue);
    }
    let mut work = work();
    let handle = work.handle();
    work.streams.insert(handle);
    // SAFETY: non-NULL, and the caller promises it is writable.
    unsafe { stream.write(handle as CUstream) };
    Ok(())
}

/// `cuStreamDestroy(CUstream)` and `cuStreamDestroy_v2`.
///
/// # Safety
/// None beyond the C signature.
pub unsafe fn stream_destroy(stream: CUstream) -> SimResult {
    current_context()?;
    let mut work = work();
    if !work.streams.remove(&(stream as usize)) {
        return Err(SimError::InvalidHandle);
    }
    work.pending.remove(&(stream as usize));
    Ok(())
}

/// `cuStreamQuery(CUstream)` (and `_ptsz`): NOT_READY while work launched on it is pending.
///
/// # Safety
/// None beyond the C signature.
pub unsafe fn stream_query(stream: CUstream) -> SimResult {
    current_context()?;
    valid_stream(stream)?;
    work().query(stream as usize)
}

/// `cuEventCreate(CUevent *phEvent, unsigned int Flags)`.
///
/// # Safety
/// `event` must be NULL or writable.
pub unsafe fn event_create(event: *mut CUevent, _flags: c_uint) -> SimResult {
    current_context()?;
    if event.is_null() {
        return Err(SimError::InvalidValue);
    }
    let mut work = work();
    let handle = work.handle();
    work.events.insert(handle);
    // SAFETY: non-NULL, and the caller promises it is writable.
    unsafe { event.write(handle as CUevent) };
    Ok(())
}

fn valid_event(work: &Work, event: CUevent) -> SimResult {
    if work.events.contains(&(event as usize)) {
        Ok(())
    } else {
        Err(SimError::InvalidHandle)
    }
}

/// `cuEventDestroy(CUevent)` and `cuEventDestroy_v2`.
///
/// # Safety
/// None beyond the C signature.
pub unsafe fn event_destroy(event: CUevent) -> SimResult {
    current_context()?;
    let mut work = work();
    valid_event(&work, event)?;
    work.events.remove(&(event as usize));
    work.pending.remove(&(event as usize));
    Ok(())
}

/// `cuEventRecord(CUevent, CUstream)` (and `_ptsz`): the event is pending.
///
/// # Safety
/// None beyond the C signature.
pub unsafe fn event_record(event: CUevent, stream: CUstream) -> SimResult {
    current_context()?;
    valid_stream(stream)?;
    let pending = pending_queries();
    let mut work = work();
    valid_event(&work, event)?;
    work.pending.insert(event as usize, pending);
    Ok(())
}

/// `cuEventQuery(CUevent)`: NOT_READY while the recorded work is pending.
///
/// # Safety
/// None beyond the C signature.
pub unsafe fn event_query(event: CUevent) -> SimResult {
    current_context()?;
    let mut work = work();
    valid_event(&work, event)?;
    work.query(event as usize)
}

/// `cuEventSynchronize(CUevent)`: the recorded work is done.
///
/// # Safety
/// None beyond the C signature.
pub unsafe fn event_synchronize(event: CUevent) -> SimResult {
    current_context()?;
    let mut work = work();
    valid_event(&work, event)?;
    work.pending.remove(&(event as usize));
    Ok(())
}
