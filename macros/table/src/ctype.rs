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
}

/// How the ABI messages name the register class of a declared Rust type, the same in the macro's
/// errors and in the compile-time assertions that `cuda_entry` evaluates.
pub mod class_words {
    /// A primitive integer, `bool` or `char`.
    pub const INTEGER: &str = "an integer, passed in an integer register";
    /// A pointer.
    pub const POINTER: &str = "a pointer, passed in an integer register";
    /// `f32` or `f64`.
    pub const FLOAT: &str = "a floating-point type, passed in a floating-point register";
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
