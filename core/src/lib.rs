//! Call CUDA driver functions through `cuGetProcAddress`, with the version of the typedef your
//! signature was written from, checked at compile time.
//!
//! ```no_run
//! use cuda_entry::types::{CUdeviceptr, CUresult};
//!
//! // The signature and the version both come from `PFN_cuMemAlloc_v3020` in cudaTypedefs.h.
//! static MEM_ALLOC: cuda_entry::Entry =
//!     cuda_entry::Entry::new(c"cuMemAlloc", 3020, cuda_entry::Stream::Legacy);
//! type PfnMemAlloc = unsafe extern "C" fn(*mut CUdeviceptr, usize) -> CUresult;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // SAFETY: PfnMemAlloc is PFN_cuMemAlloc_v3020's signature.
//! let mem_alloc = unsafe { MEM_ALLOC.resolve_as::<PfnMemAlloc>() }?;
//! let mut dptr: CUdeviceptr = 0;
//! // SAFETY: a valid out-pointer; a context must be current (omitted here).
//! unsafe { mem_alloc(&mut dptr, 1 << 20) }.ok()?;
//! # Ok(())
//! # }
//! ```
//!
//! The two rules this crate enforces, from the CUDA programming guide's *Driver Entry Point
//! Access*: pass `cuGetProcAddress` the version of the typedef the signature came from (never
//! `CUDA_VERSION` or the driver's version, which silently change the ABI returned when the toolkit
//! or driver moves on), and check that the driver is at least that new before asking.
#![deny(missing_docs, unreachable_pub)]

/// Calls `$impls!` with the parameter lists of function pointers of zero to eight parameters: the
/// arities the proofs ([`ByValue`], [`FromDriver`]) are implemented for (a C callback has at most
/// five).
macro_rules! every_arity {
    ($impls:ident) => {
        $impls!(
            (),
            (A),
            (A, B),
            (A, B, C),
            (A, B, C, D),
            (A, B, C, D, E),
            (A, B, C, D, E, F),
            (A, B, C, D, E, F, G),
            (A, B, C, D, E, F, G, H)
        );
    };
}

mod by_value;
mod driver;
mod entry;
mod error;
mod from_driver;
mod library;
mod preload;
mod query;
#[cfg(not(loom))]
mod registry;
mod request;
mod runtime;
mod status;
mod sync;
pub mod types;

pub use by_value::{ByValue, Byte, Classes, TRACKED};
/// Derives [`ByValue`](trait@ByValue) for a `#[repr(C)]` struct or union, a
/// `#[repr(transparent)]` struct, or a field-less enum with `#[repr(C)]` or an integer `#[repr]`:
/// its classes are computed from its fields', and a field that is not `ByValue` fails the build
/// there. Through a re-export, name the crate: `#[by_value(crate = "gpu_sys::cuda_entry")]`.
pub use cuda_entry_macros::ByValue;
/// Derives [`FromDriver`](trait@FromDriver) for a `#[repr(C)]` or `#[repr(transparent)]` struct
/// or union whose fields are all `FromDriver`: the error names a field that is not. Through a
/// re-export, name the crate: `#[from_driver(crate = "gpu_sys::cuda_entry")]`.
pub use cuda_entry_macros::FromDriver;
#[doc = include_str!("attribute.md")]
pub use cuda_entry_macros::cuda_entry;
/// The manifest format: what `#[cuda_entry]` leaves in a binary for `cuda-entry check`.
pub use cuda_entry_table::manifest;
pub use cuda_entry_table::{Cuda, Version, VersionError};
pub use driver::{Bootstrap, DriverInfo, driver_info, driver_version};
pub use entry::Entry;
pub use error::{Error, ErrorKind};
pub use from_driver::FromDriver;
pub use library::{
    LoadAttempt, PATH_VARIABLE, RUNTIME_PATH_VARIABLE, trust_path_variables_when_privileged,
};
pub use preload::{PreloadError, preload};
#[cfg(not(loom))]
pub use registry::{MANIFEST_SECTION, Requirements, entries, preload_all, requirements};
pub use request::{Request, Resolver, Stream};
pub use runtime::runtime_version;

#[doc(hidden)]
#[cfg(not(loom))]
#[path = "private.rs"]
pub mod __private;
