//! Callbacks: where C has a function pointer (`CUhostFn`, `CUstreamCallback`,
//! `CUoccupancyB2DSize`), the driver calls what it is given, so the declared type must be a
//! function pointer the driver can call: the `"C"` (or `"system"`) ABI, the arity of the
//! header's signature, each parameter and the return of its layout and register class. Accepted:
//! `Option<unsafe extern "C" fn(..)>`, `Option<extern "C" fn(..)>`, `unsafe extern "C" fn(..)`
//! and `extern "C" fn(..)`.
//!
//! What the tokens show is judged here ([`check_callback`]); a type they do not show (an alias,
//! `sys::CUhostFn`) is judged by the compiler, through the assertion
//! [`Checked::callbacks`](super::Checked::callbacks) describes, and through it a spelled one too:
//! a name is not a type.

use syn::{ReturnType, Type, TypeFnPtr};

use super::headers::Toolkits;
use super::judge::{Wrong, judge};
use super::layout::{Read, read, type_text};
use super::mistake::{Mistake, MistakeKind};
use super::site::{Site, c_param, is_unit};
use crate::{CType, Callback, Class, Param, Passing, Typedef, class_words};

/// What the tokens of a type declared for a callback show.
enum Shape<'a> {
    /// `[unsafe] extern "ABI" fn(..)`, in an `Option` or not.
    Function(&'a TypeFnPtr),
    /// Something that is no function pointer (`u64`, `*mut c_void`).
    NotAFunction,
    /// What only the compiler knows (an alias).
    Unknown,
}

fn shape(ty: &Type) -> Shape<'_> {
    match ty {
        Type::Paren(p) => shape(&p.elem),
        Type::Group(g) => shape(&g.elem),
        Type::FnPtr(f) => Shape::Function(f),
        Type::Path(p) if p.qself.is_none() => {
            let inner = p.path.segments.last().and_then(|last| {
                let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
                    return None;
                };
                match (last.ident == "Option", args.args.first(), args.args.len()) {
                    (true, Some(syn::GenericArgument::Type(inner)), 1) => Some(inner),
                    _ => None,
                }
            });
            match inner {
                Some(inner) => shape(inner),
                None => by_layout(ty),
            }
        }
        _ => by_layout(ty),
    }
}

fn by_layout(ty: &Type) -> Shape<'_> {
    match read(ty) {
        Read::Unknown => Shape::Unknown,
        _ => Shape::NotAFunction,
    }
}

/// Judges the declared type `ty` of parameter `i` where C has the callback `c`.
///
/// # Errors
/// The first thing its tokens show is wrong: not a function pointer, another ABI, the arity, a
/// parameter or the return.
pub(crate) fn check_callback(
    typedef: &Typedef,
    i: usize,
    name: String,
    param: &Param,
    ty: &Type,
) -> Result<(), Mistake> {
    let Some(callback) = param.ty.callback else {
        return Ok(());
    };
    let site = Site::parameter(typedef, i, name, param, ty);
    let words = Words::new(&site, callback);
    let wrong = |what: String| {
        Err(Mistake::new(
            MistakeKind::CallbackMismatch,
            ty,
            format!("{}{what}{}", words.before, words.after),
        ))
    };
    let f = match shape(ty) {
        Shape::Unknown => return Ok(()),
        Shape::NotAFunction => return wrong("is not a function pointer".to_owned()),
        Shape::Function(f) => f,
    };
    let abi = f
        .abi
        .as_ref()
        .map(|abi| abi.name.as_ref().map_or("C".to_owned(), syn::LitStr::value));
    match abi.as_deref() {
        Some("C" | "system") => {}
        None => return wrong("has the Rust ABI, which C cannot call".to_owned()),
        Some("C-unwind" | "system-unwind") => {
            return wrong(
                "has an unwinding ABI: a panic must not unwind into the driver".to_owned(),
            );
        }
        Some(other) => return wrong(format!("has the `\"{other}\"` ABI")),
    }
    if f.variadic.is_some() {
        return wrong("is variadic".to_owned());
    }
    if f.inputs.len() != callback.params.len() {
        return wrong(format!("takes {}", parameters(f.inputs.len())));
    }
    let within = Toolkits::of(typedef);
    for (k, (arg, c)) in f.inputs.iter().zip(callback.params).enumerate() {
        if is_reference(&arg.ty) {
            // A reference's lifetime is the function pointer's own generic parameter, which no
            // C caller can be asked about (rustc: "not general enough"); the driver passes an
            // address, which a raw pointer carries.
            return wrong(format!(
                "has `{}` as parameter {}, a reference, whose lifetime a C caller cannot promise \
                 (a raw pointer carries the address)",
                type_text(&arg.ty),
                k + 1
            ));
        }
        let r = read(&arg.ty);
        if let Err(w) = judge(&c.ty, &r, within) {
            return wrong(format!(
                "has `{}` as parameter {}, {}, where C has `{}` ({})",
                type_text(&arg.ty),
                k + 1,
                found(w, &r),
                c_param(c),
                value_words(&c.ty, within)
            ));
        }
    }
    let ret = &callback.ret;
    match (&f.output, ret.class) {
        (ReturnType::Default, Class::Void) => {}
        (ReturnType::Type(_, out), Class::Void) if is_unit(out) => {}
        (ReturnType::Type(_, out), Class::Void) => {
            return wrong(format!(
                "returns `{}`, where C returns `void`",
                type_text(out)
            ));
        }
        (ReturnType::Default, _) => {
            return wrong(format!(
                "returns nothing, where C returns `{}` ({})",
                ret.spelling,
                value_words(ret, within)
            ));
        }
        (ReturnType::Type(_, out), _) => {
            let r = read(out);
            if let Err(w) = judge(ret, &r, within) {
                return wrong(format!(
                    "returns `{}`, {}, where C returns `{}` ({})",
                    type_text(out),
                    found(w, &r),
                    ret.spelling,
                    value_words(ret, within)
                ));
            }
        }
    }
    Ok(())
}

/// Whether the type is a reference (`&mut u64`) or an `Option` of one.
fn is_reference(ty: &Type) -> bool {
    match ty {
        Type::Paren(p) => is_reference(&p.elem),
        Type::Group(g) => is_reference(&g.elem),
        Type::Reference(_) => true,
        Type::Path(p) if p.qself.is_none() => {
            let Some(last) = p.path.segments.last() else {
                return false;
            };
            let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
                return false;
            };
            match (last.ident == "Option", args.args.first(), args.args.len()) {
                (true, Some(syn::GenericArgument::Type(inner)), 1) => is_reference(inner),
                _ => false,
            }
        }
        _ => false,
    }
}

/// What the declared type shows, in the words of a mismatch.
fn found(wrong: Wrong, r: &Read) -> String {
    match wrong {
        Wrong::NotAPointer => "not a pointer".to_owned(),
        Wrong::Layout((size, align)) => format!("{size} bytes, align {align}"),
        Wrong::Class { float: true } => class_words::FLOAT.to_owned(),
        Wrong::Class { float: false } if matches!(r, Read::Number { .. }) => {
            class_words::INTEGER.to_owned()
        }
        Wrong::Class { float: false } => class_words::POINTER.to_owned(),
        Wrong::Pointee((size, align)) => format!("a pointer to {size} bytes, align {align}"),
        Wrong::PointeeNotAPointer => "a pointer to a value that is not a pointer".to_owned(),
        Wrong::Second((size, align)) => {
            format!("a pointer to a pointer to {size} bytes, align {align}")
        }
    }
}

/// `8 bytes, align 8, passed in an integer register`.
pub(crate) fn value_words(c: &CType, within: Toolkits) -> String {
    let register = if c.class == Class::Floating {
        "a floating-point register"
    } else {
        "an integer register"
    };
    format!("{}, passed in {register}", within.describe(c))
}

fn parameters(n: usize) -> String {
    format!("{n} parameter{}", if n == 1 { "" } else { "s" })
}

/// The words around what is wrong with a declared callback: `parameter 3 `fn` of
/// `PFN_cuLaunchHostFunc_v10000` is `CUhostFn fn`, a callback `void (*)(void *userData)`, but
/// `fn(*mut c_void)` ` and `: declare it `Option<unsafe extern "C" fn(*mut c_void)>``.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Words {
    pub(crate) before: String,
    pub(crate) after: String,
}

impl Words {
    pub(crate) fn new(site: &Site, callback: &Callback) -> Words {
        Words {
            before: format!(
                "{} is `{}`, a callback `{}`, but `{}` ",
                site.position(),
                site.c_text(),
                callback.spelling,
                site.rust_text()
            ),
            after: format!(": declare it `{}`", suggestion(callback)),
        }
    }
}

/// The Rust type to declare for a callback, its C types written as `cuda-entry decl --types c`
/// writes them: `Option<unsafe extern "C" fn(CUstream, CUresult, *mut c_void)>`.
pub(crate) fn suggestion(callback: &Callback) -> String {
    let params: Vec<String> = callback.params.iter().map(|p| rust_text(&p.ty)).collect();
    let ret = if callback.ret.class == Class::Void {
        String::new()
    } else {
        format!(" -> {}", rust_text(&callback.ret))
    };
    format!("Option<unsafe extern \"C\" fn({}){ret}>", params.join(", "))
}

/// A C type in Rust: C's own types as Rust's (`int` -> `i32`, `void *` -> `*mut c_void`), the
/// CUDA types by their C name, pointers with the const-ness of what they point to.
fn rust_text(c: &CType) -> String {
    // An enum the driver passes is any `int` to Rust: a Rust enum would not hold a value newer
    // than its list.
    if c.class == Class::Enum {
        return if c.spelling == "CUresult" {
            "cuda_entry::types::CUresult".to_owned()
        } else {
            format!("i{}", c.size * 8)
        };
    }
    let mut pieces = c.spelling.split('*');
    let base = pieces.next().unwrap_or_default();
    let words: Vec<&str> = base.split_whitespace().collect();
    let mut text = base_type(
        &words
            .iter()
            .copied()
            .filter(|w| !matches!(*w, "const" | "volatile" | "struct" | "enum" | "union"))
            .collect::<Vec<_>>()
            .join(" "),
    );
    // Each `*`: a pointer to what is left of it, const where `const` qualifies that.
    let mut pointee_const = words.contains(&"const");
    for after in pieces {
        let mutability = if pointee_const { "const" } else { "mut" };
        text = format!("*{mutability} {text}");
        pointee_const = after.split_whitespace().any(|w| w == "const");
    }
    text
}

fn base_type(name: &str) -> String {
    match name {
        "void" => "c_void",
        "char" => "c_char",
        "signed char" => "i8",
        "unsigned char" => "u8",
        "short" => "i16",
        "unsigned short" => "u16",
        "int" => "i32",
        "unsigned int" | "unsigned" => "u32",
        "long long" => "i64",
        "unsigned long long" => "u64",
        "size_t" => "usize",
        "float" => "f32",
        "double" => "f64",
        other => other,
    }
    .to_owned()
}

/// A callback parameter whose type the compiler must judge
/// ([`Checked::callbacks`](super::Checked::callbacks)): every one, whatever its tokens show, as a
/// name is not a type.
#[derive(Clone)]
pub struct CallbackAssertion<'a> {
    /// The declared type.
    pub ty: &'a Type,
    /// The C signature's parameters, each with its expected value.
    pub params: Vec<Value>,
    /// The C return; `None` for `void`.
    pub ret: Option<Value>,
    /// The message up to what is wrong (`parameter 3 `fn` of `PFN_...` is `CUhostFn fn`, a
    /// callback `void (*)(void *userData)`, but `HostFn` `).
    pub before: String,
    /// The message after it (`: declare it `Option<unsafe extern "C" fn(*mut c_void)>``).
    pub after: String,
}

impl std::fmt::Debug for CallbackAssertion<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallbackAssertion")
            .field("ty", &type_text(self.ty))
            .field("params", &self.params)
            .field("ret", &self.ret)
            .field("before", &self.before)
            .field("after", &self.after)
            .finish()
    }
}

/// One value a callback passes or returns: its C layouts and class, and the words that name it
/// in a message (`parameter 1, where C has `void *userData` (8 bytes, align 8, passed in an
/// integer register)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Value {
    /// The C size and alignment (the newest of the typedef's headers).
    pub size: u32,
    /// The C alignment.
    pub align: u32,
    /// The other layouts the typedef's headers gave it.
    pub also: Vec<(u32, u32)>,
    /// How C passes it.
    pub passing: Passing,
    /// The words after what is found: `, where C has `void *userData` (8 bytes, align 8, ...)`.
    pub words: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::find;

    fn checked(symbol: &str, version: u32, i: usize, ty: &str) -> Result<(), String> {
        let t = find(symbol, version, false).expect("a typedef");
        let ty: Type = syn::parse_str(ty).expect("a type");
        check_callback(t, i, "f".to_owned(), &t.params[i], &ty).map_err(|m| m.to_string())
    }

    #[test]
    fn c_callbacks_of_the_signature_pass() {
        for ty in [
            "Option<unsafe extern \"C\" fn(*mut c_void)>",
            "Option<extern \"C\" fn(user_data: *mut c_void)>",
            "unsafe extern \"C\" fn(*mut c_void)",
            "extern fn(*mut u8) -> ()",
            "Option<unsafe extern \"system\" fn(*mut c_void)>",
            // Left to the compiler.
            "HostFn",
            "sys::CUhostFn",
            "Option<HostFn>",
            "Option<unsafe extern \"C\" fn(UserData)>",
        ] {
            assert_eq!(checked("cuLaunchHostFunc", 10000, 1, ty), Ok(()), "{ty}");
        }
        let occupancy = "Option<unsafe extern \"C\" fn(i32) -> usize>";
        assert_eq!(
            checked("cuOccupancyMaxPotentialBlockSize", 6050, 3, occupancy),
            Ok(())
        );
    }

    #[test]
    fn other_functions_are_refused_with_what_to_write() {
        let message = |ty: &str| checked("cuLaunchHostFunc", 10000, 1, ty).expect_err(ty);
        let rust_abi = message("Option<fn(*mut c_void)>");
        assert_eq!(
            rust_abi,
            "parameter 2 `f` of `PFN_cuLaunchHostFunc_v10000` is `CUhostFn fn`, a callback \
             `void (*)(void *userData)`, but `Option<fn(*mut c_void)>` has the Rust ABI, which \
             C cannot call: declare it `Option<unsafe extern \"C\" fn(*mut c_void)>`"
        );
        assert!(message("u64").contains("but `u64` is not a function pointer: declare it"));
        assert!(message("*mut c_void").contains("is not a function pointer"));
        assert!(message("Option<NonNull<u8>>").contains("is not a function pointer"));
        assert!(
            message("extern \"C\" fn()").contains("takes 0 parameters: declare it"),
            "{}",
            message("extern \"C\" fn()")
        );
        assert!(message("extern \"C-unwind\" fn(*mut c_void)").contains("an unwinding ABI"));
        assert!(message("extern \"efiapi\" fn(*mut c_void)").contains("the `\"efiapi\"` ABI"));
        assert!(message("unsafe extern \"C\" fn(*mut c_void, ...)").contains("is variadic"));
        let wrong = message("extern \"C\" fn(u8, f64, u128) -> f64");
        assert!(wrong.contains("takes 3 parameters"), "{wrong}");
        let wrong = message("extern \"C\" fn(f64)");
        assert!(
            wrong.contains(
                "has `f64` as parameter 1, not a pointer, where C has `void *userData` (8 \
                 bytes, align 8, passed in an integer register)"
            ),
            "{wrong}"
        );
        let wrong = message("extern \"C\" fn(*mut c_void) -> i32");
        assert!(
            wrong.contains("returns `i32`, where C returns `void`"),
            "{wrong}"
        );
        let occupancy =
            |ty: &str| checked("cuOccupancyMaxPotentialBlockSize", 6050, 3, ty).expect_err(ty);
        let wrong = occupancy("extern \"C\" fn(f32) -> usize");
        assert!(
            wrong.contains(
                "has `f32` as parameter 1, a floating-point type, passed in a \
                            floating-point register, where C has `int blockSize`"
            ),
            "{wrong}"
        );
        assert!(
            occupancy("extern \"C\" fn(i32)").contains("returns nothing, where C returns `size_t`")
        );
        assert!(
            occupancy("extern \"C\" fn(i32) -> u32").contains("returns `u32`, 4 bytes, align 4")
        );
    }

    #[test]
    fn suggestions_write_the_c_types_in_rust() {
        let stream = find("cuStreamAddCallback", 5000, false).expect("a typedef");
        let c = &stream.params[1].ty;
        assert_eq!(
            suggestion(c.callback.expect("a callback")),
            "Option<unsafe extern \"C\" fn(CUstream, cuda_entry::types::CUresult, *mut c_void)>"
        );
        let occupancy = find("cuOccupancyMaxPotentialBlockSize", 6050, false).expect("a typedef");
        let c = &occupancy.params[3].ty;
        assert_eq!(
            suggestion(c.callback.expect("a callback")),
            "Option<unsafe extern \"C\" fn(i32) -> usize>"
        );
        let text = |spelling: &'static str| {
            rust_text(&CType {
                spelling,
                ..occupancy.params[3].ty
            })
        };
        assert_eq!(
            text("const CUgraphNodeParams *"),
            "*const CUgraphNodeParams"
        );
        assert_eq!(text("void **"), "*mut *mut c_void");
        assert_eq!(text("const char *const *"), "*const *const c_char");
        assert_eq!(text("char *"), "*mut c_char");
        assert_eq!(text("CUdevice"), "CUdevice");
    }
}
