//! The signature against its typedef: the arity, then each parameter and the return type judged
//! from their tokens ([`judge`](super::judge)). What the tokens show is wrong is a mistake; the
//! first of a declaration also names the typedef the written types are those of, where they
//! tell, and lists the symbol's typedefs. What the tokens leave open, the expansion asserts at
//! compile time ([`Assertion`](super::Assertion)).

use syn::Type;

use super::callback::check_callback;
use super::declaration::{Declaration, is_c_type};
use super::headers::Toolkits;
use super::judge::{Wrong, judge, pointee, second};
use super::layout::{Read, read, type_text};
use super::mistake::{Found, Mistake, MistakeKind, place};
use super::values::{WrongValue, instead, judge_parameter, judge_status};
use crate::{CType, Class, Param, Typedef, class_words, flavour};

/// Arity, then each type against the C type, then the return type.
pub(crate) fn check_signature(decl: &Declaration, typedef: &Typedef, found: &mut Found) {
    if decl.found.has(MistakeKind::SelfParameter)
        || decl.found.has(MistakeKind::Variadic)
        || decl.found.has(MistakeKind::ConditionalParameter)
    {
        return; // reported; counting the rest would only mislead
    }
    let name = typedef.typedef_name();
    // Each with the typedefs that have the layout found at its place, if any.
    let mut mistakes: Vec<(u32, Mistake, Option<String>)> = Vec::new();
    if decl.params.len() == typedef.params.len() {
        for (i, (p, c)) in decl.params.iter().zip(typedef.params).enumerate() {
            if !is_c_type(&p.ty) {
                continue; // reported
            }
            let r = read(&p.ty);
            let site = || Site::parameter(typedef, i, p.name.to_string(), c, &p.ty);
            if let Err(wrong) = judge(&c.ty, &r, Toolkits::of(typedef)) {
                let mistake = Mistake::new(kind(wrong), &p.ty, site().wrong(wrong, &c.ty, &r));
                let hint = layout_elsewhere(wrong, &elsewhere(typedef, decl, Some(i)));
                mistakes.push((place::input(i), mistake, hint));
            } else if let Err(mistake) = check_callback(typedef, i, p.name.to_string(), c, &p.ty) {
                mistakes.push((place::input(i), mistake, None));
            } else if let Err(wrong) = judge_parameter(&c.ty, &p.ty) {
                let mistake = site().wrong_value(wrong, &c.ty, &p.ty);
                mistakes.push((place::input(i), mistake, None));
            }
        }
    } else {
        let expected: Vec<String> = typedef.params.iter().map(c_param).collect();
        let message = format!(
            "`{name}` takes {} parameter{} ({}), this declaration has {}: copy the parameter list \
             of that typedef",
            typedef.params.len(),
            if typedef.params.len() == 1 { "" } else { "s" },
            expected.join(", "),
            decl.params.len()
        );
        let mistake = Mistake::at(MistakeKind::WrongArity, decl.parens, message);
        mistakes.push((place::PARAMETERS, mistake, None));
    }
    if let Some(mistake) = check_return(decl, typedef, &name) {
        mistakes.push((place::RETURN, mistake, None));
    }
    // The first says what the written types are, or else each where its layout is found, and
    // lists the typedefs to choose from.
    let signature = matching(decl, typedef);
    for (i, (at, mut mistake, hint)) in mistakes.into_iter().enumerate() {
        // Another typedef's signature is no fix for a value the driver produces.
        let abi = !matches!(
            mistake.kind(),
            MistakeKind::ReadOnlyPointer | MistakeKind::InvalidValue | MistakeKind::MissingReturn
        );
        match (&signature, hint) {
            _ if !abi => {}
            (Some(signature), _) if i == 0 => mistake.append(&format!("; {signature}")),
            (None, Some(hint)) => mistake.append(&format!("; {hint}")),
            _ => {}
        }
        if i == 0 {
            mistake.add_note(typedefs_note(typedef));
        }
        found.push(at, mistake);
    }
}

/// `that is its layout in ...`: the other typedefs whose C type has, at the place and level of a
/// layout mismatch, the layout found.
fn layout_elsewhere(wrong: Wrong, elsewhere: &[(&'static Typedef, CType)]) -> Option<String> {
    let (level, found): (Level, _) = match wrong {
        Wrong::Layout(found) => (by_value, found),
        Wrong::Pointee(found) => (of_pointee, found),
        Wrong::Second(found) => (of_second, found),
        _ => return None,
    };
    let names: Vec<String> = elsewhere
        .iter()
        .filter(|(_, c)| level(c) == Some(found))
        .map(|(t, _)| format!("`{}` (`version = {}`)", t.typedef_name(), t.version))
        .collect();
    (!names.is_empty()).then(|| format!("that is its layout in {}", names.join(" or ")))
}

fn check_return(decl: &Declaration, typedef: &Typedef, name: &str) -> Option<Mistake> {
    let c = &typedef.ret;
    if !is_c_type(&decl.ret) {
        return None; // reported
    }
    if c.size == 0 {
        return (!is_unit(&decl.ret)).then(|| {
            let message = format!("`{name}` returns `void`: remove the return type");
            Mistake::new(MistakeKind::VoidReturn, &decl.ret, message)
        });
    }
    if is_unit(&decl.ret) {
        let message = if c.spelling == "CUresult" {
            format!(
                "`{name}` returns `CUresult`: add `-> CUresult` (`cuda_entry::types::CUresult`, \
                 or `i32`); the function then returns `Result<(), Error>`, the driver's status \
                 checked"
            )
        } else {
            format!(
                "`{name}` returns `{}`: add `-> T` with a type of its layout ({} bytes, align {})",
                c.spelling, c.size, c.align
            )
        };
        return Some(Mistake::at(
            MistakeKind::MissingReturn,
            decl.parens,
            message,
        ));
    }
    let r = read(&decl.ret);
    let site = Site::ret(typedef, &decl.ret);
    if c.spelling == "CUresult" && is_result(&decl.ret) {
        let message = format!(
            "declare what `{name}` returns, `-> CUresult` (`cuda_entry::types::CUresult`, or \
             `i32`): the function `#[cuda_entry]` generates returns `Result<(), Error>` itself, \
             the driver's status checked"
        );
        return Some(Mistake::new(
            MistakeKind::LayoutMismatch,
            &decl.ret,
            message,
        ));
    }
    if let Err(wrong) = judge(c, &r, Toolkits::of(typedef)) {
        return Some(Mistake::new(
            kind(wrong),
            &decl.ret,
            site.wrong(wrong, c, &r),
        ));
    }
    let wrong = judge_status(&decl.ret)
        .err()
        .filter(|_| c.spelling == "CUresult")?;
    Some(site.wrong_value(wrong, c, &decl.ret))
}

fn kind(wrong: Wrong) -> MistakeKind {
    match wrong {
        Wrong::NotAPointer => MistakeKind::NotAPointer,
        Wrong::Layout(_) => MistakeKind::LayoutMismatch,
        Wrong::Class { .. } => MistakeKind::FloatMismatch,
        Wrong::Pointee(_) | Wrong::PointeeNotAPointer | Wrong::Second(_) => {
            MistakeKind::PointeeMismatch
        }
    }
}

/// Whether `ty` is a path to a `Result` (the generated function's return type, written by hand).
fn is_result(ty: &Type) -> bool {
    match ty {
        Type::Path(p) => p
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == "Result" && !s.arguments.is_none()),
        Type::Paren(p) => is_result(&p.elem),
        Type::Group(g) => is_result(&g.elem),
        _ => false,
    }
}

pub(crate) fn is_unit(ty: &Type) -> bool {
    match ty {
        Type::Tuple(t) => t.elems.is_empty(),
        Type::Paren(p) => is_unit(&p.elem),
        Type::Group(g) => is_unit(&g.elem),
        _ => false,
    }
}

/// A parameter as C writes it: `size_t *free`, `unsigned int flags`.
fn c_param(p: &Param) -> String {
    if p.ty.spelling.ends_with('*') {
        format!("{}{}", p.ty.spelling, p.name)
    } else {
        format!("{} {}", p.ty.spelling, p.name)
    }
}

/// A typedef as C declares it: `CUresult PFN_cuMemGetInfo_v2000(unsigned int *free, ...)`.
fn c_signature(t: &Typedef) -> String {
    let params: Vec<String> = t.params.iter().map(c_param).collect();
    format!(
        "{} {}({})",
        t.ret.spelling,
        t.typedef_name(),
        params.join(", ")
    )
}

/// The symbol's typedefs of the declaration's flavour, one a line, with their versions.
pub(crate) fn typedefs_note(typedef: &Typedef) -> String {
    let mut note = format!("the typedefs of `{}`:", typedef.symbol);
    for t in flavour(typedef.symbol, typedef.stream.is_per_thread()) {
        note.push_str(&format!(
            "\n    version = {}: {}",
            t.version,
            c_signature(t)
        ));
    }
    note
}

/// Whether the written types fit `t` as far as their tokens tell: `Some(true)` when they tell
/// everything that sets `t` apart from `declared` (the typedef of the version written).
fn fits(decl: &Declaration, t: &Typedef, declared: &Typedef) -> Option<bool> {
    if decl.params.len() != t.params.len() {
        return None;
    }
    let mut whole = true;
    for (i, (p, c)) in decl.params.iter().zip(t.params).enumerate() {
        let left = judge(&c.ty, &read(&p.ty), Toolkits::of(t)).ok()?;
        let differs = declared.params.get(i).is_none_or(|d| d.ty != c.ty);
        whole &= left.is_empty() || !differs;
    }
    match (t.ret.size, is_unit(&decl.ret)) {
        (0, true) => {}
        (0, false) => return None,
        // A missing return type is the same mistake at every version.
        (_, true) => {}
        (_, false) => {
            let left = judge(&t.ret, &read(&decl.ret), Toolkits::of(t)).ok()?;
            whole &= left.is_empty() || t.ret == declared.ret;
        }
    }
    Some(whole)
}

/// The other typedefs the written types fit: `this is the signature of ...`.
fn matching(decl: &Declaration, typedef: &Typedef) -> Option<String> {
    let fitting: Vec<(&Typedef, bool)> = flavour(typedef.symbol, typedef.stream.is_per_thread())
        .filter(|t| *t != typedef)
        .filter_map(|t| fits(decl, t, typedef).map(|whole| (t, whole)))
        .collect();
    if fitting.is_empty() {
        return None;
    }
    let names: Vec<String> = fitting
        .iter()
        .map(|(t, _)| format!("`{}` (`version = {}`)", t.typedef_name(), t.version))
        .collect();
    let whole = fitting.iter().all(|(_, whole)| *whole);
    Some(format!(
        "{}this is the signature of {}",
        if whole {
            ""
        } else {
            "as far as its types can be read, "
        },
        names.join(" or ")
    ))
}

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
    fn wrong_value(&self, wrong: WrongValue, c: &CType, ty: &Type) -> Mistake {
        let (kind, message) = match wrong {
            WrongValue::ReadOnly => (MistakeKind::ReadOnlyPointer, self.read_only()),
            WrongValue::ReadOnlySecond => (MistakeKind::ReadOnlyPointer, self.read_only_second()),
            WrongValue::InvalidPointee(words) => {
                let (before, after) = self.invalid_pointee(c);
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

    /// A pointer to a pointer that promises no write, where the driver writes at the second
    /// level (`void **data`, each element of which the driver writes through).
    pub(crate) fn read_only_second(&self) -> String {
        format!(
            "{} is `{}`, which the driver writes through at both levels (neither pointee is \
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
    fn wrong(&self, wrong: Wrong, c: &CType, r: &Read) -> String {
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
