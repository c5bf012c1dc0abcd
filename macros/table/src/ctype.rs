//! The kinds of C types ([`Class`]) and what a [`CType`] says about itself.

use crate::CType;

/// What kind of type a [`CType`] is, as the C compiler classifies it (`__builtin_classify_type`,
/// `_Generic` and `__builtin_types_compatible_p` probes against the headers), not as its
/// spelling suggests: `CUcontext` is a [`Pointer`](Class::Pointer), `CUdevice` an
/// [`Integer`](Class::Integer), `CUhostFn` a [`FunctionPointer`](Class::FunctionPointer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// `void` (only as a return type or a pointee).
    Void,
    /// An integer type, `char` and `_Bool` included (`unsigned int`, `size_t`, `CUdeviceptr`).
    Integer,
    /// `float` or `double`.
    Floating,
    /// An enumeration (`CUresult`, `CUdevice_attribute`): an integer of its size to the ABI.
    Enum,
    /// A pointer to data (`void *`, `CUcontext`, `CUdeviceptr *`); see [`CType::pointee`].
    Pointer,
    /// A pointer to a function (`CUhostFn`, `void (*)(void *)`).
    FunctionPointer,
    /// A `struct` or `union`, complete (`CUuuid`) or not (`struct CUctx_st`, size 0).
    Record,
}

impl CType {
    /// Whether the type has a size: false for `void` and for incomplete types such as the
    /// `struct CUctx_st` a `CUcontext` points to (only a pointer to them can be passed).
    pub const fn is_complete(&self) -> bool {
        self.size != 0
    }

    /// Whether the type itself is `const`-qualified: `const CUDA_MEMCPY2D`, `const void`, a
    /// `char *const`, but not `const char *` (a pointer that may be written, to a `const char`).
    pub fn is_const(&self) -> bool {
        // The qualifier of a pointer comes after its last `*`; any other type's is a word of it.
        let own = match self.spelling.rfind('*') {
            Some(star) => &self.spelling[star + 1..],
            None => self.spelling,
        };
        own.split_whitespace().any(|word| word == "const")
    }

    /// Whether the header allows the driver to write through this parameter: a pointer to data
    /// whose pointee is not `const` (`CUdeviceptr *`, `void *`, `const char **`, whose
    /// `const char *` is written). What a parameter's documentation adds is
    /// [`Access::of`](crate::Access::of)'s.
    pub fn is_written_by_driver(&self) -> bool {
        self.pointer && self.class == Class::Pointer && self.pointee.is_some_and(|p| !p.is_const())
    }
}

impl CType {
    /// How C passes the type by value ([`Passing`]): an integer or enum, a written-out pointer, a
    /// handle (an opaque pointer typedef, `CUstream`), a float, or a record byte by byte.
    pub fn passing(&self) -> Passing {
        match self.class {
            Class::Integer | Class::Enum => Passing::Integer(self.size),
            Class::Floating => Passing::Float(self.size),
            Class::Pointer if self.pointer => Passing::Pointer,
            Class::Pointer => Passing::Handle,
            Class::FunctionPointer => Passing::Pointer,
            Class::Record => {
                let name = self.spelling.trim_start_matches("const ");
                match BY_VALUE_RECORDS.iter().find(|(n, _)| *n == name) {
                    Some((_, bytes)) => Passing::Record(self.size, bytes),
                    None => Passing::Record(self.size, &[]),
                }
            }
            Class::Void => Passing::Record(0, &[]),
        }
    }
}

/// How C passes a type by value, for the declared type's `cuda_entry::ByValue` classes to be
/// compared with: the same kind of scalar, or a record whose bytes have the same classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Passing {
    /// An integer or enum of this many bytes.
    Integer(u32),
    /// A pointer written out (`T *`), or a function pointer.
    Pointer,
    /// An opaque handle (`CUstream`, `CUcontext`): a pointer, which an integer of its size may
    /// carry.
    Handle,
    /// `float` (4) or `double` (8).
    Float(u32),
    /// A struct or union of this size, and the class of its bytes: runs of (offset, count,
    /// class); bytes in no run are padding.
    Record(u32, &'static [ByteRun]),
}

/// A run of bytes of one class in a C record: (offset, count, class).
pub type ByteRun = (u32, u32, ByteClass);

/// The class of a byte of a C record ([`Passing::Record`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ByteClass {
    /// Part of an integer or enum.
    Integer,
    /// Part of a pointer.
    Pointer,
    /// Part of a `float`.
    Float32,
    /// Part of a `double`.
    Float64,
}

/// The records typedefs take by value, byte by byte, from the headers (a table test holds that
/// every record passed by value is here, of its size).
pub const BY_VALUE_RECORDS: &[(&str, &[ByteRun])] = &[
    // `struct { CUmemLocationType type; int id; }`
    ("CUmemLocation", &[(0, 8, ByteClass::Integer)]),
    ("CUmemLocation_v1", &[(0, 8, ByteClass::Integer)]),
    // `struct { char reserved[64]; }`
    ("CUipcMemHandle_v1", &[(0, 64, ByteClass::Integer)]),
    ("CUipcEventHandle_v1", &[(0, 64, ByteClass::Integer)]),
    ("CUipcMemHandle", &[(0, 64, ByteClass::Integer)]),
    ("CUipcEventHandle", &[(0, 64, ByteClass::Integer)]),
    // `struct { union { CUarray pArray[3]; void *pPitch[3]; } frame; unsigned int width, height,
    // depth, pitch, planeCount, numChannels; CUeglFrameType frameType; CUeglColorFormat
    // eglColorFormat; CUarray_format cuFormat; }`: 60 bytes, padded to 64.
    (
        "CUeglFrame_v1",
        &[(0, 24, ByteClass::Pointer), (24, 36, ByteClass::Integer)],
    ),
    (
        "CUeglFrame",
        &[(0, 24, ByteClass::Pointer), (24, 36, ByteClass::Integer)],
    ),
];

/// How the ABI messages name the register class of a declared Rust type, the same in the macro's
/// errors and in the compile-time assertions that `cuda_entry` evaluates.
pub mod class_words {
    /// A primitive integer, `bool` or `char`.
    pub const INTEGER: &str = "an integer, passed in an integer register";
    /// A pointer.
    pub const POINTER: &str = "a pointer, passed in an integer register";
    /// `f32` or `f64`.
    pub const FLOAT: &str = "a floating-point type, passed in a floating-point register";
    /// A struct, union or array.
    pub const RECORD: &str = "a record (a struct, union or array), passed as its fields are";
    /// Not `cuda_entry::ByValue`.
    pub const UNPROVEN: &str = "not proven to be passed as a C type is (it is not \
         `cuda_entry::ByValue`; a struct, union or field-less enum of yours proves it with \
         `#[derive(cuda_entry::ByValue)]`)";
    /// A record whose byte (the number follows) is of another class.
    pub const RECORD_BYTE: &str = "a record whose byte ";
    /// Padding.
    pub const PADDING: &str = "padding";
    /// Part of an integer.
    pub const INTEGER_BYTE: &str = "part of an integer";
    /// Part of a pointer.
    pub const POINTER_BYTE: &str = "part of a pointer";
    /// Part of a `float`.
    pub const FLOAT32_BYTE: &str = "part of a `float` (`f32`)";
    /// Part of a `double`.
    pub const FLOAT64_BYTE: &str = "part of a `double` (`f64`)";
}

/// How the messages name a kind of Rust type that has invalid values, where the driver produces
/// the value (a status, what it writes through a pointer): the same words in the macro's errors
/// and in the compile-time assertions that `cuda_entry` evaluates.
pub mod value_words {
    /// A type not proven to hold every value ([`FromDriver`]: a struct or enum of the user's, a
    /// container of a type with invalid values).
    ///
    /// [`FromDriver`]: https://docs.rs/cuda-entry (`cuda_entry::FromDriver`)
    pub const UNPROVEN: &str = "a type not proven valid for every value the driver may store \
         (an enum, or a struct, array or wrapper holding a type with invalid values; a struct of \
         yours proves it with `#[derive(cuda_entry::FromDriver)]`, and `MaybeUninit<T>` leaves \
         the check to you)";
    /// A reference to `c_void` where the driver stores a value of the size of its choosing.
    pub const VOID_REFERENCE: &str = "`c_void` through a reference, which claims one byte where \
         the driver stores a whole value (declare a raw pointer, `*mut c_void`, to leave it \
         unchecked)";
    /// `bool`.
    pub const BOOL: &str = "a `bool`, for which only 0 and 1 are valid";
    /// `char`.
    pub const CHAR: &str = "a `char`, for which only Unicode scalar values are valid";
    /// `NonZero<T>` and its aliases.
    pub const NON_ZERO: &str = "a `NonZero` integer, for which 0 is not valid";
    /// `&T`, `&mut T`.
    pub const REFERENCE: &str = "a reference, for which NULL and dangling pointers are not valid";
    /// `NonNull<T>`.
    pub const NON_NULL: &str = "`NonNull`, for which NULL is not valid";
    /// A function pointer not in an `Option`.
    pub const FUNCTION: &str =
        "a function pointer, for which NULL is not valid (an `Option` of one is)";
    /// A status type that is neither a primitive integer nor `cuda_entry::types::CUresult`.
    pub const NOT_AN_INTEGER: &str = "not a type that `cuda_entry` can prove holds every `int` \
                                      (an enum, a struct or a newtype of yours may not)";
}

/// One layout the headers gave a [`CType`], and the toolkits whose headers had it: a type keeps
/// its name and typedef version when a struct grows or its alignment changes (`CUtensorMap` was
/// aligned to 64 bytes in CUDA 12.x and to 128 from 13.0), and a binding written against either
/// header is right for the driver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Layout {
    /// `sizeof` in bytes (0 for `void` and incomplete types).
    pub size: u32,
    /// `_Alignof` in bytes (0 for `void` and incomplete types).
    pub align: u32,
    /// The first toolkit read whose headers gave the type this layout, as `1000 * major + 10 *
    /// minor`.
    pub first_toolkit: u32,
    /// The last one.
    pub last_toolkit: u32,
}

/// The signature of the function a function pointer type points to, as the headers declare it
/// and the C compiler confirms it: `typedef void (CUDA_CB *CUhostFn)(void *userData);`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Callback {
    /// The signature as C writes it, with the parameter names the header gives
    /// (`"void (*)(void *userData)"`).
    pub spelling: &'static str,
    /// What the function returns (`void`: size 0).
    pub ret: CType,
    /// Its parameters, in order (`argN` where the header names none).
    pub params: &'static [crate::Param],
}

impl CType {
    /// The layouts the headers of the toolkits `first..=last` gave the type (a typedef's
    /// `first_toolkit..=last_toolkit`: what a binding of that typedef may have been written
    /// against), oldest first. Empty when none of them has the type.
    pub fn layouts_within(
        &self,
        first: u32,
        last: u32,
    ) -> impl DoubleEndedIterator<Item = &'static Layout> {
        self.layouts
            .iter()
            .filter(move |l| l.first_toolkit <= last && l.last_toolkit >= first)
    }

    /// Whether `(size, align)` is a layout the headers of the toolkits `first..=last` gave the
    /// type; where none of them has it (a type without a recorded history), whether it is its
    /// newest layout.
    pub fn has_layout_within(&self, (size, align): (u32, u32), first: u32, last: u32) -> bool {
        let mut within = self.layouts_within(first, last).peekable();
        if within.peek().is_none() {
            return (size, align) == (self.size, self.align);
        }
        within.any(|l| (l.size, l.align) == (size, align))
    }
}

#[cfg(test)]
mod tests {
    use crate::find;

    fn param(symbol: &str, version: u32, i: usize) -> crate::CType {
        find(symbol, version, false).expect("a typedef").params[i].ty
    }

    #[test]
    fn const_ness_is_read_from_the_header() {
        // `CUdeviceptr_v2 *dptr`: the driver writes the address.
        assert!(param("cuMemAlloc", 3020, 0).is_written_by_driver());
        // `size_t bytesize`: a value.
        assert!(!param("cuMemAlloc", 3020, 1).is_written_by_driver());
        // `const void *srcHost`: read only.
        let src = param("cuMemcpyHtoD", 3020, 1);
        assert_eq!(src.spelling, "const void *");
        assert!(!src.is_written_by_driver());
        // `void *dstHost`: written.
        assert!(param("cuMemcpyDtoH", 3020, 0).is_written_by_driver());
        // `const char **pStr`: the `const char *` is written.
        let strings = param("cuGetErrorString", 6000, 1);
        assert_eq!(strings.spelling, "const char **");
        assert!(strings.is_written_by_driver());
        assert!(strings.pointee.is_some_and(|p| !p.is_const()));
        // `const CUDA_MEMCPY2D *pCopy`: read only.
        assert!(!param("cuMemcpy2D", 3020, 0).is_written_by_driver());
        // A handle is no pointer to data the driver writes.
        assert!(!param("cuStreamSynchronize", 2000, 0).is_written_by_driver());
    }

    /// The rules take every record a typedef passes by value to be made of integers (classed
    /// as integers, never floats). These are all there are, each checked by hand against cuda.h:
    /// a new one must be checked too before it joins the list.
    #[test]
    fn records_passed_by_value_are_made_of_integers() {
        let mut records: Vec<&str> = crate::TYPEDEFS
            .iter()
            .flat_map(|t| t.params.iter().map(|p| p.ty))
            .filter(|c| c.class == crate::Class::Record && !c.pointer)
            .map(|c| c.spelling)
            .collect();
        records.sort_unstable();
        records.dedup();
        assert_eq!(
            records,
            [
                // `struct CUeglFrame_st`: a union of `CUarray`/`void *` arrays, `unsigned int`s
                // and three enums.
                "CUeglFrame_v1",
                // `char reserved[CU_IPC_HANDLE_SIZE]`.
                "CUipcEventHandle_v1",
                "CUipcMemHandle_v1",
                // `CUmemLocationType type; int id;`.
                "CUmemLocation_v1",
            ]
        );
    }

    #[test]
    fn every_record_passed_by_value_is_described_byte_by_byte() {
        use crate::{BY_VALUE_RECORDS, Class, Passing, TYPEDEFS};
        let mut seen = Vec::new();
        let by_value = TYPEDEFS.iter().flat_map(|t| {
            let callbacks = t
                .params
                .iter()
                .filter_map(|p| p.ty.callback)
                .flat_map(|c| c.params.iter().map(|p| p.ty).chain([c.ret]));
            t.params.iter().map(|p| p.ty).chain(callbacks)
        });
        for ty in by_value.filter(|ty| ty.class == Class::Record && ty.size != 0) {
            let Passing::Record(size, bytes) = ty.passing() else {
                panic!("{} is a record", ty.spelling);
            };
            assert!(
                !bytes.is_empty(),
                "{} has no bytes in BY_VALUE_RECORDS",
                ty.spelling
            );
            let end = bytes.iter().map(|(o, c, _)| o + c).max().unwrap_or(0);
            assert!(
                end <= size,
                "{}: {end} bytes described, {size} in the table",
                ty.spelling
            );
            seen.push(ty.spelling.trim_start_matches("const "));
        }
        seen.sort_unstable();
        seen.dedup();
        // The list has no record the table does not pass by value under one of its names.
        for (name, _) in BY_VALUE_RECORDS {
            let base = name.trim_end_matches("_v1");
            assert!(
                seen.iter().any(|s| s.trim_end_matches("_v1") == base),
                "{name} is passed by value by no typedef"
            );
        }
        assert!(seen.contains(&"CUmemLocation_v1"), "{seen:?}");
    }
}
