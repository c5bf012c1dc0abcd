//! What proves a value the driver writes: `#[derive(FromDriver)]` on `#[repr(C)]` structs and
//! unions and `#[repr(transparent)]` newtypes whose fields are proven (generic ones too), through
//! a re-export with `from_driver(crate = ...)`, and `MaybeUninit<T>` of anything.
#![deny(warnings)]

use std::ffi::c_void;
use std::mem::MaybeUninit;
use std::ptr::NonNull;

use cuda_entry::types::{CUresult, CUuuid};
use cuda_entry::{FromDriver, cuda_entry};

mod reexport {
    pub use cuda_entry as driver;
}

#[derive(FromDriver)]
#[repr(C)]
pub struct Uuid {
    pub bytes: [u8; 16],
}

/// A handle the driver may set to NULL: `Option<NonNull<_>>` holds it.
#[derive(FromDriver, Clone, Copy)]
#[repr(transparent)]
pub struct Context(pub Option<NonNull<c_void>>);

#[derive(FromDriver)]
#[repr(C)]
pub union Bits {
    pub word: u32,
    pub bytes: [u8; 4],
}

#[derive(FromDriver)]
#[repr(C)]
pub struct Pair<T> {
    pub first: T,
    pub second: T,
}

#[derive(FromDriver)]
#[from_driver(crate = "reexport::driver")]
#[repr(transparent)]
pub struct Count(pub i32);

#[derive(Clone, Copy)]
#[repr(u32)]
pub enum Kind {
    Sm = 1,
}

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuDeviceGetUuid", version = 9020)]
    fn uuid_pair(uuid: *mut Pair<[u8; 8]>, device: i32) -> CUresult;
    #[cuda_entry(symbol = "cuDeviceGetUuid", version = 9020)]
    fn uuid_struct(uuid: *mut Uuid, device: i32) -> CUresult;
    #[cuda_entry(symbol = "cuCtxGetCurrent", version = 4000)]
    fn current(pctx: *mut Context) -> CUresult;
    #[cuda_entry(symbol = "cuDeviceGetCount", version = 2000)]
    fn count(count: &mut Count) -> CUresult;
    #[cuda_entry(symbol = "cuDeviceGetAttribute", version = 2000)]
    fn attribute(value: *mut Bits, attribute: i32, device: i32) -> CUresult;
    #[cuda_entry(symbol = "cuDeviceGetUuid", version = 9020)]
    fn uuid(uuid: *mut CUuuid, device: i32) -> CUresult;
    // An enum the driver writes: `MaybeUninit`, checked before it is read as a `Kind`.
    #[cuda_entry(symbol = "cuDeviceGetAttribute", version = 2000)]
    fn attribute_kind(value: *mut MaybeUninit<Kind>, attribute: i32, device: i32) -> CUresult;
}

fn main() {
    let _ = (current::pointer, count::pointer, attribute::pointer);
    let _ = (uuid::pointer, attribute_kind::pointer);
    let _ = (uuid_pair::pointer, uuid_struct::pointer);
    let _ = Kind::Sm;
}
