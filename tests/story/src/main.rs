//! A program using cudarc's safe API as an application does: a context, streams, memory, events,
//! pinned host memory, device queries and a context of its own (`cuCtxCreate_v4` with cudarc's
//! `cuda-12090` bindings, which drivers before CUDA 12.5 lack). Each step runs on its own and
//! prints one line: `ok STEP: what it gave`, `error STEP: the driver's status`, or
//! `panic STEP: the message` (cudarc as published panics where the driver lacks an export).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::ExitCode;
use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaStream, DriverError, sys};

type Step<T> = Result<T, DriverError>;

/// Runs one step and prints its outcome; `None` when it failed.
fn step<T>(name: &str, body: impl FnOnce() -> Step<(T, String)>) -> Option<T> {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok((value, said))) => {
            println!("ok {name}: {said}");
            Some(value)
        }
        Ok(Err(e)) => {
            let text = e.error_string().map_or_else(
                |_| "(no error string)".to_owned(),
                |s| s.to_string_lossy().into_owned(),
            );
            println!("error {name}: {:?} ({text})", e.0);
            None
        }
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("(not a string)");
            println!("panic {name}: {message}");
            None
        }
    }
}

fn main() -> ExitCode {
    // The panic is printed by `step`, once.
    std::panic::set_hook(Box::new(|_| {}));
    #[cfg(feature = "migrated")]
    {
        let needs = cuda_entry::requirements();
        println!(
            "requirements: {} entries required (minimum driver {}), {} optional",
            needs.entries.len(),
            needs.minimum_driver,
            needs.optional.len()
        );
        match cuda_entry::preload_all() {
            Ok(()) => println!("ok preload_all"),
            Err(e) => println!("error preload_all: {e}"),
        }
    }
    let Some(ctx) = step("context", || {
        let ctx = CudaContext::new(0)?;
        let said = format!("{} ({} MiB)", ctx.name()?, ctx.total_mem()? >> 20);
        Ok((ctx, said))
    }) else {
        return ExitCode::FAILURE;
    };
    let attributes = step("attribute", || {
        let major =
            ctx.attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?;
        let sms =
            ctx.attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?;
        Ok((
            (),
            format!("compute capability {major}.x, {sms} multiprocessors"),
        ))
    });
    let queries = step("device queries", || {
        let count = CudaContext::device_count()?;
        let (free, total) = ctx.mem_get_info()?;
        let (major, minor) = ctx.compute_capability()?;
        let uuid = ctx.uuid()?;
        let (least, greatest) = cudarc::driver::result::stream::get_priority_range()?;
        let plausible = count >= 1 && free <= total && major > 0 && greatest <= least;
        let said = format!(
            "{count} device, {free} of {total} bytes free, sm_{major}{minor}, uuid {:02x?}, \
             stream priorities {least} to {greatest}, plausible: {plausible}",
            &uuid.bytes[..4]
        );
        Ok(((), said))
    });
    let stream = ctx.default_stream();
    let memory = step("memory", || round_trip(&stream));
    let second = step("second stream", || {
        let other = ctx.new_stream()?;
        other.join(&stream)?;
        let (_, said) = round_trip(&other)?;
        stream.join(&other)?;
        Ok(((), said))
    });
    let priority = step("stream with priority", || {
        let (_, greatest) = cudarc::driver::result::stream::get_priority_range()?;
        let fast = ctx.new_stream_with_priority(greatest)?;
        let (_, said) = round_trip(&fast)?;
        Ok(((), said))
    });
    let view = step("sub-view copy", || {
        let mut device = stream.alloc_zeros::<u32>(64)?;
        let values: Vec<u32> = (100..116).collect();
        let mut middle = device.slice_mut(16..32);
        stream.memcpy_htod(&values, &mut middle)?;
        let back = stream.clone_dtoh(&device)?;
        let placed =
            back[16..32] == values[..] && back[..16].iter().chain(&back[32..]).all(|v| *v == 0);
        Ok((
            (),
            format!("16 values into the middle of 64, in place: {placed}"),
        ))
    });
    let errors = step("errors", || {
        let message = match CudaContext::new(7) {
            Err(e) => format!("device 7: {e}"),
            Ok(_) => "device 7: a context (false)".to_owned(),
        };
        let name = DriverError(sys::CUresult::CUDA_ERROR_INVALID_VALUE).error_name()?;
        Ok(((), format!("{message}; 1 is {}", name.to_string_lossy())))
    });
    let events = step("events", || {
        let start = stream.record_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))?;
        let data = stream.clone_htod(&[7u8; 4096])?;
        let end = stream.record_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))?;
        let ms = start.elapsed_ms(&end)?;
        drop(data);
        Ok(((), format!("elapsed {ms} ms, not negative: {}", ms >= 0.0)))
    });
    let pinned = step("pinned", || {
        // SAFETY: every element is written before it is read.
        let mut host = unsafe { ctx.alloc_pinned::<u32>(256) }?;
        host.as_mut_slice()?
            .iter_mut()
            .enumerate()
            .for_each(|(i, v)| *v = i as u32);
        let device = stream.clone_htod(&host)?;
        let back = stream.clone_dtoh(&device)?;
        let same = back.iter().enumerate().all(|(i, v)| *v == i as u32);
        Ok((
            (),
            format!("256 values through pinned memory, equal: {same}"),
        ))
    });
    // The API of CUDA 12.5 in cudarc's 12.9 bindings: `cuCtxCreate_v4`.
    let own = step("own context", || {
        let own = CudaContext::new_non_primary(0, 0)?;
        Ok(((), format!("created, primary: {}", own.is_primary())))
    });
    let _ = own;
    let all = [
        attributes, queries, memory, second, priority, view, events, pinned, errors,
    ];
    if all.iter().all(Option::is_some) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Zeroes, fills, copies back and clears a buffer on `stream`.
fn round_trip(stream: &Arc<CudaStream>) -> Step<((), String)> {
    let mut device = stream.alloc_zeros::<u32>(1024)?;
    let zeros = stream.clone_dtoh(&device)?;
    let values: Vec<u32> = (0..1024).collect();
    stream.memcpy_htod(&values, &mut device)?;
    let copy = stream.clone_dtod(&device)?;
    let back = stream.clone_dtoh(&copy)?;
    stream.memset_zeros(&mut device)?;
    let cleared = stream.clone_dtoh(&device)?;
    let ok = zeros.iter().all(|v| *v == 0) && back == values && cleared.iter().all(|v| *v == 0);
    Ok((
        (),
        format!("1024 values zeroed, copied both ways and cleared, equal: {ok}"),
    ))
}
