//! `cuda-entry decl`: a ready-to-paste `#[cuda_entry]` declaration from the typedef table, its types
//! written by [`crate::rust_type`].

use std::fmt::Write;
use std::process::ExitCode;

use cuda_entry_table::{Cuda, Param, TOOLKITS, Typedef};

use cuda_entry_table::rules::{
    Miss, Reader, oldest_first, release, typedef_at, typedef_list, unknown_symbol,
};

use crate::common::CliError;
use crate::rust_type::{Needs, Types, callback_with_integers, param_type, passed_unproven, uninit};

/// Options of `decl`.
#[derive(Debug)]
pub(crate) struct Options {
    /// `SYMBOL`, `SYMBOL@VERSION` or `SYMBOL@latest`.
    pub(crate) spec: String,
    pub(crate) per_thread: bool,
    pub(crate) types: Types,
}

pub(crate) fn run(options: &Options) -> Result<ExitCode, CliError> {
    let typedef = select(&options.spec, options.per_thread)?;
    crate::output::print(&render(typedef, options.types))?;
    Ok(ExitCode::SUCCESS)
}

/// The typedef `spec` names in the flavour group asked for.
pub(crate) fn select(spec: &str, per_thread: bool) -> Result<&'static Typedef, CliError> {
    let (symbol, version) = match spec.split_once('@') {
        Some((symbol, version)) => (symbol, Some(version)),
        None => (spec, None),
    };
    if cuda_entry_table::lookup(symbol).is_empty() {
        return Err(CliError::BadInput(unknown_symbol(symbol, Reader::Command)));
    }
    let group = oldest_first(symbol, per_thread);
    let other = oldest_first(symbol, !per_thread);
    let Some(&newest) = group.last() else {
        return Err(CliError::BadInput(if per_thread {
            format!(
                "`{symbol}` has no per-thread default stream typedef: drop `--stream \
                 per_thread` (its typedefs are {})",
                typedef_list(other.iter().copied())
            )
        } else {
            format!(
                "`{symbol}` exists only for the per-thread default stream: add `--stream \
                 per_thread` (its typedefs are {})",
                typedef_list(other.iter().copied())
            )
        }));
    };
    let version = match version {
        None | Some("latest") => return Ok(newest),
        Some(text) => text.parse::<u32>().map_err(|_| {
            CliError::BadInput(format!(
                "`{text}` is not a version: write `{symbol}@N` with N the version of a typedef \
                 ({}), or `{symbol}@latest`",
                typedef_list(group.iter().copied())
            ))
        })?,
    };
    let hint = match typedef_at(symbol, version, per_thread) {
        Ok(t) => return Ok(t),
        Err(Miss::OtherFlavour(t)) if per_thread => format!(
            "; {version} is the legacy typedef `{}`: drop `--stream per_thread`",
            t.typedef_name()
        ),
        Err(Miss::OtherFlavour(t)) => format!(
            "; {version} is the per-thread typedef `{}`: add `--stream per_thread`",
            t.typedef_name()
        ),
        Err(Miss::NoFlavour | Miss::NotATypedef { .. }) => String::new(),
    };
    Err(CliError::BadInput(format!(
        "`{symbol}` has no {}typedef at version {version}: the valid versions are {}{hint}",
        if per_thread { "per-thread " } else { "" },
        typedef_list(group.iter().copied())
    )))
}

/// The C typedef as the header writes it.
fn c_typedef(t: &Typedef) -> String {
    let params: Vec<String> = t
        .params
        .iter()
        .map(|p| {
            if p.ty.spelling.ends_with('*') {
                format!("{}{}", p.ty.spelling, p.name)
            } else {
                format!("{} {}", p.ty.spelling, p.name)
            }
        })
        .collect();
    let params = if params.is_empty() {
        "void".to_owned()
    } else {
        params.join(", ")
    };
    format!(
        "typedef {} (CUDAAPI *{})({params});",
        t.ret.spelling,
        t.typedef_name()
    )
}

/// Where the typedef was read: `` `cudaTypedefs.h` of CUDA 11.7 to 13.5 ``.
fn provenance(t: &Typedef) -> String {
    let newest = TOOLKITS.last().copied().unwrap_or(t.last_toolkit);
    format!(
        "`{}` of {} to {}{}",
        t.header,
        Cuda(t.first_toolkit),
        release(t.last_toolkit),
        if t.last_toolkit < newest {
            " (gone from later headers)"
        } else {
            ""
        }
    )
}

pub(crate) const KEYWORDS: &[&str] = &[
    "as", "async", "await", "box", "break", "const", "continue", "crate", "do", "dyn", "else",
    "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop",
    "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return", "self",
    "static", "struct", "super", "trait", "true", "try", "type", "typeof", "unsafe", "unsized",
    "use", "virtual", "where", "while", "yield",
];

/// `hStream` -> `h_stream`, `gridDimX` -> `grid_dim_x`, `MemcpyHtoDAsync` -> `memcpy_htod_async`,
/// `GLGetDevices` -> `gl_get_devices`, `Memcpy3DPeer` -> `memcpy3d_peer`; a Rust keyword gets a
/// trailing `_`.
pub(crate) fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            let prev = chars[i - 1];
            let next = chars.get(i + 1).copied();
            let next_lower = next.is_some_and(|n| n.is_ascii_lowercase());
            // `HtoD`, `AtoH`: one word.
            let x_to_y =
                i >= 3 && prev == 'o' && chars[i - 2] == 't' && chars[i - 3].is_uppercase();
            // `3D`, `2D`: one word with the digit.
            let dimension = prev.is_ascii_digit() && c == 'D' && !next_lower;
            let boundary = prev != '_'
                && !x_to_y
                && !dimension
                && (prev.is_ascii_lowercase()
                    || prev.is_ascii_digit()
                    || (prev.is_ascii_uppercase() && next_lower));
            if boundary {
                out.push('_');
            }
        }
        out.push(c.to_ascii_lowercase());
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert_str(0, "p_");
    }
    if KEYWORDS.contains(&out.as_str()) {
        out.push('_');
    }
    out
}

/// The Rust function name for a symbol: `cuMemAlloc` -> `mem_alloc`.
pub(crate) fn function_name(symbol: &str) -> String {
    let trimmed = match symbol.strip_prefix("cu") {
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_uppercase()) => rest,
        _ => symbol,
    };
    snake_case(trimmed)
}

fn param_names(params: &[Param]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for p in params {
        let mut name = snake_case(p.name);
        while names.contains(&name) {
            name.push('_');
        }
        names.push(name);
    }
    names
}

/// The whole output for one typedef.
pub(crate) fn render(t: &Typedef, types: Types) -> String {
    let mut needs = Needs::default();
    let names = param_names(t.params);
    let params: Vec<String> = t
        .params
        .iter()
        .zip(&names)
        .map(|(p, name)| {
            let ty = match types {
                // The C names are the user's types (bindgen's, cudarc's): a struct or an enum
                // the driver writes is declared `MaybeUninit`, an enum it passes to a callback
                // or takes by value as an integer, a record it takes by value as the crate's.
                Types::C => {
                    callback_with_integers(&p.ty, "cuda_entry::types::CUresult", &mut |c| {
                        param_type(c, types, &mut needs)
                    })
                    .or_else(|| passed_unproven(&p.ty, "cuda_entry"))
                    .unwrap_or_else(|| {
                        let ty = param_type(&p.ty, types, &mut needs);
                        uninit(&p.ty, &ty).unwrap_or(ty)
                    })
                }
                Types::CudaEntry => param_type(&p.ty, types, &mut needs),
            };
            format!("{name}: {ty}")
        })
        .collect();
    let ret = if t.ret.size == 0 {
        String::new()
    } else if t.ret.spelling == "CUresult" && types == Types::C {
        // Bindings' own `CUresult` may be an enum (cudarc's is), which cannot hold every status
        // the driver returns: the status is always the crate's, named in full so that it clashes
        // with no import of the user's.
        "cuda_entry::types::CUresult".to_owned()
    } else {
        param_type(&t.ret, types, &mut needs)
    };
    let mut out = String::new();
    if !needs.std_ffi.is_empty() {
        needs.std_ffi.sort_unstable();
        out.push_str(&use_line("std::ffi", &needs.std_ffi));
    }
    out.push_str("use cuda_entry::cuda_entry;\n");
    if !needs.facade.is_empty() {
        needs.facade.sort_unstable();
        out.push_str(&use_line("cuda_entry::types", &needs.facade));
    }
    match types {
        Types::CudaEntry => {
            for definition in needs.defined.values() {
                out.push('\n');
                out.push_str(definition);
            }
        }
        Types::C if !needs.defined.is_empty() => {
            out.push_str(
                "\n// TODO: define these C types as cuda.h does (bindgen output, \
                 cudarc::driver::sys...):\n",
            );
            for (name, layout) in &needs.defined {
                let _ = writeln!(out, "//   {name}: {layout}");
            }
        }
        Types::C => {}
    }
    out.push('\n');
    let _ = writeln!(out, "/// `{}`", c_typedef(t));
    out.push_str("///\n");
    let _ = writeln!(
        out,
        "/// In {} (the toolkits the table read).",
        provenance(t)
    );
    let stream = if t.stream.is_per_thread() {
        ", stream = \"per_thread\""
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "#[cuda_entry(symbol = \"{}\", version = {}{stream})]",
        t.symbol, t.version
    );
    let head = format!("pub unsafe extern \"C\" fn {}", function_name(t.symbol));
    out.push_str(&signature("", &head, &params, &ret, ";"));
    out
}

/// `head(params) -> ret` and `end` (`;`, ` {`), indented, on one line or, past 100 columns, a
/// parameter a line, as rustfmt writes it. No return type when `ret` is empty or `()`.
pub(crate) fn signature(
    indent: &str,
    head: &str,
    params: &[String],
    ret: &str,
    end: &str,
) -> String {
    let ret = if ret.is_empty() || ret == "()" {
        String::new()
    } else {
        format!(" -> {ret}")
    };
    let one = format!("{indent}{head}({}){ret}{end}", params.join(", "));
    if one.len() <= 100 || params.is_empty() {
        return one + "\n";
    }
    let mut out = format!("{indent}{head}(\n");
    for p in params {
        let _ = writeln!(out, "{indent}    {p},");
    }
    let _ = writeln!(out, "{indent}){ret}{end}");
    out
}

fn use_line(path: &str, names: &[&str]) -> String {
    match names {
        [one] => format!("use {path}::{one};\n"),
        many => format!("use {path}::{{{}}};\n", many.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cuda_entry_table::TYPEDEFS;

    #[test]
    fn names_become_snake_case() {
        assert_eq!(snake_case("hStream"), "h_stream");
        assert_eq!(snake_case("gridDimX"), "grid_dim_x");
        assert_eq!(snake_case("ByteCount"), "byte_count");
        assert_eq!(snake_case("captureStatus_out"), "capture_status_out");
        assert_eq!(snake_case("l2Promotion"), "l2_promotion");
        assert_eq!(snake_case("fn"), "fn_");
        assert_eq!(snake_case("N"), "n");
        assert_eq!(function_name("cuMemAlloc"), "mem_alloc");
        assert_eq!(function_name("cuMemcpyHtoDAsync"), "memcpy_htod_async");
        assert_eq!(function_name("cuGLGetDevices"), "gl_get_devices");
        assert_eq!(function_name("cuMemcpy3DPeer"), "memcpy3d_peer");
        assert_eq!(
            function_name("cuDeviceGetPCIBusId"),
            "device_get_pci_bus_id"
        );
    }

    #[test]
    fn every_spelling_has_a_rust_type() {
        for t in TYPEDEFS {
            for types in [Types::CudaEntry, Types::C] {
                let text = render(t, types);
                assert!(text.contains(&t.typedef_name()), "{text}");
                assert!(!text.contains("  :"), "{text}");
            }
        }
    }
}
