//! Values the driver produces, as far as the tokens of the declared types tell: a pointer that
//! promises no write where the driver writes through it, and a type with invalid values where the
//! driver returns or writes one. The expansion asks the compiler the same questions of every
//! type ([`Assertion`](super::Assertion)); these give the earlier, better message where the
//! tokens show the mistake.

use syn::{GenericArgument, PathArguments, PointerMutability, Type};

use super::names::{self, Names};
use crate::{Access, CType, Class, value_words};

/// What the tokens show is wrong with a value the driver produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WrongValue {
    /// A pointer that promises no write, where the driver writes through it.
    ReadOnly,
    /// The same at the second level of a `T **` (`*mut *const c_void` for `void **`).
    ReadOnlySecond,
    /// A type with invalid values (the words naming its kind), where the driver writes one.
    InvalidPointee(&'static str),
    /// The same at the second level (`*mut *mut bool` where the driver stores through `data[i]`).
    InvalidSecond(&'static str),
    /// A status type with invalid values, or one that cannot hold every `int`.
    InvalidStatus(&'static str),
}

/// Judges a parameter declared as `ty` that the driver uses as `access` says: where it writes
/// the first level, `ty` must be a pointer that may be written through, to a type without invalid
/// values; where it writes through the caller's pointers at the second level, those must allow
/// writes; where the second level is the driver's (written or filled), what is there must have no
/// invalid values either.
pub(crate) fn judge_parameter(access: Access, ty: &Type) -> Result<(), WrongValue> {
    let Some((read_only, pointee)) = pointer(ty) else {
        return Ok(()); // not a pointer the tokens show: judged elsewhere, or by the compiler
    };
    if access.writes_first() {
        if read_only {
            return Err(WrongValue::ReadOnly);
        }
        if let Some(words) = invalid(pointee) {
            return Err(WrongValue::InvalidPointee(words));
        }
    }
    let Some((second_read_only, second)) = pointer(pointee) else {
        return Ok(());
    };
    if access.writes_through_second() && second_read_only {
        return Err(WrongValue::ReadOnlySecond);
    }
    if access.produces_second()
        && let Some(words) = invalid(second)
    {
        return Err(WrongValue::InvalidSecond(words));
    }
    Ok(())
}

/// Judges the declared return type of a typedef returning `CUresult`: it must hold every `int`.
pub(crate) fn judge_status(ty: &Type) -> Result<(), WrongValue> {
    match invalid(ty) {
        Some(words) => Err(WrongValue::InvalidStatus(words)),
        None => Ok(()),
    }
}

/// What a Rust pointer type points to, and whether it certainly promises no write, where the
/// tokens show a pointer: `*const T` does whatever `T` is; whether a `&T` (or `Option<&T>`) may
/// be written through depends on what `T` is (`Cell`, an atomic), which only the compiler knows
/// (a name can be an alias), so the tokens leave that to the expansion's assertion.
fn pointer(ty: &Type) -> Option<(bool, &Type)> {
    match ty {
        Type::Paren(p) => pointer(&p.elem),
        Type::Group(g) => pointer(&g.elem),
        Type::Ptr(p) => Some((matches!(p.mutability, PointerMutability::Const(_)), &p.elem)),
        Type::Reference(r) => Some((false, &r.elem)),
        Type::Path(p) if p.qself.is_none() && read_by_name(&p.path) => {
            let last = p.path.segments.last()?;
            let inner = single_argument(&last.arguments)?;
            match last.ident.to_string().as_str() {
                "NonNull" => Some((false, inner)),
                "Option" => match strip(inner) {
                    Type::Reference(r) => Some((false, &r.elem)),
                    nonnull @ Type::Path(_) => {
                        pointer(nonnull).filter(|_| is_named(nonnull, "NonNull"))
                    }
                    _ => None,
                },
                _ => None,
            }
        }
        _ => None,
    }
}

/// The words naming the kind of `ty` when its tokens show it has invalid values.
pub(crate) fn invalid(ty: &Type) -> Option<&'static str> {
    match strip(ty) {
        Type::Reference(_) => Some(value_words::REFERENCE),
        Type::FnPtr(_) => Some(value_words::FUNCTION),
        Type::Path(p) if p.qself.is_none() && read_by_name(&p.path) => {
            let last = p.path.segments.last()?;
            let name = last.ident.to_string();
            match (name.as_str(), &last.arguments) {
                ("bool", PathArguments::None) => Some(value_words::BOOL),
                ("char", PathArguments::None) => Some(value_words::CHAR),
                ("NonNull", PathArguments::AngleBracketed(_)) => Some(value_words::NON_NULL),
                ("NonZero", PathArguments::AngleBracketed(_)) => Some(value_words::NON_ZERO),
                (name, PathArguments::None) if name.starts_with("NonZero") => {
                    Some(value_words::NON_ZERO)
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// What a declared pointer to a C pointee of this class should point to instead.
pub(crate) fn instead(c_pointee: &CType) -> String {
    match c_pointee.class {
        Class::Integer | Class::Enum => format!(
            "an integer type of {} bytes (`u{}` or `i{}`)",
            c_pointee.size,
            c_pointee.size * 8,
            c_pointee.size * 8
        ),
        Class::Pointer => "a raw pointer (`*mut T`, `*const T`), or an `Option<NonNull<T>>`: \
                           NULL is a value the driver stores"
            .to_owned(),
        Class::FunctionPointer => "an `Option` of the function pointer type".to_owned(),
        Class::Floating => format!("`f{}`", c_pointee.size * 8),
        Class::Void | Class::Record => "a type of the C layout whose every value is valid, or \
                                        `MaybeUninit<T>` (or `c_void` to leave it unchecked)"
            .to_owned(),
    }
}

/// Whether a path is read as the type its last segment usually names (`bool`, `NonNull<T>`,
/// `Option<&T>`): always for the command, only where no item can shadow it for the macro
/// ([`names`]).
fn read_by_name(path: &syn::Path) -> bool {
    names::names() == Names::Usual || names::standard(path)
}

fn strip(ty: &Type) -> &Type {
    match ty {
        Type::Paren(p) => strip(&p.elem),
        Type::Group(g) => strip(&g.elem),
        _ => ty,
    }
}

fn is_named(ty: &Type, name: &str) -> bool {
    matches!(strip(ty), Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == name))
}

fn single_argument(arguments: &PathArguments) -> Option<&Type> {
    let PathArguments::AngleBracketed(args) = arguments else {
        return None;
    };
    match (args.args.len(), args.args.first()) {
        (1, Some(GenericArgument::Type(inner))) => Some(inner),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::find;

    fn at(symbol: &str, version: u32, param: usize) -> Access {
        Access::of(find(symbol, version, false).expect("a typedef"), param)
    }

    fn param(access: &Access, ty: &str) -> Result<(), WrongValue> {
        judge_parameter(*access, &syn::parse_str(ty).expect("a type"))
    }

    #[test]
    fn what_the_driver_writes_needs_a_writable_pointer() {
        let dptr = at("cuMemAlloc", 3020, 0);
        assert_eq!(param(&dptr, "*const u64"), Err(WrongValue::ReadOnly));
        // A shared reference: the compiler answers (`&Cell<u64>` may be written through).
        assert_eq!(param(&dptr, "&CUdeviceptr"), Ok(()));
        assert_eq!(param(&dptr, "Option<&Cell<u64>>"), Ok(()));
        // `void **data`: the driver reads the array and writes through each element.
        let data = at("cuPointerGetAttributes", 7000, 2);
        assert_eq!(
            param(&data, "*mut *const c_void"),
            Err(WrongValue::ReadOnlySecond)
        );
        assert_eq!(param(&data, "*mut *mut c_void"), Ok(()));
        assert_eq!(param(&data, "*const *mut u64"), Ok(()));
        assert_eq!(param(&data, "*mut c_void"), Ok(()));
        // `const char **`: the driver stores a pointer to its own text.
        let text = at("cuGetErrorString", 6000, 1);
        assert_eq!(param(&text, "*mut *const c_char"), Ok(()));
        assert_eq!(
            param(&text, "*const *const c_char"),
            Err(WrongValue::ReadOnly)
        );
        // `void **pp`: an address stored, nothing below it.
        let pp = at("cuMemAllocHost", 3020, 0);
        assert_eq!(param(&pp, "*mut *const u8"), Ok(()));
        assert_eq!(param(&pp, "&mut MaybeUninit<*mut c_void>"), Ok(()));
        let pfn = at("cuGetProcAddress", 12000, 1);
        assert_eq!(param(&pfn, "*mut Option<unsafe extern \"C\" fn()>"), Ok(()));
        assert_eq!(
            param(&pfn, "*mut unsafe extern \"C\" fn()"),
            Err(WrongValue::InvalidPointee(value_words::FUNCTION))
        );
        // `void **kernelParams`: read at both levels.
        let params = at("cuLaunchKernel", 4000, 9);
        assert_eq!(param(&params, "*const *const c_void"), Ok(()));
        assert_eq!(param(&dptr, "&mut u64"), Ok(()));
        assert_eq!(param(&dptr, "*mut u64"), Ok(()));
        assert_eq!(param(&dptr, "Option<NonNull<u64>>"), Ok(()));
        assert_eq!(param(&dptr, "NonNull<u64>"), Ok(()));
        // `const void *`: anything.
        let src = at("cuMemcpyHtoD", 3020, 1);
        assert_eq!(param(&src, "*const c_void"), Ok(()));
        assert_eq!(param(&src, "&[u8; 4]"), Ok(()));
    }

    #[test]
    fn what_the_driver_writes_must_be_valid_for_every_value() {
        let attribute = at("cuDeviceGetAttribute", 2000, 0); // int *pi
        let invalid = |words| Err(WrongValue::InvalidPointee(words));
        assert_eq!(
            param(&attribute, "*mut NonZeroI32"),
            invalid(value_words::NON_ZERO)
        );
        assert_eq!(param(&attribute, "&mut char"), invalid(value_words::CHAR));
        assert_eq!(
            param(&attribute, "*mut core::num::NonZero<i32>"),
            invalid(value_words::NON_ZERO)
        );
        assert_eq!(param(&attribute, "*mut i32"), Ok(()));
        let context = at("cuCtxCreate", 3020, 0); // CUcontext *
        assert_eq!(
            param(&context, "*mut NonNull<c_void>"),
            invalid(value_words::NON_NULL)
        );
        assert_eq!(
            param(&context, "*mut &'static c_void"),
            invalid(value_words::REFERENCE)
        );
        assert_eq!(param(&context, "*mut Option<NonNull<c_void>>"), Ok(()));
        let luid = at("cuDeviceGetLuid", 10000, 0); // char *luid
        assert_eq!(param(&luid, "*mut bool"), invalid(value_words::BOOL));
        assert_eq!(param(&luid, "*mut c_char"), Ok(()));
    }

    #[test]
    fn what_the_driver_stores_at_the_second_level_must_be_valid_too() {
        let second = |words| Err(WrongValue::InvalidSecond(words));
        // `void **data`: each attribute's value stored through `data[i]`.
        let data = at("cuPointerGetAttributes", 7000, 2);
        assert_eq!(param(&data, "*mut *mut bool"), second(value_words::BOOL));
        assert_eq!(
            param(&data, "*mut *mut NonZeroU32"),
            second(value_words::NON_ZERO)
        );
        assert_eq!(param(&data, "&mut *mut char"), second(value_words::CHAR));
        assert_eq!(
            param(&data, "*mut Option<NonNull<bool>>"),
            second(value_words::BOOL)
        );
        // A reference as the element is a pointer that promises no write...
        assert_eq!(
            param(&data, "*mut &'static u64"),
            Ok(()),
            "left to the compiler"
        );
        // ... and what a `const char **` points to is the driver's text.
        let text = at("cuGetErrorString", 6000, 1);
        assert_eq!(param(&text, "*mut *const bool"), second(value_words::BOOL));
        // Read at both levels: anything.
        let params = at("cuLaunchKernel", 4000, 9);
        assert_eq!(param(&params, "*mut *mut bool"), Ok(()));
    }

    #[test]
    fn a_status_holds_every_int() {
        let status = |ty: &str| judge_status(&syn::parse_str(ty).expect("a type"));
        assert_eq!(
            status("char"),
            Err(WrongValue::InvalidStatus(value_words::CHAR))
        );
        assert_eq!(
            status("std::num::NonZeroI32"),
            Err(WrongValue::InvalidStatus(value_words::NON_ZERO))
        );
        assert_eq!(status("CUresult"), Ok(()), "left to the compiler");
        assert_eq!(status("i32"), Ok(()));
    }
}
