//! Miri as the oracle for values. Every cell the macro accepts at a position where the driver
//! writes (3 to 6) or calls back (8) becomes a test: a hostile stand-in driver (a plain
//! `unsafe extern "C" fn` taking the C types as raw pointers) is called through the
//! declaration's own `Pfn` (transmuted: no driver library loads under Miri), writes adversarial
//! bytes through every level it may write (or calls the user's callback with them), and the test
//! reads each value as its declared type, through the declared pointer. An invalid value (a
//! `bool` 2, a `NonZero` 0, a NULL reference) is undefined behaviour, which Miri reports: none is
//! expected. A cell written by hand without the macro (a `bool` where the driver stores any
//! byte) must show some, or the harness could not fail.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use crate::build;
use crate::catalogue::Cell;
use crate::positions::{C, Position};
use crate::types::{Abi, Ptr, Ty};

/// The stand-in driver and the helpers every test uses.
const SUPPORT: &str = r#"
pub mod hostile {
    use ::core::cell::UnsafeCell;
    use ::core::ffi::{c_char, c_void};
    use ::core::mem::{MaybeUninit, size_of};
    use ::core::sync::atomic::{AtomicU8, AtomicUsize, Ordering::Relaxed};
    use ::cuda_entry::types::CUresult;

    /// The bytes the driver writes: 0, all ones, 2 (not a `bool`), the sign bit, 1.
    pub const PATTERNS: [u8; 5] = [0x00, 0xFF, 0x02, 0x80, 0x01];
    static PATTERN: AtomicU8 = AtomicU8::new(0);
    /// How many bytes `cuPointerGetAttributes` stores through each `data[i]`.
    pub static SIZE: AtomicUsize = AtomicUsize::new(8);

    pub fn set(pattern: u8) {
        PATTERN.store(pattern, Relaxed);
    }
    pub fn pattern() -> u8 {
        PATTERN.load(Relaxed)
    }

    /// The driver's own memory, which it fills and hands out.
    #[repr(C, align(16))]
    pub struct Buffer(UnsafeCell<[u8; 64]>);
    // SAFETY: the tests run one at a time under Miri; only the stand-in writes it.
    unsafe impl Sync for Buffer {}
    pub static BUFFER: Buffer = Buffer(UnsafeCell::new([0; 64]));
    pub fn buffer() -> *mut u8 {
        BUFFER.0.get().cast()
    }

    unsafe extern "C" fn some_function() {}

    /// Writes `n` bytes of the pattern, as C would: bytes, whatever the Rust type there.
    pub unsafe fn fill(p: *mut u8, n: usize) {
        for i in 0..n {
            unsafe { p.add(i).write(pattern()) };
        }
    }

    /// A pointer the driver stores: NULL, an address of all ones, its own filled buffer, a
    /// dangling aligned address, a function's address.
    pub fn stored_pointer() -> *mut c_void {
        match pattern() {
            0x00 => ::core::ptr::null_mut(),
            0xFF => ::core::ptr::without_provenance_mut(usize::MAX & !15),
            0x02 => {
                unsafe { fill(buffer(), 64) };
                buffer().cast()
            }
            0x80 => ::core::ptr::without_provenance_mut(0x1000),
            _ => some_function as *mut c_void,
        }
    }

    /// Zeroed storage for at least `bytes` bytes of `T`s.
    pub fn storage<T>(bytes: usize) -> Vec<MaybeUninit<T>> {
        let size = size_of::<T>().max(1);
        let n = bytes.div_ceil(size).max(1);
        (0..n).map(|_| MaybeUninit::zeroed()).collect()
    }

    /// Reads the first `count` elements as `T`s: a typed copy, which Miri validates.
    pub unsafe fn read_all<T>(store: &[MaybeUninit<T>], count: usize) {
        for e in &store[..count.min(store.len()).max(1)] {
            let value: T = unsafe { e.assume_init_read() };
            ::core::hint::black_box(&value);
            ::core::mem::forget(value);
        }
    }

    /// Reads `bytes` bytes' worth of `T`s through `p` (the driver's memory), if not NULL.
    pub unsafe fn read_through<T>(p: *const T, bytes: usize) {
        if p.is_null() || p.addr() < 0x10000 || p.addr() > usize::MAX - 0x10000 {
            // Not memory: the driver stores such addresses only where nothing is read.
            return;
        }
        let count = (bytes / size_of::<T>().max(1)).max(1);
        for i in 0..count {
            let value: T = unsafe { p.add(i).read() };
            ::core::hint::black_box(&value);
            ::core::mem::forget(value);
        }
    }

    /// A value of the pattern's bytes, as the driver passes one in a register.
    pub unsafe fn from_pattern<T>() -> T {
        let bytes = [pattern(); 64];
        assert!(size_of::<T>() <= 64);
        unsafe { bytes.as_ptr().cast::<T>().read_unaligned() }
    }

    /// The caller's `userData`, given back as the callback's type.
    pub unsafe fn give_back<T>(user: *mut c_void) -> T {
        assert_eq!(size_of::<T>(), size_of::<*mut c_void>());
        unsafe { ::core::mem::transmute_copy(&user) }
    }

    /// A valid value the user's callback returns (1: an integer, a non-zero one too).
    pub unsafe fn one<T>() -> T {
        let mut bytes = [0u8; 64];
        bytes[0] = 1;
        unsafe { bytes.as_ptr().cast::<T>().read_unaligned() }
    }

    pub fn touch<T>(value: &T) {
        ::core::hint::black_box(value);
    }

    // The stand-ins, one per typedef, taking the C types (raw pointers).
    pub unsafe extern "C" fn p3_dptr(dptr: *mut u8, _bytesize: usize) -> CUresult {
        unsafe { fill(dptr, 8) };
        CUresult(0)
    }
    pub unsafe extern "C" fn p3_int(pi: *mut u8, _attrib: i32, _dev: i32) -> CUresult {
        unsafe { fill(pi, 4) };
        CUresult(0)
    }
    pub unsafe extern "C" fn p3_handle(pctx: *mut u8) -> CUresult {
        unsafe { fill(pctx, 8) };
        CUresult(0)
    }
    pub unsafe extern "C" fn p3_uuid(uuid: *mut u8, _dev: i32) -> CUresult {
        unsafe { fill(uuid, 16) };
        CUresult(0)
    }
    pub unsafe extern "C" fn p3_luid(luid: *mut u8, mask: *mut u32, _dev: i32) -> CUresult {
        unsafe { fill(luid, 8) };
        unsafe { fill(mask.cast(), 4) };
        CUresult(0)
    }
    pub unsafe extern "C" fn p3_floats(color: *mut u8, _tex: *mut c_void) -> CUresult {
        unsafe { fill(color, 16) };
        CUresult(0)
    }
    pub unsafe extern "C" fn p3_void(dst: *mut u8, _src: u64, count: usize) -> CUresult {
        unsafe { fill(dst, count) };
        CUresult(0)
    }
    pub unsafe extern "C" fn p4_host(pp: *mut *mut c_void, _bytesize: usize) -> CUresult {
        unsafe { pp.write(stored_pointer()) };
        CUresult(0)
    }
    pub unsafe extern "C" fn p4_pfn(
        _symbol: *const c_char,
        pfn: *mut *mut c_void,
        _version: i32,
        _flags: u64,
        found: *mut i32,
    ) -> CUresult {
        unsafe { pfn.write(stored_pointer()) };
        if !found.is_null() {
            unsafe { fill(found.cast(), 4) };
        }
        CUresult(0)
    }
    pub unsafe extern "C" fn p5_string(_error: CUresult, pstr: *mut *const c_char) -> CUresult {
        // Its own NUL-terminated string of the pattern, or NULL for an unknown code.
        let string = if pattern() == 0x01 {
            ::core::ptr::null()
        } else {
            unsafe { fill(buffer(), 63) };
            unsafe { buffer().add(63).write(0) };
            buffer().cast_const().cast()
        };
        unsafe { pstr.write(string) };
        CUresult(0)
    }
    pub unsafe extern "C" fn p5_cubin(
        _state: *mut c_void,
        cubin: *mut *mut c_void,
        size: *mut usize,
    ) -> CUresult {
        unsafe { fill(buffer(), 64) };
        unsafe { cubin.write(buffer().cast()) };
        if !size.is_null() {
            unsafe { size.write(64) };
        }
        CUresult(0)
    }
    pub unsafe extern "C" fn p6_data(
        count: u32,
        _attributes: *mut i32,
        data: *mut *mut u8,
        _ptr: u64,
    ) -> CUresult {
        for i in 0..count as usize {
            unsafe { fill(*data.add(i), SIZE.load(Relaxed)) };
        }
        CUresult(0)
    }
}

"#;

/// A crate of the stand-in and one cell written by hand, without the macro.
const BROKEN: &str = r#"
/// Written by hand without the macro: cuDeviceGetLuid's `char *luid` as `*mut bool`. Miri must
/// report the `bool` the stand-in stores, or the harness could not fail.
pub mod zz_broken {
    use ::cuda_entry::types::CUresult;
    use super::hostile;
    type Pfn = unsafe extern "C" fn(*mut bool, *mut u32, i32) -> CUresult;

    #[test]
    fn miri() {
        for pattern in hostile::PATTERNS {
            hostile::set(pattern);
            let stand_in: unsafe extern "C" fn(*mut u8, *mut u32, i32) -> CUresult =
                hostile::p3_luid;
            // SAFETY: thin pointers: the ABI is the same.
            let f: Pfn = unsafe { ::core::mem::transmute(stand_in) };
            let mut store = hostile::storage::<bool>(8);
            let mut mask = 0u32;
            unsafe { f(store.as_mut_ptr().cast(), &mut mask, 0) };
            unsafe { hostile::read_all(&store, 8) };
        }
    }
}
"#;

/// The expression of the declared pointer type `shape` built from `raw`, a `*mut` to its
/// pointee (None: a shape the harness does not build).
fn construct(shape: &Ty, raw: &str) -> Option<String> {
    Some(match shape.real() {
        Ty::Ptr(Ptr::Mut, _) => raw.to_owned(),
        Ty::Ptr(Ptr::Const, _) => format!("{raw}.cast_const()"),
        Ty::Ptr(Ptr::Ref, _) => format!("unsafe {{ &*{raw} }}"),
        Ty::Ptr(Ptr::RefMut, _) => format!("unsafe {{ &mut *{raw} }}"),
        Ty::Ptr(Ptr::NonNull, _) => format!("::core::ptr::NonNull::new({raw}).unwrap()"),
        Ty::Option(inner) => match inner.real() {
            Ty::Ptr(Ptr::NonNull, _) => format!("::core::ptr::NonNull::new({raw})"),
            Ty::Ptr(Ptr::Ref, _) => format!("unsafe {{ {raw}.as_ref() }}"),
            Ty::Ptr(Ptr::RefMut, _) => format!("unsafe {{ {raw}.as_mut() }}"),
            _ => return None,
        },
        _ => return None,
    })
}

/// The raw pointer (`*const x`) held in `value`, a value of the slot type `slot`.
fn to_raw(slot: &Ty, value: &str, x: &str) -> Option<String> {
    Some(match slot.real() {
        Ty::Ptr(Ptr::Mut | Ptr::Const, _) => format!("({value} as *const {x})"),
        Ty::Ptr(Ptr::Ref | Ptr::RefMut, _) => format!("(&*{value} as *const {x})"),
        Ty::Ptr(Ptr::NonNull, _) => format!("({value}.as_ptr() as *const {x})"),
        Ty::Option(inner) => match inner.real() {
            Ty::Ptr(Ptr::NonNull, _) => {
                format!("{value}.map_or(::core::ptr::null(), |p| p.as_ptr() as *const {x})")
            }
            _ => return None,
        },
        Ty::Array(element, _) => return to_raw(element, &format!("{value}[0]"), x),
        _ => return None,
    })
}

/// The pointee of a thin pointer type, as a Rust type the storage can hold (`c_void` is stored
/// as bytes).
fn pointee(shape: &Ty) -> Option<&Ty> {
    shape.thin_pointer().ok().map(|f| f.pointee)
}

/// The stand-in's function pointer type for a position (its C view).
fn stand_in_type(id: &str) -> &'static str {
    match id {
        "p3_dptr" => {
            "unsafe extern \"C\" fn(*mut ::core::primitive::u8, ::core::primitive::usize) -> ::cuda_entry::types::CUresult"
        }
        "p3_int" => {
            "unsafe extern \"C\" fn(*mut ::core::primitive::u8, ::core::primitive::i32, ::core::primitive::i32) -> ::cuda_entry::types::CUresult"
        }
        "p3_handle" => {
            "unsafe extern \"C\" fn(*mut ::core::primitive::u8) -> ::cuda_entry::types::CUresult"
        }
        "p3_uuid" => {
            "unsafe extern \"C\" fn(*mut ::core::primitive::u8, ::core::primitive::i32) -> ::cuda_entry::types::CUresult"
        }
        "p3_luid" => {
            "unsafe extern \"C\" fn(*mut ::core::primitive::u8, *mut ::core::primitive::u32, ::core::primitive::i32) -> ::cuda_entry::types::CUresult"
        }
        "p3_floats" => {
            "unsafe extern \"C\" fn(*mut ::core::primitive::u8, *mut ::core::ffi::c_void) -> ::cuda_entry::types::CUresult"
        }
        "p3_void" => {
            "unsafe extern \"C\" fn(*mut ::core::primitive::u8, ::core::primitive::u64, ::core::primitive::usize) -> ::cuda_entry::types::CUresult"
        }
        "p4_host" => {
            "unsafe extern \"C\" fn(*mut *mut ::core::ffi::c_void, ::core::primitive::usize) -> ::cuda_entry::types::CUresult"
        }
        "p4_pfn" => {
            "unsafe extern \"C\" fn(*const ::core::ffi::c_char, *mut *mut ::core::ffi::c_void, ::core::primitive::i32, ::core::primitive::u64, *mut ::core::primitive::i32) -> ::cuda_entry::types::CUresult"
        }
        "p5_string" => {
            "unsafe extern \"C\" fn(::cuda_entry::types::CUresult, *mut *const ::core::ffi::c_char) -> ::cuda_entry::types::CUresult"
        }
        "p5_cubin" => {
            "unsafe extern \"C\" fn(*mut ::core::ffi::c_void, *mut *mut ::core::ffi::c_void, *mut ::core::primitive::usize) -> ::cuda_entry::types::CUresult"
        }
        "p6_data" => {
            "unsafe extern \"C\" fn(::core::primitive::u32, *mut ::core::primitive::i32, *mut *mut ::core::primitive::u8, ::core::primitive::u64) -> ::cuda_entry::types::CUresult"
        }
        other => panic!("no stand-in for {other}"),
    }
}

/// The call of the declaration's `Pfn`, `arg` at the varied parameter.
fn call(id: &str, arg: &str, bytes: usize) -> String {
    match id {
        "p3_dptr" => format!("f({arg}, 0)"),
        "p3_int" => format!("f({arg}, 0, 0)"),
        "p3_handle" => format!("f({arg})"),
        "p3_uuid" => format!("f({arg}, 0)"),
        "p3_luid" => format!("f({arg}, &mut 0u32, 0)"),
        "p3_floats" => format!("f({arg}, ::core::ptr::null_mut())"),
        "p3_void" => format!("f({arg}, 0, {bytes})"),
        "p4_host" => format!("f({arg}, 64)"),
        "p4_pfn" => format!("f(c\"cuInit\".as_ptr(), {arg}, 12000, 0, &mut 0i32)"),
        "p5_string" => format!("f(::cuda_entry::types::CUresult(1), {arg})"),
        "p5_cubin" => format!("f(::core::ptr::null_mut(), {arg}, &mut 0usize)"),
        "p6_data" => format!("f(1, &mut 0i32, {arg}, 0)"),
        other => panic!("no call for {other}"),
    }
}

/// The bytes the driver writes behind a single-level pointer.
fn written(id: &str) -> usize {
    match id {
        "p3_dptr" | "p3_handle" | "p3_luid" => 8,
        "p3_int" => 4,
        "p3_uuid" | "p3_floats" => 16,
        _ => 8,
    }
}

/// The storage for `x`, its element type (`u8` for `c_void`), and whether it is read back.
fn stored(x: &Ty) -> (String, bool) {
    if *x.real() == Ty::CVoid {
        ("::core::primitive::u8".to_owned(), false)
    } else {
        (x.spell(), true)
    }
}

/// The test of one cell, inside its module: `None` when the harness cannot build its shape.
fn test_of(cell: &Cell, position: &Position, name: &str) -> Option<String> {
    let id = position.id;
    let ty = &cell.ty;
    let spelled = ty.spell();
    let mut body = String::new();
    let head = |body: &mut String| {
        body.push_str("        for pattern in crate::hostile::PATTERNS {\n");
        body.push_str("            crate::hostile::set(pattern);\n");
    };
    match &position.c {
        C::Callback(..) => return callback_test(cell, position, name),
        _ if id.starts_with("p3") => {
            let x = pointee(ty)?;
            let (element, read) = stored(x);
            let bytes = if id == "p3_void" {
                x.layout()?.size
            } else {
                written(id)
            };
            let count = bytes.div_ceil(x.layout()?.size.max(1));
            head(&mut body);
            let _ = writeln!(
                body,
                "            let mut store = crate::hostile::storage::<{element}>({bytes});"
            );
            let raw = format!("store.as_mut_ptr().cast::<{}>()", x.spell());
            let _ = writeln!(
                body,
                "            let arg: {spelled} = {};",
                construct(ty, &raw)?
            );
            let _ = writeln!(
                body,
                "            let f: {name}::Pfn = unsafe {{ ::core::mem::transmute::<{}, {name}::Pfn>(crate::hostile::{id}) }};",
                stand_in_type(id)
            );
            let _ = writeln!(body, "            unsafe {{ {} }};", call(id, "arg", bytes));
            if read {
                let _ = writeln!(
                    body,
                    "            unsafe {{ crate::hostile::read_all(&store, {count}) }};"
                );
            }
        }
        _ if id.starts_with("p4") || id.starts_with("p5") => {
            let slot = pointee(ty)?;
            // Behind `*mut c_void` (the escape) the caller provides the C slot, a pointer.
            let opaque = *slot.real() == Ty::CVoid;
            let held = if opaque {
                "*mut ::core::ffi::c_void".to_owned()
            } else {
                slot.spell()
            };
            head(&mut body);
            let _ = writeln!(
                body,
                "            let mut store = crate::hostile::storage::<{held}>(8);"
            );
            let raw = format!("store.as_mut_ptr().cast::<{}>()", slot.spell());
            let _ = writeln!(
                body,
                "            let arg: {spelled} = {};",
                construct(ty, &raw)?
            );
            let _ = writeln!(
                body,
                "            let f: {name}::Pfn = unsafe {{ ::core::mem::transmute::<{}, {name}::Pfn>(crate::hostile::{id}) }};",
                stand_in_type(id)
            );
            let _ = writeln!(body, "            unsafe {{ {} }};", call(id, "arg", 8));
            if !opaque {
                let _ = writeln!(
                    body,
                    "            unsafe {{ crate::hostile::read_all(&store, 1) }};"
                );
            }
            if id.starts_with("p5") && !opaque {
                // What the slot points to: the driver's memory, read as declared.
                let inner = match slot.real() {
                    Ty::Array(element, _) => element,
                    other => other,
                };
                if let Some(x2) = pointee(inner).filter(|x| *x.real() != Ty::CVoid) {
                    let value = "value";
                    let _ = writeln!(
                        body,
                        "            let {value}: {} = unsafe {{ store[0].assume_init_read() }};",
                        slot.spell()
                    );
                    let _ = writeln!(
                        body,
                        "            unsafe {{ crate::hostile::read_through({}, 64) }};",
                        to_raw(slot, value, &x2.spell())?
                    );
                }
            }
        }
        _ if id == "p6_data" => {
            let slot = pointee(ty)?;
            if matches!(slot.real(), Ty::Array(..)) {
                return None;
            }
            let x3 = pointee(slot)?;
            let (element, read) = stored(x3);
            let bytes = x3.layout()?.size.max(if read { 0 } else { 8 });
            head(&mut body);
            let _ = writeln!(
                body,
                "            crate::hostile::SIZE.store({bytes}, ::core::sync::atomic::Ordering::Relaxed);"
            );
            let _ = writeln!(
                body,
                "            let mut value = crate::hostile::storage::<{element}>({bytes});"
            );
            let raw = format!("value.as_mut_ptr().cast::<{}>()", x3.spell());
            let _ = writeln!(
                body,
                "            let mut data: [{}; 1] = [{}];",
                slot.spell(),
                construct(slot, &raw)?
            );
            let _ = writeln!(
                body,
                "            let arg: {spelled} = {};",
                construct(ty, "data.as_mut_ptr()")?
            );
            let _ = writeln!(
                body,
                "            let f: {name}::Pfn = unsafe {{ ::core::mem::transmute::<{}, {name}::Pfn>(crate::hostile::{id}) }};",
                stand_in_type(id)
            );
            let _ = writeln!(body, "            unsafe {{ {} }};", call(id, "arg", bytes));
            let _ = writeln!(body, "            let _ = &mut data;");
            if read {
                let _ = writeln!(
                    body,
                    "            unsafe {{ crate::hostile::read_all(&value, 1) }};"
                );
            }
        }
        _ => return None,
    }
    body.push_str("        }\n");
    Some(format!(
        "    #[cfg(test)]\n    #[test]\n    #[allow(unused_unsafe, unused_mut, clippy::all)]\n    fn miri() {{\n{body}    }}\n"
    ))
}

/// A callback cell: the stand-in calls the user's function with the pattern's values.
fn callback_test(cell: &Cell, position: &Position, name: &str) -> Option<String> {
    let C::Callback(params, _) = &position.c else {
        return None;
    };
    let (f, optional) = cell.ty.c_function()?;
    let fn_type = Ty::Fn(Box::new(f.clone())).spell();
    let qualifier = match (f.unsafety, f.abi) {
        (true, Abi::C) => "unsafe extern \"C\"",
        (false, Abi::C) => "extern \"C\"",
        (true, Abi::System) => "unsafe extern \"system\"",
        (false, Abi::System) => "extern \"system\"",
        _ => return None,
    };
    let mut out = String::new();
    // The user's function: takes each value as declared, returns a valid one.
    let args: Vec<String> = f
        .params
        .iter()
        .enumerate()
        .map(|(i, t)| format!("a{i}: {}", t.spell()))
        .collect();
    let ret = f.ret.as_ref().map(|r| format!(" -> {}", r.spell()));
    let _ = writeln!(
        out,
        "    #[cfg(test)]\n    #[allow(unused_unsafe, clippy::all)]\n    {qualifier} fn user_callback({}){} {{",
        args.join(", "),
        ret.clone().unwrap_or_default()
    );
    for i in 0..f.params.len() {
        let _ = writeln!(out, "        crate::hostile::touch(&a{i});");
    }
    if f.ret.is_some() {
        out.push_str("        unsafe { crate::hostile::one() }\n");
    }
    out.push_str("    }\n");
    // The stand-in: the declared types (so the call is the user's ABI), the pattern's values.
    let mut sig = Vec::new();
    let mut names = Vec::new();
    for (at, (param, canonical)) in position.params.iter().enumerate() {
        let ty = if crate::positions::Varied::Param(at) == position.varied {
            cell.ty.spell()
        } else {
            (*canonical).to_owned()
        };
        sig.push(format!("{param}: {ty}"));
        names.push(*param);
    }
    let callback = match position.varied {
        crate::positions::Varied::Param(at) => names[at],
        crate::positions::Varied::Return => return None,
    };
    let user = names.iter().find(|n| **n == "userData").copied();
    let values: Vec<String> = params
        .iter()
        .map(|p| match (p, user) {
            (crate::positions::CallbackParam::UserData, Some(user)) => {
                format!("unsafe {{ crate::hostile::give_back({user}) }}")
            }
            _ => "unsafe { crate::hostile::from_pattern() }".to_owned(),
        })
        .collect();
    let _ = writeln!(
        out,
        "    #[cfg(test)]\n    #[allow(unused_unsafe, unused_variables, clippy::all)]\n    unsafe extern \"C\" fn stand_in({}) -> ::cuda_entry::types::CUresult {{",
        sig.join(", ")
    );
    let mut lets = String::new();
    for (i, v) in values.iter().enumerate() {
        let _ = writeln!(lets, "        let v{i} = {v};");
    }
    let call_args: Vec<String> = (0..values.len()).map(|i| format!("v{i}")).collect();
    let invoke = format!("g({})", call_args.join(", "));
    if optional {
        let _ = writeln!(out, "        if let Some(g) = {callback} {{");
        out.push_str(&lets.replace("        let", "            let"));
        let _ = writeln!(
            out,
            "            let r = unsafe {{ {invoke} }};\n            crate::hostile::touch(&r);\n        }}"
        );
    } else {
        let _ = writeln!(out, "        let g = {callback};");
        out.push_str(&lets);
        let _ = writeln!(
            out,
            "        let r = unsafe {{ {invoke} }};\n        crate::hostile::touch(&r);"
        );
    }
    out.push_str("        ::cuda_entry::types::CUresult(0)\n    }\n");
    // The test: the declaration's Pfn on the stand-in, with NULL and a real userData.
    let declared = cell.ty.spell();
    let callback_value = if optional {
        format!("Some(user_callback as {fn_type})")
    } else {
        format!("user_callback as {fn_type}")
    };
    let mut args: Vec<String> = Vec::new();
    for (param, canonical) in &position.params {
        args.push(match *param {
            p if p == callback => "callback".to_owned(),
            "userData" => "user".to_owned(),
            _ if canonical.starts_with('*') => "::core::ptr::null_mut()".to_owned(),
            _ if canonical.contains("CUresult") => "::cuda_entry::types::CUresult(0)".to_owned(),
            _ => "0".to_owned(),
        });
    }
    let _ = writeln!(
        out,
        "    #[cfg(test)]\n    #[test]\n    #[allow(unused_unsafe, clippy::all)]\n    fn miri() {{\n        let mut local = 0u64;\n        for pattern in crate::hostile::PATTERNS {{\n            crate::hostile::set(pattern);\n            for user in [::core::ptr::null_mut(), (&raw mut local).cast::<::core::ffi::c_void>()] {{\n                let callback: {declared} = {callback_value};\n                let f: {name}::Pfn = stand_in;\n                unsafe {{ f({}) }};\n            }}\n        }}\n    }}",
        args.join(", ")
    );
    Some(out)
}

/// What one Miri run said.
struct MiriRun {
    ok: bool,
    /// The test in which Miri reported undefined behaviour, and its report's first line.
    undefined: Option<(String, String)>,
    output: String,
}

fn miri_test(dir: &Path, target: &Path, filters: &[String]) -> MiriRun {
    let output = build::cargo(Some("nightly"))
        .args(["miri", "test", "--offline", "--lib", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target)
        .arg("--")
        .args(["--test-threads=1", "--exact"])
        .args(filters)
        .output()
        .expect("cargo +nightly miri runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let mut undefined = None;
    let mut current = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("test ") {
            current = rest.split(" ...").next().map(str::to_owned);
        }
        if line.contains("Undefined Behavior") && undefined.is_none() {
            let report = line
                .split("Undefined Behavior: ")
                .nth(1)
                .unwrap_or(line)
                .to_owned();
            undefined = Some((current.clone().unwrap_or_default(), report));
        }
    }
    MiriRun {
        ok: output.status.success(),
        undefined,
        output: text,
    }
}

/// Runs the tests `names` (sorted, as libtest runs them) of the crate in `dir` under Miri. A
/// report stops Miri, so the run goes on from the test after it: every report is collected.
fn miri_all(
    dir: &Path,
    target: &Path,
    names: &[String],
    undefined: &mut Vec<(String, String)>,
) -> Result<(), String> {
    let mut from = 0;
    while from < names.len() {
        let run = miri_test(dir, target, &names[from..]);
        match run.undefined {
            Some((test, report)) => {
                let Some(at) = names.iter().position(|n| *n == test) else {
                    return Err(format!(
                        "undefined behaviour outside the tests:\n{}",
                        run.output
                    ));
                };
                undefined.push((test, report));
                from = at + 1;
            }
            None if run.ok => return Ok(()),
            None => return Err(run.output),
        }
    }
    Ok(())
}

/// Generates a Miri crate per position from the cells the macro accepts where the driver
/// writes, runs them, and holds them to no undefined behaviour (and the broken cell to some).
pub(crate) fn run() {
    let version = build::cargo(Some("nightly"))
        .args(["miri", "--version"])
        .output();
    if !version.is_ok_and(|o| o.status.success()) {
        let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false");
        let message = "SKIPPED the matrix under Miri: not installed; run 'rustup +nightly \
                       component add miri rust-src' to include it";
        assert!(!ci, "{message} (CI requires it)");
        println!("{message}");
        return;
    }
    let began = Instant::now();
    let scratch = build::scratch();
    let target = scratch.join("target-miri");
    // The harness can fail: the hand-written broken cell shows undefined behaviour.
    let dir = scratch.join("matrix-miri-broken");
    build::write_crate(
        &dir,
        "matrix-miri-broken",
        &format!("#![allow(warnings)]\n{SUPPORT}{BROKEN}"),
        "",
    );
    let broken = miri_test(&dir, &target, &["zz_broken::miri".to_owned()]);
    assert!(
        !broken.ok && broken.undefined.is_some(),
        "Miri reported no undefined behaviour for the broken cell (a `bool` the stand-in sets to \
         2), so it could not catch one in the matrix:\n{}",
        broken.output
    );
    let mut log = String::new();
    let rows = crate::run(&|p: &Position| p.driver_writes(), &mut log);
    let compiled = began.elapsed().as_secs_f64();
    let positions = crate::positions::all();
    let accepted: Vec<&crate::Row> = rows.iter().filter(|r| r.found.is_ok()).collect();
    let mut tests = std::collections::BTreeMap::new();
    let mut not_run = Vec::new();
    for row in &accepted {
        let position = &positions[row.cell.position];
        let name = row.cell.name(&positions);
        match test_of(&row.cell, position, &name) {
            Some(test) => {
                tests.insert(row.cell.index, test);
            }
            None => not_run.push(format!("{name} `{}`", row.cell.ty.spell())),
        }
    }
    // One crate per position, and another for the cells the oracle refuses (the false accepts,
    // where undefined behaviour is likely): a report stops Miri, which then runs the rest of
    // that crate again, from the source (the smaller the crate, the cheaper).
    let mut undefined: Vec<(String, String)> = Vec::new();
    let mut run_cells = 0;
    for (at, position) in positions.iter().enumerate() {
        for suspects in [false, true] {
            let cells: Vec<&Cell> = accepted
                .iter()
                .filter(|r| r.expected.is_err() == suspects)
                .map(|r| &r.cell)
                .filter(|c| c.position == at && tests.contains_key(&c.index))
                .collect();
            if cells.is_empty() {
                continue;
            }
            run_cells += cells.len();
            let header = format!(
                "// Generated by tests/matrix.rs (the matrix under Miri, {} cells of {}); do not \
                 edit.\n#![allow(warnings)]\n{SUPPORT}",
                cells.len(),
                position.id
            );
            let (lib, _) = build::source(&cells, &positions, &header, &|c: &Cell| {
                tests.get(&c.index).cloned().unwrap_or_default()
            });
            let name = format!(
                "matrix-miri-{}{}",
                position.id.replace('_', "-"),
                if suspects { "-suspects" } else { "" }
            );
            let dir = scratch.join(&name);
            build::write_crate(&dir, &name, &lib, "");
            let mut names: Vec<String> = cells
                .iter()
                .map(|c| format!("{}::miri", c.name(&positions)))
                .collect();
            names.sort();
            if let Err(output) = miri_all(&dir, &target, &names, &mut undefined) {
                panic!("{name}: Miri did not run:\n{output}");
            }
        }
    }
    let seconds = began.elapsed().as_secs_f64();
    let mut report = format!(
        "miri: {run_cells} cells run under Miri ({} accepted by the macro where the driver \
         writes; {} not run: shapes the harness does not build), {} with undefined behaviour \
         ({compiled:.0} s to get the macro's verdicts, {seconds:.0} s in all)\n",
        accepted.len(),
        not_run.len(),
        undefined.len()
    );
    for (test, what) in &undefined {
        let index = test
            .strip_prefix('c')
            .and_then(|t| t.get(..4))
            .and_then(|n| n.parse::<usize>().ok());
        let row = rows.iter().find(|r| Some(r.cell.index) == index);
        let _ = writeln!(
            report,
            "  UB {test} `{}`: {what}{}",
            row.map(|r| r.cell.ty.spell()).unwrap_or_default(),
            match row.map(|r| &r.expected) {
                Some(Err(why)) => format!(" (the oracle refuses it too: {why})"),
                _ => " (the oracle accepts it: the oracle is wrong too)".to_owned(),
            }
        );
    }
    if !not_run.is_empty() {
        let _ = writeln!(report, "not run: {}", not_run.join(", "));
    }
    let path = scratch.join("miri-report.txt");
    std::fs::write(&path, format!("{report}\n{log}")).unwrap();
    println!("{report}(also in {})", path.display());
    assert!(
        undefined.is_empty(),
        "Miri found undefined behaviour in declarations the macro accepts:\n{report}"
    );
}
