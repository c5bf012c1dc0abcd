//! The cells where the macro and the oracle may disagree on purpose, each with why. Keep this
//! list short: every entry hides a question from the matrix.

use crate::positions::Position;
use crate::types::{Class, Ptr, Ty, Wrap};

/// A documented exception: at these positions, cells matching `matches` may get `macro_accepts`
/// from the macro whatever the oracle says.
pub(crate) struct Exception {
    pub(crate) positions: &'static [&'static str],
    pub(crate) matches: fn(&Ty) -> bool,
    pub(crate) macro_accepts: bool,
    pub(crate) why: &'static str,
}

fn pointer_class(ty: &Ty) -> bool {
    ty.class() == Class::Pointer
}

fn returns_a_pointer(ty: &Ty) -> bool {
    ty.c_function()
        .and_then(|(f, _)| f.ret.as_ref())
        .is_some_and(pointer_class)
}

/// A shared reference to a struct of the user's whose bytes are all in cells.
fn shared_cells_of_the_user(ty: &Ty) -> bool {
    matches!(
        ty.thin_pointer(),
        Ok(f) if matches!(f.pointee.real(), Ty::User(..)) && f.pointee.interior_mutable()
    )
}

/// A std wrapper (or `AtomicPtr`) around the pointer a `T **` points to.
fn wrapped_slot(ty: &Ty) -> bool {
    let Ok(facts) = ty.thin_pointer() else {
        return false;
    };
    let slot = match facts.pointee.real() {
        Ty::Array(element, _) => element.real(),
        other => other,
    };
    matches!(slot, Ty::Wrap(..) | Ty::AtomicPtr(_))
}

/// A reference to `c_void`, at the parameter or at the second level.
fn reference_to_void(ty: &Ty) -> bool {
    let Ok(facts) = ty.thin_pointer() else {
        return false;
    };
    if facts.reference && matches!(facts.pointee.real(), Ty::CVoid) {
        return true;
    }
    match facts.pointee.thin_pointer() {
        Ok(below) => below.reference && matches!(below.pointee.real(), Ty::CVoid),
        Err(_) => false,
    }
}

/// A pointer to an `Option` of a function pointer (the `void *` slot holding a function).
fn function_in_slot(ty: &Ty) -> bool {
    matches!(ty.thin_pointer(), Ok(f) if f.pointee.c_function().is_some())
}

/// A pointer to a `Box` (or an `Option` of one), at the first level.
fn boxed_slot(ty: &Ty) -> bool {
    let Ok(facts) = ty.thin_pointer() else {
        return false;
    };
    let slot = match facts.pointee.real() {
        Ty::Option(inner) => inner.real(),
        other => other,
    };
    matches!(slot, Ty::Ptr(Ptr::Box, _))
}

/// A callback whose parameters include a `MaybeUninit` of a reference.
fn callback_with_uninit_reference(ty: &Ty) -> bool {
    ty.c_function().is_some_and(|(f, _)| {
        f.params.iter().any(|p| {
            matches!(p.real(), Ty::Wrap(Wrap::MaybeUninit, inner)
                if matches!(inner.real(), Ty::Ptr(Ptr::Ref | Ptr::RefMut, _)))
        })
    })
}

/// A 128-bit integer or an atomic, returned.
fn wide_or_atomic(ty: &Ty) -> bool {
    matches!(ty.real(), Ty::Int(i) if i.size() == 16) || matches!(ty.real(), Ty::Atomic(_))
}

/// Every documented exception.
pub(crate) fn all() -> Vec<Exception> {
    vec![
        Exception {
            positions: &["p2_void", "p3_void", "p7_params"],
            matches: reference_to_void,
            macro_accepts: true,
            why: "where C has `void *`, how many bytes the driver reaches is the call's \
                  (`ByteCount`; what a kernel parameter points to), as for a raw pointer or a \
                  `&mut u8`: a reference to `c_void` is the caller's contract there; where the C \
                  pointee is a type, its size is known, and where the driver stores a value \
                  through `data[i]`, the macro refuses the reference (docs/soundness.md)",
        },
        Exception {
            positions: &["p7_params"],
            matches: function_in_slot,
            macro_accepts: true,
            why: "an `Option` of a function pointer where C has `void *` in a `void **`: the same \
                  size, class and validity as a data pointer (`cuGetProcAddress` stores one \
                  there); what a kernel parameter's pointer points to is the caller's",
        },
        Exception {
            positions: &["p6_data", "p7_params"],
            matches: boxed_slot,
            macro_accepts: false,
            why: "a `Box` is Rust's allocation, not a C pointer type: refused at every level \
                  (`*mut T` says the same to C); sound, conservatively refused",
        },
        Exception {
            positions: &["p8_hostfn", "p8_streamcb"],
            matches: callback_with_uninit_reference,
            macro_accepts: false,
            why: "a callback taking `MaybeUninit<&T>` has a parameter with a lifetime of its \
                  own, which the callback check (`CFn`, for every signature) cannot name: \
                  refused; `MaybeUninit<*const T>` says the same",
        },
        Exception {
            positions: &["p9_unverified"],
            matches: wide_or_atomic,
            macro_accepts: true,
            why: "`unverified` checks the version's form and that the return type holds every \
                  value, not its ABI (the table has no typedef to hold it to): the trust \
                  boundary of docs/soundness.md",
        },
        Exception {
            positions: &["p1_size", "p1_enum"],
            matches: pointer_class,
            macro_accepts: false,
            why: "a pointer passed where C passes an integer travels in the same register on \
                  every target the driver ships for (sound); the macro refuses it as a likely \
                  mistake (`*mut T` for a `size_t`), by design (ByValue classes: a scalar's \
                  bytes are all of its class)",
        },
        Exception {
            positions: &["p8_occupancy"],
            matches: returns_a_pointer,
            macro_accepts: false,
            why: "as above, for the callback's `size_t` return",
        },
        Exception {
            positions: &[
                "p3_dptr",
                "p3_int",
                "p3_handle",
                "p3_uuid",
                "p3_luid",
                "p3_floats",
                "p3_void",
            ],
            matches: shared_cells_of_the_user,
            macro_accepts: false,
            why: "`&S` where every byte of the user's struct `S` is in a `Cell` may be written \
                  through (sound), but stable Rust cannot see an `UnsafeCell` inside a type of \
                  the user's (`Freeze` is unstable) and no derive proves it: refused, \
                  conservatively; `&Cell<T>`, `&[Cell<T>; N]` and the atomics are accepted",
        },
        Exception {
            positions: &[
                "p4_host",
                "p4_pfn",
                "p5_string",
                "p5_cubin",
                "p6_data",
                "p7_params",
            ],
            matches: wrapped_slot,
            macro_accepts: false,
            why: "a std wrapper around the slot's pointer (`*mut Cell<*const c_char>`, \
                  `*mut AtomicPtr<T>`) holds it soundly, but \
                  the macro checks what the driver reads or writes below the slot through the \
                  pointer type itself (and, at a `void **`, that the slot is a pointer at all), which \
                  the wrapper hides: refused, conservatively; `MaybeUninit<*mut T>` is accepted \
                  where the driver writes nothing through the slot",
        },
    ]
}

/// The exception that covers a disagreeing cell, if any.
pub(crate) fn find<'a>(
    exceptions: &'a [Exception],
    position: &Position,
    ty: &Ty,
    macro_accepts: bool,
) -> Option<&'a Exception> {
    exceptions.iter().find(|e| {
        e.positions.contains(&position.id) && e.macro_accepts == macro_accepts && (e.matches)(ty)
    })
}
