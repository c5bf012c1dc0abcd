//! Injected statuses and pending work: the error paths of a user's own code, reached without a
//! GPU. Each test runs its body in a child process with its configuration (`in_child`).

use std::ffi::c_void;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUcontext, CUdevice, CUdeviceptr, CUresult};
use cuda_entry_sim::{Config, When, in_child};

type CUstream = *mut c_void;
type CUevent = *mut c_void;

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuInit", version = 2000)]
    fn init(flags: u32) -> CUresult;
    #[cuda_entry(symbol = "cuDevicePrimaryCtxRetain", version = 7000)]
    fn primary_ctx_retain(pctx: *mut CUcontext, dev: CUdevice) -> CUresult;
    #[cuda_entry(symbol = "cuCtxSetCurrent", version = 4000)]
    fn ctx_set_current(ctx: CUcontext) -> CUresult;
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
    fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;
    #[cuda_entry(symbol = "cuStreamCreate", version = 2000)]
    fn stream_create(stream: *mut CUstream, flags: u32) -> CUresult;
    #[cuda_entry(symbol = "cuStreamQuery", version = 2000, stream = "legacy")]
    fn stream_query(stream: CUstream) -> CUresult;
    #[cuda_entry(symbol = "cuStreamSynchronize", version = 2000, stream = "legacy")]
    fn stream_synchronize(stream: CUstream) -> CUresult;
    #[cuda_entry(symbol = "cuStreamDestroy", version = 4000)]
    fn stream_destroy(stream: CUstream) -> CUresult;
    #[cuda_entry(symbol = "cuEventCreate", version = 2000)]
    fn event_create(event: *mut CUevent, flags: u32) -> CUresult;
    #[cuda_entry(symbol = "cuEventRecord", version = 2000, stream = "legacy")]
    fn event_record(event: CUevent, stream: CUstream) -> CUresult;
    #[cuda_entry(symbol = "cuEventQuery", version = 2000)]
    fn event_query(event: CUevent) -> CUresult;
    #[cuda_entry(symbol = "cuEventSynchronize", version = 2000)]
    fn event_synchronize(event: CUevent) -> CUresult;
}

/// `cuInit` and device 0's primary context, current.
fn context() {
    let mut ctx: CUcontext = std::ptr::null_mut();
    // SAFETY: flags 0 and valid out-pointers.
    unsafe {
        init(0).expect("cuInit");
        primary_ctx_retain(&mut ctx, 0).expect("a primary context");
        ctx_set_current(ctx).expect("current");
    }
}

/// The driver's status of a call, 0 for success.
fn status(result: Result<(), cuda_entry::Error>) -> i32 {
    match result {
        Ok(()) => 0,
        Err(e) => e.driver_status().expect("the driver answered"),
    }
}

fn alloc() -> i32 {
    let mut dptr: CUdeviceptr = 0;
    // SAFETY: a valid out-pointer, a current context.
    status(unsafe { mem_alloc(&mut dptr, 256) })
}

#[test]
fn a_status_is_injected_on_the_nth_call() {
    in_child(
        &Config::new().inject("cuMemAlloc", 2, When::Call(2)),
        || {
            context();
            assert_eq!([alloc(), alloc(), alloc()], [0, 2, 0]);
            // The base symbol named the 3.2 ABI's export too; each call is recorded.
            assert_eq!(cuda_entry_sim::calls("cuMemAlloc_v2"), 3);
        },
    );
}

#[test]
fn a_status_is_injected_for_n_calls_or_always() {
    in_child(
        &Config::new().inject("cuMemAlloc_v2", 999, When::Calls { from: 1, count: 2 }),
        || {
            context();
            assert_eq!([alloc(), alloc(), alloc()], [999, 999, 0]);
        },
    );
    in_child(
        &Config::new()
            .inject("cuMemAlloc", 2, When::Always)
            .inject("cuMemAlloc_v2", 0, When::Always)
            // An export name names only itself: the 2.0 ABI's export is never called here.
            .inject("cuMemAlloc_v2", 3, When::Always)
            .inject("cuCtxSetCurrent", 201, When::Call(5)),
        || {
            context();
            // The first injection given wins where two answer a call.
            assert_eq!([alloc(), alloc()], [2, 2]);
        },
    );
    in_child(&Config::new().inject("cuMemAlloc", 2, When::Always), || {
        // Injected before the work: cuInit is not called, the context not made, the
        // injection still answers.
        assert_eq!(alloc(), 2);
    });
}

#[test]
fn queries_answer_not_ready_while_work_is_pending() {
    in_child(&Config::new().pending_queries(2), || {
        context();
        let mut stream: CUstream = std::ptr::null_mut();
        let mut event: CUevent = std::ptr::null_mut();
        // SAFETY: valid out-pointers and handles the simulator made.
        unsafe {
            stream_create(&mut stream, 0).expect("a stream");
            event_create(&mut event, 0).expect("an event");
            // Nothing launched yet: the stream is idle.
            assert_eq!(status(stream_query(stream)), 0);
            event_record(event, stream).expect("recorded");
            assert_eq!(
                [event_query(event), event_query(event), event_query(event)].map(status),
                [600, 600, 0]
            );
            event_record(event, stream).expect("recorded");
            event_synchronize(event).expect("synchronized");
            assert_eq!(status(event_query(event)), 0);
            stream_synchronize(stream).expect("synchronized");
            stream_destroy(stream).expect("destroyed");
            assert_eq!(status(stream_query(stream)), 400);
        }
    });
}
