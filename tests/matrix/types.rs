//! The Rust types of the catalogue and what the language says of each, written here as facts:
//! layout, which bit patterns are values, how the C calling convention passes it, whether it is a
//! thin pointer and what it lets the callee do. Nothing here asks the crate or the macro; user
//! types are proven only by their derives (that is how a type of the user's proves anything).

use std::fmt::Write as _;

/// A primitive integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Int {
    U8,
    I8,
    U16,
    I16,
    U32,
    I32,
    U64,
    I64,
    U128,
    I128,
    Usize,
    Isize,
}

impl Int {
    pub(crate) const ALL: [Int; 12] = [
        Int::U8,
        Int::I8,
        Int::U16,
        Int::I16,
        Int::U32,
        Int::I32,
        Int::U64,
        Int::I64,
        Int::U128,
        Int::I128,
        Int::Usize,
        Int::Isize,
    ];

    pub(crate) fn size(self) -> usize {
        match self {
            Int::U8 | Int::I8 => 1,
            Int::U16 | Int::I16 => 2,
            Int::U32 | Int::I32 => 4,
            Int::U64 | Int::I64 | Int::Usize | Int::Isize => 8,
            Int::U128 | Int::I128 => 16,
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Int::U8 => "u8",
            Int::I8 => "i8",
            Int::U16 => "u16",
            Int::I16 => "i16",
            Int::U32 => "u32",
            Int::I32 => "i32",
            Int::U64 => "u64",
            Int::I64 => "i64",
            Int::U128 => "u128",
            Int::I128 => "i128",
            Int::Usize => "usize",
            Int::Isize => "isize",
        }
    }
}

/// How a thin or fat pointer is spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ptr {
    Const,
    Mut,
    Ref,
    RefMut,
    NonNull,
    Box,
}

/// A transparent wrapper of std.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wrap {
    Cell,
    UnsafeCell,
    ManuallyDrop,
    MaybeUninit,
    Wrapping,
}

/// An atomic of std.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Atomic {
    Bool,
    U8,
    I32,
    U32,
    U64,
    Usize,
}

/// A calling convention of a function pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Abi {
    C,
    System,
    CUnwind,
    Rust,
}

/// A function pointer type.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FnTy {
    pub(crate) abi: Abi,
    pub(crate) unsafety: bool,
    pub(crate) params: Vec<Ty>,
    pub(crate) ret: Option<Ty>,
}

/// The user types the generated crates define (in their prelude), each over a field type `T`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum User {
    /// `#[repr(C)] struct Plain<T>(T);`: no derive.
    Plain,
    /// `#[repr(C)] #[derive(FromDriver)] struct Filled<T>(T);`
    Filled,
    /// `#[repr(C)] #[derive(ByValue)] struct Passed<T>(T);`
    Passed,
    /// `#[repr(C)] #[derive(FromDriver, ByValue)] struct Both<T>(T);`
    Both,
    /// `#[repr(transparent)] struct Newtype<T>(T);`: no derive.
    Newtype,
    /// `#[repr(transparent)] #[derive(FromDriver, ByValue)] struct Proven<T>(T);`
    Proven,
    /// `#[repr(C)] union RawUnion<T> { value: ManuallyDrop<T> }`: no derive.
    RawUnion,
    /// `#[repr(C)] #[derive(FromDriver)] union FilledUnion<T> { value: ManuallyDrop<T> }`
    FilledUnion,
    /// `#[repr(C)] #[derive(ByValue)] struct PairPassed<T> { kind: T, id: T }`
    PairPassed,
    /// `#[repr(C)] struct PairPlain<T> { kind: T, id: T }`: no derive.
    PairPlain,
}

impl User {
    fn name(self) -> &'static str {
        match self {
            User::Plain => "Plain",
            User::Filled => "Filled",
            User::Passed => "Passed",
            User::Both => "Both",
            User::Newtype => "Newtype",
            User::Proven => "Proven",
            User::RawUnion => "RawUnion",
            User::FilledUnion => "FilledUnion",
            User::PairPassed => "PairPassed",
            User::PairPlain => "PairPlain",
        }
    }

    fn derives_from_driver(self) -> bool {
        matches!(
            self,
            User::Filled | User::Both | User::Proven | User::FilledUnion
        )
    }

    fn derives_by_value(self) -> bool {
        matches!(
            self,
            User::Passed | User::Both | User::Proven | User::PairPassed
        )
    }

    fn transparent(self) -> bool {
        matches!(self, User::Newtype | User::Proven)
    }

    fn fields(self) -> usize {
        match self {
            User::PairPassed | User::PairPlain => 2,
            _ => 1,
        }
    }
}

/// A field-less enum of the user's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UserEnum {
    /// `#[repr(i32)] enum EnumI32 { A = 0, B = 1 }`: no derive.
    I32,
    /// The same with `#[derive(ByValue)]`.
    I32ByValue,
    /// `#[repr(u32)]`, `#[derive(ByValue)]`.
    U32ByValue,
    /// `#[repr(u8)]`, `#[derive(ByValue)]`.
    U8ByValue,
    /// `#[repr(u64)]`, `#[derive(ByValue)]`.
    U64ByValue,
}

impl UserEnum {
    fn name(self) -> &'static str {
        match self {
            UserEnum::I32 => "EnumI32",
            UserEnum::I32ByValue => "EnumI32ByValue",
            UserEnum::U32ByValue => "EnumU32ByValue",
            UserEnum::U8ByValue => "EnumU8ByValue",
            UserEnum::U64ByValue => "EnumU64ByValue",
        }
    }

    fn size(self) -> usize {
        match self {
            UserEnum::I32 | UserEnum::I32ByValue | UserEnum::U32ByValue => 4,
            UserEnum::U8ByValue => 1,
            UserEnum::U64ByValue => 8,
        }
    }
}

/// A type, as the catalogue builds it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Ty {
    Int(Int),
    F32,
    F64,
    Bool,
    Char,
    /// `()`.
    Unit,
    /// `core::ffi::c_void`, the escape.
    CVoid,
    NonZero(Int),
    Ptr(Ptr, Box<Ty>),
    Option(Box<Ty>),
    Fn(Box<FnTy>),
    Array(Box<Ty>, usize),
    /// `[T]` (behind a pointer only).
    Slice(Box<Ty>),
    /// `str` (behind a pointer only).
    Str,
    Tuple(Vec<Ty>),
    Wrap(Wrap, Box<Ty>),
    Atomic(Atomic),
    AtomicPtr(Box<Ty>),
    User(User, Box<Ty>),
    Enum(UserEnum),
    /// A unit struct of the user's, no derive: `struct Zst;`.
    UnitStruct,
    /// `cuda_entry::types::CUresult` (`#[repr(transparent)]` over `i32`).
    CuResult,
    /// `cuda_entry::types::CUuuid` (`#[repr(C)]` over `[c_char; 16]`).
    CuUuid,
    /// `cuda_entry::types::CUmemLocation` (`#[repr(C)]`, two `c_int`).
    CuMemLocation,
    /// Another spelling of `real`: a std alias (`c_int`, `NonZeroU32`), or a local item of the
    /// cell's module that shadows a name (`type u64 = bool;`, `struct u64;`). Judged as `real`.
    Named(Box<Named>),
}

/// A spelling of a type that is not its own: see [`Ty::Named`].
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Named {
    pub(crate) spelled: String,
    /// Items the cell's module declares for the spelling to mean `real`.
    pub(crate) items: Vec<String>,
    pub(crate) real: Ty,
}

/// A size and an alignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    pub(crate) size: usize,
    pub(crate) align: usize,
}

const fn layout(size: usize, align: usize) -> Layout {
    Layout { size, align }
}

/// The class of one byte as the calling conventions see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Byte {
    Padding,
    Integer,
    Pointer,
    Float32,
    Float64,
}

/// How the C calling convention passes a value of the type, as far as the crate can prove it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Class {
    Integer(usize),
    Pointer,
    Float(usize),
    /// A struct, union or array: the class of each byte.
    Aggregate(Vec<Byte>),
    /// Not a type C passes by value, or one the crate cannot see into (no derive, `char`, a
    /// tuple, a Rust-ABI function, an atomic, `Box`, a fat pointer).
    Unproven(&'static str),
}

/// What a thin pointer type lets the callee do.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PointerFacts<'a> {
    pub(crate) pointee: &'a Ty,
    /// The callee may write through it (`*mut`, `&mut`, `NonNull`, or a shared reference to
    /// memory in an `UnsafeCell`).
    pub(crate) writable: bool,
    /// A reference: valid for exactly `size_of` its pointee.
    pub(crate) reference: bool,
}

/// Why a type is not a thin pointer to data.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum NotPointer {
    /// `&[T]`, `&str`, `*const [T]`: two words.
    Fat,
    /// `Box<T>`: owning; C never frees it, and the caller never sees what was written.
    Owning,
    /// A function pointer.
    Function,
    /// Anything else: an integer, a wrapper, a struct.
    Other,
}

fn int(i: Int) -> Ty {
    Ty::Int(i)
}

impl Ty {
    /// The type behind any local spelling.
    pub(crate) fn real(&self) -> &Ty {
        match self {
            Ty::Named(named) => named.real.real(),
            other => other,
        }
    }

    /// How the generated crate spells the type (its prelude imports std's names and the user
    /// types).
    pub(crate) fn spell(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Ty::Int(i) => out.push_str(i.name()),
            Ty::F32 => out.push_str("f32"),
            Ty::F64 => out.push_str("f64"),
            Ty::Bool => out.push_str("bool"),
            Ty::Char => out.push_str("char"),
            Ty::Unit => out.push_str("()"),
            Ty::CVoid => out.push_str("c_void"),
            Ty::NonZero(i) => {
                let _ = write!(out, "NonZero<{}>", i.name());
            }
            Ty::Ptr(kind, inner) => {
                let (open, close) = match kind {
                    Ptr::Const => ("*const ", ""),
                    Ptr::Mut => ("*mut ", ""),
                    Ptr::Ref => ("&", ""),
                    Ptr::RefMut => ("&mut ", ""),
                    Ptr::NonNull => ("NonNull<", ">"),
                    Ptr::Box => ("Box<", ">"),
                };
                out.push_str(open);
                inner.write(out);
                out.push_str(close);
            }
            Ty::Option(inner) => {
                out.push_str("Option<");
                inner.write(out);
                out.push('>');
            }
            Ty::Fn(f) => {
                if f.unsafety {
                    out.push_str("unsafe ");
                }
                match f.abi {
                    Abi::C => out.push_str("extern \"C\" "),
                    Abi::System => out.push_str("extern \"system\" "),
                    Abi::CUnwind => out.push_str("extern \"C-unwind\" "),
                    Abi::Rust => {}
                }
                out.push_str("fn(");
                for (i, p) in f.params.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    p.write(out);
                }
                out.push(')');
                if let Some(ret) = &f.ret {
                    out.push_str(" -> ");
                    ret.write(out);
                }
            }
            Ty::Array(inner, n) => {
                out.push('[');
                inner.write(out);
                let _ = write!(out, "; {n}]");
            }
            Ty::Slice(inner) => {
                out.push('[');
                inner.write(out);
                out.push(']');
            }
            Ty::Str => out.push_str("str"),
            Ty::Tuple(items) => {
                out.push('(');
                for (i, t) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    t.write(out);
                }
                if items.len() == 1 {
                    out.push(',');
                }
                out.push(')');
            }
            Ty::Wrap(w, inner) => {
                let name = match w {
                    Wrap::Cell => "Cell",
                    Wrap::UnsafeCell => "UnsafeCell",
                    Wrap::ManuallyDrop => "ManuallyDrop",
                    Wrap::MaybeUninit => "MaybeUninit",
                    Wrap::Wrapping => "Wrapping",
                };
                out.push_str(name);
                out.push('<');
                inner.write(out);
                out.push('>');
            }
            Ty::Atomic(a) => out.push_str(match a {
                Atomic::Bool => "AtomicBool",
                Atomic::U8 => "AtomicU8",
                Atomic::I32 => "AtomicI32",
                Atomic::U32 => "AtomicU32",
                Atomic::U64 => "AtomicU64",
                Atomic::Usize => "AtomicUsize",
            }),
            Ty::AtomicPtr(inner) => {
                out.push_str("AtomicPtr<");
                inner.write(out);
                out.push('>');
            }
            Ty::User(u, inner) => {
                out.push_str(u.name());
                out.push('<');
                inner.write(out);
                out.push('>');
            }
            Ty::Enum(e) => out.push_str(e.name()),
            Ty::UnitStruct => out.push_str("Zst"),
            Ty::CuResult => out.push_str("::cuda_entry::types::CUresult"),
            Ty::CuUuid => out.push_str("::cuda_entry::types::CUuuid"),
            Ty::CuMemLocation => out.push_str("::cuda_entry::types::CUmemLocation"),
            Ty::Named(named) => out.push_str(&named.spelled),
        }
    }

    /// The local items the spelling needs (shadowing aliases and structs), each once.
    pub(crate) fn items(&self) -> Vec<String> {
        let mut items = Vec::new();
        self.collect_items(&mut items);
        items
    }

    fn collect_items(&self, items: &mut Vec<String>) {
        match self {
            Ty::Named(named) => {
                for item in &named.items {
                    if !items.contains(item) {
                        items.push(item.clone());
                    }
                }
            }
            Ty::Ptr(_, t)
            | Ty::Option(t)
            | Ty::Array(t, _)
            | Ty::Slice(t)
            | Ty::Wrap(_, t)
            | Ty::AtomicPtr(t)
            | Ty::User(_, t) => t.collect_items(items),
            Ty::Tuple(ts) => ts.iter().for_each(|t| t.collect_items(items)),
            Ty::Fn(f) => {
                f.params.iter().for_each(|t| t.collect_items(items));
                if let Some(r) = &f.ret {
                    r.collect_items(items);
                }
            }
            _ => {}
        }
    }

    /// Whether the type has a size (`[T]` and `str` do not).
    pub(crate) fn sized(&self) -> bool {
        !matches!(self.real(), Ty::Slice(_) | Ty::Str)
    }

    /// Its size and alignment on x86_64 (None for an unsized type).
    pub(crate) fn layout(&self) -> Option<Layout> {
        Some(match self.real() {
            Ty::Int(i) => layout(i.size(), i.size()),
            Ty::F32 => layout(4, 4),
            Ty::F64 => layout(8, 8),
            Ty::Bool => layout(1, 1),
            Ty::Char => layout(4, 4),
            Ty::Unit | Ty::UnitStruct => layout(0, 1),
            Ty::CVoid => layout(1, 1),
            Ty::NonZero(i) => layout(i.size(), i.size()),
            Ty::Ptr(_, inner) if inner.sized() => layout(8, 8),
            Ty::Ptr(..) => layout(16, 8),
            Ty::Option(inner) => {
                let l = inner.layout()?;
                if inner.has_niche() {
                    l
                } else {
                    // A tag beside the value, padded to the value's alignment.
                    let size = (l.size + l.align).div_ceil(l.align) * l.align;
                    layout(size.max(l.align), l.align)
                }
            }
            Ty::Fn(_) => layout(8, 8),
            Ty::Array(inner, n) => {
                let l = inner.layout()?;
                layout(l.size * n, l.align)
            }
            Ty::Slice(_) | Ty::Str => return None,
            Ty::Tuple(items) => {
                // repr(Rust): fields sorted by alignment, no padding between equal ones.
                let mut size = 0;
                let mut align = 1;
                for t in items {
                    let l = t.layout()?;
                    align = align.max(l.align);
                    size += l.size;
                }
                layout(size.div_ceil(align) * align, align)
            }
            Ty::Wrap(_, inner) => inner.layout()?,
            Ty::Atomic(a) => match a {
                Atomic::Bool | Atomic::U8 => layout(1, 1),
                Atomic::I32 | Atomic::U32 => layout(4, 4),
                Atomic::U64 | Atomic::Usize => layout(8, 8),
            },
            Ty::AtomicPtr(_) => layout(8, 8),
            Ty::User(u, inner) => {
                let l = inner.layout()?;
                layout(l.size * u.fields(), l.align)
            }
            Ty::Enum(e) => layout(e.size(), e.size()),
            Ty::CuResult => layout(4, 4),
            Ty::CuUuid => layout(16, 1),
            Ty::CuMemLocation => layout(8, 4),
            Ty::Named(_) => unreachable!("real() sees through names"),
        })
    }

    /// `Option<Self>` has `Self`'s layout, `None` being a value `Self` never has (rustc finds
    /// such a niche in any field; `UnsafeCell` and `MaybeUninit` hide it, a union has none).
    pub(crate) fn has_niche(&self) -> bool {
        match self.real() {
            Ty::Bool | Ty::Char | Ty::NonZero(_) | Ty::Fn(_) | Ty::Enum(_) => true,
            Ty::Ptr(kind, _) => matches!(kind, Ptr::Ref | Ptr::RefMut | Ptr::NonNull | Ptr::Box),
            Ty::Array(inner, n) => *n > 0 && inner.has_niche(),
            Ty::Tuple(items) => items.iter().any(Ty::has_niche),
            Ty::Wrap(Wrap::ManuallyDrop | Wrap::Wrapping, inner) => inner.has_niche(),
            Ty::User(User::RawUnion | User::FilledUnion, _) => false,
            Ty::User(_, inner) => inner.has_niche(),
            _ => false,
        }
    }

    /// Every bit pattern of its size is a value, as the language shows it (a type of the user's
    /// shows it by deriving `FromDriver`): integers, floats, raw pointers, `Option` of a
    /// `NonNull`, a `NonZero` or a C function pointer, `MaybeUninit`, the atomics but
    /// `AtomicBool`, and arrays and transparent wrappers of these.
    pub(crate) fn any_bits(&self) -> bool {
        match self.real() {
            Ty::Int(_) | Ty::F32 | Ty::F64 | Ty::Unit => true,
            Ty::Bool | Ty::Char | Ty::NonZero(_) | Ty::Fn(_) => false,
            Ty::CVoid => false,
            Ty::Ptr(kind, inner) => matches!(kind, Ptr::Const | Ptr::Mut) && inner.sized(),
            Ty::Option(inner) => match inner.real() {
                Ty::NonZero(_) => true,
                Ty::Ptr(Ptr::NonNull, p) => p.sized(),
                // A C function's address: NULL is `None`, any other `Some`. A Rust-ABI
                // function is not what the driver stores.
                Ty::Fn(f) => matches!(f.abi, Abi::C | Abi::System),
                _ => false,
            },
            Ty::Array(inner, _) => inner.any_bits(),
            Ty::Slice(_) | Ty::Str => false,
            // No defined layout (verdicts.rs: "(T,)" is not produced).
            Ty::Tuple(_) => false,
            Ty::Wrap(Wrap::MaybeUninit, _) => true,
            Ty::Wrap(_, inner) => inner.any_bits(),
            Ty::Atomic(a) => *a != Atomic::Bool,
            Ty::AtomicPtr(_) => true,
            Ty::User(u, inner) => u.derives_from_driver() && inner.any_bits(),
            Ty::Enum(_) | Ty::UnitStruct => false,
            Ty::CuResult | Ty::CuUuid | Ty::CuMemLocation => true,
            Ty::Named(_) => unreachable!(),
        }
    }

    /// Memory a shared reference may write through: inside an `UnsafeCell` (the cells, the
    /// atomics), all of it.
    pub(crate) fn interior_mutable(&self) -> bool {
        match self.real() {
            Ty::Wrap(Wrap::Cell | Wrap::UnsafeCell, _) => true,
            Ty::Atomic(_) | Ty::AtomicPtr(_) => true,
            Ty::Array(inner, _) | Ty::Slice(inner) => inner.interior_mutable(),
            Ty::Wrap(Wrap::ManuallyDrop | Wrap::Wrapping, inner) => inner.interior_mutable(),
            Ty::User(_, inner) => inner.interior_mutable(),
            _ => false,
        }
    }

    /// As a thin pointer to data: what it lets the callee do; else why it is not one.
    pub(crate) fn thin_pointer(&self) -> Result<PointerFacts<'_>, NotPointer> {
        let (kind, pointee) = match self.real() {
            Ty::Ptr(kind, pointee) => (*kind, &**pointee),
            Ty::Option(inner) => match inner.real() {
                Ty::Ptr(kind @ (Ptr::Ref | Ptr::RefMut | Ptr::NonNull | Ptr::Box), pointee) => {
                    (*kind, &**pointee)
                }
                Ty::Fn(_) => return Err(NotPointer::Function),
                _ => return Err(NotPointer::Other),
            },
            Ty::Fn(_) => return Err(NotPointer::Function),
            _ => return Err(NotPointer::Other),
        };
        if !pointee.sized() {
            return Err(NotPointer::Fat);
        }
        if kind == Ptr::Box {
            return Err(NotPointer::Owning);
        }
        Ok(PointerFacts {
            pointee,
            writable: match kind {
                Ptr::Mut | Ptr::RefMut | Ptr::NonNull => true,
                Ptr::Ref => pointee.interior_mutable(),
                Ptr::Const | Ptr::Box => false,
            },
            reference: matches!(kind, Ptr::Ref | Ptr::RefMut),
        })
    }

    /// A C function pointer (`extern "C"`/`"system"`, in an `Option` or not): `Some(optional)`.
    pub(crate) fn c_function(&self) -> Option<(&FnTy, bool)> {
        match self.real() {
            Ty::Fn(f) => Some((f, false)),
            Ty::Option(inner) => match inner.real() {
                Ty::Fn(f) => Some((f, true)),
                _ => None,
            },
            _ => None,
        }
    }

    /// How the C calling convention passes it, where the crate can prove it.
    pub(crate) fn class(&self) -> Class {
        match self.real() {
            Ty::Int(i) if i.size() <= 8 => Class::Integer(i.size()),
            Ty::Int(_) => Class::Unproven("a 128-bit integer (no C type of the table)"),
            Ty::Bool => Class::Integer(1),
            Ty::NonZero(i) if i.size() <= 8 => Class::Integer(i.size()),
            Ty::NonZero(_) => Class::Unproven("a 128-bit integer"),
            Ty::Char => Class::Unproven("`char` (no C type)"),
            Ty::Unit | Ty::UnitStruct => Class::Unproven("a zero-sized type"),
            Ty::CVoid => Class::Unproven("`c_void` (only behind a pointer)"),
            Ty::F32 => Class::Float(4),
            Ty::F64 => Class::Float(8),
            Ty::Ptr(..) | Ty::Option(_) | Ty::Fn(_) => match self.thin_pointer() {
                Ok(_) => Class::Pointer,
                Err(NotPointer::Function) => match self.c_function() {
                    Some((f, _)) if matches!(f.abi, Abi::C | Abi::System) => Class::Pointer,
                    _ => Class::Unproven("a function pointer C cannot call"),
                },
                Err(NotPointer::Fat) => Class::Unproven("a fat pointer (two words)"),
                Err(NotPointer::Owning) => Class::Unproven("`Box` (owning)"),
                Err(NotPointer::Other) => match self.real() {
                    Ty::Option(inner) => match inner.real() {
                        Ty::NonZero(i) if i.size() <= 8 => Class::Integer(i.size()),
                        _ => Class::Unproven("an `Option` without a niche"),
                    },
                    _ => Class::Unproven("not a C type"),
                },
            },
            Ty::Array(inner, n) => match inner.class() {
                Class::Unproven(why) => Class::Unproven(why),
                element => {
                    let bytes = element.bytes(inner.layout().map_or(0, |l| l.size));
                    Class::Aggregate(bytes.repeat(*n))
                }
            },
            Ty::Slice(_) | Ty::Str => Class::Unproven("unsized"),
            Ty::Tuple(_) => Class::Unproven("a tuple (no defined layout)"),
            Ty::Wrap(_, inner) => inner.class(),
            Ty::Atomic(_) | Ty::AtomicPtr(_) => Class::Unproven("an atomic (shared memory)"),
            Ty::User(u, inner) => {
                if !u.derives_by_value() {
                    return Class::Unproven("a type of the user's without `derive(ByValue)`");
                }
                if u.transparent() {
                    return inner.class();
                }
                match inner.class() {
                    Class::Unproven(why) => Class::Unproven(why),
                    field => {
                        let bytes = field.bytes(inner.layout().map_or(0, |l| l.size));
                        Class::Aggregate(bytes.repeat(u.fields()))
                    }
                }
            }
            Ty::Enum(e) => match e {
                UserEnum::I32 => Class::Unproven("an enum without `derive(ByValue)`"),
                _ => Class::Integer(e.size()),
            },
            Ty::CuResult => Class::Integer(4),
            Ty::CuUuid => Class::Aggregate(vec![Byte::Integer; 16]),
            Ty::CuMemLocation => Class::Aggregate(vec![Byte::Integer; 8]),
            Ty::Named(_) => unreachable!(),
        }
    }
}

impl Class {
    /// The class of each of `size` bytes.
    pub(crate) fn bytes(&self, size: usize) -> Vec<Byte> {
        match self {
            Class::Integer(_) => vec![Byte::Integer; size],
            Class::Pointer => vec![Byte::Pointer; size],
            Class::Float(4) => vec![Byte::Float32; size],
            Class::Float(_) => vec![Byte::Float64; size],
            Class::Aggregate(bytes) => bytes.clone(),
            Class::Unproven(_) => vec![Byte::Padding; size],
        }
    }
}

// Constructors, for the catalogue.
pub(crate) fn i(i: Int) -> Ty {
    int(i)
}
pub(crate) fn ptr(kind: Ptr, t: Ty) -> Ty {
    Ty::Ptr(kind, Box::new(t))
}
pub(crate) fn opt(t: Ty) -> Ty {
    Ty::Option(Box::new(t))
}
pub(crate) fn arr(t: Ty, n: usize) -> Ty {
    Ty::Array(Box::new(t), n)
}
pub(crate) fn wrap(w: Wrap, t: Ty) -> Ty {
    Ty::Wrap(w, Box::new(t))
}
pub(crate) fn user(u: User, t: Ty) -> Ty {
    Ty::User(u, Box::new(t))
}
pub(crate) fn func(abi: Abi, unsafety: bool, params: Vec<Ty>, ret: Option<Ty>) -> Ty {
    Ty::Fn(Box::new(FnTy {
        abi,
        unsafety,
        params,
        ret,
    }))
}
pub(crate) fn named(spelled: &str, items: &[&str], real: Ty) -> Ty {
    Ty::Named(Box::new(Named {
        spelled: spelled.to_owned(),
        items: items.iter().map(|s| (*s).to_owned()).collect(),
        real,
    }))
}
/// `c_char` (`i8` on x86_64 Linux), spelled as C bindings spell it.
pub(crate) fn c_char() -> Ty {
    named("c_char", &[], int(Int::I8))
}

#[test]
fn the_facts_of_a_few_types() {
    assert_eq!(opt(Ty::Int(Int::U64)).layout(), Some(layout(16, 8)));
    assert_eq!(opt(Ty::Int(Int::U32)).layout(), Some(layout(8, 4)));
    assert_eq!(opt(Ty::NonZero(Int::U32)).layout(), Some(layout(4, 4)));
    assert_eq!(ptr(Ptr::Ref, Ty::Str).layout(), Some(layout(16, 8)));
    assert!(opt(ptr(Ptr::NonNull, Ty::Bool)).any_bits());
    assert!(!opt(ptr(Ptr::Ref, Ty::Int(Int::U8))).any_bits());
    assert!(
        ptr(Ptr::Ref, wrap(Wrap::Cell, Ty::Int(Int::U64)))
            .thin_pointer()
            .unwrap()
            .writable
    );
    assert!(
        !ptr(Ptr::Ref, Ty::Int(Int::U64))
            .thin_pointer()
            .unwrap()
            .writable
    );
    assert_eq!(ptr(Ptr::Ref, arr(Ty::Int(Int::U8), 2)).spell(), "&[u8; 2]");
    assert_eq!(
        func(Abi::C, true, vec![ptr(Ptr::Mut, Ty::CVoid)], None).spell(),
        "unsafe extern \"C\" fn(*mut c_void)"
    );
    let shadow = named("u64", &["type u64 = bool;"], Ty::Bool);
    assert_eq!(ptr(Ptr::Mut, shadow.clone()).spell(), "*mut u64");
    assert!(!shadow.any_bits());
    assert_eq!(
        ptr(Ptr::Mut, shadow).items(),
        vec!["type u64 = bool;".to_owned()]
    );
}
