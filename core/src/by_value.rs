//! [`ByValue`]: the proof of how the C calling convention passes a type by value.
//!
//! A parameter travels in a register of its class: an integer or a pointer in an integer
//! register, a `float` or a `double` in a floating-point one, a small record in the registers of
//! the classes of its bytes (x86-64 System V), or as one integer (Windows x64), or in the
//! floating-point registers when it is made of floats only (AArch64). A declared type whose
//! class is not the C type's compiles, and the driver reads garbage. So every type a declaration
//! passes by value, or a callback receives, must prove its class: the crate proves it for the
//! primitives, pointers and transparent wrappers; a type of yours proves it with
//! `#[derive(ByValue)]`, which computes it from the fields.

use core::cell::{Cell, UnsafeCell};
use core::marker::PhantomData;
use core::mem::{ManuallyDrop, MaybeUninit};
use core::num::{NonZero, Saturating, Wrapping};
use core::ptr::NonNull;

/// The class of one byte of a value as the calling conventions see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Byte {
    /// Padding: no field covers it.
    Padding,
    /// Part of an integer (a C integer or enum, `bool`).
    Integer,
    /// Part of a pointer (to data or to a function).
    Pointer,
    /// Part of a `float` (`f32`).
    Float32,
    /// Part of a `double` (`f64`).
    Float64,
}

/// How many leading bytes [`Classes`] records: every record a driver function takes by value is
/// 64 bytes or fewer, and larger ones travel in memory on every convention.
pub const TRACKED: usize = 64;

/// The bits of bytes `offset .. offset + count`, cut at [`TRACKED`].
const fn span(offset: usize, count: usize) -> u64 {
    if offset >= TRACKED || count == 0 {
        return 0;
    }
    let end = if offset + count > TRACKED {
        TRACKED
    } else {
        offset + count
    };
    let width = end - offset;
    let ones = if width == TRACKED {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    ones << offset
}

/// How the C calling convention passes a value: its size, whether it is one scalar (an integer,
/// a float, a pointer) or an aggregate (a struct, a union, an array), and the class of each of
/// its first [`TRACKED`] bytes (a bit per byte for each class: comparing two is a few
/// operations, which the compiler evaluates once per declared type). Built with the `const`
/// constructors, as `#[derive(ByValue)]` does:
/// `Classes::record(size_of::<T>()).field(offset_of!(T, x), <X as ByValue>::CLASSES)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Classes {
    size: usize,
    aggregate: bool,
    integer: u64,
    pointer: u64,
    float32: u64,
    float64: u64,
}

impl Classes {
    /// A pointer (to data or to a function).
    pub const POINTER: Classes = Classes::scalar(size_of::<*const ()>(), Byte::Pointer);
    /// A C `float`: `f32`.
    pub const F32: Classes = Classes::scalar(4, Byte::Float32);
    /// A C `double`: `f64`.
    pub const F64: Classes = Classes::scalar(8, Byte::Float64);

    /// Nothing yet: `size` bytes of padding.
    const fn empty(size: usize, aggregate: bool) -> Classes {
        Classes {
            size,
            aggregate,
            integer: 0,
            pointer: 0,
            float32: 0,
            float64: 0,
        }
    }

    /// These classes with the bits `bits` of class `byte` added (padding adds nothing).
    const fn with(mut self, bits: u64, byte: Byte) -> Classes {
        match byte {
            Byte::Padding => {}
            Byte::Integer => self.integer |= bits,
            Byte::Pointer => self.pointer |= bits,
            Byte::Float32 => self.float32 |= bits,
            Byte::Float64 => self.float64 |= bits,
        }
        self
    }

    /// A scalar of `size` bytes of class `byte`.
    const fn scalar(size: usize, byte: Byte) -> Classes {
        Classes::empty(size, false).with(span(0, size), byte)
    }

    /// An integer (a C integer or enum) of `size` bytes.
    pub const fn integer(size: usize) -> Classes {
        Classes::scalar(size, Byte::Integer)
    }

    /// A struct, union or array of `size` bytes with no field yet: all padding. Add each field
    /// with [`field`](Classes::field).
    pub const fn record(size: usize) -> Classes {
        Classes::empty(size, true)
    }

    /// The record with a field of `field`'s classes at `offset` (a union's fields all at 0:
    /// where they overlap, bytes of different classes are an integer's, a register that holds
    /// both being an integer one).
    #[must_use]
    pub const fn field(mut self, offset: usize, field: Classes) -> Classes {
        if offset >= TRACKED {
            return self;
        }
        self.integer |= field.integer << offset;
        self.pointer |= field.pointer << offset;
        self.float32 |= field.float32 << offset;
        self.float64 |= field.float64 << offset;
        let (i, p, f, d) = (self.integer, self.pointer, self.float32, self.float64);
        let overlap = (i & p) | (i & f) | (i & d) | (p & f) | (p & d) | (f & d);
        self.integer |= overlap;
        self.pointer &= !overlap;
        self.float32 &= !overlap;
        self.float64 &= !overlap;
        self
    }

    /// The record with `count` bytes of class `byte` from `offset`: how the table writes the
    /// C records.
    #[must_use]
    pub const fn bytes(self, offset: usize, count: usize, byte: Byte) -> Classes {
        self.field(offset, Classes::scalar(count, byte))
    }

    /// An array of `count` elements of `element`'s classes.
    pub const fn array(element: Classes, count: usize) -> Classes {
        let size = element.size * count;
        let mut array = Classes::record(size);
        // An element of one class over all its bytes (an integer, a float, a pointer): one run.
        let whole = span(0, element.size);
        let kinds = [
            (element.integer, Byte::Integer),
            (element.pointer, Byte::Pointer),
            (element.float32, Byte::Float32),
            (element.float64, Byte::Float64),
        ];
        let mut k = 0;
        while k < kinds.len() {
            if element.size != 0 && kinds[k].0 == whole {
                return array.with(span(0, size), kinds[k].1);
            }
            k += 1;
        }
        let mut i = 0;
        while i < count && i * element.size < TRACKED {
            array = array.field(i * element.size, element);
            i += 1;
        }
        array
    }

    /// A `#[repr(transparent)]` type's: its one field that is not zero-sized, among `fields`
    /// (each field's classes), or an empty record when all are.
    pub const fn transparent(fields: &[Classes]) -> Classes {
        let mut i = 0;
        while i < fields.len() {
            if fields[i].size != 0 {
                return fields[i];
            }
            i += 1;
        }
        Classes::record(0)
    }

    /// The size in bytes.
    pub const fn size(&self) -> usize {
        self.size
    }

    /// Whether it is a struct, union or array rather than one scalar.
    pub const fn is_aggregate(&self) -> bool {
        self.aggregate
    }

    /// The class of byte `i` (padding past the size and past [`TRACKED`]).
    pub const fn byte(&self, i: usize) -> Byte {
        let bit = span(i, 1) & span(0, self.size);
        if self.integer & bit != 0 {
            Byte::Integer
        } else if self.pointer & bit != 0 {
            Byte::Pointer
        } else if self.float32 & bit != 0 {
            Byte::Float32
        } else if self.float64 & bit != 0 {
            Byte::Float64
        } else {
            Byte::Padding
        }
    }

    /// The first byte at which a value of these classes does not pass as the C type of classes
    /// `c` (`None`: it passes). A scalar stands only for a scalar and an aggregate for an
    /// aggregate (Windows x64 passes a struct of one `float` in an integer register, a `float`
    /// in a floating-point one); a scalar's bytes are all of its class, so an integer does not
    /// stand for a pointer; a record's bytes are judged one by one, anything standing where C
    /// has padding, and an integer and a pointer for each other (they travel in the same
    /// registers).
    pub const fn mismatch(&self, c: &Classes) -> Option<usize> {
        if self.aggregate != c.aggregate || self.size != c.size {
            return Some(0);
        }
        let floats = (c.float32 & !self.float32) | (c.float64 & !self.float64);
        let words = if self.aggregate {
            (c.integer | c.pointer) & !(self.integer | self.pointer)
        } else {
            (c.integer & !self.integer) | (c.pointer & !self.pointer)
        };
        let bad = floats | words;
        if bad == 0 {
            None
        } else {
            Some(bad.trailing_zeros() as usize)
        }
    }

    /// Whether a value of these classes passes as the C type of classes `c`
    /// ([`mismatch`](Classes::mismatch) finds nothing).
    pub const fn passes_as(&self, c: &Classes) -> bool {
        self.mismatch(c).is_none()
    }
}

/// How the C calling convention passes the type by value: its [`Classes`]. What a declaration
/// passes by value (a parameter, a callback's parameter and return) must be `ByValue`, with the
/// C type's classes, or the declaration does not compile.
///
/// Implemented for the integers up to 64 bits, `bool`, `f32`, `f64`, raw pointers, references,
/// `NonNull` and their `Option`s (thin pointers only), `extern "C"` and `extern "system"`
/// function pointers and their `Option`s, `NonZero` integers and their `Option`s, arrays, and
/// `#[repr(transparent)]` wrappers (`Cell`, `UnsafeCell`, `ManuallyDrop`, `MaybeUninit`,
/// `Wrapping`, `Saturating`) of any of them.
///
/// Derive it for a type of yours: `#[derive(cuda_entry::ByValue)]` on a `#[repr(C)]` struct or
/// union (the classes of its fields at their offsets), a `#[repr(transparent)]` struct (its
/// field's), or an enum without fields with `#[repr(C)]` or an integer `#[repr]` (an integer).
/// An enum passed by value is what the caller chose, always one of its values; an enum the
/// driver produces is another matter ([`FromDriver`](crate::FromDriver)).
///
/// # Safety
///
/// `CLASSES` must be what the type is: its size, whether it is an aggregate, and the class of
/// each byte at the offset where the type holds it. The declarations built on it hand the
/// driver values of the type as the C type those classes match.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not proven to be passed by value as a C type is",
    label = "passed by value here",
    note = "integers, `f32`, `f64`, thin pointers, `extern \"C\"` function pointers, arrays and \
            transparent wrappers of them are; a struct, union or field-less enum of yours is \
            with `#[derive(cuda_entry::ByValue)]`"
)]
pub unsafe trait ByValue {
    /// How the type is passed.
    const CLASSES: Classes;
}

macro_rules! integers {
    ($($t:ty),* $(,)?) => {
        $(
            // SAFETY: an integer of its size.
            unsafe impl ByValue for $t {
                const CLASSES: Classes = Classes::integer(size_of::<$t>());
            }
            // SAFETY: `NonZero<T>` and `Option<NonZero<T>>` are `T` to the ABI.
            unsafe impl ByValue for NonZero<$t> {
                const CLASSES: Classes = Classes::integer(size_of::<$t>());
            }
            // SAFETY: as above.
            unsafe impl ByValue for Option<NonZero<$t>> {
                const CLASSES: Classes = Classes::integer(size_of::<$t>());
            }
        )*
    };
}
integers!(u8, i8, u16, i16, u32, i32, u64, i64, usize, isize);

// SAFETY: C's `_Bool`: an integer of one byte.
unsafe impl ByValue for bool {
    const CLASSES: Classes = Classes::integer(1);
}
// SAFETY: C's `float`.
unsafe impl ByValue for f32 {
    const CLASSES: Classes = Classes::F32;
}
// SAFETY: C's `double`.
unsafe impl ByValue for f64 {
    const CLASSES: Classes = Classes::F64;
}

macro_rules! pointers {
    ($($pointer:ty),* $(,)?) => {
        // SAFETY: a thin pointer (`T` is sized); the `Option`s of the non-nullable ones have
        // their layout, NULL for `None`.
        $(unsafe impl<'a, T> ByValue for $pointer {
            const CLASSES: Classes = Classes::POINTER;
        })*
    };
}
pointers!(
    *mut T,
    *const T,
    &'a T,
    &'a mut T,
    NonNull<T>,
    Option<&'a T>,
    Option<&'a mut T>,
    Option<NonNull<T>>
);

/// Function pointer types of each arity up to eight, safe or not, of the C and system ABIs, and
/// their `Option`s: a pointer.
macro_rules! function_pointers {
    ($(($($arg:ident),*)),*) => {
        $(
            function_pointers!(@each ($($arg),*) extern "C" fn($($arg),*) -> R);
            function_pointers!(@each ($($arg),*) unsafe extern "C" fn($($arg),*) -> R);
            function_pointers!(@each ($($arg),*) extern "system" fn($($arg),*) -> R);
            function_pointers!(@each ($($arg),*) unsafe extern "system" fn($($arg),*) -> R);
        )*
    };
    (@each ($($arg:ident),*) $f:ty) => {
        // SAFETY: a function pointer is a pointer to the ABI.
        unsafe impl<R, $($arg),*> ByValue for $f {
            const CLASSES: Classes = Classes::POINTER;
        }
        // SAFETY: its `Option` has its layout, NULL for `None`.
        unsafe impl<R, $($arg),*> ByValue for Option<$f> {
            const CLASSES: Classes = Classes::POINTER;
        }
    };
}
every_arity!(function_pointers);

macro_rules! transparent {
    ($($wrapper:ident),* $(,)?) => {
        // SAFETY: `#[repr(transparent)]` over `T`: passed as `T` is.
        $(unsafe impl<T: ByValue> ByValue for $wrapper<T> {
            const CLASSES: Classes = T::CLASSES;
        })*
    };
}
transparent!(
    Cell,
    UnsafeCell,
    ManuallyDrop,
    MaybeUninit,
    Wrapping,
    Saturating
);

// SAFETY: no bytes (a field of a record, or beside the field of a transparent one).
unsafe impl<T: ?Sized> ByValue for PhantomData<T> {
    const CLASSES: Classes = Classes::record(0);
}

// SAFETY: its elements one after another.
unsafe impl<T: ByValue, const N: usize> ByValue for [T; N] {
    const CLASSES: Classes = Classes::array(T::CLASSES, N);
}

// SAFETY: `#[repr(transparent)]` over an `i32`.
unsafe impl ByValue for crate::types::CUresult {
    const CLASSES: Classes = Classes::integer(4);
}
// SAFETY: `#[repr(C)]` over `[c_char; 16]`.
unsafe impl ByValue for crate::types::CUuuid {
    const CLASSES: Classes = Classes::record(16).bytes(0, 16, Byte::Integer);
}

// SAFETY: `#[repr(C)]`, two `int`s.
unsafe impl ByValue for crate::types::CUmemLocation {
    const CLASSES: Classes = Classes::record(8).bytes(0, 8, Byte::Integer);
}
// SAFETY: `#[repr(C)]` over `[c_char; 64]`.
unsafe impl ByValue for crate::types::CUipcMemHandle {
    const CLASSES: Classes = Classes::record(64).bytes(0, 64, Byte::Integer);
}
// SAFETY: as above.
unsafe impl ByValue for crate::types::CUipcEventHandle {
    const CLASSES: Classes = Classes::record(64).bytes(0, 64, Byte::Integer);
}
// SAFETY: `#[repr(C)]`: three pointers, nine 4-byte integers, 4 bytes of padding.
unsafe impl ByValue for crate::types::CUeglFrame {
    const CLASSES: Classes = Classes::record(size_of::<crate::types::CUeglFrame>())
        .bytes(0, 3 * size_of::<*mut ()>(), Byte::Pointer)
        .bytes(3 * size_of::<*mut ()>(), 36, Byte::Integer);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[repr(C)]
    struct Location {
        kind: u32,
        id: i32,
    }
    // SAFETY: as the derive writes it.
    unsafe impl ByValue for Location {
        const CLASSES: Classes = Classes::record(size_of::<Location>())
            .field(core::mem::offset_of!(Location, kind), u32::CLASSES)
            .field(core::mem::offset_of!(Location, id), i32::CLASSES);
    }

    #[repr(C)]
    struct Floats {
        kind: f32,
        id: f32,
    }
    // SAFETY: as the derive writes it.
    unsafe impl ByValue for Floats {
        const CLASSES: Classes = Classes::record(size_of::<Floats>())
            .field(core::mem::offset_of!(Floats, kind), f32::CLASSES)
            .field(core::mem::offset_of!(Floats, id), f32::CLASSES);
    }

    #[test]
    fn scalars_pass_only_as_their_class() {
        assert!(u32::CLASSES.passes_as(&Classes::integer(4)));
        assert!(f32::CLASSES.passes_as(&Classes::F32));
        assert!(!u32::CLASSES.passes_as(&Classes::F32));
        assert!(!f32::CLASSES.passes_as(&Classes::integer(4)));
        assert!(!f64::CLASSES.passes_as(&Classes::integer(8)));
        // A pointer is not an integer, as a scalar.
        assert!(!<Option<&u64>>::CLASSES.passes_as(&Classes::integer(8)));
        assert!(<*mut u8>::CLASSES.passes_as(&Classes::POINTER));
        assert!(<Option<unsafe extern "C" fn(*mut u8)>>::CLASSES.passes_as(&Classes::POINTER));
        assert!(<Wrapping<u32>>::CLASSES.passes_as(&Classes::integer(4)));
        assert!(<MaybeUninit<f32>>::CLASSES.passes_as(&Classes::F32));
        assert!(<Option<NonZero<u64>>>::CLASSES.passes_as(&Classes::integer(8)));
    }

    #[test]
    fn records_pass_by_the_class_of_each_byte() {
        let c = Classes::record(8).bytes(0, 8, Byte::Integer);
        assert!(Location::CLASSES.passes_as(&c));
        assert_eq!(Floats::CLASSES.mismatch(&c), Some(0));
        // A scalar of the record's size is not the record (nor the other way round).
        assert!(!u64::CLASSES.passes_as(&c));
        assert!(!Location::CLASSES.passes_as(&Classes::integer(8)));
        // Arrays inside a record are their elements; a record of one float is not a float.
        assert!(<[u8; 8]>::CLASSES.passes_as(&c));
        let one_float = Classes::record(4).field(0, f32::CLASSES);
        assert!(!one_float.passes_as(&Classes::F32));
        // Where C has padding anything goes; where it has data, padding does not.
        let padded = Classes::record(8)
            .bytes(0, 1, Byte::Integer)
            .bytes(4, 4, Byte::Integer);
        assert!(c.passes_as(&padded));
        assert_eq!(padded.mismatch(&c), Some(1));
        // Two f32 are not one f64 (AArch64 passes them in two registers).
        let two = Classes::record(8)
            .bytes(0, 4, Byte::Float32)
            .bytes(4, 4, Byte::Float32);
        let one = Classes::record(8).bytes(0, 8, Byte::Float64);
        assert!(!two.passes_as(&one));
        assert!(Floats::CLASSES.passes_as(&two));
    }

    #[test]
    fn the_crate_records_pass_as_the_table_says() {
        use crate::types::{CUeglFrame, CUipcMemHandle, CUmemLocation};
        use cuda_entry_table::{ByteClass, Passing};
        let c = |name: &str| -> Classes {
            let (_, runs) = cuda_entry_table::BY_VALUE_RECORDS
                .iter()
                .find(|(n, _)| *n == name)
                .expect("listed");
            let size = runs.iter().map(|(o, c, _)| o + c).max().unwrap_or(0) as usize;
            let size = size.next_multiple_of(8).max(size);
            runs.iter().fold(Classes::record(size), |c, (o, n, b)| {
                let byte = match b {
                    ByteClass::Integer => Byte::Integer,
                    ByteClass::Pointer => Byte::Pointer,
                    ByteClass::Float32 => Byte::Float32,
                    ByteClass::Float64 => Byte::Float64,
                };
                c.bytes(*o as usize, *n as usize, byte)
            })
        };
        let _ = Passing::Handle;
        assert!(CUmemLocation::CLASSES.passes_as(&c("CUmemLocation_v1")));
        assert!(CUipcMemHandle::CLASSES.passes_as(&c("CUipcMemHandle_v1")));
        assert!(CUeglFrame::CLASSES.passes_as(&c("CUeglFrame_v1")));
        assert_eq!(size_of::<CUeglFrame>(), 64);
    }

    #[test]
    fn unions_merge_and_transparent_types_are_their_field() {
        let union = Classes::record(8)
            .field(0, f64::CLASSES)
            .field(0, u64::CLASSES);
        assert!(union.passes_as(&Classes::record(8).bytes(0, 8, Byte::Integer)));
        let pointers = Classes::record(8)
            .field(0, Classes::POINTER)
            .field(0, Classes::POINTER);
        assert_eq!(pointers.byte(3), Byte::Pointer);
        let newtype = Classes::transparent(&[PhantomData::<u8>::CLASSES, u32::CLASSES]);
        assert!(newtype.passes_as(&Classes::integer(4)));
        assert!(!newtype.passes_as(&Classes::F32));
        assert_eq!(Classes::transparent(&[]).size(), 0);
        // Past the tracked bytes only the size counts.
        let big = <[u8; 100]>::CLASSES;
        assert_eq!(big.byte(80), Byte::Padding);
        assert!(big.passes_as(&Classes::record(100).bytes(0, 100, Byte::Integer)));
    }
}
