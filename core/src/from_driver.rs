//! [`FromDriver`]: the proof that a type holds whatever the driver may store in it.
//!
//! Where the driver produces a value (what it writes through a pointer whose pointee is not
//! `const`, what a callback receives, a value returned), the declared type must be proven valid
//! for every bit pattern of its size, or the declaration does not compile. The crate proves it
//! for the types it can see into; a type of yours proves it with `#[derive(FromDriver)]`, which
//! checks every field; memory left to be checked by hand is `MaybeUninit<T>`.

use core::cell::{Cell, UnsafeCell};
use core::marker::PhantomData;
use core::mem::{ManuallyDrop, MaybeUninit};
use core::num::{Saturating, Wrapping};
use core::ptr::NonNull;

/// Every value of the type's size is a valid value of the type (padding aside), so the driver
/// may store any: integers, floats, raw pointers, `Option<NonNull<T>>`, `Option<NonZero<T>>`,
/// `Option` of a function pointer, and arrays and transparent wrappers of them (`Cell`,
/// `UnsafeCell`, `ManuallyDrop`, `Wrapping`, `Saturating`, the integer and pointer atomics),
/// `MaybeUninit<T>` of any `T`.
///
/// Not `bool` (0 and 1 only), `char`, `NonZero*` (not 0), references and `NonNull` (not NULL,
/// and a reference must point to a valid value), bare function pointers (not NULL), `Box`,
/// enums (only their listed values), tuples (no defined layout), `AtomicBool`.
///
/// Derive it for a `#[repr(C)]` or `#[repr(transparent)]` struct or union of yours:
/// `#[derive(cuda_entry::FromDriver)]` implements it when every field implements it, and fails
/// the build naming the field that does not. An enum cannot derive it: declare its integer type
/// (bindgen's `--constified-enum`, `u32`), or `MaybeUninit<E>` and check the value before
/// reading it as an `E`.
///
/// # Safety
///
/// Implement it by hand only for a type of which every bit pattern of its size (padding bytes
/// being arbitrary) is a valid value: a type the driver may fill with whatever the C header
/// allows. The declarations built on it read such values without checking them.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not proven valid for every value the driver may store",
    label = "the driver produces this value",
    note = "integers, floats, raw pointers, `Option<NonNull<T>>`, `Option<NonZero<T>>`, \
            `Option` of a function pointer, `MaybeUninit<T>`, arrays and transparent wrappers \
            of them are; a struct of yours is with `#[derive(cuda_entry::FromDriver)]`; an \
            enum, `bool`, `char`, `NonZero`, a reference, `NonNull` or a bare function pointer \
            never is"
)]
pub unsafe trait FromDriver {}

macro_rules! from_driver {
    ($($t:ty),* $(,)?) => {
        // SAFETY: every bit pattern is a valid value of these primitives.
        $(unsafe impl FromDriver for $t {})*
    };
}
from_driver!(
    u8,
    i8,
    u16,
    i16,
    u32,
    i32,
    u64,
    i64,
    u128,
    i128,
    usize,
    isize,
    f32,
    f64,
    ()
);

macro_rules! optional_non_zero {
    ($($t:ty),* $(,)?) => {
        // SAFETY: `Option<NonZero<T>>` has `T`'s size and alignment, 0 being `None` (a layout
        // `core::num::NonZero` guarantees): every bit pattern is a value.
        $(unsafe impl FromDriver for Option<core::num::NonZero<$t>> {})*
    };
}
optional_non_zero!(
    u8, i8, u16, i16, u32, i32, u64, i64, u128, i128, usize, isize
);

// SAFETY: a raw pointer to a sized type is any address, NULL and dangling included.
unsafe impl<T> FromDriver for *mut T {}
// SAFETY: as `*mut T`.
unsafe impl<T> FromDriver for *const T {}
// SAFETY: NULL is `None`, any other address `Some`; nothing is read through it.
unsafe impl<T> FromDriver for Option<NonNull<T>> {}
// SAFETY: no bytes.
unsafe impl<T: ?Sized> FromDriver for PhantomData<T> {}
// SAFETY: `MaybeUninit` makes no claim about its bytes.
unsafe impl<T> FromDriver for MaybeUninit<T> {}
// SAFETY: an array's bytes are its elements', each of which holds any value.
unsafe impl<T: FromDriver, const N: usize> FromDriver for [T; N] {}
// SAFETY: each is `repr(transparent)` (or has `T`'s layout and validity), over a `T` that holds
// any value.
unsafe impl<T: FromDriver> FromDriver for Cell<T> {}
// SAFETY: as above.
unsafe impl<T: FromDriver> FromDriver for UnsafeCell<T> {}
// SAFETY: as above.
unsafe impl<T: FromDriver> FromDriver for ManuallyDrop<T> {}
// SAFETY: as above.
unsafe impl<T: FromDriver> FromDriver for Wrapping<T> {}
// SAFETY: as above.
unsafe impl<T: FromDriver> FromDriver for Saturating<T> {}

macro_rules! atomics {
    ($($width:literal: $($t:ident),*;)*) => {
        $($(
            // SAFETY: the atomic integers have their integer's size and validity.
            #[cfg(target_has_atomic = $width)]
            unsafe impl FromDriver for core::sync::atomic::$t {}
        )*)*
    };
}
atomics!(
    "8": AtomicU8, AtomicI8;
    "16": AtomicU16, AtomicI16;
    "32": AtomicU32, AtomicI32;
    "64": AtomicU64, AtomicI64;
    "ptr": AtomicUsize, AtomicIsize;
);
// SAFETY: `AtomicPtr<T>` has the size and validity of `*mut T`.
#[cfg(target_has_atomic = "ptr")]
unsafe impl<T> FromDriver for core::sync::atomic::AtomicPtr<T> {}

/// `Option` of function pointer types of each arity up to eight, safe or not, of the C, system
/// and Rust ABIs: NULL is `None`, any other address `Some`.
macro_rules! function_pointers {
    ($(($($arg:ident),*)),*) => {
        $(
            // SAFETY: NULL is `None`; calling the pointer is `unsafe` at the call.
            unsafe impl<R, $($arg),*> FromDriver for Option<extern "C" fn($($arg),*) -> R> {}
            // SAFETY: as above.
            unsafe impl<R, $($arg),*> FromDriver for Option<unsafe extern "C" fn($($arg),*) -> R> {}
            // SAFETY: as above.
            unsafe impl<R, $($arg),*> FromDriver for Option<extern "system" fn($($arg),*) -> R> {}
            // SAFETY: as above.
            unsafe impl<R, $($arg),*> FromDriver
                for Option<unsafe extern "system" fn($($arg),*) -> R> {}
        )*
    };
}
every_arity!(function_pointers);

// SAFETY: `#[repr(transparent)]` over an `i32`.
unsafe impl FromDriver for crate::types::CUresult {}
// SAFETY: `#[repr(C)]` over `[c_char; 16]`.
unsafe impl FromDriver for crate::types::CUuuid {}
// SAFETY: `#[repr(C)]` over integers, arrays of `c_char` and raw pointers.
unsafe impl FromDriver for crate::types::CUmemLocation {}
// SAFETY: as above.
unsafe impl FromDriver for crate::types::CUipcMemHandle {}
// SAFETY: as above.
unsafe impl FromDriver for crate::types::CUipcEventHandle {}
// SAFETY: as above.
unsafe impl FromDriver for crate::types::CUeglFrame {}
