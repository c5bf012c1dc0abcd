//! `cuda-entry decl`: a ready-to-paste `#[cuda_entry]` declaration from the typedef table.
//!
//! # Type mapping
//!
//! The table gives each parameter's C spelling (`const CUDA_MEMCPY2D_v2 *`), whether it is a
//! pointer, and its size and alignment. Pointers keep their depth and the const-ness of what they
//! point at (`const void **` -> `*mut *const c_void`). The base type is mapped as follows.
//!
//! With `--types cuda-entry` (the default), the output compiles as it is:
//! - C's own types become Rust's: `int` -> `i32`, `unsigned int` -> `u32`, `unsigned long long`
//!   -> `u64`, `size_t` -> `usize`, `float` -> `f32`, `char` -> `c_char`, `void` -> `c_void`;
//!   `cuuint32_t`/`cuuint64_t` -> `u32`/`u64`.
//! - Types that `cuda_entry::types` has are imported from it; `CUdeviceptr_v2` is
//!   `CUdeviceptr` and `CUdevice_v1` is `CUdevice` (the same C types under their versioned names).
//! - The CUDA integer typedefs whose definition is known (`CUdeviceptr_v1`, `CUtexObject`,
//!   `CUsurfObject`, `CUmemGenericAllocationHandle`, `GLuint`, ...) keep their name and get their
//!   exact definition (`pub type CUtexObject_v1 = u64;`).
//! - Every other CUDA type keeps its name and gets a stand-in definition marked `// TODO: define`,
//!   chosen from the layout the table records for it: 4 bytes aligned 4 (the enums) -> `i32`;
//!   8 bytes aligned 8 (the handles `struct X_st *`, the callbacks) -> `*mut c_void`; any other
//!   size (a struct passed by value) -> a `#[repr(C, align(N))]` byte array of that size; a type
//!   the table only ever shows behind a pointer (the parameter structs) -> an opaque
//!   `#[repr(C)]` struct, which keeps the pointer typed but cannot be built in Rust. Each has the C
//!   layout, which is what the ABI needs (the macro checks it); replace them with the real
//!   definitions (bindgen output, `cudarc::driver::sys`) to use the values.
//!
//! With `--types c`, C's own types become the `std::ffi` names (`c_uint`, `c_ulonglong`...;
//! `size_t` stays `usize`, as `std::ffi::c_size_t` is unstable) and every CUDA type keeps its C
//! name, listed in a `// TODO: define` comment with its layout: the output compiles once those
//! names are in scope.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::process::ExitCode;

use cuda_entry_table::{Cuda, Param, TOOLKITS, TYPEDEFS, Typedef};

use crate::common::{CliError, flavour, release, typedef_list, unknown_symbol};

/// How C type names are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Types {
    /// Rust types, `cuda_entry::types` and stand-ins: compiles as printed.
    CudaEntry,
    /// The C names (`std::ffi` for C's own types).
    C,
}

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
        return Err(CliError::BadInput(unknown_symbol(symbol)));
    }
    let group = flavour(symbol, per_thread);
    let other = flavour(symbol, !per_thread);
    let Some(&newest) = group.last() else {
        return Err(CliError::BadInput(if per_thread {
            format!(
                "`{symbol}` has no per-thread default stream typedef: drop `--stream \
                 per_thread` (its typedefs are {})",
                typedef_list(&other)
            )
        } else {
            format!(
                "`{symbol}` exists only for the per-thread default stream: add `--stream \
                 per_thread` (its typedefs are {})",
                typedef_list(&other)
            )
        }));
    };
    let version = match version {
        None | Some("latest") => return Ok(newest),
        Some(text) => text.parse::<u32>().map_err(|_| {
            CliError::BadInput(format!(
                "`{text}` is not a version: write `{symbol}@N` with N the version of a typedef \
                 ({}), or `{symbol}@latest`",
                typedef_list(&group)
            ))
        })?,
    };
    if let Some(t) = group.iter().find(|t| t.version == version) {
        return Ok(t);
    }
    let hint = match other.iter().find(|t| t.version == version) {
        Some(t) if per_thread => format!(
            "; {version} is the legacy typedef `{}`: drop `--stream per_thread`",
            t.typedef_name()
        ),
        Some(t) => format!(
            "; {version} is the per-thread typedef `{}`: add `--stream per_thread`",
            t.typedef_name()
        ),
        None => String::new(),
    };
    Err(CliError::BadInput(format!(
        "`{symbol}` has no {}typedef at version {version}: the valid versions are {}{hint}",
        if per_thread { "per-thread " } else { "" },
        typedef_list(&group)
    )))
}

/// A C spelling taken apart: `const CUgraphNode **` is base `CUgraphNode`, `consts[0]` true
/// (the innermost pointee is const), two pointer levels.
#[derive(Debug, PartialEq, Eq)]
struct Spelling {
    base: String,
    /// `consts[0]`: the base is const; `consts[k]`: the k-th pointer itself is const (so the
    /// (k+1)-th pointer points at const).
    consts: Vec<bool>,
}

impl Spelling {
    fn parse(spelling: &str) -> Spelling {
        let spaced = spelling.replace('*', " * ");
        let mut base = Vec::new();
        let mut consts = vec![false];
        for word in spaced.split_whitespace() {
            match word {
                "const" => {
                    if let Some(last) = consts.last_mut() {
                        *last = true;
                    }
                }
                "volatile" | "restrict" | "struct" | "enum" => {}
                "*" => consts.push(false),
                word => base.push(word),
            }
        }
        Spelling {
            base: base.join(" "),
            consts,
        }
    }

    fn depth(&self) -> usize {
        self.consts.len() - 1
    }

    /// `base` wrapped in the pointers: `*mut *const base`.
    fn wrap(&self, base: &str) -> String {
        let mut ty = base.to_owned();
        for &pointee_const in &self.consts[..self.depth()] {
            ty = format!("*{} {ty}", if pointee_const { "const" } else { "mut" });
        }
        ty
    }
}

/// C's own types in Rust: (`--types cuda-entry` name, `--types c` name).
fn builtin(base: &str) -> Option<(&'static str, &'static str)> {
    Some(match base {
        "void" => ("c_void", "c_void"),
        "char" => ("c_char", "c_char"),
        "signed char" => ("i8", "c_schar"),
        "unsigned char" => ("u8", "c_uchar"),
        "short" | "short int" => ("i16", "c_short"),
        "unsigned short" | "unsigned short int" => ("u16", "c_ushort"),
        "int" | "signed" | "signed int" => ("i32", "c_int"),
        "unsigned" | "unsigned int" => ("u32", "c_uint"),
        "long" | "long int" => ("i64", "c_long"),
        "unsigned long" | "unsigned long int" => ("u64", "c_ulong"),
        "long long" | "long long int" => ("i64", "c_longlong"),
        "unsigned long long" | "unsigned long long int" => ("u64", "c_ulonglong"),
        "float" => ("f32", "c_float"),
        "double" => ("f64", "c_double"),
        "size_t" => ("usize", "usize"),
        _ => return None,
    })
}

/// `cuuint32_t`/`cuuint64_t`: written as the integers they are (`--types cuda-entry` only).
fn fixed_width(base: &str) -> Option<&'static str> {
    match base {
        "cuuint32_t" => Some("u32"),
        "cuuint64_t" => Some("u64"),
        _ => None,
    }
}

/// The `cuda_entry::types` name of a CUDA type, where that module has it.
fn facade(base: &str) -> Option<&'static str> {
    Some(match base {
        "CUresult" => "CUresult",
        "CUdevice" | "CUdevice_v1" => "CUdevice",
        "CUdeviceptr" | "CUdeviceptr_v2" => "CUdeviceptr",
        "CUcontext" => "CUcontext",
        "CUmodule" => "CUmodule",
        "CUfunction" => "CUfunction",
        "CUstream" => "CUstream",
        "CUevent" => "CUevent",
        "CUuuid" => "CUuuid",
        _ => return None,
    })
}

/// CUDA integer typedefs whose definition is known exactly: (Rust type, the C definition).
fn known_integer(base: &str) -> Option<(&'static str, &'static str)> {
    Some(match base {
        "CUdeviceptr_v1" => ("u32", "typedef unsigned int CUdeviceptr_v1"),
        "CUtexObject" | "CUtexObject_v1" => ("u64", "typedef unsigned long long CUtexObject_v1"),
        "CUsurfObject" | "CUsurfObject_v1" => ("u64", "typedef unsigned long long CUsurfObject_v1"),
        "CUmemGenericAllocationHandle" | "CUmemGenericAllocationHandle_v1" => (
            "u64",
            "typedef unsigned long long CUmemGenericAllocationHandle_v1",
        ),
        "CUgraphConditionalHandle" => ("u64", "typedef cuuint64_t CUgraphConditionalHandle"),
        "GLuint" => ("u32", "typedef unsigned int GLuint (GL/gl.h)"),
        "GLenum" => ("u32", "typedef unsigned int GLenum (GL/gl.h)"),
        "EGLint" => ("i32", "typedef int32_t EGLint (EGL/eglplatform.h)"),
        "VdpDevice" | "VdpVideoSurface" | "VdpOutputSurface" => {
            ("u32", "typedef uint32_t (vdpau/vdpau.h)")
        }
        _ => return None,
    })
}

/// The size and alignment the table records for `base` passed by value anywhere, if it does.
fn by_value_layout(base: &str) -> Option<(u32, u32)> {
    TYPEDEFS
        .iter()
        .flat_map(|t| t.params.iter().map(|p| p.ty).chain([t.ret]))
        .find(|ty| !ty.pointer && Spelling::parse(ty.spelling).base == base)
        .map(|ty| (ty.size, ty.align))
}

/// What a declaration needs besides the signature: imports and definitions.
#[derive(Debug, Default)]
struct Needs {
    std_ffi: Vec<&'static str>,
    facade: Vec<&'static str>,
    /// Type name -> its definition (`--types cuda-entry`) or its layout comment (`--types c`).
    defined: BTreeMap<String, String>,
}

impl Needs {
    fn add(list: &mut Vec<&'static str>, name: &'static str) {
        if !list.contains(&name) {
            list.push(name);
        }
    }
}

/// The Rust type of a C spelling, recording what it needs.
fn rust_type(spelling: &str, types: Types, needs: &mut Needs) -> String {
    let parsed = Spelling::parse(spelling);
    let base = parsed.base.as_str();
    let name = match types {
        Types::CudaEntry => cuda_entry_base(base, needs),
        Types::C => c_base(base, needs),
    };
    parsed.wrap(&name)
}

fn cuda_entry_base(base: &str, needs: &mut Needs) -> String {
    if let Some((rust, _)) = builtin(base) {
        if rust.starts_with("c_") {
            Needs::add(&mut needs.std_ffi, rust);
        }
        return rust.to_owned();
    }
    if let Some(rust) = fixed_width(base) {
        return rust.to_owned();
    }
    if let Some(name) = facade(base) {
        Needs::add(&mut needs.facade, name);
        return name.to_owned();
    }
    if !needs.defined.contains_key(base) {
        let definition = stand_in(base, needs);
        needs.defined.insert(base.to_owned(), definition);
    }
    base.to_owned()
}

/// The definition printed for a CUDA type that `cuda_entry::types` lacks.
fn stand_in(base: &str, needs: &mut Needs) -> String {
    const ALLOW: &str = "#[allow(non_camel_case_types)]\n";
    if let Some((rust, c)) = known_integer(base) {
        return format!("// {c};\n{ALLOW}pub type {base} = {rust};\n");
    }
    match by_value_layout(base) {
        Some((4, 4)) => format!(
            "// TODO: define `{base}` as cuda.h does: 4 bytes there (an enum or a 32-bit integer);\n\
             // `i32` has its size and alignment.\n{ALLOW}pub type {base} = i32;\n"
        ),
        Some((8, 8)) => {
            Needs::add(&mut needs.std_ffi, "c_void");
            format!(
                "// TODO: define `{base}` as cuda.h does: 8 bytes there (an opaque handle or a \
                 callback);\n// `*mut c_void` has its size and alignment.\n\
                 {ALLOW}pub type {base} = *mut c_void;\n"
            )
        }
        Some((size, align)) => format!(
            "// TODO: define `{base}` as cuda.h does: a struct of {size} bytes aligned to {align} \
             there,\n// passed by value; this stand-in has only its layout.\n{ALLOW}#[repr(C, \
             align({align}))]\n#[derive(Clone, Copy)]\npub struct {base} {{\n    pub bytes: \
             [u8; {size}],\n}}\n"
        ),
        None => format!(
            "// TODO: define `{base}` as cuda.h does; passed by pointer only, so this opaque \
             stand-in\n// compiles (but cannot be built or read in Rust).\n{ALLOW}\
             #[repr(C)]\npub struct {base} {{\n    _opaque: [u8; 0],\n}}\n"
        ),
    }
}

fn c_base(base: &str, needs: &mut Needs) -> String {
    if let Some((_, c)) = builtin(base) {
        if c.starts_with("c_") {
            Needs::add(&mut needs.std_ffi, c);
        }
        return c.to_owned();
    }
    if !needs.defined.contains_key(base) {
        let layout = match by_value_layout(base) {
            Some((size, align)) => format!("{size} bytes, align {align}"),
            None => "only behind a pointer here (any layout compiles)".to_owned(),
        };
        needs.defined.insert(base.to_owned(), layout);
    }
    base.to_owned()
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

const KEYWORDS: &[&str] = &[
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
        .map(|(p, name)| format!("{name}: {}", rust_type(p.ty.spelling, types, &mut needs)))
        .collect();
    let ret = if t.ret.size == 0 {
        String::new()
    } else {
        format!(" -> {}", rust_type(t.ret.spelling, types, &mut needs))
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
    let head = format!("pub unsafe extern \"C\" fn {}(", function_name(t.symbol));
    let one_line = format!("{head}{}){ret};", params.join(", "));
    if one_line.len() <= 100 {
        out.push_str(&one_line);
        out.push('\n');
    } else {
        out.push_str(&head);
        out.push('\n');
        for p in &params {
            let _ = writeln!(out, "    {p},");
        }
        let _ = writeln!(out, "){ret};");
    }
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

    #[test]
    fn spellings_keep_depth_and_constness() {
        let ty = |s| rust_type(s, Types::CudaEntry, &mut Needs::default());
        assert_eq!(ty("void **"), "*mut *mut c_void");
        assert_eq!(ty("const void *"), "*const c_void");
        assert_eq!(ty("const void **"), "*mut *const c_void");
        assert_eq!(ty("const char **"), "*mut *const c_char");
        assert_eq!(ty("CUdeviceptr_v2 *"), "*mut CUdeviceptr");
        assert_eq!(ty("size_t"), "usize");
        assert_eq!(ty("unsigned int"), "u32");
        assert_eq!(ty("unsigned"), "u32");
        assert_eq!(ty("int *"), "*mut i32");
        assert_eq!(ty("cuuint64_t"), "u64");
        assert_eq!(ty("const cuuint64_t *"), "*const u64");
        assert_eq!(ty("unsigned long long"), "u64");
        assert_eq!(ty("const CUgraphNode **"), "*mut *const CUgraphNode");
        assert_eq!(ty("const CUlogicalEndpointId"), "CUlogicalEndpointId");
        assert_eq!(ty("char * const *"), "*const *mut c_char");
    }

    #[test]
    fn c_names_are_kept_with_types_c() {
        let ty = |s| rust_type(s, Types::C, &mut Needs::default());
        assert_eq!(ty("unsigned int"), "c_uint");
        assert_eq!(ty("CUdeviceptr_v2 *"), "*mut CUdeviceptr_v2");
        assert_eq!(ty("cuuint64_t"), "cuuint64_t");
        assert_eq!(ty("size_t"), "usize");
    }

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
