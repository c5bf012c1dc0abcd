//! The simulated API beyond `cuGetProcAddress*`, in-process through the rlib: device queries
//! against every row of tests/ground-truth/device-0.tsv, error names and strings, the context
//! stack, streams, timed events, asynchronous allocation, memsets and copies in every direction
//! with their data checked, pinned host memory, the memory pool, and the errors bad handles and
//! NULL pointers answer.

use std::ffi::{CStr, c_char, c_int, c_void};
use std::sync::Mutex;

use cuda_entry_simdriver as sim;
use sim::{CUcontext, CUdeviceptr, CUevent, CUstream, Config, Mode};

/// Tests of one binary share the simulator's global state and configuration.
static LOCK: Mutex<()> = Mutex::new(());

/// Takes the lock, configures `normal` mode with one pending query and makes a fresh context
/// current on this thread (each test runs on its own thread: its context stack is its own).
fn setup() -> (std::sync::MutexGuard<'static, ()>, CUcontext) {
    let guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    sim::set_config(Config {
        version: 13000,
        mode: Mode::Normal,
    });
    sim::shared::inject::configure(Some(""), Some("1")).expect("valid");
    let mut ctx = std::ptr::null_mut();
    // SAFETY: plain calls with writable outputs.
    unsafe {
        assert_eq!(sim::cuInit(0), 0);
        assert_eq!(sim::cuCtxCreate_v2(&mut ctx, 0, 0), 0);
    }
    (guard, ctx)
}

fn teardown(ctx: CUcontext) {
    // SAFETY: a context `setup` created.
    assert_eq!(unsafe { sim::cuCtxDestroy_v2(ctx) }, 0);
}

/// The rows of tests/ground-truth/device-0.tsv: (query, argument, status, value).
fn ground_truth() -> Vec<(String, String, i32, String)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../tests/ground-truth/device-0.tsv"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("query\t"))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert!(f.len() >= 4, "{l:?}");
            let status = f[2].parse().expect("a status");
            (f[0].to_owned(), f[1].to_owned(), status, f[3].to_owned())
        })
        .collect()
}

fn text(buf: &[c_char]) -> String {
    // SAFETY: the simulator NUL-terminated it within the buffer.
    unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}

#[test]
fn device_queries_answer_every_recorded_row() {
    let (_g, ctx) = setup();
    let rows = ground_truth();
    let mut attributes = 0;
    for (query, argument, status, value) in &rows {
        // SAFETY: writable outputs of the sizes the C signatures name.
        unsafe {
            match query.as_str() {
                "cuDeviceGetAttribute" => {
                    let attrib: c_int = argument.parse().expect("an attribute");
                    let mut got = -7;
                    let rc = sim::cuDeviceGetAttribute(&mut got, attrib, 0);
                    assert_eq!(rc, *status, "attribute {attrib}");
                    if *status == 0 {
                        assert_eq!(got.to_string(), *value, "attribute {attrib}");
                    } else {
                        assert_eq!(got, -7, "attribute {attrib}: nothing written");
                    }
                    attributes += 1;
                }
                "cuDeviceGetName" => {
                    let mut buf: [c_char; 256] = [1; 256];
                    let len = argument.parse().expect("a length");
                    assert_eq!(sim::cuDeviceGetName(buf.as_mut_ptr(), len, 0), *status);
                    assert_eq!(text(&buf), *value);
                }
                "cuDeviceTotalMem_v2" => {
                    let mut bytes = 0;
                    assert_eq!(sim::cuDeviceTotalMem_v2(&mut bytes, 0), *status);
                    assert_eq!(bytes.to_string(), *value);
                }
                "cuDeviceComputeCapability" => {
                    let (mut major, mut minor) = (0, 0);
                    assert_eq!(
                        sim::cuDeviceComputeCapability(&mut major, &mut minor, 0),
                        *status
                    );
                    assert_eq!(format!("{major}.{minor}"), *value);
                }
                "cuDeviceGetPCIBusId" => {
                    let mut buf: [c_char; 64] = [1; 64];
                    let len = argument.parse().expect("a length");
                    assert_eq!(sim::cuDeviceGetPCIBusId(buf.as_mut_ptr(), len, 0), *status);
                    assert_eq!(text(&buf), *value);
                }
                "cuDeviceGetCount" => {
                    let mut count = 0;
                    assert_eq!(sim::cuDeviceGetCount(&mut count), *status);
                    assert_eq!(count.to_string(), *value);
                }
                "cuCtxGetStreamPriorityRange" => {
                    let (mut least, mut greatest) = (7, 7);
                    assert_eq!(
                        sim::cuCtxGetStreamPriorityRange(&mut least, &mut greatest),
                        *status
                    );
                    assert_eq!(format!("{least} {greatest}"), *value);
                }
                "cuGetErrorName" | "cuGetErrorString" => {}
                other => panic!("a query this test does not know: {other}"),
            }
        }
    }
    assert_eq!(attributes, 148, "attributes 1 to 148 recorded");
    // SAFETY: as above; NULL outputs and bad devices are the errors under test.
    unsafe {
        let mut v = -7;
        for unknown in [0, 149, 100_000, -1] {
            assert_eq!(
                sim::cuDeviceGetAttribute(&mut v, unknown, 0),
                1,
                "{unknown}"
            );
        }
        assert_eq!(v, -7);
        assert_eq!(sim::cuDeviceGetAttribute(std::ptr::null_mut(), 16, 0), 1);
        assert_eq!(sim::cuDeviceGetAttribute(&mut v, 16, 1), 101);
        // A short buffer gets the name truncated and NUL-terminated, as the driver does.
        let mut short: [c_char; 7] = [1; 7];
        assert_eq!(sim::cuDeviceGetName(short.as_mut_ptr(), 7, 0), 0);
        assert_eq!(text(&short), "NVIDIA");
        assert_eq!(sim::cuDeviceGetName(short.as_mut_ptr(), 0, 0), 1);
        assert_eq!(sim::cuDeviceGetName(std::ptr::null_mut(), 6, 0), 1);
        assert_eq!(sim::cuDeviceGetName(short.as_mut_ptr(), 6, 3), 101);
        let mut bytes = 0;
        assert_eq!(sim::cuDeviceTotalMem_v2(std::ptr::null_mut(), 0), 1);
        assert_eq!(sim::cuDeviceTotalMem_v2(&mut bytes, 2), 101);
        let mut major = 0;
        assert_eq!(
            sim::cuDeviceComputeCapability(&mut major, std::ptr::null_mut(), 0),
            1
        );
        // Either priority pointer may be NULL.
        let mut greatest = 0;
        assert_eq!(
            sim::cuCtxGetStreamPriorityRange(std::ptr::null_mut(), &mut greatest),
            0
        );
        assert_eq!(greatest, -5);
        // cuMemGetInfo: the recorded total; free is what the simulator can still allocate.
        let (mut free, mut total) = (0, 0);
        assert_eq!(sim::cuMemGetInfo_v2(&mut free, &mut total), 0);
        assert_eq!(total, 150_109_880_320);
        assert!(free > 0 && free <= total);
        let mut p = 0;
        assert_eq!(sim::cuMemAlloc_v2(&mut p, 1 << 20), 0);
        let mut after = 0;
        assert_eq!(sim::cuMemGetInfo_v2(&mut after, &mut total), 0);
        assert_eq!(after, free - (1 << 20));
        assert_eq!(sim::cuMemFree_v2(p), 0);
        assert_eq!(sim::cuMemGetInfo_v2(std::ptr::null_mut(), &mut total), 1);
    }
    teardown(ctx);
}

#[test]
fn error_names_and_strings_are_the_recorded_ones() {
    let (_g, ctx) = setup();
    let rows = ground_truth();
    let mut named = 0;
    for (query, argument, status, value) in &rows {
        let code: c_int = match query.as_str() {
            "cuGetErrorName" | "cuGetErrorString" => argument.parse().expect("a code"),
            _ => continue,
        };
        let mut out: *const c_char = std::ptr::dangling();
        // SAFETY: a writable `const char *`.
        let rc = unsafe {
            if query == "cuGetErrorName" {
                sim::cuGetErrorName(code, &mut out)
            } else {
                sim::cuGetErrorString(code, &mut out)
            }
        };
        assert_eq!(rc, *status, "{query}({code})");
        // SAFETY: a static NUL-terminated string on success.
        let got = unsafe { CStr::from_ptr(out) }.to_str().expect("UTF-8");
        assert_eq!(got, value, "{query}({code})");
        named += 1;
    }
    assert_eq!(named, 202, "101 codes, each named and described");
    // A code the driver does not name: 1, and *pStr set to NULL (cuda.h).
    for unknown in [9, 12_345, -1, 1000] {
        let mut out: *const c_char = std::ptr::dangling();
        // SAFETY: as above.
        assert_eq!(unsafe { sim::cuGetErrorName(unknown, &mut out) }, 1);
        assert!(out.is_null());
        out = std::ptr::dangling();
        // SAFETY: as above.
        assert_eq!(unsafe { sim::cuGetErrorString(unknown, &mut out) }, 1);
        assert!(out.is_null());
    }
    // SAFETY: NULL is the error under test.
    assert_eq!(unsafe { sim::cuGetErrorString(0, std::ptr::null_mut()) }, 1);
    teardown(ctx);
}

#[test]
fn the_context_stack_and_flags() {
    let (_g, c1) = setup();
    // SAFETY: plain calls with writable outputs; bad handles are the errors under test.
    unsafe {
        let mut c2 = std::ptr::null_mut();
        assert_eq!(sim::cuCtxCreate_v2(&mut c2, 4, 0), 0);
        let mut current = std::ptr::null_mut();
        let mut popped = std::ptr::null_mut();
        assert_eq!(sim::cuCtxPopCurrent_v2(&mut popped), 0);
        assert_eq!(popped, c2);
        assert_eq!(sim::cuCtxGetCurrent(&mut current), 0);
        assert_eq!(current, c1, "cuCtxCreate pushed c2 above c1");
        assert_eq!(sim::cuCtxPushCurrent_v2(c2), 0);
        assert_eq!(sim::cuCtxGetCurrent(&mut current), 0);
        assert_eq!(current, c2);
        let mut flags = 99;
        assert_eq!(sim::cuCtxGetFlags(&mut flags), 0);
        assert_eq!(flags, 4, "created with CU_CTX_SCHED_BLOCKING_SYNC");
        assert_eq!(sim::cuCtxSetFlags(1), 0);
        assert_eq!(sim::cuCtxGetFlags(&mut flags), 0);
        assert_eq!(flags, 1);
        assert_eq!(sim::cuCtxSetFlags(0x100), 1);
        assert_eq!(sim::cuCtxGetFlags(std::ptr::null_mut()), 1);
        assert_eq!(sim::cuCtxPopCurrent_v2(std::ptr::null_mut()), 0);
        assert_eq!(sim::cuCtxPopCurrent(&mut popped), 0);
        assert_eq!(popped, c1);
        assert_eq!(sim::cuCtxPopCurrent_v2(&mut popped), 201, "empty stack");
        assert_eq!(sim::cuCtxGetFlags(&mut flags), 201, "no current context");
        assert_eq!(sim::cuCtxPushCurrent_v2(0x1234 as CUcontext), 201);
        assert_eq!(sim::cuCtxPushCurrent_v2(c1), 0);
        assert_eq!(sim::cuCtxDestroy_v2(c2), 0);
        assert_eq!(sim::cuCtxPushCurrent_v2(c2), 201, "destroyed");

        // The primary context's state and flags.
        let mut active = 7;
        assert_eq!(sim::cuDevicePrimaryCtxSetFlags_v2(0, 4), 0);
        assert_eq!(
            sim::cuDevicePrimaryCtxGetState(0, &mut flags, &mut active),
            0
        );
        assert_eq!(flags, 4);
        let mut primary = std::ptr::null_mut();
        assert_eq!(sim::cuDevicePrimaryCtxRetain(&mut primary, 0), 0);
        assert_eq!(
            sim::cuDevicePrimaryCtxGetState(0, &mut flags, &mut active),
            0
        );
        assert_eq!(active, 1);
        assert_eq!(sim::cuCtxPushCurrent_v2(primary), 0);
        assert_eq!(sim::cuCtxGetFlags(&mut flags), 0);
        assert_eq!(flags, 4);
        assert_eq!(sim::cuCtxPopCurrent_v2(std::ptr::null_mut()), 0);
        assert_eq!(sim::cuDevicePrimaryCtxRelease_v2(0), 0);
        assert_eq!(sim::cuDevicePrimaryCtxSetFlags_v2(0, 0), 0);
        assert_eq!(sim::cuDevicePrimaryCtxSetFlags_v2(0, 0x100), 1);
        assert_eq!(sim::cuDevicePrimaryCtxSetFlags_v2(1, 0), 101);
        assert_eq!(
            sim::cuDevicePrimaryCtxGetState(0, std::ptr::null_mut(), &mut active),
            1
        );
    }
    teardown(c1);
}

#[test]
fn streams_priorities_flags_and_ordering() {
    let (_g, ctx) = setup();
    // SAFETY: plain calls with writable outputs; bad handles are the errors under test.
    unsafe {
        let mut s: CUstream = std::ptr::null_mut();
        assert_eq!(sim::cuStreamCreateWithPriority(&mut s, 1, -100), 0);
        let (mut priority, mut flags) = (7, 7);
        assert_eq!(sim::cuStreamGetPriority(s, &mut priority), 0);
        assert_eq!(priority, -5, "clamped to the greatest priority");
        assert_eq!(sim::cuStreamGetFlags_ptsz(s, &mut flags), 0);
        assert_eq!(flags, 1);
        assert_eq!(
            sim::cuStreamGetPriority_ptsz(std::ptr::null_mut(), &mut priority),
            0
        );
        assert_eq!(priority, 0);
        assert_eq!(sim::cuStreamGetFlags(std::ptr::null_mut(), &mut flags), 0);
        assert_eq!(flags, 0);
        assert_eq!(sim::cuStreamGetFlags(s, std::ptr::null_mut()), 1);
        assert_eq!(
            sim::cuStreamGetPriority(0x1234 as CUstream, &mut priority),
            400
        );
        assert_eq!(
            sim::cuStreamCreateWithPriority(&mut s, 2, 0),
            1,
            "bad flags"
        );
        assert_eq!(sim::cuStreamCreate(&mut s, 4), 1, "bad flags");

        // Work is done in order at each call: a copy queued after a memset sees it.
        let mut a = 0;
        assert_eq!(sim::cuMemAllocAsync(&mut a, 64, s), 0);
        assert_eq!(sim::cuMemsetD8Async(a, 0xab, 64, s), 0);
        let mut out = [0u8; 64];
        assert_eq!(
            sim::cuMemcpyDtoHAsync_v2(out.as_mut_ptr().cast(), a, 64, s),
            0
        );
        assert_eq!(out, [0xab; 64]);
        // ...and the stream is pending for the configured query, then done.
        assert_eq!(sim::cuStreamQuery(s), 600);
        assert_eq!(sim::cuStreamQuery(s), 0);

        // cuStreamWaitEvent: handles and flags checked, nothing to wait for.
        let mut e: CUevent = std::ptr::null_mut();
        assert_eq!(sim::cuEventCreate(&mut e, 0), 0);
        assert_eq!(sim::cuEventRecord(e, s), 0);
        assert_eq!(sim::cuStreamWaitEvent(std::ptr::null_mut(), e, 0), 0);
        assert_eq!(sim::cuStreamWaitEvent_ptsz(2 as CUstream, e, 1), 0);
        assert_eq!(sim::cuStreamWaitEvent(s, e, 2), 1);
        assert_eq!(sim::cuStreamWaitEvent(s, 0x1234 as CUevent, 0), 400);
        assert_eq!(sim::cuStreamWaitEvent(0x1234 as CUstream, e, 0), 400);
        assert_eq!(sim::cuStreamSynchronize(s), 0);
        assert_eq!(sim::cuMemFreeAsync(a, s), 0);
        assert_eq!(sim::cuMemFreeAsync(a, s), 1, "freed already");
        assert_eq!(sim::cuEventDestroy_v2(e), 0);
        assert_eq!(sim::cuStreamDestroy_v2(s), 0);
        assert_eq!(sim::cuStreamGetPriority(s, &mut priority), 400, "destroyed");
    }
    teardown(ctx);
}

#[test]
fn event_elapsed_time_is_non_negative_and_ordered() {
    let (_g, ctx) = setup();
    // SAFETY: plain calls with writable outputs; bad handles are the errors under test.
    unsafe {
        let mut events: [CUevent; 3] = [std::ptr::null_mut(); 3];
        for e in &mut events {
            assert_eq!(sim::cuEventCreate(e, 1), 0);
        }
        let [e1, e2, e3] = events;
        let mut ms = -1.0f32;
        assert_eq!(
            sim::cuEventElapsedTime(&mut ms, e1, e2),
            400,
            "not recorded"
        );
        assert_eq!(sim::cuEventRecord(e1, std::ptr::null_mut()), 0);
        std::thread::sleep(std::time::Duration::from_millis(2));
        assert_eq!(sim::cuEventRecordWithFlags(e2, std::ptr::null_mut(), 0), 0);
        assert_eq!(sim::cuEventElapsedTime(&mut ms, e1, e2), 600, "pending");
        assert_eq!(sim::cuEventRecordWithFlags_ptsz(e3, 2 as CUstream, 1), 0);
        assert_eq!(sim::cuEventRecordWithFlags(e3, std::ptr::null_mut(), 2), 1);
        for e in events {
            assert_eq!(sim::cuEventSynchronize(e), 0);
            assert_eq!(sim::cuEventQuery(e), 0);
        }
        let (mut t12, mut t13, mut t23) = (-1.0f32, -1.0f32, -1.0f32);
        assert_eq!(sim::cuEventElapsedTime(&mut t12, e1, e2), 0);
        assert_eq!(sim::cuEventElapsedTime_v2(&mut t13, e1, e3), 0);
        assert_eq!(sim::cuEventElapsedTime(&mut t23, e2, e3), 0);
        assert!(
            t12 >= 2.0,
            "{t12} ms: at least the sleep between the records"
        );
        assert!(t23 >= 0.0 && t13 >= t12 && t13 >= t23, "{t12} {t13} {t23}");
        assert!((t13 - (t12 + t23)).abs() < 0.01, "{t12} + {t23} = {t13}");
        let mut back = 0.0f32;
        assert_eq!(sim::cuEventElapsedTime(&mut back, e3, e1), 0);
        assert!(back <= 0.0, "end before start: {back}");
        assert_eq!(sim::cuEventElapsedTime(std::ptr::null_mut(), e1, e2), 1);
        assert_eq!(sim::cuEventElapsedTime(&mut ms, e1, 0x1234 as CUevent), 400);

        // Without timing: 400, as cuda.h says.
        let mut untimed: CUevent = std::ptr::null_mut();
        assert_eq!(sim::cuEventCreate(&mut untimed, 2), 0);
        assert_eq!(sim::cuEventRecord(untimed, std::ptr::null_mut()), 0);
        assert_eq!(sim::cuEventSynchronize(untimed), 0);
        assert_eq!(sim::cuEventElapsedTime(&mut ms, e1, untimed), 400);
        // Bad flags: INTERPROCESS needs DISABLE_TIMING; 8 is no flag.
        let mut bad: CUevent = std::ptr::null_mut();
        assert_eq!(sim::cuEventCreate(&mut bad, 4), 1);
        assert_eq!(sim::cuEventCreate(&mut bad, 8), 1);
        assert_eq!(sim::cuEventCreate(&mut bad, 6), 0);
        for e in [e1, e2, e3, untimed, bad] {
            assert_eq!(sim::cuEventDestroy_v2(e), 0);
        }
        assert_eq!(sim::cuEventDestroy_v2(e1), 400);
    }
    teardown(ctx);
}

/// `n` distinct words.
fn pattern(n: usize, salt: u32) -> Vec<u32> {
    (0..n as u32)
        .map(|i| i.wrapping_mul(2_654_435_761) ^ salt)
        .collect()
}

/// Reads `n` words at `src` with the synchronous copy.
fn read(src: CUdeviceptr, n: usize) -> Vec<u32> {
    let mut out = vec![0u32; n];
    // SAFETY: `out` is writable for `4 * n` bytes.
    let rc = unsafe { sim::cuMemcpyDtoH_v2(out.as_mut_ptr().cast(), src, 4 * n) };
    assert_eq!(rc, 0);
    out
}

#[test]
fn async_allocation_memsets_and_copies_in_every_direction() {
    let (_g, ctx) = setup();
    const N: usize = 1024;
    let data = pattern(N, 0x5eed);
    // SAFETY: host buffers are live and as large as the counts given; bad pointers and handles
    // are the errors under test (never dereferenced: the simulator rejects them first).
    unsafe {
        let mut s: CUstream = std::ptr::null_mut();
        assert_eq!(sim::cuStreamCreate(&mut s, 0), 0);
        let (mut a, mut b) = (0, 0);
        assert_eq!(sim::cuMemAllocAsync(&mut a, 4 * N, s), 0);
        assert_eq!(sim::cuMemAllocAsync_ptsz(&mut b, 4 * N, 2 as CUstream), 0);
        // Host to device, asynchronous, and back.
        assert_eq!(
            sim::cuMemcpyHtoDAsync_v2(a, data.as_ptr().cast(), 4 * N, s),
            0
        );
        assert_eq!(read(a, N), data);
        // Device to device, synchronous and asynchronous, whole and in part.
        assert_eq!(sim::cuMemcpyDtoD_v2(b, a, 4 * N), 0);
        assert_eq!(read(b, N), data);
        assert_eq!(sim::cuMemsetD32Async(b, 0, N, s), 0);
        assert_eq!(sim::cuMemcpyDtoDAsync_v2(b + 64, a, 32, s), 0);
        let back = read(b, N);
        assert_eq!(back[16..24], data[..8]);
        assert!(back[..16].iter().chain(&back[24..]).all(|&w| w == 0));
        // Device to host, asynchronous, and its per-thread twin.
        let mut out = vec![0u32; N];
        assert_eq!(
            sim::cuMemcpyDtoHAsync_v2_ptsz(out.as_mut_ptr().cast(), a, 4 * N, 2 as CUstream),
            0
        );
        assert_eq!(out, data);
        // Memsets: 8, 16 and 32 bits, synchronous and asynchronous.
        assert_eq!(sim::cuMemsetD8_v2(a, 0x11, 4 * N), 0);
        assert!(read(a, N).iter().all(|&w| w == 0x1111_1111));
        assert_eq!(sim::cuMemsetD16_v2_ptds(a, 0x2233, 2 * N), 0);
        assert!(
            read(a, N)
                .iter()
                .all(|&w| w == u32::from_ne_bytes([0x33, 0x22, 0x33, 0x22]))
        );
        assert_eq!(sim::cuMemsetD32_v2(a + 4, 0xdead_beef, 2), 0);
        assert_eq!(read(a, 4)[1..3], [0xdead_beef; 2]);
        assert_eq!(sim::cuMemsetD16Async(a, 7, 1, s), 0);
        assert_eq!(sim::cuMemsetD8Async_ptsz(a + 3, 9, 1, 2 as CUstream), 0);
        assert_eq!(read(a, 1)[0], u32::from_ne_bytes([7, 0, 0x33, 9]));
        assert_eq!(sim::cuMemsetD32Async_ptsz(a, 5, N, 2 as CUstream), 0);
        assert!(read(a, N).iter().all(|&w| w == 5));
        // Unified copies: cuMemcpy between host and device both ways, and device to device.
        assert_eq!(sim::cuMemcpy(a, data.as_ptr() as CUdeviceptr, 4 * N), 0);
        assert_eq!(read(a, N), data);
        assert_eq!(sim::cuMemcpyAsync(b, a, 4 * N, s), 0);
        let mut host = vec![0u32; N];
        assert_eq!(
            sim::cuMemcpy_ptds(host.as_mut_ptr() as CUdeviceptr, b, 4 * N),
            0
        );
        assert_eq!(host, data);

        // Errors: misaligned memsets, ranges outside an allocation, NULL host pointers, bad
        // streams, no context.
        assert_eq!(sim::cuMemsetD16_v2(a + 1, 0, 1), 1);
        assert_eq!(sim::cuMemsetD32Async(a + 2, 0, 1, s), 1);
        assert_eq!(sim::cuMemsetD8_v2(a, 0, 4 * N + 1), 1);
        assert_eq!(sim::cuMemcpyDtoD_v2(b, a + 8, 4 * N), 1);
        assert_eq!(sim::cuMemcpyHtoDAsync_v2(a, std::ptr::null(), 4, s), 1);
        assert_eq!(sim::cuMemcpyDtoHAsync_v2(std::ptr::null_mut(), a, 4, s), 1);
        assert_eq!(sim::cuMemcpy(a, 0, 4), 1);
        assert_eq!(
            sim::cuMemcpy(a + 4 * N as u64 + 8, a, 4),
            1,
            "a gap between allocations"
        );
        assert_eq!(
            sim::cuMemcpyHtoDAsync_v2(a, data.as_ptr().cast(), 4, 0x1234 as CUstream),
            400
        );
        assert_eq!(sim::cuMemAllocAsync(std::ptr::null_mut(), 4, s), 1);
        let mut c = 0;
        assert_eq!(sim::cuMemAllocAsync(&mut c, 0, s), 1);
        assert_eq!(sim::cuMemAllocAsync(&mut c, 4, 0x1234 as CUstream), 400);
        assert_eq!(sim::cuMemFreeAsync(a + 4, s), 1, "not an allocation's base");
        let mut current = std::ptr::null_mut();
        assert_eq!(sim::cuCtxPopCurrent_v2(&mut current), 0);
        assert_eq!(sim::cuMemsetD8_v2(a, 0, 1), 201);
        assert_eq!(sim::cuMemAllocAsync(&mut c, 4, s), 201);
        assert_eq!(sim::cuCtxPushCurrent_v2(current), 0);

        assert_eq!(sim::cuMemFreeAsync(a, s), 0);
        assert_eq!(sim::cuMemFreeAsync_ptsz(b, 2 as CUstream), 0);
        assert_eq!(sim::cuStreamDestroy_v2(s), 0);
    }
    teardown(ctx);
}

#[test]
fn pinned_host_memory() {
    let (_g, ctx) = setup();
    const N: usize = 256;
    let data = pattern(N, 3);
    // SAFETY: pinned buffers are used within their sizes; bad pointers are the errors under test.
    unsafe {
        let (mut p, mut q): (*mut c_void, *mut c_void) =
            (std::ptr::null_mut(), std::ptr::null_mut());
        assert_eq!(sim::cuMemHostAlloc(&mut p, 4 * N, 4), 0);
        assert_eq!(sim::cuMemAllocHost_v2(&mut q, 4 * N), 0);
        assert!(
            !p.is_null() && (p as usize).is_multiple_of(4096),
            "page-aligned"
        );
        std::ptr::copy_nonoverlapping(data.as_ptr(), p.cast::<u32>(), N);
        let mut d = 0;
        assert_eq!(sim::cuMemAlloc_v2(&mut d, 4 * N), 0);
        assert_eq!(
            sim::cuMemcpyHtoDAsync_v2(d, p, 4 * N, std::ptr::null_mut()),
            0
        );
        assert_eq!(
            sim::cuMemcpyDtoHAsync_v2(q, d, 4 * N, std::ptr::null_mut()),
            0
        );
        assert_eq!(
            std::slice::from_raw_parts(q.cast::<u32>(), N),
            data.as_slice()
        );
        // The device address of pinned memory is its host address (unified addressing), usable
        // where a device pointer goes.
        let mut dp = 0;
        assert_eq!(sim::cuMemHostGetDevicePointer_v2(&mut dp, q, 0), 0);
        assert_eq!(dp, q as CUdeviceptr);
        assert_eq!(sim::cuMemsetD32_v2(dp, 9, 1), 0);
        assert_eq!(q.cast::<u32>().read(), 9);
        assert_eq!(sim::cuMemcpyDtoD_v2(d, dp, 4), 0);
        assert_eq!(read(d, 1), [9]);
        assert_eq!(
            sim::cuMemHostGetDevicePointer_v2(&mut dp, q, 1),
            1,
            "flags must be 0"
        );
        let mut pageable = [0u8; 16];
        assert_eq!(
            sim::cuMemHostGetDevicePointer_v2(&mut dp, pageable.as_mut_ptr().cast(), 0),
            1,
            "not page-locked"
        );
        assert_eq!(sim::cuMemHostAlloc(&mut p, 16, 8), 1, "bad flags");
        assert_eq!(sim::cuMemAllocHost_v2(std::ptr::null_mut(), 16), 1);
        // Registered memory: the caller's, page-locked until unregistered.
        assert_eq!(
            sim::cuMemHostRegister_v2(pageable.as_mut_ptr().cast(), 16, 0),
            0
        );
        assert_eq!(
            sim::cuMemHostRegister_v2(pageable.as_mut_ptr().add(8).cast(), 4, 0),
            712
        );
        assert_eq!(
            sim::cuMemHostGetDevicePointer_v2(&mut dp, pageable.as_mut_ptr().cast(), 0),
            0
        );
        assert_eq!(sim::cuMemsetD8_v2(dp, 0x5a, 16), 0);
        assert_eq!(pageable, [0x5a; 16]);
        assert_eq!(
            sim::cuMemFreeHost(pageable.as_mut_ptr().cast()),
            1,
            "not allocated by the driver"
        );
        assert_eq!(sim::cuMemHostUnregister(pageable.as_mut_ptr().cast()), 0);
        assert_eq!(sim::cuMemHostUnregister(pageable.as_mut_ptr().cast()), 713);
        assert_eq!(
            sim::cuMemHostUnregister(q),
            713,
            "allocated, not registered"
        );
        assert_eq!(sim::cuMemFreeHost(p), 0);
        assert_eq!(sim::cuMemFreeHost(q), 0);
        assert_eq!(sim::cuMemFreeHost(q), 1, "freed already");
        assert_eq!(sim::cuMemFree_v2(d), 0);
    }
    teardown(ctx);
}

#[test]
fn the_default_memory_pool() {
    let (_g, ctx) = setup();
    // SAFETY: outputs of the attribute's type; bad handles are the errors under test.
    unsafe {
        let (mut pool, mut current) = (std::ptr::null_mut(), std::ptr::null_mut());
        assert_eq!(sim::cuDeviceGetDefaultMemPool(&mut pool, 0), 0);
        assert_eq!(sim::cuDeviceGetMemPool(&mut current, 0), 0);
        assert_eq!(pool, current);
        assert_eq!(sim::cuDeviceGetDefaultMemPool(&mut pool, 1), 101);
        let used = |pool| {
            let mut v = u64::MAX;
            assert_eq!(sim::cuMemPoolGetAttribute(pool, 7, (&raw mut v).cast()), 0);
            v
        };
        let before = used(pool);
        let mut p = 0;
        assert_eq!(
            sim::cuMemAllocFromPoolAsync(&mut p, 4096, pool, std::ptr::null_mut()),
            0
        );
        assert_eq!(used(pool), before + 4096);
        let mut high = 0u64;
        assert_eq!(
            sim::cuMemPoolGetAttribute(pool, 8, (&raw mut high).cast()),
            0
        );
        assert!(high >= before + 4096);
        assert_eq!(sim::cuMemFreeAsync(p, std::ptr::null_mut()), 0);
        assert_eq!(used(pool), before);
        let mut threshold = u64::MAX;
        assert_eq!(
            sim::cuMemPoolSetAttribute(pool, 4, (&raw mut threshold).cast()),
            0
        );
        threshold = 0;
        assert_eq!(
            sim::cuMemPoolGetAttribute(pool, 4, (&raw mut threshold).cast()),
            0
        );
        assert_eq!(threshold, u64::MAX);
        let mut reuse: c_int = 0;
        assert_eq!(
            sim::cuMemPoolSetAttribute(pool, 2, (&raw mut reuse).cast()),
            0
        );
        reuse = 7;
        assert_eq!(
            sim::cuMemPoolGetAttribute(pool, 2, (&raw mut reuse).cast()),
            0
        );
        assert_eq!(reuse, 0);
        let mut one = 1u64;
        assert_eq!(
            sim::cuMemPoolSetAttribute(pool, 8, (&raw mut one).cast()),
            1,
            "only 0 resets"
        );
        assert_eq!(
            sim::cuMemPoolSetAttribute(pool, 7, (&raw mut one).cast()),
            1,
            "read-only"
        );
        assert_eq!(
            sim::cuMemPoolGetAttribute(pool, 99, (&raw mut one).cast()),
            1
        );
        assert_eq!(sim::cuMemPoolGetAttribute(pool, 4, std::ptr::null_mut()), 1);
        assert_eq!(sim::cuMemPoolTrimTo(pool, 0), 0);
        let bad = 0x1234 as *mut c_void;
        assert_eq!(sim::cuMemPoolTrimTo(bad, 0), 400);
        assert_eq!(
            sim::cuMemAllocFromPoolAsync(&mut p, 16, bad, std::ptr::null_mut()),
            400
        );
    }
    teardown(ctx);
}
