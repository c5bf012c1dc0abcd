//! The expected verdict of a cell, from the language's facts (`types`) and the driver's
//! (`positions`) alone: no rule of the macro or of the table is called.
//!
//! - By value: the C type's size and alignment, its register class (an integer or a pointer in
//!   an integer register, a float in a floating-point one; a record byte by byte), and a type
//!   the crate can prove is passed that way. A value the caller produces need not hold every bit
//!   pattern.
//! - A pointer written out: a thin pointer to data (`*const`, `*mut`, `&`, `&mut`, `NonNull`, an
//!   `Option` of a reference or a `NonNull`), to the C pointee's layout (or an array of it: a C
//!   `T *` points to the first of any number of `T`), or to `c_void` (unchecked) through a raw
//!   pointer. A reference claims exactly its pointee: `&mut c_void` is one byte, and where the
//!   documentation says the driver uses N elements (`luid`: 8 bytes) a reference to fewer is too
//!   small (an access beyond it is undefined behaviour, which the Miri part shows).
//! - The slot of a `T **` (a pointer written out in C) holds a pointer (a std wrapper of one or
//!   an array of them too), a function's address only where the driver stores one (`pfn`).
//! - Where the driver writes: a pointer that allows it, and a pointee that holds every bit
//!   pattern, since the driver may store any.
//! - What the driver produces (a callback's parameter, what it stores): every bit pattern.
//! - The status: a primitive 4-byte integer or `cuda_entry::types::CUresult`.

use crate::positions::{Access, C, CallbackParam, CallbackRet, Pointee, Position, Slot};
use crate::types::{Abi, Byte, Class, NotPointer, PointerFacts, Ptr, Ty};

/// `Ok(())`: accepted; `Err(why)`: refused, and why.
pub(crate) type Verdict = Result<(), String>;

/// The expected verdict of declaring `ty` at `position`.
pub(crate) fn verdict(position: &Position, ty: &Ty) -> Verdict {
    match &position.c {
        C::Integer(size) => by_value_integer(ty, *size),
        C::Float(size) => by_value_float(ty, *size),
        C::Handle => by_value_handle(ty),
        C::Record(size, align, bytes) => by_value_record(ty, *size, *align, bytes),
        C::Status => status(ty),
        C::Pointer(access, pointee) => pointer(ty, *access, pointee),
        C::Callback(params, ret) => callback(ty, params, ret),
        C::UnknownReturn => {
            if named_curesult(ty) {
                status(ty)
            } else {
                unknown_return(ty)
            }
        }
    }
}

fn layout_is(ty: &Ty, size: usize, align: usize) -> Verdict {
    match ty.layout() {
        Some(l) if l.size == size && l.align == align => Ok(()),
        Some(l) => Err(format!(
            "{} bytes, align {} where C has {size}, align {align}",
            l.size, l.align
        )),
        None => Err("unsized".to_owned()),
    }
}

fn class(ty: &Ty) -> Result<Class, String> {
    match ty.class() {
        Class::Unproven(why) => Err(format!("not proven to be passed as a C type is: {why}")),
        class => Ok(class),
    }
}

/// An integer or enum by value: an integer of its size; a pointer travels in the same
/// registers (the macro's deliberate refusal of it is a documented exception).
fn by_value_integer(ty: &Ty, size: usize) -> Verdict {
    layout_is(ty, size, size)?;
    match class(ty)? {
        Class::Integer(_) | Class::Pointer => Ok(()),
        Class::Float(_) => Err("a float, passed in a floating-point register".to_owned()),
        Class::Aggregate(_) => Err("a record where C has a scalar".to_owned()),
        Class::Unproven(_) => unreachable!(),
    }
}

fn by_value_float(ty: &Ty, size: usize) -> Verdict {
    layout_is(ty, size, size)?;
    match class(ty)? {
        Class::Float(_) => Ok(()),
        Class::Aggregate(_) => Err("a record where C has a scalar".to_owned()),
        _ => Err("passed in an integer register where C has a float".to_owned()),
    }
}

fn by_value_handle(ty: &Ty) -> Verdict {
    layout_is(ty, 8, 8)?;
    match class(ty)? {
        Class::Integer(_) | Class::Pointer => Ok(()),
        Class::Float(_) => Err("a float, passed in a floating-point register".to_owned()),
        Class::Aggregate(_) => Err("a record where C has a scalar".to_owned()),
        Class::Unproven(_) => unreachable!(),
    }
}

fn by_value_record(ty: &Ty, size: usize, align: usize, bytes: &[Byte]) -> Verdict {
    layout_is(ty, size, align)?;
    let Class::Aggregate(mine) = class(ty)? else {
        return Err("a scalar where C has a record".to_owned());
    };
    for (at, (c, r)) in bytes.iter().zip(&mine).enumerate() {
        let fits = match c {
            Byte::Padding => true,
            Byte::Integer | Byte::Pointer => matches!(r, Byte::Integer | Byte::Pointer),
            Byte::Float32 => *r == Byte::Float32,
            Byte::Float64 => *r == Byte::Float64,
        };
        if !fits {
            return Err(format!("byte {at} is {r:?} where C has {c:?}"));
        }
    }
    Ok(())
}

/// Whether the spelling names `CUresult` (an `unverified` declaration's status).
fn named_curesult(ty: &Ty) -> bool {
    let spelled = ty.spell();
    spelled.rsplit("::").next() == Some("CUresult")
}

/// The status: a primitive 4-byte integer (under any spelling) or the crate's `CUresult`.
fn status(ty: &Ty) -> Verdict {
    match ty.real() {
        Ty::Int(i) if i.size() == 4 => Ok(()),
        Ty::CuResult => Ok(()),
        Ty::Int(_) => layout_is(ty, 4, 4),
        other => Err(format!(
            "`{}` is not a primitive integer or the crate's CUresult",
            other.spell()
        )),
    }
}

/// What the driver produces, of a C type the table does not know: `()`, or a type passed by
/// value that holds every bit pattern.
fn unknown_return(ty: &Ty) -> Verdict {
    if *ty.real() == Ty::Unit {
        return Ok(());
    }
    class(ty)?;
    if !ty.any_bits() {
        return Err("the driver produces it, and not every bit pattern is a value".to_owned());
    }
    Ok(())
}

fn not_a_pointer(why: &NotPointer) -> String {
    match why {
        NotPointer::Fat => "a fat pointer where C has a thin one".to_owned(),
        NotPointer::Owning => {
            "`Box`: C would own the allocation (and never free it); not a pointer the caller \
             keeps"
                .to_owned()
        }
        NotPointer::Function => "a function pointer where C has a pointer to data".to_owned(),
        NotPointer::Other => "not a pointer where C has one".to_owned(),
    }
}

/// A pointer parameter: thin, writable where the driver writes, to what the driver uses there.
fn pointer(ty: &Ty, access: Access, pointee: &Pointee) -> Verdict {
    let facts = ty.thin_pointer().map_err(|why| not_a_pointer(&why))?;
    if access == Access::Write && !facts.writable {
        return Err("promises no write where the driver writes".to_owned());
    }
    behind(facts.pointee, pointee, facts.reference)
}

/// What a pointer points to, against what the driver does there.
fn behind(ty: &Ty, pointee: &Pointee, reference: bool) -> Verdict {
    if *ty.real() == Ty::CVoid {
        // The escape, unchecked by design, through a raw pointer (or `NonNull`), which claims
        // nothing of the memory. A reference to `c_void` claims exactly its one byte: the
        // driver's access beyond it is out of the reference's range (undefined behaviour).
        return match pointee {
            Pointee::Data { size, count, .. } if reference && size * count > 1 => Err(format!(
                "a reference to `c_void` covers one byte, the driver uses {}",
                size * count
            )),
            Pointee::Void { .. } | Pointee::Slot(_) if reference => {
                Err("a reference to `c_void` covers one byte, the driver uses more".to_owned())
            }
            _ => Ok(()),
        };
    }
    match pointee {
        Pointee::Void { written } => {
            if *written && !ty.any_bits() {
                return Err(format!(
                    "the driver stores any bytes in `{}`, which has invalid values",
                    ty.spell()
                ));
            }
            Ok(())
        }
        Pointee::Data {
            size,
            align,
            written,
            count,
        } => {
            let elements = match ty.real() {
                Ty::Array(element, n) if layout_is(element, *size, *align).is_ok() => *n,
                _ => {
                    layout_is(ty, *size, *align)?;
                    1
                }
            };
            if reference && elements < *count {
                return Err(format!(
                    "a reference to {elements} element(s) where the driver uses {count}"
                ));
            }
            if *written && !ty.any_bits() {
                return Err(format!(
                    "the driver stores any value in `{}`, which has invalid values",
                    ty.spell()
                ));
            }
            Ok(())
        }
        Pointee::Slot(slot) => slot_holds(ty, slot),
    }
}

/// The slot of a `T **`: a pointer written out in C, so a pointer in Rust (an array of them
/// stands for the first of several, a transparent wrapper for what it wraps).
fn slot_holds(ty: &Ty, slot: &Slot) -> Verdict {
    let inner = match ty.real() {
        Ty::Array(element, _) => element,
        _ => ty,
    };
    if slot.stored && !inner.any_bits() {
        return Err(format!(
            "the driver stores the pointer, and `{}` has invalid values",
            inner.spell()
        ));
    }
    let pointer = match inner.real() {
        Ty::Wrap(_, wrapped) => wrapped,
        _ => inner,
    };
    if let Some((f, _)) = pointer.c_function() {
        if !slot.function {
            return Err("a function pointer where C has a pointer to data".to_owned());
        }
        if !matches!(f.abi, Abi::C | Abi::System) {
            return Err("a function C cannot call".to_owned());
        }
        return Ok(());
    }
    if matches!(pointer.real(), Ty::AtomicPtr(_)) {
        // `AtomicPtr<T>` has `*mut T`'s layout and values; what it points to is reached through
        // `load()`, which no declaration sees: judged as the raw pointer it holds.
        return Ok(());
    }
    let facts = match pointer.thin_pointer() {
        Ok(facts) => facts,
        // The caller's `Box`, kept in the caller's array: the driver reads or writes through it
        // as through a `&mut` (storing one is refused above: a `Box` is never NULL).
        Err(NotPointer::Owning) => PointerFacts {
            pointee: boxed(pointer).expect("only a `Box` owns"),
            writable: true,
            reference: true,
        },
        Err(why) => return Err(not_a_pointer(&why)),
    };
    if slot.access == Access::Write && !facts.writable {
        return Err("the slot's pointer promises no write where the driver writes".to_owned());
    }
    behind(facts.pointee, &slot.pointee, facts.reference)
}

/// What a `Box` (or an `Option` of one) points to.
fn boxed(ty: &Ty) -> Option<&Ty> {
    match ty.real() {
        Ty::Ptr(Ptr::Box, pointee) => Some(pointee),
        Ty::Option(inner) => boxed(inner),
        _ => None,
    }
}

/// A callback: a C function pointer of the header's arity, each parameter holding what the
/// driver passes, the return what C expects.
fn callback(ty: &Ty, params: &[CallbackParam], ret: &CallbackRet) -> Verdict {
    let Some((f, _)) = ty.c_function() else {
        return Err("not a function pointer".to_owned());
    };
    match f.abi {
        Abi::C | Abi::System => {}
        Abi::CUnwind => return Err("may unwind into the driver's C frames".to_owned()),
        Abi::Rust => return Err("the Rust ABI: C cannot call it".to_owned()),
    }
    if f.params.len() != params.len() {
        return Err(format!(
            "{} parameters where C has {}",
            f.params.len(),
            params.len()
        ));
    }
    for (at, (mine, c)) in f.params.iter().zip(params).enumerate() {
        callback_param(mine, c).map_err(|why| format!("callback parameter {}: {why}", at + 1))?;
    }
    match (ret, &f.ret) {
        (CallbackRet::Void, None) => Ok(()),
        (CallbackRet::Void, Some(r)) if *r.real() == Ty::Unit => Ok(()),
        (CallbackRet::Void, Some(_)) => Err("returns a value where C returns void".to_owned()),
        (CallbackRet::Integer(_), None) => Err("returns nothing where C returns one".to_owned()),
        (CallbackRet::Integer(size), Some(r)) => {
            by_value_integer(r, *size).map_err(|why| format!("callback return: {why}"))
        }
    }
}

/// What the driver passes to the user's function: a value of the C type's layout and register
/// class that holds every value the driver may pass.
fn callback_param(ty: &Ty, c: &CallbackParam) -> Verdict {
    match c {
        // The caller's pointer given back, NULL included; nothing is read through it here, so
        // what holds it only needs a pointer's class and every value.
        CallbackParam::UserData => {
            layout_is(ty, 8, 8)?;
            match class(ty)? {
                Class::Pointer => produced(ty),
                _ => Err("not a pointer where C passes one".to_owned()),
            }
        }
        CallbackParam::Handle => {
            by_value_handle(ty)?;
            produced(ty)
        }
        // A status the driver passes: any `int` (the issue: "must hold every int").
        CallbackParam::Status => callback_param(ty, &CallbackParam::Integer(4)),
        CallbackParam::Integer(size) => {
            layout_is(ty, *size, *size)?;
            match class(ty)? {
                Class::Integer(_) => produced(ty),
                _ => Err("not an integer where C passes an int".to_owned()),
            }
        }
    }
}

fn produced(ty: &Ty) -> Verdict {
    if ty.any_bits() {
        Ok(())
    } else {
        Err(format!(
            "the driver produces it, and `{}` has invalid values",
            ty.spell()
        ))
    }
}
