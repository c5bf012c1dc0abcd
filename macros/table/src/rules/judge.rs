//! One declared type against one C type: what its tokens show is wrong ([`Wrong`]), and what they
//! leave to the compiler ([`Left`]). The ABI of a parameter is its size and alignment, its class
//! (a float travels in a floating-point register, an integer or a pointer in an integer one) and,
//! for a pointer, the layout of what it points to, one level further for a `T **`.

use super::headers::Toolkits;
use super::layout::Read;
use crate::{CType, Class};

/// What the tokens leave to the compiler: the expansion asserts each at compile time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Left {
    /// The size and alignment.
    pub(crate) layout: bool,
    /// Float or not.
    pub(crate) class: bool,
    /// That it is a data pointer.
    pub(crate) pointer: bool,
    /// The size and alignment of what it points to.
    pub(crate) pointee: bool,
    /// The size and alignment of what that points to (a C `T **`).
    pub(crate) second: bool,
}

impl Left {
    pub(crate) fn is_empty(self) -> bool {
        self == Left::default()
    }
}

/// Everything the compiler is asked of a declared type where C has `c`, whatever its tokens say
/// (a name is not a type: `u64` can be shadowed, `c_void` can be a type of the user's).
pub(crate) fn everything(c: &CType) -> Left {
    if data_pointer(c) {
        return Left {
            pointer: true,
            pointee: pointee(c).is_some(),
            second: second(c).is_some(),
            ..Left::default()
        };
    }
    Left {
        layout: c.is_complete(),
        // Every record a typedef passes by value is made of integers (a table test holds it).
        class: c.class == Class::Floating || c.class == Class::Record || integer_class(c),
        ..Left::default()
    }
}

/// What the tokens show is wrong: the first such thing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wrong {
    /// A value where C has a pointer to data.
    NotAPointer,
    /// This size and alignment, not the C type's.
    Layout((u32, u32)),
    /// A float where C has an integer, enum or pointer, or the other way round (`float`: the
    /// declared type is the float).
    Class { float: bool },
    /// A pointer to this size and alignment, not the C pointee's.
    Pointee((u32, u32)),
    /// A pointer to a value where C has a pointer to a pointer.
    PointeeNotAPointer,
    /// A pointer to a pointer to this size and alignment, not the C type's.
    Second((u32, u32)),
}

/// Whether C has a pointer to data here (`T *` written out; a handle typedef such as `CUcontext`
/// is a pointer too, but an opaque one, which any 8-byte type may carry).
pub(crate) fn data_pointer(c: &CType) -> bool {
    c.pointer && c.class == Class::Pointer
}

/// The C pointee, when its layout can be checked.
pub(crate) fn pointee(c: &CType) -> Option<&'static CType> {
    c.pointee.filter(|p| data_pointer(c) && p.is_complete())
}

/// What the C pointee points to, when it is a pointer and that layout can be checked
/// (`const char **`: `const char`).
pub(crate) fn second(c: &CType) -> Option<&'static CType> {
    pointee(c)
        .filter(|p| p.class == Class::Pointer)
        .and_then(|p| p.pointee)
        .filter(|p| p.is_complete())
}

/// Whether C passes it in an integer register: integers, enums, pointers.
fn integer_class(c: &CType) -> bool {
    matches!(
        c.class,
        Class::Integer | Class::Enum | Class::Pointer | Class::FunctionPointer
    )
}

/// Judges the declared type `r` where C has `c`, in a typedef of the toolkits `within` (any
/// layout their headers gave a type is accepted).
///
/// # Errors
/// The first thing the tokens show is wrong.
pub(crate) fn judge(c: &CType, r: &Read, within: Toolkits) -> Result<Left, Wrong> {
    let mut left = Left::default();
    if data_pointer(c) {
        // A thin pointer to data: what `CPointer` asks of a type the tokens do not tell, and which
        // has the C pointer's size, alignment and class.
        match r {
            // A pointer to a `str` or a slice is two words.
            Read::Pointer(_) if r.layout() == Some((16, 8)) => return Err(Wrong::Layout((16, 8))),
            Read::Pointer(p) => {
                left.pointer = r.layout().is_none();
                judge_pointee(c, p, &mut left, within)?;
            }
            Read::Unknown => {
                left.pointer = true;
                left.pointee = pointee(c).is_some();
                left.second = second(c).is_some();
            }
            _ => return Err(Wrong::NotAPointer),
        }
        return Ok(left);
    }
    if c.is_complete() {
        match r.layout() {
            Some(found) if !within.accepts(c, found) => return Err(Wrong::Layout(found)),
            Some(_) => {}
            None => left.layout = true,
        }
    }
    match r {
        Read::Unknown if c.class == Class::Floating || integer_class(c) => left.class = true,
        Read::Number { float: false, .. } | Read::Pointer(_) | Read::Function
            if c.class == Class::Floating =>
        {
            return Err(Wrong::Class { float: false });
        }
        Read::Number { float: true, .. } | Read::Aggregate { float: true, .. }
            if integer_class(c) || c.class == Class::Record =>
        {
            return Err(Wrong::Class { float: true });
        }
        _ => {}
    }
    Ok(left)
}

/// What a declared pointer points to (`p`), against what C's points to.
fn judge_pointee(c: &CType, p: &Read, left: &mut Left, within: Toolkits) -> Result<(), Wrong> {
    let Some(c_pointee) = pointee(c) else {
        return Ok(()); // `void *`, or an incomplete type: anything
    };
    match p {
        Read::Void => return Ok(()),
        Read::Unknown => {
            left.pointee = true;
            left.second = second(c).is_some();
            return Ok(());
        }
        _ => {}
    }
    // An array of elements of the C pointee's layout: a C `T *` to an array of `T`.
    let array = |c: &CType, r: &Read| r.element().is_some_and(|e| within.accepts(c, e));
    match p.layout() {
        Some(found) if !within.accepts(c_pointee, found) && !array(c_pointee, p) => {
            return Err(Wrong::Pointee(found));
        }
        Some(_) => {}
        None => left.pointee = true,
    }
    let Some(c_second) = second(c) else {
        // A `void **`: what it points to is a pointer, or a function's address; never a number.
        if data_pointer(c_pointee) && matches!(p, Read::Number { .. } | Read::Aggregate { .. }) {
            return Err(Wrong::PointeeNotAPointer);
        }
        return Ok(());
    };
    let Read::Pointer(pp) = p else {
        return Err(Wrong::PointeeNotAPointer);
    };
    match &**pp {
        Read::Void => {}
        pp => match pp.layout() {
            Some(found) if !within.accepts(c_second, found) && !array(c_second, pp) => {
                return Err(Wrong::Second(found));
            }
            Some(_) => {}
            None => left.second = true,
        },
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::find;
    use crate::rules::layout::read;

    fn c(symbol: &str, version: u32, param: usize) -> CType {
        find(symbol, version, false).expect("a typedef").params[param].ty
    }

    /// Every toolkit read.
    const EVERY: Toolkits = Toolkits::every();

    fn judged(c: &CType, ty: &str) -> Result<Left, Wrong> {
        judged_within(c, ty, EVERY)
    }

    fn judged_within(c: &CType, ty: &str, within: Toolkits) -> Result<Left, Wrong> {
        judge(c, &read(&syn::parse_str(ty).expect("a type")), within)
    }

    #[test]
    fn pointees_are_judged_where_the_tokens_tell() {
        let free = c("cuMemGetInfo", 3020, 0); // size_t *
        assert_eq!(judged(&free, "*mut u32"), Err(Wrong::Pointee((4, 4))));
        assert_eq!(judged(&free, "&mut usize"), Ok(Left::default()));
        assert_eq!(judged(&free, "*mut c_void"), Ok(Left::default()));
        assert_eq!(judged(&free, "Option<NonNull<u64>>"), Ok(Left::default()));
        // A path may name an unsized type: that the pointer is thin is the compiler's to judge.
        let unknown = Left {
            pointer: true,
            pointee: true,
            ..Left::default()
        };
        assert_eq!(judged(&free, "*mut Size"), Ok(unknown));
        let alias = Left {
            pointer: true,
            pointee: true,
            ..Left::default()
        };
        assert_eq!(judged(&free, "SizePtr"), Ok(alias));
        assert_eq!(judged(&free, "u64"), Err(Wrong::NotAPointer));
        // A name under a module of the user's may be anything: the compiler judges it.
        let unknown = Left {
            pointer: true,
            pointee: true,
            ..Left::default()
        };
        assert_eq!(judged(&free, "*mut ffi::u64"), Ok(unknown));
        assert_eq!(
            judged(&free, "*mut std::primitive::u32"),
            Err(Wrong::Pointee((4, 4)))
        );
        // Two words: a pointer and a length.
        assert_eq!(judged(&free, "&mut str"), Err(Wrong::Layout((16, 8))));
        assert_eq!(judged(&free, "*mut [usize]"), Err(Wrong::Layout((16, 8))));
        assert_eq!(judged(&free, "c_void"), Err(Wrong::NotAPointer));
        // A C `T *` to an array of `T`: a Rust array of elements of `T`'s layout.
        let luid = c("cuDeviceGetLuid", 10000, 0); // char *luid, 8 bytes
        assert_eq!(judged(&luid, "&mut [c_char; 8]"), Ok(Left::default()));
        assert_eq!(judged(&luid, "*mut [u8; 8]"), Ok(Left::default()));
        assert_eq!(judged(&luid, "*mut [u8; 0]"), Err(Wrong::Pointee((0, 1))));
        assert_eq!(judged(&luid, "*mut [u16; 4]"), Err(Wrong::Pointee((8, 2))));
        assert_eq!(judged(&free, "&mut [usize; 2]"), Ok(Left::default()));
        assert_eq!(judged(&free, "&mut [u32; 2]"), Err(Wrong::Pointee((8, 4))));
    }

    #[test]
    fn a_pointer_to_a_pointer_is_judged_two_levels_down() {
        // `const char **`, `void **`, `CUcontext *`.
        let strings = c("cuGetErrorString", 6000, 1);
        assert_eq!(strings.spelling, "const char **");
        assert_eq!(judged(&strings, "*mut u32"), Err(Wrong::Pointee((4, 4))));
        assert_eq!(judged(&strings, "*mut u64"), Err(Wrong::PointeeNotAPointer));
        assert_eq!(
            judged(&strings, "*mut *const u32"),
            Err(Wrong::Second((4, 4)))
        );
        assert_eq!(judged(&strings, "*mut *const c_char"), Ok(Left::default()));
        assert_eq!(judged(&strings, "*mut *const c_void"), Ok(Left::default()));
        assert_eq!(judged(&strings, "*mut c_void"), Ok(Left::default()));
        let void_pp = c("cuLaunchKernel", 4000, 9);
        assert_eq!(void_pp.spelling, "void **");
        assert_eq!(judged(&void_pp, "*mut *mut u8"), Ok(Left::default()));
        assert_eq!(judged(&void_pp, "*mut u32"), Err(Wrong::Pointee((4, 4))));
        let ctx = c("cuCtxCreate", 3020, 0);
        assert_eq!(ctx.spelling, "CUcontext *");
        assert_eq!(judged(&ctx, "*mut *mut c_void"), Ok(Left::default()));
        assert_eq!(judged(&ctx, "*mut u64"), Ok(Left::default()));
    }

    #[test]
    fn floats_and_integers_keep_their_registers() {
        let bias = c("cuTexRefSetMipmapLevelBias", 5000, 1);
        assert_eq!(bias.spelling, "float");
        assert_eq!(judged(&bias, "f32"), Ok(Left::default()));
        assert_eq!(judged(&bias, "c_float"), Ok(Left::default()));
        assert_eq!(judged(&bias, "u32"), Err(Wrong::Class { float: false }));
        assert_eq!(judged(&bias, "f64"), Err(Wrong::Layout((8, 8))));
        let unknown = Left {
            layout: true,
            class: true,
            ..Left::default()
        };
        assert_eq!(judged(&bias, "Bias"), Ok(unknown));
        let size = c("cuMemAlloc", 3020, 1);
        assert_eq!(judged(&size, "f64"), Err(Wrong::Class { float: true }));
        assert_eq!(judged(&size, "usize"), Ok(Left::default()));
    }

    #[test]
    fn a_pointee_may_have_the_layout_of_any_header_of_the_typedef() {
        let t = find("cuCtxGetDevResource", 12040, false).expect("a typedef");
        let resource = &t.params[1].ty; // CUdevResource *, 144 bytes aligned to 4, then 8
        let within = Toolkits::of(t);
        assert_eq!(
            judged_within(resource, "*mut [u32; 36]", within),
            Ok(Left::default())
        );
        assert_eq!(
            judged_within(resource, "*mut [u64; 18]", within),
            Ok(Left::default())
        );
        assert_eq!(
            judged_within(resource, "*mut [u16; 72]", within),
            Err(Wrong::Pointee((144, 2)))
        );
        let tensor_map = find("cuTensorMapEncodeTiled", 12000, false).expect("a typedef");
        // 128 bytes aligned to 64 (CUDA 12.x) is no layout the tokens tell: left to the compiler.
        let left = Left {
            pointer: true,
            pointee: true,
            ..Left::default()
        };
        assert_eq!(
            judged_within(
                &tensor_map.params[0].ty,
                "*mut TensorMap",
                Toolkits::of(tensor_map)
            ),
            Ok(left)
        );
        // Headers of CUDA 13.1 on: only the newer alignment.
        let newer = Toolkits::new(13010, 13050);
        assert_eq!(
            judged_within(resource, "*mut [u32; 36]", newer),
            Err(Wrong::Pointee((144, 4)))
        );
    }

    #[test]
    fn handles_take_any_type_of_their_size() {
        let stream = c("cuStreamSynchronize", 2000, 0);
        assert_eq!(stream.spelling, "CUstream");
        assert_eq!(judged(&stream, "u64"), Ok(Left::default()));
        assert_eq!(judged(&stream, "*mut c_void"), Ok(Left::default()));
        assert_eq!(judged(&stream, "u32"), Err(Wrong::Layout((4, 4))));
        assert_eq!(judged(&stream, "f64"), Err(Wrong::Class { float: true }));
    }
}
