//! The cells: for each position, the Rust types declared there. A pointer position crosses every
//! pointer shape with a few pointees that ask different questions (the C layout, an invalid
//! value, a wrapper, an array, interior mutability, a type of the user's, the wrong layout), and
//! crosses the plain shape (`*mut`, or `*const` where the driver only reads) with the whole
//! catalogue; a `T **` does the same at its second level. What would be the same question twice
//! (a wrapper of a type of the wrong layout, every shape of a type whose layout is wrong) is left
//! out.

use crate::positions::{C, CallbackParam, CallbackRet, Pointee, Position};
use crate::types::{
    Abi, Atomic, Int, Ptr, Ty, User, UserEnum, Wrap, arr, c_char, func, i, named, opt, ptr, user,
    wrap,
};

/// One declaration of the matrix.
#[derive(Clone, Debug)]
pub(crate) struct Cell {
    /// Its number, in the order generated.
    pub(crate) index: usize,
    /// Which position (an index into `positions::all()`).
    pub(crate) position: usize,
    /// The type declared at the position.
    pub(crate) ty: Ty,
}

impl Cell {
    /// The name of the declaration and of its module.
    pub(crate) fn name(&self, positions: &[Position]) -> String {
        format!("c{:04}_{}", self.index, positions[self.position].id)
    }
}

/// Every cell of every position.
pub(crate) fn cells(positions: &[Position]) -> Vec<Cell> {
    let mut cells = Vec::new();
    for (at, position) in positions.iter().enumerate() {
        let mut seen: Vec<(String, Vec<String>)> = Vec::new();
        for ty in types_at(position) {
            let key = (ty.spell(), ty.items());
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            cells.push(Cell {
                index: cells.len(),
                position: at,
                ty,
            });
        }
    }
    cells
}

const U8: Ty = Ty::Int(Int::U8);
const U32: Ty = Ty::Int(Int::U32);
const I32: Ty = Ty::Int(Int::I32);
const U64: Ty = Ty::Int(Int::U64);
const USIZE: Ty = Ty::Int(Int::Usize);

fn void_mut() -> Ty {
    ptr(Ptr::Mut, Ty::CVoid)
}

/// Every primitive, and `()`.
fn scalars() -> Vec<Ty> {
    let mut out: Vec<Ty> = Int::ALL.iter().map(|&n| i(n)).collect();
    out.extend([Ty::F32, Ty::F64, Ty::Bool, Ty::Char, Ty::Unit]);
    out
}

/// Other spellings of primitives: std's aliases.
fn spellings() -> Vec<Ty> {
    vec![
        named("::core::ffi::c_int", &[], I32),
        named("::std::os::raw::c_ulonglong", &[], U64),
        named("::core::ffi::c_char", &[], i(Int::I8)),
        named("::core::num::NonZeroU32", &[], Ty::NonZero(Int::U32)),
        named("c_int", &[], I32),
    ]
}

fn non_zeros() -> Vec<Ty> {
    let widths = [Int::U8, Int::U16, Int::I32, Int::U32, Int::U64, Int::Usize];
    let mut out: Vec<Ty> = widths.iter().map(|&n| Ty::NonZero(n)).collect();
    out.extend(widths.iter().map(|&n| opt(Ty::NonZero(n))));
    out
}

/// Pointers of every kind, thin and fat, as values.
fn pointers() -> Vec<Ty> {
    vec![
        ptr(Ptr::Const, U8),
        void_mut(),
        ptr(Ptr::Ref, U8),
        ptr(Ptr::RefMut, U64),
        ptr(Ptr::NonNull, Ty::CVoid),
        opt(ptr(Ptr::NonNull, Ty::CVoid)),
        opt(ptr(Ptr::Ref, U8)),
        opt(ptr(Ptr::RefMut, U64)),
        ptr(Ptr::Box, U64),
        opt(ptr(Ptr::Box, U64)),
        opt(void_mut()),
        ptr(Ptr::Ref, Ty::Slice(Box::new(U8))),
        ptr(Ptr::Const, Ty::Slice(Box::new(U8))),
        ptr(Ptr::Ref, Ty::Str),
        ptr(Ptr::Box, Ty::Slice(Box::new(U8))),
    ]
}

/// Function pointers of each ABI, safe or not, bare or in an `Option`.
fn functions() -> Vec<Ty> {
    let bare = [
        func(Abi::C, true, vec![], None),
        func(Abi::C, false, vec![], None),
        func(Abi::Rust, false, vec![], None),
        func(Abi::Rust, true, vec![], None),
        func(Abi::System, true, vec![], None),
        func(Abi::CUnwind, true, vec![], None),
    ];
    let mut out = bare.to_vec();
    out.extend(bare.iter().cloned().map(opt));
    out
}

fn atomics() -> Vec<Ty> {
    vec![
        Ty::Atomic(Atomic::Bool),
        Ty::Atomic(Atomic::U8),
        Ty::Atomic(Atomic::I32),
        Ty::Atomic(Atomic::U32),
        Ty::Atomic(Atomic::U64),
        Ty::Atomic(Atomic::Usize),
        Ty::AtomicPtr(Box::new(U8)),
    ]
}

fn enums() -> Vec<Ty> {
    vec![
        Ty::Enum(UserEnum::I32),
        Ty::Enum(UserEnum::I32ByValue),
        Ty::Enum(UserEnum::U32ByValue),
        Ty::Enum(UserEnum::U8ByValue),
        Ty::Enum(UserEnum::U64ByValue),
    ]
}

/// `e` in every container and type of the user's: the same layout, other facts.
fn family(e: &Ty) -> Vec<Ty> {
    let mut out = vec![
        e.clone(),
        arr(e.clone(), 1),
        arr(e.clone(), 2),
        Ty::Tuple(vec![e.clone()]),
        Ty::Tuple(vec![e.clone(), e.clone()]),
    ];
    for w in [
        Wrap::Cell,
        Wrap::UnsafeCell,
        Wrap::ManuallyDrop,
        Wrap::MaybeUninit,
        Wrap::Wrapping,
    ] {
        out.push(wrap(w, e.clone()));
    }
    for u in [
        User::Plain,
        User::Filled,
        User::Passed,
        User::Both,
        User::Newtype,
        User::Proven,
        User::RawUnion,
        User::FilledUnion,
    ] {
        out.push(user(u, e.clone()));
    }
    out.push(opt(e.clone()));
    out
}

/// A type with invalid values in the containers that keep or lose them.
fn bad_family(b: &Ty) -> Vec<Ty> {
    vec![
        b.clone(),
        arr(b.clone(), 1),
        wrap(Wrap::Cell, b.clone()),
        wrap(Wrap::MaybeUninit, b.clone()),
        wrap(Wrap::ManuallyDrop, b.clone()),
        user(User::Filled, b.clone()),
        user(User::Proven, b.clone()),
        opt(b.clone()),
    ]
}

/// The whole catalogue, around the position's C-layout type `e` and the types of its layout
/// that have invalid values (`bad`).
fn values(e: &Ty, bad: &[Ty]) -> Vec<Ty> {
    let mut out = scalars();
    out.extend(spellings());
    out.extend(non_zeros());
    out.extend(pointers());
    out.extend(functions());
    out.extend(atomics());
    out.extend(enums());
    out.extend([
        Ty::CuResult,
        Ty::CuUuid,
        Ty::CuMemLocation,
        Ty::UnitStruct,
        Ty::CVoid,
    ]);
    out.extend(family(e));
    for b in bad {
        out.extend(bad_family(b));
    }
    out
}

/// The thin pointer shapes of `x`.
fn shapes(x: &Ty) -> Vec<Ty> {
    vec![
        ptr(Ptr::Mut, x.clone()),
        ptr(Ptr::Const, x.clone()),
        ptr(Ptr::Ref, x.clone()),
        ptr(Ptr::RefMut, x.clone()),
        ptr(Ptr::NonNull, x.clone()),
        opt(ptr(Ptr::NonNull, x.clone())),
        opt(ptr(Ptr::Ref, x.clone())),
        opt(ptr(Ptr::RefMut, x.clone())),
        ptr(Ptr::Box, x.clone()),
    ]
}

/// What stands where C has a pointer but is not a thin pointer to `e`.
fn not_pointers(e: &Ty) -> Vec<Ty> {
    let slice = || Ty::Slice(Box::new(e.clone()));
    vec![
        USIZE,
        U64,
        opt(func(Abi::C, true, vec![], None)),
        func(Abi::C, true, vec![], None),
        ptr(Ptr::Ref, slice()),
        ptr(Ptr::RefMut, slice()),
        ptr(Ptr::Const, slice()),
        ptr(Ptr::Mut, slice()),
        ptr(Ptr::Box, slice()),
        ptr(Ptr::Ref, Ty::Str),
        arr(ptr(Ptr::Mut, e.clone()), 1),
        wrap(Wrap::MaybeUninit, ptr(Ptr::Mut, e.clone())),
        wrap(Wrap::Cell, ptr(Ptr::Mut, e.clone())),
        Ty::AtomicPtr(Box::new(e.clone())),
        opt(ptr(Ptr::Mut, e.clone())),
        user(User::Proven, ptr(Ptr::Mut, e.clone())),
        // Aliases of pointers: judged as what they are.
        named(
            &format!("NonNull<{}>", e.spell()),
            &["type NonNull<T> = *mut T;"],
            ptr(Ptr::Mut, e.clone()),
        ),
        named(
            &format!("NonNull<{}>", e.spell()),
            &["type NonNull<T> = *const T;"],
            ptr(Ptr::Const, e.clone()),
        ),
        named(
            "Out",
            &[&format!("type Out = &'static mut {};", e.spell())],
            ptr(Ptr::RefMut, e.clone()),
        ),
    ]
}

/// The pointees crossed with every shape: one of each question.
fn core_pointees(e: &Ty, bad: &Ty, wrong: &Ty, atomic: Option<Ty>) -> Vec<Ty> {
    let mut out = vec![
        e.clone(),
        Ty::CVoid,
        bad.clone(),
        wrap(Wrap::MaybeUninit, bad.clone()),
        arr(e.clone(), 2),
        wrap(Wrap::Cell, e.clone()),
        wrap(Wrap::Cell, bad.clone()),
        arr(wrap(Wrap::Cell, e.clone()), 1),
        user(User::Filled, e.clone()),
        user(User::Filled, wrap(Wrap::Cell, e.clone())),
        user(User::Plain, e.clone()),
        wrong.clone(),
        Ty::UnitStruct,
    ];
    out.extend(atomic);
    out
}

/// A single-level pointer position: every shape of the core pointees, the plain shape of the
/// catalogue, what is not a pointer, and the position's own extras.
fn pointer_cells(
    plain: Ptr,
    e: &Ty,
    bad: &[Ty],
    wrong: &Ty,
    atomic: Option<Ty>,
    extra: Vec<Ty>,
) -> Vec<Ty> {
    let mut out = Vec::new();
    for x in core_pointees(e, &bad[0], wrong, atomic) {
        out.extend(shapes(&x));
    }
    for x in values(e, bad) {
        out.push(ptr(plain, x));
    }
    out.extend(not_pointers(e));
    out.extend(extra);
    out
}

/// The second-level pointees of a `T **`.
fn second_level(pointee: &Pointee) -> Vec<Ty> {
    match pointee {
        Pointee::Data { .. } => vec![
            c_char(),
            U8,
            i(Int::I8),
            Ty::Bool,
            Ty::NonZero(Int::U8),
            opt(Ty::NonZero(Int::U8)),
            Ty::CVoid,
            arr(U8, 4),
            wrap(Wrap::MaybeUninit, Ty::Bool),
            U32,
            wrap(Wrap::Cell, U8),
            user(User::Filled, U8),
            user(User::Plain, U8),
            Ty::Atomic(Atomic::U8),
            Ty::Atomic(Atomic::Bool),
            named("c_char", &["type c_char = bool;"], Ty::Bool),
        ],
        _ => vec![
            U8,
            U64,
            Ty::Bool,
            Ty::Char,
            Ty::NonZero(Int::U32),
            Ty::CVoid,
            wrap(Wrap::Cell, U64),
            wrap(Wrap::MaybeUninit, Ty::Bool),
            arr(U8, 16),
            user(User::Plain, U64),
            user(User::Filled, U64),
            Ty::Tuple(vec![U64]),
            Ty::Atomic(Atomic::Bool),
            Ty::Atomic(Atomic::U64),
            ptr(Ptr::Ref, U64),
            named("u64", &["type u64 = bool;"], Ty::Bool),
            named("c_void", &["pub struct c_void;"], Ty::UnitStruct),
        ],
    }
}

/// A `T **` position: every shape at the first level over the plain slot; the plain first level
/// over the catalogue of slots (values, and every shape of the second-level pointees).
fn double_cells(slot0: &Ty, pointee: &Pointee) -> Vec<Ty> {
    let mut out = shapes(slot0);
    out.extend(not_pointers(slot0));
    let mut slots = values(slot0, &[ptr(Ptr::NonNull, Ty::CVoid), ptr(Ptr::Ref, U8)]);
    for x in second_level(pointee) {
        slots.extend(shapes(&x));
    }
    slots.extend([
        arr(void_mut(), 2),
        wrap(Wrap::MaybeUninit, void_mut()),
        wrap(Wrap::MaybeUninit, ptr(Ptr::Ref, U8)),
        Ty::AtomicPtr(Box::new(Ty::CVoid)),
        user(User::Filled, void_mut()),
        named(
            "NonNull<c_void>",
            &["type NonNull<T> = *mut T;"],
            void_mut(),
        ),
    ]);
    // `*mut`, as C spells `T **`; the other first-level shapes are asked above.
    out.extend(slots.into_iter().map(|s| ptr(Ptr::Mut, s)));
    out
}

/// A callback of the header's signature, in each shape, then with each parameter and the return
/// varied over the catalogue.
fn callback_cells(params: &[CallbackParam], ret: &CallbackRet) -> Vec<Ty> {
    let canonical: Vec<Ty> = params
        .iter()
        .map(|p| match p {
            CallbackParam::UserData | CallbackParam::Handle => void_mut(),
            CallbackParam::Status => Ty::CuResult,
            CallbackParam::Integer(_) => I32,
        })
        .collect();
    let c_ret = match ret {
        CallbackRet::Void => None,
        CallbackRet::Integer(_) => Some(USIZE),
    };
    let make = |abi, unsafety, params: Vec<Ty>, ret: Option<Ty>| func(abi, unsafety, params, ret);
    let canon = |params: Vec<Ty>, ret: Option<Ty>| opt(make(Abi::C, true, params, ret));
    let mut out = vec![
        canon(canonical.clone(), c_ret.clone()),
        opt(make(Abi::C, false, canonical.clone(), c_ret.clone())),
        make(Abi::C, true, canonical.clone(), c_ret.clone()),
        make(Abi::C, false, canonical.clone(), c_ret.clone()),
        opt(make(Abi::System, true, canonical.clone(), c_ret.clone())),
        make(Abi::System, false, canonical.clone(), c_ret.clone()),
        opt(make(Abi::Rust, true, canonical.clone(), c_ret.clone())),
        make(Abi::Rust, false, canonical.clone(), c_ret.clone()),
        opt(make(Abi::CUnwind, true, canonical.clone(), c_ret.clone())),
        void_mut(),
        USIZE,
        opt(ptr(Ptr::NonNull, Ty::CVoid)),
        user(User::Proven, canon(canonical.clone(), c_ret.clone())),
        named(
            "Callback",
            &[&format!(
                "type Callback = {};",
                canon(canonical.clone(), c_ret.clone()).spell()
            )],
            canon(canonical.clone(), c_ret.clone()),
        ),
    ];
    let mut longer = canonical.clone();
    longer.push(void_mut());
    out.push(canon(longer, c_ret.clone()));
    let mut shorter = canonical.clone();
    shorter.pop();
    out.push(canon(shorter, c_ret.clone()));
    out.push(canon(
        canonical.clone(),
        match ret {
            CallbackRet::Void => Some(I32),
            CallbackRet::Integer(_) => None,
        },
    ));
    for (at, p) in params.iter().enumerate() {
        let catalogue = match p {
            CallbackParam::UserData => {
                let mut v = values(
                    &void_mut(),
                    &[ptr(Ptr::NonNull, Ty::CVoid), ptr(Ptr::Ref, U8)],
                );
                v.extend(shapes(&U8));
                v.extend(shapes(&Ty::CVoid));
                v
            }
            CallbackParam::Handle => values(
                &void_mut(),
                &[ptr(Ptr::NonNull, Ty::CVoid), ptr(Ptr::Ref, U8)],
            ),
            CallbackParam::Status => {
                let mut v = values(&I32, &[Ty::NonZero(Int::I32), Ty::Char]);
                v.push(named("CUresult", &["type CUresult = bool;"], Ty::Bool));
                v.push(named("CUresult", &["type CUresult = u32;"], U32));
                v
            }
            CallbackParam::Integer(_) => values(&I32, &[Ty::NonZero(Int::I32), Ty::Char]),
        };
        for t in catalogue {
            let mut params = canonical.clone();
            params[at] = t;
            out.push(canon(params, c_ret.clone()));
        }
    }
    if let CallbackRet::Integer(_) = ret {
        for t in values(&USIZE, &[Ty::NonZero(Int::Usize)]) {
            out.push(canon(canonical.clone(), Some(t)));
        }
    }
    out
}

/// The types declared at `position`.
fn types_at(position: &Position) -> Vec<Ty> {
    let nz = |n| Ty::NonZero(n);
    match position.id {
        "p1_size" => {
            let mut v = values(&U64, &[nz(Int::U64)]);
            v.extend([
                named("u32", &["type u32 = u64;"], U64),
                named("usize", &["type usize = u32;"], U32),
                named("usize", &["pub struct usize;"], Ty::UnitStruct),
            ]);
            v
        }
        "p1_enum" => values(&I32, &[nz(Int::I32), Ty::Char, Ty::Enum(UserEnum::I32)]),
        "p1_float" => {
            let mut v = values(&Ty::F32, &[]);
            v.push(named("f32", &["type f32 = u32;"], U32));
            v
        }
        "p1_handle" => {
            let mut v = values(
                &void_mut(),
                &[ptr(Ptr::NonNull, Ty::CVoid), ptr(Ptr::Ref, U8)],
            );
            v.extend([
                named("CUstream", &["type CUstream = f64;"], Ty::F64),
                named(
                    "CUstream",
                    &["type CUstream = *mut Zst;"],
                    ptr(Ptr::Mut, Ty::UnitStruct),
                ),
            ]);
            v
        }
        "p1_record" => {
            let mut v = values(&arr(I32, 2), &[]);
            v.extend([
                user(User::PairPassed, I32),
                user(User::PairPlain, I32),
                user(User::PairPassed, Ty::F32),
                user(User::PairPassed, U32),
                arr(Ty::F32, 2),
                arr(U32, 2),
                arr(U8, 8),
                arr(Ty::Int(Int::U16), 4),
                Ty::Tuple(vec![I32, I32]),
                user(User::Passed, arr(Ty::F32, 2)),
            ]);
            v
        }
        "p2_struct" => pointer_cells(
            Ptr::Const,
            &arr(U64, 16),
            &[arr(nz(Int::U64), 16)],
            &arr(U8, 128),
            None,
            vec![],
        ),
        "p2_void" => pointer_cells(
            Ptr::Const,
            &U8,
            &[Ty::Bool],
            &Ty::Int(Int::U128),
            None,
            vec![
                ptr(Ptr::Ref, arr(U8, 16)),
                named("c_void", &["pub struct c_void;"], Ty::UnitStruct),
                ptr(
                    Ptr::Const,
                    named("c_void", &["pub struct c_void;"], Ty::UnitStruct),
                ),
            ],
        ),
        "p3_dptr" => pointer_cells(
            Ptr::Mut,
            &U64,
            &[nz(Int::U64), ptr(Ptr::Ref, U8)],
            &U32,
            Some(Ty::Atomic(Atomic::U64)),
            vec![
                ptr(Ptr::Mut, named("u64", &["type u64 = bool;"], Ty::Bool)),
                ptr(Ptr::Mut, named("u64", &["pub struct u64;"], Ty::UnitStruct)),
                ptr(Ptr::Mut, named("u64", &["type u64 = i64;"], i(Int::I64))),
                ptr(Ptr::Mut, Ty::F64),
                ptr(Ptr::Ref, Ty::Atomic(Atomic::Usize)),
                ptr(Ptr::Ref, arr(wrap(Wrap::Cell, U64), 2)),
                opt(ptr(
                    Ptr::Ref,
                    named("Slot", &["type Slot = Cell<u64>;"], wrap(Wrap::Cell, U64)),
                )),
            ],
        ),
        "p3_int" => pointer_cells(
            Ptr::Mut,
            &I32,
            &[nz(Int::I32), Ty::Char, Ty::Enum(UserEnum::I32)],
            &U64,
            Some(Ty::Atomic(Atomic::I32)),
            vec![ptr(Ptr::Mut, Ty::F32), ptr(Ptr::Mut, U32)],
        ),
        "p3_handle" => pointer_cells(
            Ptr::Mut,
            &void_mut(),
            &[ptr(Ptr::NonNull, Ty::CVoid), ptr(Ptr::Ref, U8)],
            &U32,
            Some(Ty::AtomicPtr(Box::new(Ty::CVoid))),
            vec![
                ptr(Ptr::Mut, U64),
                ptr(Ptr::Mut, opt(func(Abi::C, true, vec![], None))),
                ptr(Ptr::Mut, ptr(Ptr::Mut, Ty::UnitStruct)),
            ],
        ),
        "p3_uuid" => pointer_cells(
            Ptr::Mut,
            &arr(U8, 16),
            &[arr(Ty::Bool, 16)],
            &Ty::Int(Int::U128),
            None,
            vec![
                ptr(Ptr::Mut, Ty::CuUuid),
                ptr(Ptr::RefMut, Ty::CuUuid),
                ptr(Ptr::Mut, arr(U64, 2)),
                ptr(Ptr::Mut, arr(c_char(), 16)),
                ptr(Ptr::Mut, user(User::Filled, arr(U8, 16))),
            ],
        ),
        "p3_luid" => pointer_cells(
            Ptr::Mut,
            &c_char(),
            &[Ty::Bool],
            &Ty::Int(Int::U16),
            Some(Ty::Atomic(Atomic::U8)),
            vec![
                ptr(Ptr::Mut, arr(c_char(), 8)),
                ptr(Ptr::Mut, arr(U8, 8)),
                ptr(Ptr::RefMut, arr(U8, 8)),
                ptr(Ptr::RefMut, arr(c_char(), 8)),
                opt(ptr(Ptr::RefMut, arr(U8, 8))),
                ptr(Ptr::NonNull, arr(U8, 8)),
                ptr(Ptr::Mut, arr(U8, 4)),
                ptr(Ptr::RefMut, arr(U8, 4)),
                ptr(Ptr::RefMut, arr(U8, 16)),
                ptr(Ptr::RefMut, U8),
                ptr(Ptr::Ref, arr(wrap(Wrap::Cell, U8), 8)),
                ptr(Ptr::Mut, arr(Ty::Bool, 8)),
                ptr(Ptr::Mut, named("bool", &["type bool = u8;"], U8)),
                ptr(
                    Ptr::Mut,
                    named("c_char", &["type c_char = bool;"], Ty::Bool),
                ),
                ptr(Ptr::Mut, named("u8", &["type u8 = bool;"], Ty::Bool)),
                ptr(
                    Ptr::Mut,
                    named("MaybeUninit<bool>", &["type MaybeUninit<T> = T;"], Ty::Bool),
                ),
            ],
        ),
        "p3_floats" => pointer_cells(
            Ptr::Mut,
            &Ty::F32,
            &[Ty::Char],
            &Ty::F64,
            Some(Ty::Atomic(Atomic::U32)),
            vec![
                ptr(Ptr::Mut, arr(Ty::F32, 4)),
                ptr(Ptr::RefMut, arr(Ty::F32, 4)),
                ptr(Ptr::RefMut, arr(Ty::F32, 2)),
                ptr(Ptr::RefMut, Ty::F32),
                opt(ptr(Ptr::RefMut, arr(Ty::F32, 4))),
                ptr(Ptr::Mut, arr(U32, 4)),
                ptr(Ptr::Mut, I32),
            ],
        ),
        "p3_void" => pointer_cells(
            Ptr::Mut,
            &U8,
            &[Ty::Bool, ptr(Ptr::Ref, U8)],
            &Ty::Int(Int::U128),
            Some(Ty::Atomic(Atomic::U64)),
            vec![
                ptr(
                    Ptr::Mut,
                    named("c_void", &["pub struct c_void;"], Ty::UnitStruct),
                ),
                ptr(Ptr::Mut, arr(U8, 4096)),
                ptr(Ptr::Mut, arr(Ty::Bool, 16)),
            ],
        ),
        "p4_host" | "p4_pfn" => {
            let Some(C::Pointer(_, Pointee::Slot(slot))) = Some(&position.c) else {
                unreachable!()
            };
            let mut v = double_cells(&void_mut(), &slot.pointee);
            v.extend([
                ptr(Ptr::Mut, opt(func(Abi::C, true, vec![], None))),
                ptr(Ptr::RefMut, wrap(Wrap::MaybeUninit, void_mut())),
                ptr(Ptr::Mut, ptr(Ptr::Const, U8)),
                ptr(Ptr::Mut, opt(func(Abi::C, true, vec![I32], Some(I32)))),
                ptr(Ptr::Mut, opt(func(Abi::System, false, vec![], None))),
            ]);
            v
        }
        "p5_string" => {
            let Some(C::Pointer(_, Pointee::Slot(slot))) = Some(&position.c) else {
                unreachable!()
            };
            let mut v = double_cells(&ptr(Ptr::Const, c_char()), &slot.pointee);
            v.extend([
                ptr(Ptr::RefMut, ptr(Ptr::Const, c_char())),
                ptr(Ptr::Mut, ptr(Ptr::Const, U8)),
                ptr(Ptr::Mut, ptr(Ptr::Const, Ty::Bool)),
                ptr(Ptr::Mut, ptr(Ptr::Const, ptr(Ptr::Const, U8))),
            ]);
            v
        }
        "p5_cubin" => {
            let Some(C::Pointer(_, Pointee::Slot(slot))) = Some(&position.c) else {
                unreachable!()
            };
            let mut v = double_cells(&void_mut(), &slot.pointee);
            v.extend([
                ptr(Ptr::Mut, ptr(Ptr::Const, U8)),
                ptr(Ptr::Mut, ptr(Ptr::Const, Ty::Bool)),
                ptr(Ptr::Mut, ptr(Ptr::Const, c_char())),
            ]);
            v
        }
        "p6_data" => {
            let Some(C::Pointer(_, Pointee::Slot(slot))) = Some(&position.c) else {
                unreachable!()
            };
            let mut v = double_cells(&void_mut(), &slot.pointee);
            v.extend([
                ptr(Ptr::Mut, ptr(Ptr::Mut, Ty::Bool)),
                ptr(Ptr::Mut, ptr(Ptr::Mut, Ty::NonZero(Int::U32))),
                ptr(Ptr::Mut, ptr(Ptr::Mut, ptr(Ptr::Ref, U64))),
                ptr(Ptr::RefMut, ptr(Ptr::Mut, Ty::Char)),
                ptr(Ptr::Mut, opt(ptr(Ptr::NonNull, Ty::Bool))),
                ptr(Ptr::Mut, ptr(Ptr::Const, U64)),
                ptr(Ptr::Mut, ptr(Ptr::Mut, U64)),
                ptr(Ptr::Mut, void_mut()),
                ptr(Ptr::Const, ptr(Ptr::Mut, U64)),
                ptr(Ptr::Ref, arr(ptr(Ptr::Mut, U64), 2)),
                ptr(Ptr::Mut, arr(ptr(Ptr::Mut, U64), 4)),
            ]);
            v
        }
        "p7_params" => {
            let Some(C::Pointer(_, Pointee::Slot(slot))) = Some(&position.c) else {
                unreachable!()
            };
            let mut v = double_cells(&void_mut(), &slot.pointee);
            v.extend([
                ptr(Ptr::Ref, arr(void_mut(), 3)),
                ptr(Ptr::Const, ptr(Ptr::Const, Ty::CVoid)),
                ptr(Ptr::Mut, ptr(Ptr::Ref, U64)),
            ]);
            v
        }
        "p8_hostfn" | "p8_streamcb" | "p8_occupancy" => {
            let C::Callback(params, ret) = &position.c else {
                unreachable!()
            };
            callback_cells(params, ret)
        }
        "p9_status" => {
            let mut v = values(&I32, &[nz(Int::I32), Ty::Char, Ty::Enum(UserEnum::I32)]);
            v.extend([
                named("i32", &["type i32 = bool;"], Ty::Bool),
                named("i32", &["type i32 = char;"], Ty::Char),
                named("CUresult", &["type CUresult = u32;"], U32),
                named("c_int", &["type c_int = u32;"], U32),
                named(
                    "CUresult",
                    &["#[repr(transparent)] pub struct CUresult(pub i32);"],
                    user(User::Newtype, I32),
                ),
            ]);
            v
        }
        "p9_unverified" => {
            let mut v = scalars();
            v.extend(non_zeros());
            v.extend(pointers());
            v.extend(functions());
            v.extend([
                Ty::Enum(UserEnum::I32ByValue),
                Ty::Tuple(vec![U32, U32]),
                user(User::Both, U64),
                user(User::Passed, U64),
                wrap(Wrap::MaybeUninit, Ty::Bool),
                Ty::Atomic(Atomic::U32),
                Ty::CuResult,
                named("CUresult", &["type CUresult = i32;"], I32),
                named("CUresult", &["type CUresult = u64;"], U64),
                named("CUresult", &["type CUresult = bool;"], Ty::Bool),
            ]);
            v
        }
        other => panic!("no catalogue for position {other}"),
    }
}
