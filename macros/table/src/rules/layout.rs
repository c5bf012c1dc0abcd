//! What a written Rust type tells of its ABI from its tokens alone, as the command reads it
//! without a compiler: the primitives and `core::ffi`'s C types by name (`u32`, `f32`, `c_int`,
//! `c_void`), pointers to them, arrays of them. Anything else (a path to a type of the user's, an
//! alias, a newtype) is [`Read::Unknown`], and the expansion leaves it to the compiler.

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Expr, GenericArgument, Lit, PathArguments, Type};

use super::names;

/// What the tokens of a type say about its layout. Sizes are those of 64-bit targets, where
/// CUDA runs and where the table's figures hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Read {
    /// A primitive number (`bool` and `char` count as integers) of this size and alignment.
    Number { size: u32, align: u32, float: bool },
    /// `c_void`: behind a pointer, the pointee left unchecked.
    Void,
    /// A thin pointer to data: `*mut T`, `*const T`, `&T`, `&mut T`, `NonNull<T>`, or an
    /// `Option` of a reference or a `NonNull`.
    Pointer(Box<Read>),
    /// A function pointer, or an `Option` of one.
    Function,
    /// A dynamically sized type (`str`, a slice, a trait object): a pointer to one is two words.
    Unsized,
    /// An array or `()`: a size, an alignment, whether its elements are floats (an array of
    /// `f32` travels in floating-point registers where a C record of integers does not), and the
    /// layout of one element of an array of at least one (what a C `T *` to an array of `T` may
    /// point to).
    Aggregate {
        size: u32,
        align: u32,
        float: bool,
        element: Option<(u32, u32)>,
    },
    /// What only the compiler knows.
    Unknown,
}

impl Read {
    /// The layout of one element, for an array of at least one.
    pub(crate) fn element(&self) -> Option<(u32, u32)> {
        match self {
            Read::Aggregate { element, .. } => *element,
            _ => None,
        }
    }

    /// The size and alignment, where the tokens tell them.
    pub(crate) fn layout(&self) -> Option<(u32, u32)> {
        match self {
            Read::Number { size, align, .. } | Read::Aggregate { size, align, .. } => {
                Some((*size, *align))
            }
            Read::Void => Some((1, 1)),
            Read::Function => Some((8, 8)),
            // Thin only when what it points to is sized: a path may name `str` or a slice alias.
            Read::Pointer(pointee) if **pointee == Read::Unsized => Some((16, 8)),
            Read::Pointer(pointee) => pointee.is_sized().then_some((8, 8)),
            Read::Unknown | Read::Unsized => None,
        }
    }

    fn is_sized(&self) -> bool {
        !matches!(self, Read::Unknown | Read::Unsized)
    }
}

/// Reads a type's tokens.
pub(crate) fn read(ty: &Type) -> Read {
    match ty {
        Type::Paren(p) => read(&p.elem),
        Type::Group(g) => read(&g.elem),
        Type::Ptr(p) => Read::Pointer(Box::new(read(&p.elem))),
        Type::Reference(r) => Read::Pointer(Box::new(read(&r.elem))),
        Type::FnPtr(_) => Read::Function,
        Type::Slice(_) | Type::TraitObject(_) => Read::Unsized,
        Type::Tuple(t) if t.elems.is_empty() => Read::Aggregate {
            size: 0,
            align: 1,
            float: false,
            element: None,
        },
        Type::Array(a) => array(&a.elem, &a.len),
        Type::Path(p) if p.qself.is_none() => {
            let Some(last) = p.path.segments.last() else {
                return Read::Unknown;
            };
            let name = last.ident.to_string();
            match &last.arguments {
                // `ffi::u64` may be anything: only a bare name or a path through the standard
                // library or libc is read as the type it names.
                PathArguments::None if !is_standard_path(&p.path) => Read::Unknown,
                PathArguments::None => named(&name),
                PathArguments::AngleBracketed(args) if args.args.len() == 1 => {
                    let Some(GenericArgument::Type(inner)) = args.args.first() else {
                        return Read::Unknown;
                    };
                    if !is_standard_path(&p.path) && names::names() == names::Names::Unshadowable {
                        return Read::Unknown;
                    }
                    match name.as_str() {
                        "NonNull" => Read::Pointer(Box::new(read(inner))),
                        "Option" => match read_option(inner) {
                            Some(read) => read,
                            None => Read::Unknown,
                        },
                        _ => Read::Unknown,
                    }
                }
                _ => Read::Unknown,
            }
        }
        _ => Read::Unknown,
    }
}

/// Whether a path may be read as the standard type it names ([`names::standard`]): a name under
/// another prefix (`ffi::u64`, a module of the user's) may be anything, and so may a bare name
/// where the compiler judges ([`names::judged_by_the_compiler`]).
fn is_standard_path(path: &syn::Path) -> bool {
    names::standard(path)
}

/// `Option<T>` where `T` is non-nullable, so the `Option` has its layout.
fn read_option(inner: &Type) -> Option<Read> {
    match inner {
        Type::Paren(p) => read_option(&p.elem),
        Type::Group(g) => read_option(&g.elem),
        Type::Reference(_) | Type::FnPtr(_) => Some(read(inner)),
        Type::Path(p)
            if p.path.segments.last().is_some_and(|s| s.ident == "NonNull")
                && (names::names() == names::Names::Usual || is_standard_path(&p.path)) =>
        {
            Some(read(inner))
        }
        _ => None,
    }
}

/// `[T; N]` with a literal `N`.
fn array(elem: &Type, len: &Expr) -> Read {
    let Expr::Lit(lit) = len else {
        return Read::Unknown;
    };
    let Lit::Int(n) = &lit.lit else {
        return Read::Unknown;
    };
    let element = read(elem);
    let (Ok(n), Some((size, align))) = (n.base10_parse::<u32>(), element.layout()) else {
        return Read::Unknown;
    };
    let float = matches!(
        element,
        Read::Number { float: true, .. } | Read::Aggregate { float: true, .. }
    );
    match size.checked_mul(n) {
        Some(total) => Read::Aggregate {
            size: total,
            align,
            float,
            element: (n > 0).then_some((size, align)),
        },
        None => Read::Unknown,
    }
}

/// The primitive and `core::ffi` types, by the last segment of their path. `c_long` and
/// `c_ulong` are not among them: 8 bytes on Linux, 4 on Windows.
fn named(name: &str) -> Read {
    let number = |size, float| Read::Number {
        size,
        align: size,
        float,
    };
    match name {
        "u8" | "i8" | "bool" | "c_char" | "c_schar" | "c_uchar" => number(1, false),
        "u16" | "i16" | "c_short" | "c_ushort" => number(2, false),
        "u32" | "i32" | "char" | "c_int" | "c_uint" => number(4, false),
        "u64" | "i64" | "usize" | "isize" | "c_longlong" | "c_ulonglong" => number(8, false),
        "u128" | "i128" => number(16, false),
        "f32" | "c_float" => number(4, true),
        "f64" | "c_double" => number(8, true),
        "c_void" => Read::Void,
        "str" => Read::Unsized,
        _ => Read::Unknown,
    }
}

/// Tokens as code text, spaced as rustfmt would (tokens print with a space between each):
/// `*mut CUdeviceptr`, `Option<&mut u64>`, `unsafe extern "C" fn(x: u32) -> i32`.
pub fn tokens_text(tokens: TokenStream) -> String {
    let mut pieces = Vec::new();
    flatten(tokens, &mut pieces);
    let mut text = String::new();
    let (mut glue_next, mut after_word, mut after_joint_colon) = (true, false, false);
    let mut previous = String::new();
    for Piece {
        text: piece,
        word,
        joint,
    } in pieces
    {
        // A path's leading `::` after a keyword (`*const ::std::...`) keeps its space.
        let keyword = matches!(previous.as_str(), "const" | "mut" | "dyn" | "impl" | "fn");
        let glue_before = glue_next
            || matches!(piece.as_str(), "," | ";" | ")" | "]" | ">" | "<")
            || (piece == ":" && !(joint && keyword))
            || (piece == "(" && after_word);
        if !glue_before {
            text.push(' ');
        }
        text.push_str(&piece);
        glue_next = matches!(piece.as_str(), "(" | "[" | "<" | "&" | "*" | "'")
            || (piece == ":" && (joint || after_joint_colon))
            || (piece == "-" && joint);
        after_joint_colon = piece == ":" && joint;
        after_word = word;
        previous = piece;
    }
    text
}

/// A type as code text ([`tokens_text`]).
pub(crate) fn type_text(ty: &Type) -> String {
    tokens_text(ty.to_token_stream())
}

/// One token of [`tokens_text`]: its text, whether it is an identifier, whether it is
/// punctuation joined to the next.
struct Piece {
    text: String,
    word: bool,
    joint: bool,
}

/// The tokens with every group's delimiters as pieces of their own.
fn flatten(tokens: TokenStream, out: &mut Vec<Piece>) {
    let piece = |text: &str, word, joint| Piece {
        text: text.to_owned(),
        word,
        joint,
    };
    for token in tokens {
        match token {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::None => ("", ""),
                };
                if !open.is_empty() {
                    out.push(piece(open, false, false));
                }
                flatten(g.stream(), out);
                if !close.is_empty() {
                    out.push(piece(close, false, false));
                }
            }
            TokenTree::Punct(p) => {
                let joint = p.spacing() == Spacing::Joint;
                out.push(piece(&p.as_char().to_string(), false, joint));
            }
            other => out.push(piece(&other.to_string(), true, false)),
        }
    }
}
