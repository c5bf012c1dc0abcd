//! Every typedef of the table, declared with types of the C layout down to what its pointers
//! point to, and callbacks of the C signature, compiles under the ABI checks: every other one
//! with types whose tokens tell their layout (`u32`, `*mut [u64; 3]`, `Option<unsafe extern "C"
//! fn(*mut c_void)>`: the macro judges them), the rest through aliases and structs (`SizePtr`,
//! `*mut R24x8`, `CallbackCUhostFn`: the compiler judges them, in the assertions the macro
//! writes). The structs whose layout changed between toolkits are declared with each layout the
//! headers of the typedef's toolkits gave them.

use std::collections::BTreeMap;
use std::fmt::Write;

use cuda_entry_table::{CType, Callback, Class, TYPEDEFS};

/// A Rust type of `c`'s layout and class whose tokens tell both, where one exists (a struct
/// aligned beyond 16 bytes gets its [`named`] stand-in).
fn plain(c: &CType, defined: &mut BTreeMap<String, String>) -> String {
    match c.class {
        Class::Floating => format!("f{}", c.size * 8),
        Class::Integer | Class::Enum => format!("u{}", c.size * 8),
        Class::Record if c.align <= 16 => format!("[u{}; {}]", c.align * 8, c.size / c.align),
        Class::Record => named(c, defined),
        Class::Pointer if c.pointer => match c.pointee.filter(|p| p.is_complete()) {
            Some(p) => format!("*mut {}", plain(p, defined)),
            None => "*mut c_void".to_owned(),
        },
        Class::FunctionPointer => match c.callback {
            Some(callback) => function(callback, |c| plain(c, defined)),
            None => "*mut c_void".to_owned(),
        },
        Class::Pointer | Class::Void => "*mut c_void".to_owned(),
    }
}

/// The function pointer the driver calls as `callback`, each type written by `ty`.
fn function(callback: &Callback, mut ty: impl FnMut(&CType) -> String) -> String {
    let params: Vec<String> = callback.params.iter().map(|p| ty(&p.ty)).collect();
    let ret = match callback.ret.class {
        Class::Void => String::new(),
        _ => format!(" -> {}", ty(&callback.ret)),
    };
    format!("Option<unsafe extern \"C\" fn({}){ret}>", params.join(", "))
}

/// A name for a type of `c`'s layout and class that only the compiler can judge, with its
/// definition recorded in `defined`.
fn named(c: &CType, defined: &mut BTreeMap<String, String>) -> String {
    let (name, definition) = match c.class {
        Class::Floating => {
            let name = format!("F{}", c.size * 8);
            let definition = format!("pub type {name} = f{};", c.size * 8);
            (name, definition)
        }
        Class::Integer | Class::Enum => {
            let name = format!("U{}", c.size * 8);
            let definition = format!("pub type {name} = u{};", c.size * 8);
            (name, definition)
        }
        Class::Record => {
            let name = format!("R{}x{}", c.size, c.align);
            let definition = format!(
                "#[repr(C, align({}))]\n#[derive(Clone, Copy, cuda_entry::FromDriver, cuda_entry::ByValue)]\npub struct \
                 {name}([u8; {}]);",
                c.align, c.size
            );
            (name, definition)
        }
        Class::Pointer if c.pointer => match c.pointee.filter(|p| p.is_complete()) {
            Some(p) => {
                let pointee = named(p, defined);
                let name = format!("P{pointee}");
                let definition = format!("pub type {name} = *mut {pointee};");
                (name, definition)
            }
            None => (
                "VoidPtr".to_owned(),
                "pub type VoidPtr = *mut c_void;".to_owned(),
            ),
        },
        Class::FunctionPointer if c.callback.is_some() => {
            let callback = c.callback.expect("a callback");
            let name = format!(
                "Callback{}",
                c.spelling
                    .replace(|ch: char| !ch.is_ascii_alphanumeric(), "")
            );
            let definition = format!(
                "pub type {name} = {};",
                function(callback, |c| named(c, defined))
            );
            (name, definition)
        }
        Class::Pointer | Class::FunctionPointer | Class::Void => (
            "Handle".to_owned(),
            "pub type Handle = *mut c_void;".to_owned(),
        ),
    };
    defined.insert(name.clone(), definition);
    name
}

/// `c`, a pointer, with each layout other than the newest that the headers of the toolkits
/// `first..=last` gave what it points to.
fn older_layouts(c: &CType, first: u32, last: u32) -> Vec<CType> {
    let Some(pointee) = c.pointee.filter(|p| p.is_complete() && c.pointer) else {
        return Vec::new();
    };
    pointee
        .layouts_within(first, last)
        .filter(|l| (l.size, l.align) != (pointee.size, pointee.align))
        .map(|l| {
            let older: &'static CType = Box::leak(Box::new(CType {
                size: l.size,
                align: l.align,
                ..*pointee
            }));
            CType {
                pointee: Some(older),
                ..*c
            }
        })
        .collect()
}

#[test]
fn every_typedef_declared_with_pointee_matched_types_compiles() {
    let mut defined = BTreeMap::new();
    let mut declarations = String::new();
    let mut older = 0;
    for (i, t) in TYPEDEFS.iter().enumerate() {
        let mut ty = |c: &CType| {
            if i % 2 == 0 {
                plain(c, &mut defined)
            } else {
                named(c, &mut defined)
            }
        };
        let params: Vec<String> = t
            .params
            .iter()
            .enumerate()
            .map(|(k, p)| format!("p{k}: {}", ty(&p.ty)))
            .collect();
        let ret = match t.ret.class {
            Class::Void => String::new(),
            _ => format!(" -> {}", ty(&t.ret)),
        };
        let stream = if t.stream.is_per_thread() {
            ", stream = \"per_thread\""
        } else {
            ""
        };
        let _ = writeln!(
            declarations,
            "#[cuda_entry(symbol = \"{}\", version = {}{stream})]\npub unsafe extern \"C\" fn t{i}({}){ret};",
            t.symbol,
            t.version,
            params.join(", ")
        );
    }
    // Each older layout of a struct whose layout changed within a typedef's toolkits, behind a
    // pointer (tokens and compiler both).
    for (i, t) in TYPEDEFS.iter().enumerate() {
        for (k, p) in t.params.iter().enumerate() {
            for variant in older_layouts(&p.ty, t.first_toolkit, t.last_toolkit) {
                for (form, ty) in [
                    ("plain", plain(&variant, &mut defined)),
                    ("named", named(&variant, &mut defined)),
                ] {
                    let params: Vec<String> = t
                        .params
                        .iter()
                        .enumerate()
                        .map(|(j, q)| {
                            let ty = if j == k {
                                ty.clone()
                            } else {
                                plain(&q.ty, &mut defined)
                            };
                            format!("p{j}: {ty}")
                        })
                        .collect();
                    let ret = match t.ret.class {
                        Class::Void => String::new(),
                        _ => format!(" -> {}", plain(&t.ret, &mut defined)),
                    };
                    let _ = writeln!(
                        declarations,
                        "#[cuda_entry(symbol = \"{}\", version = {}{})]\npub unsafe extern \"C\" fn t{i}_{k}_{form}_{}x{}({}){ret};",
                        t.symbol,
                        t.version,
                        if t.stream.is_per_thread() {
                            ", stream = \"per_thread\""
                        } else {
                            ""
                        },
                        variant.pointee.map_or(0, |p| p.size),
                        variant.pointee.map_or(0, |p| p.align),
                        params.join(", ")
                    );
                    older += 1;
                }
            }
        }
    }
    assert!(older >= 30, "{older} declarations of older layouts");
    let mut program = String::from(
        "// By-value records are declared as arrays, which rustc's FFI lint warns of, as in a plain\n// `extern` block.\n#![allow(dead_code, non_camel_case_types, improper_ctypes)]\nuse std::ffi::c_void;\n\nuse cuda_entry::cuda_entry;\n\n",
    );
    for definition in defined.values() {
        program.push_str(definition);
        program.push('\n');
    }
    program.push('\n');
    program.push_str(&declarations);
    program.push_str("\nfn main() {}\n");
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("every_typedef.rs");
    std::fs::write(&path, program).expect("write the program");
    trybuild::TestCases::new().pass(&path);
}
