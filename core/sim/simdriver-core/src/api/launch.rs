//! Streams and kernel launches: launches run at once, on the host.

use std::ffi::{c_int, c_uint, c_void};

use super::{State, current_context, non_null, valid_stream, with_context};
use crate::{CUdeviceptr, CUfunction, CUstream, SimError, SimResult};

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
