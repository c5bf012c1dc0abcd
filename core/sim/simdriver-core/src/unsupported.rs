//! The exports of the real driver that the simulator does not implement.
//!
//! Driver 580.159.04 exports 707 functions (tests/ground-truth/driver-13000-exports.txt) and its
//! `cuGetProcAddress*` hands out 634 of them. The simulator implements a few dozen (`exports.rs`);
//! every other one is defined here, so that `cuGetProcAddress*` can hand out a real pointer for
//! every row of the ground truth, as the driver did, and `dlsym` finds every name. Calling one
//! records the call under its name (`cuda_entry_sim_calls`, `cuda_entry_sim_last_call`) and returns
//! 801 (`CUDA_ERROR_NOT_SUPPORTED`) without reading its arguments: a test that reaches one learns
//! which function it needed, instead of crashing or silently succeeding.
//!
//! The list is generated (`unsupported/stubs.rs`, by `tests/generated.rs`) as the real driver's exports
//! minus the implemented ones: implementing one means adding it to `exports.rs` and regenerating.

/// Defines each named export as a stub: `#[no_mangle] extern "C" fn name() -> CUresult`, returning
/// 801 through [`answer`](crate::exports::answer) (so it is recorded, and answers 34 in `stub`
/// mode), plus `address(name)` and `NAMES`, the list.
///
/// A stub takes no parameters whatever its C signature: in the C calling conventions of the
/// platforms CUDA supports (x86-64 System V and Windows, AArch64) the caller sets up and removes
/// the arguments, so a callee that reads none is called correctly with any.
macro_rules! unsupported_exports {
    ($($name:ident)*) => {
        $(
            #[doc = ::core::concat!(
                "`", ::core::stringify!($name), "`: not simulated; records the call and returns ",
                "801 (`CUDA_ERROR_NOT_SUPPORTED`)."
            )]
            #[unsafe(no_mangle)]
            #[allow(non_snake_case)]
            pub(crate) extern "C" fn $name() -> $crate::CUresult {
                $crate::exports::answer(::core::concat!(::core::stringify!($name), "\0"), || {
                    Err($crate::SimError::NotSupported)
                })
            }
        )*

        /// The address of the unsupported export `name`, if it is one.
        pub fn address(name: &str) -> Option<*mut ::std::ffi::c_void> {
            match name {
                $(::core::stringify!($name) => Some($name as *mut ::std::ffi::c_void),)*
                _ => None,
            }
        }

        /// The names of the unsupported exports, sorted.
        pub const NAMES: &[&str] = &[$(::core::stringify!($name)),*];
    };
}
pub(crate) use unsupported_exports;

#[rustfmt::skip]
mod stubs;

pub use stubs::{NAMES, address};
