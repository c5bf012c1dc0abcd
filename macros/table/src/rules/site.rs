//! Where a declared type sits, and the words of what is wrong with it there: the position
//! (`parameter 2 `bytesize` of `PFN_cuMemAlloc_v3020``), the C text, the Rust type written, and
//! the messages the rules, the callbacks' reading and the assertions share.

use syn::Type;

use super::declaration::Declaration;
use super::headers::Toolkits;
use super::judge::{Wrong, pointee, second};
use super::layout::{Read, type_text};
use super::mistake::{Mistake, MistakeKind};
use super::values::{WrongValue, instead};
use crate::{CType, Class, Param, Typedef, class_words, flavour};

/// Where a type sits, for the messages: `parameter 2 `bytesize` of `PFN_cuMemAlloc_v3020``, its
/// C text and the Rust type written.
pub(crate) struct Site {
    position: String,
    c: String,
    rust: String,
    /// The typedef's toolkits, whose headers' layouts the messages name.
    within: Toolkits,
}

impl Site {
    pub(crate) fn parameter(
        typedef: &Typedef,
        i: usize,
        name: String,
        c: &Param,
        ty: &Type,
    ) -> Site {
        Site {
            position: format!(
                "parameter {} `{name}` of `{}`",
                i + 1,
                typedef.typedef_name()
            ),
            c: c_param(c),
            rust: type_text(ty),
            within: Toolkits::of(typedef),
        }
    }

    pub(crate) fn ret(typedef: &Typedef, ty: &Type) -> Site {
        let name = typedef.typedef_name();
        Site::status(&name, typedef.ret.spelling, ty, Toolkits::of(typedef))
    }

    /// The return type of the typedef named `typedef_name`, whose C return type is `c`, in the
    /// headers `within`.
    pub(crate) fn status(typedef_name: &str, c: &str, ty: &Type, within: Toolkits) -> Site {
        Site {
            position: format!("the return type of `{typedef_name}`"),
            c: c.to_owned(),
            rust: type_text(ty),
            within,
        }
    }

    /// The mistake of a value the driver produces.
    pub(crate) fn wrong_value(&self, wrong: WrongValue, c: &CType, ty: &Type) -> Mistake {
        let (kind, message) = match wrong {
            WrongValue::ReadOnly => (MistakeKind::ReadOnlyPointer, self.read_only()),
            WrongValue::ReadOnlySecond => (MistakeKind::ReadOnlyPointer, self.read_only_second()),
            WrongValue::InvalidPointee(words) => {
                let (before, after) = self.invalid_pointee(c);
                (MistakeKind::InvalidValue, format!("{before}{words}{after}"))
            }
            WrongValue::InvalidSecond(words) => {
                let (before, after) = self.invalid_second(c);
                (MistakeKind::InvalidValue, format!("{before}{words}{after}"))
            }
            WrongValue::InvalidStatus(words) => {
                let (before, after) = self.invalid_status();
                (MistakeKind::InvalidValue, format!("{before}{words}{after}"))
            }
        };
        Mistake::new(kind, ty, message)
    }

    /// A pointer that promises no write where the driver writes through it.
    pub(crate) fn read_only(&self) -> String {
        format!(
            "{} is `{}`, which the driver writes through (its pointee is not `const`), but `{}` \
             promises no write: declare `*mut T` or `&mut T` (`Option<&mut T>` where NULL is \
             allowed)",
            self.position, self.c, self.rust
        )
    }

    /// A pointer to a pointer that promises no write, where the driver writes through the
    /// caller's pointers at the second level (`void **data`, each element of which the driver
    /// writes through).
    pub(crate) fn read_only_second(&self) -> String {
        format!(
            "{} is `{}`, whose elements the driver writes through (the second level is not \
             `const`), but `{}` points to a pointer that promises no write: declare \
             `*mut *mut T` (or `*mut *mut c_void`)",
            self.position, self.c, self.rust
        )
    }

    /// A pointer to a type with invalid values where the driver writes through it: the text
    /// before and after the words naming the kind of type ([`value_words`](crate::value_words)).
    pub(crate) fn invalid_pointee(&self, c: &CType) -> (String, String) {
        let instead = c.pointee.map_or_else(String::new, instead);
        (
            format!(
                "{} is `{}`, which the driver writes through, but `{}` points to ",
                self.position, self.c, self.rust
            ),
            format!(": point to {instead}"),
        )
    }

    /// A pointer to a pointer to a type with invalid values where the driver stores values at the
    /// second level (through `data[i]`, or in memory of its own it points the first level to):
    /// the text before and after the words naming the kind of type.
    pub(crate) fn invalid_second(&self, c: &CType) -> (String, String) {
        let below = c.pointee.and_then(|p| p.pointee);
        let instead = below.map_or_else(String::new, instead);
        (
            format!(
                "{} is `{}`, whose second level holds values the driver stores, but `{}` points \
                 to a pointer to ",
                self.position, self.c, self.rust
            ),
            format!(": point to a pointer to {instead}"),
        )
    }

    /// A reference covering fewer than the `count` elements the driver reaches through the
    /// pointer: the bytes, and the text before and after the size found.
    pub(crate) fn extent(&self, c: &CType, count: u32) -> (u32, String, String) {
        let element = c.pointee.map_or(0, |p| p.size);
        let bytes = element * count;
        (
            bytes,
            format!(
                "{} is `{}`, through which the driver reaches {count} elements ({bytes} bytes), \
                 but `{}` is a reference to ",
                self.position, self.c, self.rust
            ),
            format!(
                " bytes, and claims no more: point to an array of {count} (`&mut [T; {count}]`), \
                 or declare a raw pointer"
            ),
        )
    }

    /// The return type of an `unverified` declaration that returns a value other than a status:
    /// the text before and after the words naming a kind of type with invalid values.
    pub(crate) fn invalid_return(&self) -> (String, String) {
        (
            format!(
                "{} is a value the driver returns, but `{}` is ",
                self.position, self.rust
            ),
            ": declare a type whose every value is valid (an integer, a raw pointer, an `Option` \
             of a function pointer)"
                .to_owned(),
        )
    }

    /// A status type that may not hold every status: the text before and after the words.
    pub(crate) fn invalid_status(&self) -> (String, String) {
        (
            format!(
                "{} is `{}`, a status the driver may set to any `int`, but `{}` is ",
                self.position, self.c, self.rust
            ),
            ": declare `-> cuda_entry::types::CUresult`, or `-> i32` (or an alias of a primitive \
             integer); the function returns `Result<(), Error>` either way"
                .to_owned(),
        )
    }

    /// The typedef's toolkits.
    pub(crate) fn within(&self) -> Toolkits {
        self.within
    }

    /// `parameter 2 `bytesize` of `PFN_cuMemAlloc_v3020``.
    pub(crate) fn position(&self) -> &str {
        &self.position
    }

    /// The C parameter or return type as the header writes it: `size_t bytesize`.
    pub(crate) fn c_text(&self) -> &str {
        &self.c
    }

    /// The Rust type as written.
    pub(crate) fn rust_text(&self) -> &str {
        &self.rust
    }

    /// The message of a mistake the tokens show.
    pub(crate) fn wrong(&self, wrong: Wrong, c: &CType, r: &Read) -> String {
        let (before, after) = match wrong {
            Wrong::NotAPointer => {
                return format!(
                    "{} is `{}`, a pointer, but `{}` is not one: write a pointer type here \
                     (`*mut T`, `*const T`, `&T`, `&mut T`, `NonNull<T>`, or an `Option` of a \
                     reference or a `NonNull`)",
                    self.position, self.c, self.rust
                );
            }
            Wrong::Class { float } => {
                let words = if float {
                    class_words::FLOAT
                } else if matches!(r, Read::Number { .. }) {
                    class_words::INTEGER
                } else {
                    class_words::POINTER
                };
                let (before, after) = self.class(c);
                return format!("{before}{words}{after}");
            }
            Wrong::PointeeNotAPointer => {
                let pointee = pointee(c).map_or("", |p| p.spelling);
                return format!(
                    "{} is `{}`, a pointer to a pointer (`{pointee}`), but `{}` points to a value \
                     that is not a pointer: point to a pointer (`*mut *const T`), or to `c_void` \
                     to leave it unchecked",
                    self.position, self.c, self.rust
                );
            }
            Wrong::Layout(_) => self.layout(c),
            Wrong::Pointee(_) => self.pointee(c),
            Wrong::Second(_) => self.second(c),
        };
        let (Wrong::Layout((size, align))
        | Wrong::Pointee((size, align))
        | Wrong::Second((size, align))) = wrong
        else {
            return before;
        };
        format!("{before}{size} bytes, align {align}{after}")
    }

    /// A class mismatch: the text before and after the words naming the declared type's class
    /// ([`class_words`]).
    pub(crate) fn class(&self, c: &CType) -> (String, String) {
        let (passed, instead) = match c.class {
            Class::Floating => {
                let float = if c.size == 8 { "f64" } else { "f32" };
                ("passed in a floating-point register", format!("`{float}`"))
            }
            Class::Pointer if c.pointer => {
                ("passed in an integer register", "a pointer type".to_owned())
            }
            Class::Pointer => (
                "passed in an integer register",
                format!("a pointer type, or an integer of {} bytes", c.size),
            ),
            Class::FunctionPointer => (
                "passed in an integer register",
                "a function pointer type".to_owned(),
            ),
            Class::Record => (
                "a record passed as its fields are",
                format!(
                    "a `#[repr(C)]` struct of the C type's fields ({} bytes, align {}) that \
                     derives `cuda_entry::ByValue`",
                    c.size, c.align
                ),
            ),
            _ => (
                "passed in an integer register",
                format!(
                    "an integer type of {} bytes (`u{}` or `i{}`), or a field-less enum of yours \
                     with `#[repr(C)]` that derives `cuda_entry::ByValue`",
                    c.size,
                    c.size * 8,
                    c.size * 8
                ),
            ),
        };
        (
            format!(
                "{} is `{}`, {passed}, but `{}` is ",
                self.position, self.c, self.rust
            ),
            if c.class == Class::Floating {
                format!(": declare it {instead}")
            } else {
                format!(": declare it with {instead}")
            },
        )
    }

    /// A size and alignment mismatch: the text before and after the declared type's layout.
    pub(crate) fn layout(&self, c: &CType) -> (String, String) {
        (
            format!(
                "{} is `{}` ({}), but `{}` is ",
                self.position,
                self.c,
                self.within.describe(c),
                self.rust
            ),
            ": declare it with a type of the C layout".to_owned(),
        )
    }

    pub(crate) fn pointee(&self, c: &CType) -> (String, String) {
        let Some(p) = pointee(c) else {
            return self.layout(c);
        };
        (
            format!(
                "{} is `{}`, a pointer to `{}` ({}), but `{}` points to ",
                self.position,
                self.c,
                p.spelling,
                self.within.describe(p),
                self.rust
            ),
            POINT_TO.to_owned(),
        )
    }

    pub(crate) fn second(&self, c: &CType) -> (String, String) {
        let Some(s) = second(c) else {
            return self.pointee(c);
        };
        (
            format!(
                "{} is `{}`, a pointer to a pointer to `{}` ({}), but `{}` points to a pointer to ",
                self.position,
                self.c,
                s.spelling,
                self.within.describe(s),
                self.rust
            ),
            POINT_TO.to_owned(),
        )
    }
}

const POINT_TO: &str = ": point to a type of the C layout, or to `c_void` to leave it unchecked";

/// The C types at one place (a parameter's index, or `None` for the return type) in the other
/// typedefs of the flavour with the declaration's arity.
pub(crate) fn elsewhere(
    typedef: &Typedef,
    decl: &Declaration,
    index: Option<usize>,
) -> Vec<(&'static Typedef, CType)> {
    flavour(typedef.symbol, typedef.stream.is_per_thread())
        .filter(|t| *t != typedef && t.params.len() == decl.params.len())
        .filter_map(|t| match index {
            Some(i) => t.params.get(i).map(|p| (t, p.ty)),
            None => Some((t, t.ret)),
        })
        .collect()
}

/// One level of a C type: by value, its pointee, or what that points to.
pub(crate) type Level = fn(&CType) -> Option<(u32, u32)>;

pub(crate) fn by_value(c: &CType) -> Option<(u32, u32)> {
    c.is_complete().then_some((c.size, c.align))
}

pub(crate) fn of_pointee(c: &CType) -> Option<(u32, u32)> {
    pointee(c).map(|p| (p.size, p.align))
}

pub(crate) fn of_second(c: &CType) -> Option<(u32, u32)> {
    second(c).map(|s| (s.size, s.align))
}

/// `()`, however it is parenthesized.
pub(crate) fn is_unit(ty: &Type) -> bool {
    match ty {
        Type::Tuple(t) => t.elems.is_empty(),
        Type::Paren(p) => is_unit(&p.elem),
        Type::Group(g) => is_unit(&g.elem),
        _ => false,
    }
}

/// A parameter as C writes it: `size_t *free`, `unsigned int flags`.
pub(crate) fn c_param(p: &Param) -> String {
    if p.ty.spelling.ends_with('*') {
        format!("{}{}", p.ty.spelling, p.name)
    } else {
        format!("{} {}", p.ty.spelling, p.name)
    }
}
