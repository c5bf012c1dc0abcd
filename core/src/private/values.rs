//! What the expansion asks the compiler about values the driver produces: whether a pointer
//! type promises not to write ([`AccessProbe`]), whether a type has values that are not valid
//! ([`ValueProbe`]), and whether a status type holds every `int` ([`status`]). As in
//! [`abi`](super::abi), each answer comes from the type itself (inherent constants resolve
//! through aliases, and a user's type named `u32` or `c_void` is not `u32` or `c_void`), and
//! each check is `#[track_caller]`, so a failure shows the macro's message at the declared type.
//!
//! Enums cannot be told apart from structs on stable Rust, so [`ValueProbe`] cannot name them;
//! the driver's status, which is where an enum is usually written, is held to an allow-list
//! instead ([`status`]). `docs/decisions.md` says what remains.

use core::marker::PhantomData;
use core::num::NonZero;
use core::ptr::NonNull;

use cuda_entry_table::value_words;
use cuda_entry_table::value_words::NOT_AN_INTEGER;

use super::abi::{Message, NumberClass};
use super::seal::{InteriorMutableMark, InvalidValuesMark, ProducedMark, Seal, WriteThroughMark};
use crate::FromDriver;

/// `AccessProbe::<P>::READ_ONLY`: whether the pointer type `P` is not proven to allow writes
/// through it, answered by an inherent constant (`false`) for the types of [`WriteThrough`], and
/// [`AccessFallback`]'s `true` for every other: `*const T`, `&T` and `Option<&T>` of a `T`
/// without interior mutability, and any type the crate does not know.
#[derive(Debug)]
pub struct AccessProbe<T: ?Sized>(PhantomData<T>);

/// The answer for a pointer type not proven to allow writes.
pub trait AccessFallback {
    /// `true`: not proven writable.
    const READ_ONLY: bool = true;
}

impl<T: ?Sized> AccessFallback for AccessProbe<T> {}

/// Pointer types through which the driver may write: `*mut T`, `&mut T`, `NonNull<T>` and their
/// `Option`s, and shared references to what may be written through one (`Cell`, `UnsafeCell`,
/// the atomics, arrays of them). One inherent impl, bounded by this trait, answers for all of
/// them: a type the compiler could not resolve then meets one candidate, not several.
pub trait WriteThrough: Seal<WriteThroughMark> {}

macro_rules! write_through {
    ($($(#[$bound:ident])? $t:ty),*) => {
        $(
            impl<T: ?Sized $(+ $bound)?> Seal<WriteThroughMark> for $t {}
            impl<T: ?Sized $(+ $bound)?> WriteThrough for $t {}
        )*
    };
}
write_through!(*mut T, &mut T, NonNull<T>, Option<&mut T>, Option<NonNull<T>>,
    #[InteriorMutable] &T, #[InteriorMutable] Option<&T>);
// An array of such pointers, each of which the driver may write through (`void **data`).
impl<P: WriteThrough, const N: usize> Seal<WriteThroughMark> for [P; N] {}
impl<P: WriteThrough, const N: usize> WriteThrough for [P; N] {}

/// Types whose bytes may be written through a shared reference: those of `UnsafeCell`. Sealed:
/// a type of yours is `InteriorMutable` only through the `Cell`s or atomics it is made of, which
/// the driver cannot see; declare `*mut T` for it.
pub trait InteriorMutable: Seal<InteriorMutableMark> {}

macro_rules! interior_mutable {
    ($($width:literal: $($t:ident),*;)*) => {
        $($(
            #[cfg(target_has_atomic = $width)]
            impl Seal<InteriorMutableMark> for core::sync::atomic::$t {}
            #[cfg(target_has_atomic = $width)]
            impl InteriorMutable for core::sync::atomic::$t {}
        )*)*
    };
}
impl<T: ?Sized> Seal<InteriorMutableMark> for core::cell::UnsafeCell<T> {}
impl<T: ?Sized> InteriorMutable for core::cell::UnsafeCell<T> {}
impl<T: ?Sized> Seal<InteriorMutableMark> for core::cell::Cell<T> {}
impl<T: ?Sized> InteriorMutable for core::cell::Cell<T> {}
impl<T: InteriorMutable, const N: usize> Seal<InteriorMutableMark> for [T; N] {}
impl<T: InteriorMutable, const N: usize> InteriorMutable for [T; N] {}
impl<T: InteriorMutable> Seal<InteriorMutableMark> for [T] {}
impl<T: InteriorMutable> InteriorMutable for [T] {}
interior_mutable!(
    "8": AtomicU8, AtomicI8, AtomicBool;
    "16": AtomicU16, AtomicI16;
    "32": AtomicU32, AtomicI32;
    "64": AtomicU64, AtomicI64;
    "ptr": AtomicUsize, AtomicIsize;
);
#[cfg(target_has_atomic = "ptr")]
impl<T> Seal<InteriorMutableMark> for core::sync::atomic::AtomicPtr<T> {}
#[cfg(target_has_atomic = "ptr")]
impl<T> InteriorMutable for core::sync::atomic::AtomicPtr<T> {}

impl<T: ?Sized + WriteThrough> AccessProbe<T> {
    /// Proven writable.
    pub const READ_ONLY: bool = false;
}

/// `ValueProbe::<T>::INVALID`: words naming the kind of `T` when `T` has bit patterns that are
/// not valid values (`bool`, `char`, `NonZero`, references, `NonNull`, function pointers), so
/// the driver must never produce one; `""` ([`ValueFallback`]) for any other type.
#[derive(Debug)]
pub struct ValueProbe<T: ?Sized>(PhantomData<T>);

/// The answer for a type that is not [`InvalidValues`].
pub trait ValueFallback {
    /// `""`: no invalid value is known.
    const INVALID: &'static str = "";
}

impl<T: ?Sized> ValueFallback for ValueProbe<T> {}

/// Types with bit patterns that are not valid values, and the words that name their kind
/// ([`value_words`]).
pub trait InvalidValues: Seal<InvalidValuesMark> {
    /// What it is, and which values are not valid.
    const WORDS: &'static str;
}

impl<T: ?Sized + InvalidValues> ValueProbe<T> {
    /// What it is, and which values are not valid.
    pub const INVALID: &'static str = T::WORDS;
}

macro_rules! invalid {
    ($words:expr => $($t:ty),*) => {
        $(impl<T: ?Sized> Seal<InvalidValuesMark> for $t {}
        impl<T: ?Sized> InvalidValues for $t {
            const WORDS: &'static str = $words;
        })*
    };
    ($words:expr; $($t:ty),*) => {
        $(impl Seal<InvalidValuesMark> for $t {}
        impl InvalidValues for $t {
            const WORDS: &'static str = $words;
        })*
    };
}
invalid!(value_words::BOOL; bool);
invalid!(value_words::CHAR; char);
invalid!(value_words::NON_ZERO; NonZero<u8>, NonZero<i8>, NonZero<u16>, NonZero<i16>,
    NonZero<u32>, NonZero<i32>, NonZero<u64>, NonZero<i64>, NonZero<u128>, NonZero<i128>,
    NonZero<usize>, NonZero<isize>);
invalid!(value_words::REFERENCE => &T, &mut T);
invalid!(value_words::NON_NULL => NonNull<T>);

/// Function pointer types of each arity, safe or not, of the C and the Rust ABI: NULL is not a
/// valid one (an `Option` of one is valid).
macro_rules! function_pointers {
    (@one $t:ty; $($arg:ident),*) => {
        impl<R, $($arg),*> Seal<InvalidValuesMark> for $t {}
        impl<R, $($arg),*> InvalidValues for $t {
            const WORDS: &'static str = value_words::FUNCTION;
        }
    };
    ($(($($arg:ident),*)),*) => {
        $(
            function_pointers!(@one extern "C" fn($($arg),*) -> R; $($arg),*);
            function_pointers!(@one unsafe extern "C" fn($($arg),*) -> R; $($arg),*);
            function_pointers!(@one fn($($arg),*) -> R; $($arg),*);
            function_pointers!(@one unsafe fn($($arg),*) -> R; $($arg),*);
        )*
    };
}
function_pointers!(
    (),
    (A),
    (A, B),
    (A, B, C),
    (A, B, C, D),
    (A, B, C, D, E),
    (A, B, C, D, E, F)
);

/// Fails compilation with `message` when `read_only` ([`AccessProbe`]): the declared pointer
/// promises no write where the driver writes.
#[track_caller]
pub const fn writable(read_only: bool, message: &str) {
    if read_only {
        panic!("{}", message);
    }
}

/// `Proven::<T>::FROM_DRIVER`: whether `T` is proven to hold every value the driver may store
/// ([`FromDriver`]), answered by an inherent constant for the types that implement it and by
/// [`ProvenFallback`]'s `false` for every other type: what is not proven is refused.
#[derive(Debug)]
pub struct Proven<T: ?Sized>(PhantomData<T>);

/// The answer for a type not proven [`FromDriver`].
pub trait ProvenFallback {
    /// `false`: not proven.
    const FROM_DRIVER: bool = false;
}

impl<T: ?Sized> ProvenFallback for Proven<T> {}

/// What may stand where the driver produces a value: a [`FromDriver`] type, or `c_void`, which
/// is not a value (nothing reads it as one) and so leaves what the driver writes unchecked, the
/// explicit way out. One inherent impl of [`Proven`], bounded by this trait, answers for both: a
/// type the compiler could not resolve then meets one candidate, not several.
pub trait Produced: Seal<ProducedMark> {}

impl<T: FromDriver> Seal<ProducedMark> for T {}
impl<T: FromDriver> Produced for T {}
impl Seal<ProducedMark> for core::ffi::c_void {}
impl Produced for core::ffi::c_void {}

impl<T: ?Sized + Produced> Proven<T> {
    /// Proven.
    pub const FROM_DRIVER: bool = true;
}

/// What is said of the second level of a `T **` where the driver stores or fills values there:
/// `answer` (`Proven` and `ValueProbe` of what the first level points to), but a reference to
/// `c_void` (not `raw`, `void`) is refused: it claims one byte where the driver stores a value.
pub const fn second_level(
    raw: bool,
    void: bool,
    answer: (bool, &'static str),
) -> (bool, &'static str) {
    if void && !raw {
        (false, value_words::VOID_REFERENCE)
    } else {
        answer
    }
}

/// Fails compilation unless `proven` ([`Proven`]; `c_void`, unchecked, is): the message is
/// `before`, the words naming the type's kind where it is one with known invalid values
/// (`invalid`, [`ValueProbe`]: `bool`, `char`, `NonZero`, references, `NonNull`, function
/// pointers, whatever they are called) or else saying it is not proven, `after`, `typedefs`.
#[track_caller]
pub const fn valid((proven, invalid): (bool, &str), before: &str, after: &str, typedefs: &str) {
    if !proven {
        let words = if invalid.is_empty() {
            value_words::UNPROVEN
        } else {
            invalid
        };
        let message = Message::text(before).then(words).then(after).then(typedefs);
        panic!("{}", message.as_str());
    }
}

/// Fails compilation unless the declared status type (the return type of a `CUresult` typedef)
/// holds every `int` the driver may return: a primitive integer ([`ClassProbe`]'s
/// [`NumberClass::Integer`], through aliases) without invalid values ([`ValueProbe`], which
/// leaves out `char`), or `cuda_entry::types::CUresult`. Its size is asserted apart.
///
/// [`ClassProbe`]: super::abi::ClassProbe
#[track_caller]
pub const fn status(
    (class, invalid): (NumberClass, &str),
    before: &str,
    after: &str,
    typedefs: &str,
) {
    let words = if !invalid.is_empty() {
        invalid
    } else if !class.is_integer() {
        NOT_AN_INTEGER
    } else {
        return;
    };
    let message = Message::text(before).then(words).then(after).then(typedefs);
    panic!("{}", message.as_str());
}

#[cfg(test)]
mod tests {
    use super::super::abi::{ClassFallback as _, ClassProbe};
    use super::*;
    use core::ffi::c_void;

    #[allow(unused_imports)]
    use {AccessFallback as _, ProvenFallback as _, ValueFallback as _};

    type Status = i32;
    type Flag = bool;
    type Callback = unsafe extern "C" fn(*mut c_void);
    #[allow(non_camel_case_types)]
    type u64 = u32; // a shadowed primitive is what it aliases

    #[test]
    fn probes_see_what_a_type_is() {
        const {
            assert!(AccessProbe::<*const u8>::READ_ONLY);
            assert!(AccessProbe::<&u8>::READ_ONLY);
            assert!(AccessProbe::<Option<&u8>>::READ_ONLY);
            assert!(!AccessProbe::<*mut u8>::READ_ONLY);
            assert!(!AccessProbe::<&mut u8>::READ_ONLY);
            assert!(!AccessProbe::<Option<NonNull<u8>>>::READ_ONLY);
            // Shared references to what may be written through one.
            assert!(!AccessProbe::<&core::cell::Cell<u64>>::READ_ONLY);
            assert!(!AccessProbe::<Option<&core::cell::UnsafeCell<u8>>>::READ_ONLY);
            assert!(!AccessProbe::<&[core::sync::atomic::AtomicU32; 4]>::READ_ONLY);
            assert!(AccessProbe::<&[u32; 4]>::READ_ONLY);
            assert!(AccessProbe::<*const core::cell::Cell<u64>>::READ_ONLY);
            assert!(!ValueProbe::<Flag>::INVALID.is_empty());
            assert!(!ValueProbe::<char>::INVALID.is_empty());
            assert!(!ValueProbe::<NonZero<i32>>::INVALID.is_empty());
            assert!(!ValueProbe::<core::num::NonZeroU64>::INVALID.is_empty());
            assert!(!ValueProbe::<&'static c_void>::INVALID.is_empty());
            assert!(!ValueProbe::<NonNull<c_void>>::INVALID.is_empty());
            assert!(!ValueProbe::<Callback>::INVALID.is_empty());
            assert!(!ValueProbe::<fn()>::INVALID.is_empty());
            assert!(ValueProbe::<Option<Callback>>::INVALID.is_empty());
            assert!(ValueProbe::<Option<NonNull<c_void>>>::INVALID.is_empty());
            assert!(ValueProbe::<Option<NonZero<i32>>>::INVALID.is_empty());
            assert!(ValueProbe::<*mut c_void>::INVALID.is_empty());
            assert!(ValueProbe::<Status>::INVALID.is_empty());
            assert!(ClassProbe::<u64>::CLASS.is_integer());
            assert!(size_of::<u64>() == 4, "the alias, not the primitive");
            status(
                (ClassProbe::<Status>::CLASS, ValueProbe::<Status>::INVALID),
                "",
                "",
                "",
            );
            status(
                (
                    ClassProbe::<crate::types::CUresult>::CLASS,
                    ValueProbe::<crate::types::CUresult>::INVALID,
                ),
                "",
                "",
                "",
            );
            writable(AccessProbe::<*mut u8>::READ_ONLY, "");
            valid((Proven::<u8>::FROM_DRIVER, ""), "", "", "");
            valid((Proven::<c_void>::FROM_DRIVER, ""), "", "", "");
        }
    }

    /// Every std type with invalid values, alone and in every container, is not proven; the
    /// same containers of a type that holds any value are (the containers that can be: a tuple
    /// has no defined layout, a `Box` or an `Option` of a reference must point somewhere).
    #[test]
    fn what_is_not_proven_is_refused_in_every_container() {
        use core::cell::{Cell, UnsafeCell};
        use core::mem::{ManuallyDrop, MaybeUninit};
        use core::num::Wrapping;
        use core::sync::atomic::{AtomicBool, AtomicU64};
        type Callback = unsafe extern "C" fn(*mut c_void);
        #[allow(dead_code)]
        #[repr(u32)]
        enum Level {
            Error = 0,
        }
        #[repr(transparent)]
        struct Context(#[allow(dead_code)] NonNull<c_void>);
        macro_rules! containers {
            ($proven:literal: $($t:ty),*) => {{
                $(
                    assert!(Proven::<$t>::FROM_DRIVER == $proven, stringify!($t));
                    assert!(Proven::<[$t; 2]>::FROM_DRIVER == $proven, stringify!([$t; 2]));
                    assert!(Proven::<ManuallyDrop<$t>>::FROM_DRIVER == $proven, stringify!($t));
                    assert!(Proven::<Cell<$t>>::FROM_DRIVER == $proven, stringify!($t));
                    assert!(Proven::<UnsafeCell<$t>>::FROM_DRIVER == $proven, stringify!($t));
                    assert!(Proven::<Wrapping<$t>>::FROM_DRIVER == $proven, stringify!($t));
                    // Never proven, whatever they hold.
                    assert!(!Proven::<($t,)>::FROM_DRIVER, stringify!(($t,)));
                    assert!(!Proven::<Option<&$t>>::FROM_DRIVER, stringify!(Option<&$t>));
                    assert!(!Proven::<&$t>::FROM_DRIVER, stringify!(&$t));
                    // The escape holds anything.
                    assert!(Proven::<MaybeUninit<$t>>::FROM_DRIVER, stringify!($t));
                )*
            }};
        }
        const {
            containers!(false: bool, char, NonZero<i32>, core::num::NonZeroU64, &'static u64,
                NonNull<c_void>, Callback, fn(), Level, Context, Option<Level>);
            containers!(true: u8, i32, u64, usize, f32, f64, *mut c_void, *const u8,
                Option<NonNull<c_void>>, Option<Callback>, [u32; 4], crate::types::CUresult);
            assert!(!Proven::<AtomicBool>::FROM_DRIVER);
            assert!(Proven::<AtomicU64>::FROM_DRIVER);
            assert!(!Proven::<std::boxed::Box<u64>>::FROM_DRIVER);
        }
    }

    #[test]
    fn failures_say_what_the_type_is() {
        #[allow(dead_code)]
        #[derive(Clone, Copy)]
        #[repr(u32)]
        enum Code {
            Success = 0,
        }
        let text = |f: fn()| {
            let payload = std::panic::catch_unwind(f).expect_err("a failure panics");
            payload
                .downcast_ref::<String>()
                .cloned()
                .unwrap_or_default()
        };
        assert_eq!(
            text(|| status(
                (ClassProbe::<Code>::CLASS, ValueProbe::<Code>::INVALID),
                "b: ",
                ": a",
                "\nt"
            )),
            format!("b: {NOT_AN_INTEGER}: a\nt")
        );
        assert!(
            text(|| status(
                (ClassProbe::<char>::CLASS, ValueProbe::<char>::INVALID),
                "",
                "",
                ""
            ))
            .starts_with("a `char`")
        );
        assert_eq!(
            text(|| valid((Proven::<[bool; 2]>::FROM_DRIVER, ""), "<", ">", "")),
            format!("<{}>", value_words::UNPROVEN)
        );
        // A kind with known invalid values is named, whatever it is called.
        type Flag = bool;
        assert_eq!(
            text(|| valid(
                (Proven::<Flag>::FROM_DRIVER, ValueProbe::<Flag>::INVALID),
                "<",
                ">",
                ""
            )),
            format!("<{}>", value_words::BOOL)
        );
        assert_eq!(text(|| writable(true, "read only")), "read only");
    }
}
