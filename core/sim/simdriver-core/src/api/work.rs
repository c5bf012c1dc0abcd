//! Streams, events and pending work: what code that polls the driver sees.
//!
//! Work is pending after a kernel launch on a stream (until that stream, or the context, is
//! synchronised) and after an event is recorded (until it is synchronised): the next
//! [`pending_queries`] queries of it answer
//! `CUDA_ERROR_NOT_READY` (600), then success, as a real stream's work finishes some time after
//! the launch. The kernels themselves still run at once, on the host (`api::launch_kernel`), as
//! do asynchronous copies, memsets, allocations and frees (`api::memory`), which leave their stream
//! pending the same way.
//!
//! Event timing: `cuEventRecord` notes the host time of the call; `cuEventElapsedTime` answers the
//! host time between two records in milliseconds. All work is done at its call, in call order, so
//! this is the time the caller spent between the two records (including the simulated work),
//! non-negative when the start was recorded first.

use std::collections::BTreeMap;
use std::ffi::{c_float, c_int, c_uint};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use super::{clamp_priority, current_context};
use crate::inject::pending_queries;
use crate::{CUevent, CUstream, SimError, SimResult};

/// `CU_STREAM_NON_BLOCKING`, the one flag cuda.h defines for streams besides `CU_STREAM_DEFAULT`.
const STREAM_FLAGS: c_uint = 0x1;
/// `CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS`.
const EVENT_FLAGS: c_uint = 0x7;
/// `CU_EVENT_DISABLE_TIMING`.
const EVENT_DISABLE_TIMING: c_uint = 0x2;
/// `CU_EVENT_INTERPROCESS`: needs `CU_EVENT_DISABLE_TIMING` too.
const EVENT_INTERPROCESS: c_uint = 0x4;
/// `CU_EVENT_RECORD_EXTERNAL`, the one flag of `cuEventRecordWithFlags`.
const EVENT_RECORD_FLAGS: c_uint = 0x1;
/// `CU_EVENT_WAIT_EXTERNAL`, the one flag of `cuStreamWaitEvent`.
const EVENT_WAIT_FLAGS: c_uint = 0x1;

/// A created stream.
#[derive(Clone, Copy, Debug)]
struct Stream {
    flags: c_uint,
    priority: c_int,
}

/// A created event.
#[derive(Clone, Copy, Debug)]
struct Event {
    flags: c_uint,
    /// When it was last recorded (host time), if ever.
    recorded: Option<Instant>,
}

/// Where stream and event handles start.
const FIRST_HANDLE: usize = 0x7c7d_0000_0000;

#[derive(Debug)]
struct Work {
    next: usize,
    streams: BTreeMap<usize, Stream>,
    events: BTreeMap<usize, Event>,
    /// Stream or event handle -> the queries left that answer NOT_READY.
    pending: BTreeMap<usize, u32>,
}

static WORK: Mutex<Work> = Mutex::new(Work {
    next: FIRST_HANDLE,
    streams: BTreeMap::new(),
    events: BTreeMap::new(),
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
    if stream <= 2 || work().streams.contains_key(&stream) {
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

/// `cuStreamCreate(CUstream *phStream, unsigned int Flags)`: `Flags` is `CU_STREAM_DEFAULT` (0)
/// or `CU_STREAM_NON_BLOCKING` (1).
///
/// # Safety
/// `stream` must be NULL or writable.
pub unsafe fn stream_create(stream: *mut CUstream, flags: c_uint) -> SimResult {
    // SAFETY: the caller's contract.
    unsafe { stream_create_with_priority(stream, flags, 0) }
}

/// `cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)` (5.5): a
/// priority outside `cuCtxGetStreamPriorityRange` (0 to -5) is clamped to it, as cuda.h says.
///
/// # Safety
/// `stream` must be NULL or writable.
pub unsafe fn stream_create_with_priority(
    stream: *mut CUstream,
    flags: c_uint,
    priority: c_int,
) -> SimResult {
    current_context()?;
    if stream.is_null() || flags & !STREAM_FLAGS != 0 {
        return Err(SimError::InvalidValue);
    }
    let mut work = work();
    let handle = work.handle();
    let priority = clamp_priority(priority);
    work.streams.insert(handle, Stream { flags, priority });
    // SAFETY: non-NULL, and the caller promises it is writable.
    unsafe { stream.write(handle as CUstream) };
    Ok(())
}

/// A stream's (flags, priority): the special streams (NULL, legacy, per-thread) have (0, 0).
fn stream_info(stream: CUstream) -> SimResult<Stream> {
    current_context()?;
    valid_stream(stream)?;
    Ok(work()
        .streams
        .get(&(stream as usize))
        .copied()
        .unwrap_or(Stream {
            flags: 0,
            priority: 0,
        }))
}

/// `cuStreamGetPriority(CUstream hStream, int *priority)` (5.5, and `_ptsz`).
///
/// # Safety
/// `priority` must be NULL or writable.
pub unsafe fn stream_get_priority(stream: CUstream, priority: *mut c_int) -> SimResult {
    let info = stream_info(stream)?;
    if priority.is_null() {
        return Err(SimError::InvalidValue);
    }
    // SAFETY: non-NULL, and the caller promises it is writable.
    unsafe { priority.write(info.priority) };
    Ok(())
}

/// `cuStreamGetFlags(CUstream hStream, unsigned int *flags)` (5.5, and `_ptsz`).
///
/// # Safety
/// `flags` must be NULL or writable.
pub unsafe fn stream_get_flags(stream: CUstream, flags: *mut c_uint) -> SimResult {
    let info = stream_info(stream)?;
    if flags.is_null() {
        return Err(SimError::InvalidValue);
    }
    // SAFETY: non-NULL, and the caller promises it is writable.
    unsafe { flags.write(info.flags) };
    Ok(())
}

/// `cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)` (and `_ptsz`): the
/// recorded work is already done (work runs at its call), so the stream has nothing to wait for;
/// the handles and the flags (0 or `CU_EVENT_WAIT_EXTERNAL`) are checked.
///
/// # Safety
/// None beyond the C signature.
pub unsafe fn stream_wait_event(stream: CUstream, event: CUevent, flags: c_uint) -> SimResult {
    current_context()?;
    valid_stream(stream)?;
    valid_event(&work(), event)?;
    if flags & !EVENT_WAIT_FLAGS != 0 {
        return Err(SimError::InvalidValue);
    }
    Ok(())
}

/// `cuStreamDestroy(CUstream)` and `cuStreamDestroy_v2`.
///
/// # Safety
/// None beyond the C signature.
pub unsafe fn stream_destroy(stream: CUstream) -> SimResult {
    current_context()?;
    let mut work = work();
    if work.streams.remove(&(stream as usize)).is_none() {
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

/// `cuEventCreate(CUevent *phEvent, unsigned int Flags)`: `Flags` a combination of
/// `CU_EVENT_BLOCKING_SYNC`, `CU_EVENT_DISABLE_TIMING` and `CU_EVENT_INTERPROCESS` (which needs
/// `DISABLE_TIMING`); anything else answers 1.
///
/// # Safety
/// `event` must be NULL or writable.
pub unsafe fn event_create(event: *mut CUevent, flags: c_uint) -> SimResult {
    current_context()?;
    if event.is_null()
        || flags & !EVENT_FLAGS != 0
        || (flags & EVENT_INTERPROCESS != 0 && flags & EVENT_DISABLE_TIMING == 0)
    {
        return Err(SimError::InvalidValue);
    }
    let mut work = work();
    let handle = work.handle();
    work.events.insert(
        handle,
        Event {
            flags,
            recorded: None,
        },
    );
    // SAFETY: non-NULL, and the caller promises it is writable.
    unsafe { event.write(handle as CUevent) };
    Ok(())
}

fn valid_event(work: &Work, event: CUevent) -> SimResult<Event> {
    work.events
        .get(&(event as usize))
        .copied()
        .ok_or(SimError::InvalidHandle)
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

/// `cuEventRecord(CUevent, CUstream)` (and `_ptsz`): the event is pending, and notes the time.
///
/// # Safety
/// None beyond the C signature.
pub unsafe fn event_record(event: CUevent, stream: CUstream) -> SimResult {
    // SAFETY: no pointer is dereferenced.
    unsafe { event_record_with_flags(event, stream, 0) }
}

/// `cuEventRecordWithFlags(CUevent, CUstream, unsigned int flags)` (11.1, and `_ptsz`): as
/// `cuEventRecord`; `flags` is 0 or `CU_EVENT_RECORD_EXTERNAL`.
///
/// # Safety
/// None beyond the C signature.
pub unsafe fn event_record_with_flags(
    event: CUevent,
    stream: CUstream,
    flags: c_uint,
) -> SimResult {
    current_context()?;
    valid_stream(stream)?;
    let pending = pending_queries();
    let mut work = work();
    valid_event(&work, event)?;
    if flags & !EVENT_RECORD_FLAGS != 0 {
        return Err(SimError::InvalidValue);
    }
    work.pending.insert(event as usize, pending);
    if let Some(e) = work.events.get_mut(&(event as usize)) {
        e.recorded = Some(Instant::now());
    }
    Ok(())
}

/// `cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)` (2.0) and
/// `cuEventElapsedTime_v2` (12.8, same signature): the host time between the two records, in
/// milliseconds (see the module's documentation). As cuda.h says: 400 (INVALID_HANDLE) when either
/// event was created with `CU_EVENT_DISABLE_TIMING` or never recorded, 600 (NOT_READY) while
/// either is pending.
///
/// # Safety
/// `ms` must be NULL or writable.
pub unsafe fn event_elapsed_time(ms: *mut c_float, start: CUevent, end: CUevent) -> SimResult {
    current_context()?;
    if ms.is_null() {
        return Err(SimError::InvalidValue);
    }
    let work = work();
    let (s, e) = (valid_event(&work, start)?, valid_event(&work, end)?);
    let timed = |e: Event| match e.recorded {
        Some(at) if e.flags & EVENT_DISABLE_TIMING == 0 => Ok(at),
        _ => Err(SimError::InvalidHandle),
    };
    let (from, to) = (timed(s)?, timed(e)?);
    let pending = |h: CUevent| work.pending.get(&(h as usize)).is_some_and(|&n| n > 0);
    if pending(start) || pending(end) {
        return Err(SimError::NotReady);
    }
    let millis = if to >= from {
        to.duration_since(from).as_secs_f64() * 1e3
    } else {
        -(from.duration_since(to).as_secs_f64() * 1e3)
    };
    // SAFETY: non-NULL, and the caller promises it is writable.
    unsafe { ms.write(millis as c_float) };
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
