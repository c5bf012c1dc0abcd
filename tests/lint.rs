//! The expansions under every lint a careful crate turns on (pin-project's tests/lint): rustc's
//! allow-by-default lints and, when `cargo clippy --all-targets -- -D warnings` compiles this file
//! (tests/run-all.sh), clippy's pedantic and nursery groups. Every form of declaration is here;
//! a lint the expansion trips fails the build. The tests only use what is declared.

#![deny(warnings)]
#![deny(
    absolute_paths_not_starting_with_crate,
    ambiguous_negative_literals,
    deprecated_in_future,
    deprecated_safe_2024,
    elided_lifetimes_in_paths,
    explicit_outlives_requirements,
    ffi_unwind_calls,
    keyword_idents_2018,
    keyword_idents_2024,
    let_underscore_drop,
    macro_use_extern_crate,
    meta_variable_misuse,
    missing_abi,
    missing_copy_implementations,
    missing_debug_implementations,
    missing_docs,
    missing_unsafe_on_extern,
    non_ascii_idents,
    nonstandard_style,
    redundant_imports,
    redundant_lifetimes,
    rust_2018_idioms,
    single_use_lifetimes,
    trivial_casts,
    trivial_numeric_casts,
    unit_bindings,
    unnameable_types,
    unreachable_pub,
    unsafe_attr_outside_unsafe,
    unsafe_op_in_unsafe_fn,
    unused,
    unused_extern_crates,
    unused_import_braces,
    unused_lifetimes,
    unused_macro_rules,
    unused_qualifications,
    unused_results,
    variant_size_differences
)]
#![deny(clippy::all, clippy::pedantic, clippy::nursery)]
// Contradicts rustc's `unreachable_pub` (pin-project allows it too).
#![allow(clippy::redundant_pub_crate)]

use std::ffi::c_void;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUcontext, CUdevice, CUdeviceptr, CUfunction, CUresult, CUstream};

/// Allocates device memory.
#[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
pub unsafe extern "C" fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;

#[cuda_entry(symbol = "cuMemFree", version = 3020, resolver = "runtime")]
unsafe extern "C" fn mem_free(dptr: CUdeviceptr) -> CUresult;

/// Declarations of a block, of every visibility.
pub mod block {
    use super::{CUcontext, CUdevice, CUfunction, CUresult, CUstream, c_void, cuda_entry};

    #[cuda_entry]
    unsafe extern "C" {
        /// Launches a kernel on the per-thread default stream.
        #[cuda_entry(symbol = "cuLaunchKernel", version = 7000, stream = "per_thread")]
        pub fn launch(
            f: CUfunction,
            grid_x: u32,
            grid_y: u32,
            grid_z: u32,
            block_x: u32,
            block_y: u32,
            block_z: u32,
            shared_bytes: u32,
            stream: CUstream,
            params: *mut *mut c_void,
            extra: *mut *mut c_void,
        ) -> CUresult;
        /// Creates a context with creation parameters, where the driver has them.
        #[cuda_entry(symbol = "cuCtxCreate", version = 12050, optional)]
        pub(crate) fn ctx_create_v4(
            pctx: *mut CUcontext,
            params: *mut c_void,
            flags: u32,
            dev: CUdevice,
        ) -> CUresult;
        #[cuda_entry(symbol = "cuCtxCreate", version = 3020)]
        pub(super) fn ctx_create_v2(pctx: *mut CUcontext, flags: u32, dev: CUdevice) -> CUresult;
        #[cuda_entry(symbol = "cuFutureFunction", version = 14000, unverified)]
        fn future_function(stream: CUstream) -> CUresult;
    }

    /// Whether the entries no other module sees are available.
    #[must_use]
    pub fn private_available() -> bool {
        future_function::is_available()
    }
}

mod renamed {
    use cuda_entry::cuda_entry as driver_fn;
    use cuda_entry::types::CUresult;

    #[driver_fn(crate = "cuda_entry")]
    unsafe extern "C" {
        #[driver_fn(symbol = "cuCtxSynchronize", version = 2000)]
        pub(crate) fn ctx_synchronize() -> CUresult;
    }
}

macro_rules! driver_functions {
    ($($vis:vis fn $name:ident($($param:ident: $ty:ty),*) -> $ret:ty = $symbol:literal @ $version:expr;)*) => {$(
        #[cuda_entry(symbol = $symbol, version = $version)]
        $vis unsafe extern "C" fn $name($($param: $ty),*) -> $ret;
    )*};
}

driver_functions! {
    fn init(flags: u32) -> CUresult = "cuInit" @ 2000;
    pub(crate) fn device_get_count(count: *mut i32) -> CUresult = "cuDeviceGetCount" @ 2000;
}

/// A declaration inside a function body, used there.
fn count_in_body() -> Option<i32> {
    #[cuda_entry(symbol = "cuDeviceGetCount", version = 2000)]
    unsafe extern "C" fn device_count(count: *mut i32) -> CUresult;
    let mut count = 0;
    // SAFETY: a valid out-pointer.
    unsafe { device_count(&raw mut count) }.ok()?;
    Some(count)
}

#[test]
fn every_declaration_is_usable() {
    assert_eq!(mem_alloc::pointer().is_ok(), mem_alloc::is_available());
    assert_eq!(mem_free::pointer().is_ok(), mem_free::is_available());
    assert_eq!(init::pointer().is_ok(), init::is_available());
    assert_eq!(
        block::launch::pointer().is_ok(),
        block::launch::is_available()
    );
    let synchronize = renamed::ctx_synchronize::pointer();
    assert_eq!(
        synchronize.is_ok(),
        renamed::ctx_synchronize::is_available()
    );
    assert!(
        !block::private_available(),
        "no driver serves a made-up symbol"
    );
    assert_eq!(count_in_body().is_some(), device_get_count::is_available());
    assert!(block::ctx_create_v4::ENTRY.is_optional());
    assert_eq!(mem_free::ENTRY.resolver(), cuda_entry::Resolver::Runtime);
}

#[test]
fn the_fallback_chain_compiles_as_documented() {
    let mut ctx: CUcontext = std::ptr::null_mut();
    // SAFETY: a valid out-pointer; without a driver neither entry resolves.
    let created = unsafe {
        if block::ctx_create_v4::is_available() {
            block::ctx_create_v4(&raw mut ctx, std::ptr::null_mut(), 0, 0)
        } else {
            block::ctx_create_v2(&raw mut ctx, 0, 0)
        }
    };
    let served = block::ctx_create_v4::is_available() || block::ctx_create_v2::is_available();
    assert_eq!(created.is_ok(), served);
}
