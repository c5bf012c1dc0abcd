//! Every typedef of the table, declared with types of the C layout down to what its pointers
//! point to, compiles under the ABI checks: every other one with types whose tokens tell their
//! layout (`u32`, `*mut [u64; 3]`: the macro judges them), the rest through aliases and structs
//! (`SizePtr`, `*mut R24x8`: the compiler judges them, in the assertions the macro writes).

use std::collections::BTreeMap;
use std::fmt::Write;

use cuda_entry_table::{CType, Class, TYPEDEFS};

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
        Class::Pointer | Class::FunctionPointer | Class::Void => "*mut c_void".to_owned(),
    }
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
                "#[repr(C, align({}))]\n#[derive(Clone, Copy)]\npub struct {name}([u8; {}]);",
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
        Class::Pointer | Class::FunctionPointer | Class::Void => (
            "Handle".to_owned(),
            "pub type Handle = *mut c_void;".to_owned(),
        ),
    };
    defined.insert(name.clone(), definition);
    name
}

#[test]
fn every_typedef_declared_with_pointee_matched_types_compiles() {
    let mut defined = BTreeMap::new();
    let mut declarations = String::new();
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
    let mut program = String::from(
        "#![allow(dead_code, non_camel_case_types)]\nuse std::ffi::c_void;\n\nuse cuda_entry::cuda_entry;\n\n",
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
