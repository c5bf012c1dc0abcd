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
