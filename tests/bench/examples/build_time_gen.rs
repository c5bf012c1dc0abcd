//! The generator of `tests/bench/build-time.sh`: writes, from the typedef table, the crates it
//! builds (`macro/src/lib.rs`, `plain/src/lib.rs`, `manual/src/lib.rs` under the directory given
//! as the first argument). An example of the bench crate, so that the workspace's clippy and
//! tests compile it with every change to the table's API.
//!
//! ```sh
//! cargo run -p cuda-entry-bench --example build_time_gen -- DIR
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;

use cuda_entry_table::{CType, Class, Flavour, TYPEDEFS, Typedef};

/// A Rust type of the C type's size, alignment and class (pointers as `*mut c_void`, callbacks as
/// the function pointer of their C signature).
fn rust_type(t: &CType) -> Option<String> {
    if let Some(callback) = t.callback {
        let params: Option<Vec<String>> =
            callback.params.iter().map(|p| rust_type(&p.ty)).collect();
        let ret = match callback.ret.size {
            0 => String::new(),
            _ => format!(" -> {}", rust_type(&callback.ret)?),
        };
        return Some(format!(
            "Option<unsafe extern \"C\" fn({}){ret}>",
            params?.join(", ")
        ));
    }
    if t.pointer {
        return Some("*mut c_void".into());
    }
    if t.class == Class::Floating {
        return Some(if t.size == 8 { "f64" } else { "f32" }.into());
    }
    let unit = match t.align {
        1 => "u8",
        2 => "u16",
        4 => "u32",
        8 => "u64",
        16 => "u128",
        _ => return None,
    };
    if t.size == t.align {
        Some(unit.into())
    } else if t.size > 0 && t.size.is_multiple_of(t.align) {
        Some(format!("[{unit}; {}]", t.size / t.align))
    } else {
        None
    }
}

fn main() {
    let out = std::env::args().nth(1).expect("output directory");
    let mut newest: BTreeMap<&str, &Typedef> = BTreeMap::new();
    for t in TYPEDEFS.iter().filter(|t| t.stream == Flavour::Legacy) {
        let slot = newest.entry(t.symbol).or_insert(t);
        if t.version > slot.version {
            *slot = t;
        }
    }
    let header = "#![allow(dead_code, non_snake_case, clippy::all)]\nuse std::ffi::c_void;\n\n";
    let mut with_macro = format!("{header}use cuda_entry::cuda_entry;\n\n");
    let mut plain = format!("{header}unsafe extern \"C\" {{\n");
    let mut manual = format!(
        "{header}use std::sync::OnceLock;\n\n\
         fn library() -> &'static libloading::Library {{\n    \
             static LIB: OnceLock<libloading::Library> = OnceLock::new();\n    \
             // SAFETY: the driver library.\n    \
             LIB.get_or_init(|| unsafe {{ libloading::Library::new(\"libcuda.so.1\") }}.expect(\"libcuda\"))\n\
         }}\n\n\
         fn load<F: Copy>(name: &str) -> F {{\n    \
             // SAFETY: F is the symbol's signature.\n    \
             unsafe {{ *library().get::<F>(name.as_bytes()).expect(name) }}\n\
         }}\n\n"
    );
    let (mut declared, mut skipped) = (0, Vec::new());
    'typedefs: for (symbol, t) in &newest {
        let mut types = Vec::new();
        for p in t.params {
            match rust_type(&p.ty) {
                Some(ty) => types.push(ty),
                None => {
                    skipped.push(t.typedef_name());
                    continue 'typedefs;
                }
            }
        }
        let ret = match t.ret.size {
            0 => String::new(),
            _ => match rust_type(&t.ret) {
                Some(ty) => format!(" -> {ty}"),
                None => {
                    skipped.push(t.typedef_name());
                    continue;
                }
            },
        };
        let names: Vec<String> = (0..types.len()).map(|i| format!("p{i}")).collect();
        let params: Vec<String> = names
            .iter()
            .zip(&types)
            .map(|(n, t)| format!("{n}: {t}"))
            .collect();
        let params = params.join(", ");
        let _ = writeln!(
            with_macro,
            "#[cuda_entry(symbol = \"{symbol}\", version = {})]\npub unsafe extern \"C\" fn {symbol}({params}){ret};",
            t.version
        );
        let _ = writeln!(plain, "    pub fn {symbol}({params}){ret};");
        let _ = writeln!(
            manual,
            "pub unsafe fn {symbol}({params}){ret} {{\n    \
                 type F = unsafe extern \"C\" fn({}){ret};\n    \
                 static S: OnceLock<F> = OnceLock::new();\n    \
                 let f = S.get_or_init(|| load::<F>(\"{symbol}\"));\n    \
                 unsafe {{ f({}) }}\n}}",
            types.join(", "),
            names.join(", ")
        );
        declared += 1;
    }
    plain.push_str("}\n");
    // The line the one-line-change measurement edits.
    with_macro.push_str("\npub const EDIT: u32 = 0;\n");
    plain.push_str("\npub const EDIT: u32 = 0;\n");
    manual.push_str("\npub const EDIT: u32 = 0;\n");
    std::fs::write(format!("{out}/macro/src/lib.rs"), with_macro).expect("write macro");
    std::fs::write(format!("{out}/plain/src/lib.rs"), plain).expect("write plain");
    std::fs::write(format!("{out}/manual/src/lib.rs"), manual).expect("write manual");
    println!("{declared} symbols declared; skipped (no Rust type of that layout): {skipped:?}");
}
