//! What the expansion's ABI assertions ask the compiler: a declared type's size and alignment
//! ([`Layout`]), whether it is a data pointer and what it points to ([`CPointer`],
//! [`CPointerSlot`]), whether it is `c_void`, a float, an integer or a pointer ([`Probe`]). The
//! macro reads tokens; these see the type itself, through the user's aliases.
//!
//! The assertions are written in the declaring crate and panic there with the macro's message
//! ([`Message`] adds the layout found), so that a failure shows that message at the declared type
//! and no frame of this crate.

use core::ffi::c_void;
use core::marker::PhantomData;
use core::mem::MaybeUninit;
use core::ptr::NonNull;

use super::seal::{CPointerMark, CPointerSlotMark, CSlotMark, PointeeMark, Seal};
use crate::by_value::{ByValue, Byte, Classes};

/// A thin pointer to data, and the type it points to: what a C `T *` parameter may be declared
/// as. Implemented for `*mut T`, `*const T`, `&T`, `&mut T`, `NonNull<T>` and `Option`s of the
/// last three, `T` sized (a pointer to an unsized type is two words).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a thin pointer to data, but the C parameter is a pointer",
    label = "the C type has a `*` here",
    note = "declare `*mut T`, `*const T`, `&T`, `&mut T`, `NonNull<T>`, or an `Option` of a \
            reference or a `NonNull`, with `T` of the C pointee's layout, or `c_void` to leave \
            the pointee unchecked"
)]
pub trait CPointer: Seal<CPointerMark> {
    /// The type pointed to.
    type Pointee;
    /// Whether it is a raw pointer (`*mut T`, `*const T`, `NonNull<T>`, `Option<NonNull<T>>`),
    /// which may reach beyond one `T`, rather than a reference, which claims exactly one `T`: only
    /// a raw pointer to `c_void` leaves what it points to unchecked.
    const RAW: bool;
}

macro_rules! c_pointer {
    ($raw:literal: $($pointer:ty),*) => {
        $(impl<'a, T> CPointer for $pointer {
            type Pointee = T;
            const RAW: bool = $raw;
        }
        impl<'a, T> Seal<CPointerMark> for $pointer {})*
    };
}
c_pointer!(true: *mut T, *const T, NonNull<T>, Option<NonNull<T>>);
c_pointer!(false: &'a T, &'a mut T, Option<&'a T>, Option<&'a mut T>);

/// What a C `T **` parameter's pointee may be: a pointer (whose pointee is checked in turn), or
/// `c_void`, which leaves it unchecked.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a pointer, but the C parameter points to a pointer",
    label = "the C type has `**` here",
    note = "declare a pointer to a pointer (`*mut *const T`), or `*mut c_void` to leave the \
            pointee unchecked"
)]
pub trait CPointerSlot: Seal<CPointerSlotMark> {
    /// What the pointee points to.
    type Pointee;
    /// Whether the pointer is raw ([`CPointer::RAW`]).
    const RAW: bool;
}

impl<P: CPointer> CPointerSlot for P {
    type Pointee = P::Pointee;
    const RAW: bool = P::RAW;
}
impl<P: CPointer> Seal<CPointerSlotMark> for P {}

impl CPointerSlot for c_void {
    type Pointee = c_void;
    const RAW: bool = true;
}
impl Seal<CPointerSlotMark> for c_void {}

/// A pointer not yet written: where the driver stores the pointer itself (`const char **pStr`,
/// `void **pp`), `&mut MaybeUninit<*const c_char>`; what it points to is checked as the pointer's.
impl<P: CPointer> CPointerSlot for MaybeUninit<P> {
    type Pointee = P::Pointee;
    const RAW: bool = P::RAW;
}
impl<P: CPointer> Seal<CPointerSlotMark> for MaybeUninit<P> {}

/// An array of pointers (`data: &[*mut u64; 3]` for `void **data`): each element's pointee is
/// checked as one pointer's.
impl<P: CPointer, const N: usize> CPointerSlot for [P; N] {
    type Pointee = P::Pointee;
    const RAW: bool = P::RAW;
}
impl<P: CPointer, const N: usize> Seal<CPointerSlotMark> for [P; N] {}

/// What the `void *` a C `void **` points to may be declared as, where nothing below it is
/// checked: a pointer ([`CPointerSlot`]: a data pointer, `c_void`, a `MaybeUninit` or an array
/// of pointers), or an `Option` of a function pointer of the C or system ABI (`cuGetProcAddress`
/// stores a function's address there). Not an integer or a struct of a pointer's size.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a pointer, but the C parameter points to a pointer",
    label = "the C type has `**` here",
    note = "declare a pointer to a pointer (`*mut *mut c_void`), an `Option` of a function \
            pointer where the driver stores a function's address, or `*mut c_void` to leave the \
            pointee unchecked"
)]
pub trait CSlot: Seal<CSlotMark> {}

impl<P: CPointerSlot> Seal<CSlotMark> for P {}
impl<P: CPointerSlot> CSlot for P {}

macro_rules! function_slots {
    ($(($($arg:ident),*)),*) => {
        $(
            function_slots!(@one Option<extern "C" fn($($arg),*) -> R>; $($arg),*);
            function_slots!(@one Option<unsafe extern "C" fn($($arg),*) -> R>; $($arg),*);
            function_slots!(@one Option<extern "system" fn($($arg),*) -> R>; $($arg),*);
            function_slots!(@one Option<unsafe extern "system" fn($($arg),*) -> R>; $($arg),*);
        )*
    };
    (@one $t:ty; $($arg:ident),*) => {
        impl<R, $($arg),*> Seal<CSlotMark> for $t {}
        impl<R, $($arg),*> CSlot for $t {}
    };
}
every_arity!(function_slots);

/// Nothing: a call type-checks only when `S` may stand where C has the `void *` of a `void **`
/// ([`CSlot`]).
pub const fn slot<S: CSlot>() {}

/// The class of a type as the C calling convention sees it, where the compiler knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumberClass {
    /// A type of the user's (a newtype, an enum, a struct), an array, a function pointer: not
    /// judged.
    Unknown,
    /// A primitive integer, `bool` or `char`: an integer register.
    Integer,
    /// `f32` or `f64`: a floating-point register.
    Float,
    /// A data pointer of a shape [`CPointer`] knows: an integer register.
    Pointer,
}

impl NumberClass {
    /// Whether it is [`NumberClass::Integer`].
    pub const fn is_integer(self) -> bool {
        matches!(self, NumberClass::Integer)
    }

    /// Whether it is [`NumberClass::Float`].
    pub const fn is_float(self) -> bool {
        matches!(self, NumberClass::Float)
    }

    /// Whether it is [`NumberClass::Pointer`].
    pub const fn is_pointer(self) -> bool {
        matches!(self, NumberClass::Pointer)
    }
}

/// Questions about a concrete type `T`, answered by an inherent associated constant where one
/// applies and otherwise by [`ProbeFallback`]'s (inherent items take precedence, and a type
/// alias is resolved before the lookup): `Probe::<T>::VOID`, whether `T` is `c_void`. The
/// assertion brings `ProbeFallback` into scope.
#[derive(Debug)]
pub struct Probe<T: ?Sized>(PhantomData<T>);

/// The answers for a type none of [`Probe`]'s inherent impls name.
pub trait ProbeFallback {
    /// Whether `T` is `c_void`.
    const VOID: bool = false;
    /// What `T` is as a pointee ([`PointeeShape`]): neither `c_void` nor an array.
    const POINTEE: PointeeShape = PointeeShape::VALUE;
}

impl<T: ?Sized> ProbeFallback for Probe<T> {}

impl Probe<c_void> {
    /// `c_void`: the pointee of an explicitly unchecked pointer.
    pub const VOID: bool = true;
}

/// `ClassProbe::<T>::CLASS`: `T`'s [`NumberClass`], as [`Probe`] answers (with
/// [`ClassFallback`]), for the C `float` and `double` parameters, which must be told from integers
/// and pointers too.
#[derive(Debug)]
pub struct ClassProbe<T: ?Sized>(PhantomData<T>);

/// The answer for a type none of [`ClassProbe`]'s inherent impls name.
pub trait ClassFallback {
    /// `T`'s class.
    const CLASS: NumberClass = NumberClass::Unknown;
}

impl<T: ?Sized> ClassFallback for ClassProbe<T> {}

macro_rules! class {
    ($class:ident: $($t:ty),*) => {
        $(impl<'a, T> ClassProbe<$t> {
            /// The class of this type.
            pub const CLASS: NumberClass = NumberClass::$class;
        })*
    };
    ($class:ident; $($t:ty),*) => {
        $(impl ClassProbe<$t> {
            /// The class of this type.
            pub const CLASS: NumberClass = NumberClass::$class;
        })*
    };
}
class!(Integer; u8, i8, u16, i16, u32, i32, u64, i64, u128, i128, usize, isize, bool, char);
class!(Float; f32, f64);
// The crate's own status type: a `#[repr(transparent)]` `i32`, valid for every status.
class!(Integer; crate::types::CUresult);
class!(Pointer: *mut T, *const T, &'a T, &'a mut T, NonNull<T>, Option<&'a T>, Option<&'a mut T>,
    Option<NonNull<T>>);

/// A size and alignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    size: usize,
    align: usize,
}

impl Layout {
    /// `T`'s.
    pub const fn of<T>() -> Layout {
        Layout {
            size: size_of::<T>(),
            align: align_of::<T>(),
        }
    }

    /// Whether it is `size` bytes aligned to `align`.
    pub const fn is(self, size: usize, align: usize) -> bool {
        self.size == size && self.align == align
    }
}

/// The longest message an assertion prints (the symbol's typedefs included); longer ones are cut.
const CAPACITY: usize = 4096;

/// A message built at compile time: the macro's text around the layout found.
#[derive(Debug)]
pub struct Message {
    buf: [u8; CAPACITY],
    len: usize,
}

impl Message {
    /// `before`, then `found` as `N bytes, align A`, then `after`.
    pub const fn layout(before: &str, found: Layout, after: &str) -> Message {
        let mut message = Message {
            buf: [0; CAPACITY],
            len: 0,
        };
        message.push(before.as_bytes());
        message.push_number(found.size);
        message.push(b" bytes, align ");
        message.push_number(found.align);
        message.push(after.as_bytes());
        message
    }

    /// `text`.
    pub const fn text(text: &str) -> Message {
        Message {
            buf: [0; CAPACITY],
            len: 0,
        }
        .then(text)
    }

    /// The message with `text` added.
    pub const fn then(mut self, text: &str) -> Message {
        self.push(text.as_bytes());
        self
    }

    /// The message with `n` added, in decimal.
    pub const fn then_number(mut self, n: usize) -> Message {
        self.push_number(n);
        self
    }

    /// The text (cut at a character boundary if it overflowed).
    pub const fn as_str(&self) -> &str {
        let (mut bytes, _) = self.buf.split_at(self.len);
        loop {
            match core::str::from_utf8(bytes) {
                Ok(text) => return text,
                Err(e) => bytes = bytes.split_at(e.valid_up_to()).0,
            }
        }
    }

    const fn push(&mut self, bytes: &[u8]) {
        let mut i = 0;
        while i < bytes.len() && self.len < CAPACITY {
            self.buf[self.len] = bytes[i];
            self.len += 1;
            i += 1;
        }
    }

    const fn push_number(&mut self, mut n: usize) {
        let mut digits = [0u8; 20];
        let mut count = 0;
        loop {
            digits[digits.len() - 1 - count] = b'0' + (n % 10) as u8;
            count += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        let (_, used) = digits.split_at(digits.len() - count);
        self.push(used);
    }
}

/// Nothing: a call type-checks only when `P` is a data pointer ([`CPointer`]).
pub const fn pointer<P: CPointer>() {}

/// The C layout a declared type must have, and the message when it has another: `before`, the
/// layout found, `after`, then the words of `others` for the layout found (the typedefs that
/// have it), then the declaration's typedefs.
#[derive(Clone, Copy, Debug)]
pub struct Expect<'a> {
    /// The C size.
    pub size: usize,
    /// The C alignment.
    pub align: usize,
    /// The other layouts accepted: those the headers of the typedef's other toolkits gave the C
    /// type.
    pub also: &'a [(usize, usize)],
    /// The message up to the layout found.
    pub before: &'a str,
    /// The message after it.
    pub after: &'a str,
    /// Other layouts this place has in the symbol's other typedefs, each with the words naming
    /// those typedefs.
    pub others: &'a [(usize, usize, &'a str)],
}

/// [`Expect::others`] where there are none.
pub const NO_OTHERS: &[(usize, usize, &str)] = &[];

/// [`Expect::also`] where there are none.
pub const NO_LAYOUTS: &[(usize, usize)] = &[];

/// The classes of the C types most parameters have, as constants the expansion names: a path
/// costs the compiler less than building the list at each parameter (docs/performance.md).
pub mod c_classes {
    use crate::by_value::Classes;

    /// An integer of 1 byte.
    pub const INTEGER_1: &[Classes] = &[Classes::integer(1)];
    /// An integer of 2 bytes.
    pub const INTEGER_2: &[Classes] = &[Classes::integer(2)];
    /// An integer of 4 bytes.
    pub const INTEGER_4: &[Classes] = &[Classes::integer(4)];
    /// An integer of 8 bytes.
    pub const INTEGER_8: &[Classes] = &[Classes::integer(8)];
    /// A pointer.
    pub const POINTER: &[Classes] = &[Classes::POINTER];
    /// An opaque handle: a pointer, or an integer of its size.
    pub const HANDLE: &[Classes] = &[Classes::POINTER, Classes::integer(size_of::<*const ()>())];
    /// A C `float`.
    pub const F32: &[Classes] = &[Classes::F32];
    /// A C `double`.
    pub const F64: &[Classes] = &[Classes::F64];
}

impl Expect<'_> {
    /// Whether `found` is the C layout or one of the others accepted.
    const fn accepts(&self, found: Layout) -> bool {
        found.is_one_of((self.size, self.align), self.also)
    }
}

impl Layout {
    /// Whether it is `first` or one of `also` (the layouts other headers gave the C type).
    pub(crate) const fn is_one_of(self, first: (usize, usize), also: &[(usize, usize)]) -> bool {
        if self.is(first.0, first.1) {
            return true;
        }
        let mut i = 0;
        while i < also.len() {
            if self.is(also[i].0, also[i].1) {
                return true;
            }
            i += 1;
        }
        false
    }
}

/// Fails compilation with the message when `T` does not have the expected layout, unless `skip`
/// (the pointee is `c_void`, or a `c_void` stands above it). `#[track_caller]`: the error points
/// at the call, which the expansion spans over the declared type, and shows no frame of this
/// crate.
#[track_caller]
pub const fn layout<T>(skip: bool, expect: Expect<'_>, typedefs: &str) {
    let found = Layout::of::<T>();
    // The message only on failure: const evaluation of a passing check builds nothing.
    if !skip && !expect.accepts(found) {
        layout_failed(found, expect, typedefs);
    }
}

/// What a declared pointer points to, as its layout check needs it: `c_void` (unchecked), an
/// array of at least one element (whose element's layout a C `T *` to an array of `T` accepts:
/// `char *luid`, 8 bytes; `float *pBorderColor`, 4 floats), or any other type.
/// `Probe::<T>::POINTEE` answers, one probe for both questions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointeeShape {
    /// `c_void`.
    void: bool,
    /// An array's element, for an array of at least one.
    element: Option<Layout>,
}

impl PointeeShape {
    /// Neither `c_void` nor an array.
    pub const VALUE: PointeeShape = PointeeShape {
        void: false,
        element: None,
    };
}

/// The pointees [`PointeeShape`] tells apart: `c_void` and arrays. One inherent impl of
/// [`Probe`], bounded by this trait, answers for both: a type the compiler could not resolve then
/// meets one candidate, not several.
pub trait Pointee: Seal<PointeeMark> {
    /// What it is as a pointee.
    const SHAPE: PointeeShape;
}

impl Seal<PointeeMark> for c_void {}
impl Pointee for c_void {
    const SHAPE: PointeeShape = PointeeShape {
        void: true,
        element: None,
    };
}

impl<E, const N: usize> Seal<PointeeMark> for [E; N] {}
impl<E, const N: usize> Pointee for [E; N] {
    const SHAPE: PointeeShape = PointeeShape {
        void: false,
        element: if N == 0 {
            None
        } else {
            Some(Layout::of::<E>())
        },
    };
}

impl<T: ?Sized + Pointee> Probe<T> {
    /// What `T` is as a pointee: `c_void`, or an array of at least one.
    pub const POINTEE: PointeeShape = T::SHAPE;
}

/// Fails compilation with the message when `T`, what a declared pointer points to (`shape`:
/// `Probe::<T>::POINTEE`), has neither the expected layout nor is an array of elements of it,
/// unless a raw pointer (`raw`: [`CPointer::RAW`]) points to `c_void` or `above` (a `c_void`
/// stands above it). A reference to `c_void` claims one byte where the driver reaches the C
/// type's: refused. `#[track_caller]` as [`layout`].
#[track_caller]
pub const fn pointee<T>(
    (shape, raw, above): (PointeeShape, bool, bool),
    expect: Expect<'_>,
    typedefs: &str,
) {
    if above || (shape.void && raw) {
        return;
    }
    if shape.void {
        let message = Message::text(expect.before)
            .then(REFERENCE_TO_VOID)
            .then(typedefs);
        panic!("{}", message.as_str());
    }
    let found = Layout::of::<T>();
    let array = match shape.element {
        Some(element) => expect.accepts(element),
        None => false,
    };
    if !array && !expect.accepts(found) {
        layout_failed(found, expect, typedefs);
    }
}

/// [`pointee`] for a raw pointer written out (`*mut T`, `*const T`): `c_void` leaves it unchecked.
/// The common case, with fewer arguments for the compiler to read and evaluate.
#[track_caller]
pub const fn raw_pointee<T>(shape: PointeeShape, expect: Expect<'_>, typedefs: &str) {
    if shape.void {
        return;
    }
    let found = Layout::of::<T>();
    if expect.accepts(found) {
        return;
    }
    match shape.element {
        Some(element) if expect.accepts(element) => {}
        _ => layout_failed(found, expect, typedefs),
    }
}

/// The words after "points to" for a reference to `c_void`.
const REFERENCE_TO_VOID: &str = "`c_void` through a reference, which claims one byte where the \
    driver reaches the whole C type: declare a raw pointer (`*mut c_void`, `*const c_void`) to \
    leave what it points to unchecked";

/// Fails compilation with the message when a reference (not `raw`, [`CPointer::RAW`]) points to
/// `T` of fewer than `bytes`, where the driver reaches a documented number of elements
/// (`char *luid`: 8 bytes; `float *pBorderColor`: 4 floats): a reference claims only its own
/// `T`. A raw pointer's extent is the caller's to give. `#[track_caller]` as [`layout`].
#[track_caller]
pub const fn extent<T>(raw: bool, bytes: usize, before: &str, after: &str, typedefs: &str) {
    let found = Layout::of::<T>();
    if !raw && found.size < bytes {
        let message = Message::text(before)
            .then_number(found.size)
            .then(after)
            .then(typedefs);
        panic!("{}", message.as_str());
    }
}

/// [`layout`]'s failure: the message, panicked at the caller.
#[track_caller]
const fn layout_failed(found: Layout, expect: Expect<'_>, typedefs: &str) -> ! {
    let mut message = Message::layout(expect.before, found, expect.after);
    let mut i = 0;
    while i < expect.others.len() {
        let (size, align, words) = expect.others[i];
        if found.is(size, align) {
            message = message.then(words);
        }
        i += 1;
    }
    panic!("{}", message.then(typedefs).as_str());
}

/// `Passed::<T>::CLASSES`: how `T` is passed by value, `Some` of its [`ByValue`] classes, or
/// [`PassedFallback`]'s `None` for a type not proven: what is not proven is refused.
#[derive(Debug)]
pub struct Passed<T: ?Sized>(PhantomData<T>);

/// The answer for a type that is not [`ByValue`].
pub trait PassedFallback {
    /// Not proven.
    const CLASSES: Option<Classes> = None;
}

impl<T: ?Sized> PassedFallback for Passed<T> {}

impl<T: ByValue> Passed<T> {
    /// Its classes.
    pub const CLASSES: Option<Classes> = Some(T::CLASSES);
}

/// What is wrong with passing a value of classes `found` ([`Passed`]) where C passes one of
/// `c` (a handle: a pointer or an integer of its size), in words; `None` when nothing is, or
/// when `c` is empty (not checked: a status, whose own check proves more).
pub const fn class_mismatch(found: Option<Classes>, c: &[Classes]) -> Option<Message> {
    use cuda_entry_table::class_words as words;
    if c.is_empty() {
        return None;
    }
    let Some(found) = found else {
        return Some(Message::text(words::UNPROVEN));
    };
    let mut i = 0;
    while i < c.len() {
        if found.passes_as(&c[i]) {
            return None;
        }
        i += 1;
    }
    let expected = c[0];
    if found.is_aggregate()
        && expected.is_aggregate()
        && found.size() == expected.size()
        && let Some(at) = found.mismatch(&expected)
    {
        return Some(
            Message::text(words::RECORD_BYTE)
                .then_number(at)
                .then(" is ")
                .then(byte_words(found.byte(at)))
                .then(" where C's is ")
                .then(byte_words(expected.byte(at))),
        );
    }
    let kind = if found.is_aggregate() {
        words::RECORD
    } else {
        match found.byte(0) {
            Byte::Float32 | Byte::Float64 => words::FLOAT,
            Byte::Pointer => words::POINTER,
            _ => words::INTEGER,
        }
    };
    Some(Message::text(kind))
}

const fn byte_words(byte: Byte) -> &'static str {
    use cuda_entry_table::class_words as words;
    match byte {
        Byte::Padding => words::PADDING,
        Byte::Integer => words::INTEGER_BYTE,
        Byte::Pointer => words::POINTER_BYTE,
        Byte::Float32 => words::FLOAT32_BYTE,
        Byte::Float64 => words::FLOAT64_BYTE,
    }
}

/// Fails compilation when `T`, a parameter or return type passed by value, does not have the
/// expected layout, or is not proven to be passed as the C type is (`found`: [`Passed`]'s
/// answer; `c`: the C type's classes, any one of which passes; empty: not checked); the words
/// naming what it is go between `class_before` and `class_after`. `#[track_caller]` as
/// [`layout`].
#[track_caller]
pub const fn value<T>(
    expect: Expect<'_>,
    (found, c): (Option<Classes>, &[Classes]),
    class_before: &str,
    class_after: &str,
    typedefs: &str,
) {
    layout::<T>(false, expect, typedefs);
    if let Some(words) = class_mismatch(found, c) {
        let message = Message::text(class_before)
            .then(words.as_str())
            .then(class_after)
            .then(typedefs);
        panic!("{}", message.as_str());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Bias = u32;
    type SizePtr = *mut usize;
    type Opaque = c_void;

    #[allow(unused_imports)]
    use {ClassFallback as _, PassedFallback as _, ProbeFallback as _};

    #[test]
    fn probes_see_through_aliases() {
        const {
            assert!(ClassProbe::<Bias>::CLASS.is_integer());
            assert!(ClassProbe::<f32>::CLASS.is_float());
            assert!(ClassProbe::<SizePtr>::CLASS.is_pointer());
            assert!(ClassProbe::<Option<&mut u8>>::CLASS.is_pointer());
            assert!(matches!(ClassProbe::<[u8; 4]>::CLASS, NumberClass::Unknown));
            assert!(ClassProbe::<<SizePtr as CPointer>::Pointee>::CLASS.is_integer());
            assert!(Probe::<<*mut Opaque as CPointer>::Pointee>::VOID);
            assert!(!Probe::<<*mut u8 as CPointer>::Pointee>::VOID);
            // `c_void` behind `c_void`: a `T **` left unchecked at the first level.
            assert!(Probe::<<<*mut c_void as CPointer>::Pointee as CPointerSlot>::Pointee>::VOID);
            assert!(
                Probe::<<<*mut *const Opaque as CPointer>::Pointee as CPointerSlot>::Pointee>::VOID
            );
            pointer::<NonNull<u64>>();
            assert!(Probe::<[u8; 8]>::POINTEE.element.is_some());
            assert!(Probe::<[u8; 0]>::POINTEE.element.is_none());
            assert!(Probe::<u64>::POINTEE.element.is_none());
            assert!(Probe::<Opaque>::POINTEE.void);
        }
    }

    #[test]
    fn a_message_names_the_layout_found() {
        let message = Message::layout(
            "parameter 2 `bytesize` is `size_t bytesize` (8 bytes, align 8), but `u32` is ",
            Layout::of::<u32>(),
            ": declare it with a type of the C layout",
        );
        assert_eq!(
            message.as_str(),
            "parameter 2 `bytesize` is `size_t bytesize` (8 bytes, align 8), but `u32` is 4 \
             bytes, align 4: declare it with a type of the C layout"
        );
        let message = Message::layout("a ", Layout::of::<u8>(), ".")
            .then(" b")
            .then("\nc");
        assert_eq!(message.as_str(), "a 1 bytes, align 1. b\nc");
        assert!(Layout::of::<u64>().is(8, 8));
        assert!(!Layout::of::<u64>().is(8, 4));
    }

    #[test]
    fn checks_speak_only_of_a_mismatch() {
        const EXPECT: Expect<'_> = Expect {
            size: 8,
            align: 8,
            also: &[(16, 16)],
            before: "b ",
            after: " a",
            others: &[(4, 4, "; v2000"), (2, 2, "; v1000")],
        };
        const FOUR: Expect<'_> = Expect {
            size: 4,
            align: 4,
            also: NO_LAYOUTS,
            before: "",
            after: "",
            others: &[],
        };
        const EIGHT: Expect<'_> = Expect {
            size: 8,
            align: 8,
            also: NO_LAYOUTS,
            before: "",
            after: "",
            others: &[],
        };
        let eight_four = Expect {
            size: 8,
            align: 4,
            ..FOUR
        };
        let (expect, four) = (EXPECT, FOUR);
        const {
            layout::<u64>(false, EXPECT, "\nt");
            layout::<u32>(true, EXPECT, "\nt");
            value::<f32>(FOUR, (Passed::<f32>::CLASSES, &[Classes::F32]), "", "", "");
            value::<u32>(
                FOUR,
                (Passed::<u32>::CLASSES, &[Classes::integer(4)]),
                "",
                "",
                "",
            );
            value::<f32>(FOUR, (Passed::<f32>::CLASSES, &[]), "", "", "");
            // A handle: a pointer, or an integer of its size.
            let handle = &[Classes::POINTER, Classes::integer(8)];
            value::<u64>(EIGHT, (Passed::<u64>::CLASSES, handle), "", "", "");
            value::<*mut u8>(EIGHT, (Passed::<*mut u8>::CLASSES, handle), "", "", "");
        }
        // At run time (never, in an expansion) a failed check panics with the message.
        let message = |check: &dyn Fn()| {
            let payload = std::panic::catch_unwind(std::panic::AssertUnwindSafe(check))
                .expect_err("a mismatch panics");
            payload
                .downcast_ref::<String>()
                .cloned()
                .unwrap_or_default()
        };
        // Another layout the headers gave the type.
        layout::<u128>(false, expect, "\nt");
        assert_eq!(
            message(&|| layout::<u32>(false, expect, "\nt")),
            "b 4 bytes, align 4 a; v2000\nt"
        );
        assert_eq!(
            message(&|| layout::<u8>(false, expect, "")),
            "b 1 bytes, align 1 a"
        );
        let class = (Passed::<u32>::CLASSES, &[Classes::F32][..]);
        assert_eq!(
            message(&|| value::<u32>(four, class, "`u32` is ", ": f32", "")),
            "`u32` is an integer, passed in an integer register: f32"
        );
        let class = (Passed::<f32>::CLASSES, &[Classes::integer(4)][..]);
        assert!(
            message(&|| value::<f32>(four, class, "", "", "")).starts_with("a floating-point type")
        );
        // Not `ByValue`: not proven, whatever its layout.
        struct Bias(#[allow(dead_code)] u32);
        let class = (Passed::<Bias>::CLASSES, &[Classes::F32][..]);
        assert!(message(&|| value::<Bias>(four, class, "", "", "")).starts_with("not proven"));
        // A record byte by byte.
        let c = Classes::record(8).bytes(0, 8, crate::Byte::Integer);
        let class = (Passed::<[f32; 2]>::CLASSES, &[c][..]);
        assert_eq!(
            message(&|| value::<[f32; 2]>(eight_four, class, "", "", "")),
            "a record whose byte 0 is part of a `float` (`f32`) where C's is part of an integer"
        );
    }

    #[test]
    fn numbers_are_written_in_decimal_and_long_messages_are_cut() {
        let found = Layout {
            size: 1_234_567_890,
            align: 0,
        };
        assert_eq!(
            Message::layout("", found, "").as_str(),
            "1234567890 bytes, align 0"
        );
        // One byte of ASCII, then two-byte characters: the last one is cut in the middle.
        let long = format!("a{}", "é".repeat(CAPACITY));
        let cut = Message::layout(&long, found, "");
        assert_eq!(cut.as_str().len(), CAPACITY - 1);
        assert!(cut.as_str().ends_with('é'));
    }
}
