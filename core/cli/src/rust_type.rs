//! C types in Rust: how a typedef's C spelling is written as a Rust type, for `decl`, for
//! `migrate` and for the fixtures that test them.
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
//!   8 bytes aligned 8 (the handles `struct X_st *`) -> `*mut c_void`; any other
//!   size (a struct, by value or behind a pointer) -> a `#[repr(C, align(N))]` byte array of that
//!   size; a type whose size the headers do not give (`struct CUctx_st`, behind a handle) -> an
//!   opaque `#[repr(C)]` struct, which keeps the pointer typed but cannot be built in Rust. Each
//!   has the C layout, which is what the ABI needs (the macro checks it, through pointers too);
//!   replace them with the real definitions (bindgen output, `cudarc::driver::sys`) to use the
//!   values.
//! - A callback (`CUhostFn`) is defined exactly, as the function pointer the driver calls, from
//!   the signature the table records: `pub type CUhostFn = Option<unsafe extern "C" fn(*mut
//!   c_void)>;`. One spelt as a pointer to a function type (`VdpGetProcAddress *`) is written as
//!   that function pointer, with both `--types`.
//!
//! With `--types c`, C's own types become the `std::ffi` names (`c_uint`, `c_ulonglong`...;
//! `size_t` stays `usize`, as `std::ffi::c_size_t` is unstable) and every CUDA type keeps its C
//! name, listed in a `// TODO: define` comment with its layout: the output compiles once those
//! names are in scope.
//!
//! For `migrate`'s declarations of calls through `cudarc::driver::sys`, [`qualified`] writes
//! every CUDA type through the path the user reached that module by (`sys::CUdeviceptr_v2`).

use std::collections::BTreeMap;

use cuda_entry_table::{Access, CType, Callback, Class, TYPEDEFS};

/// How C type names are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Types {
    /// Rust types, `cuda_entry::types` and stand-ins: compiles as printed.
    CudaEntry,
    /// The C names (`std::ffi` for C's own types).
    C,
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

/// The signature of the callback type named `base` (`CUhostFn`), where the table has one.
fn callback_named(base: &str) -> Option<&'static Callback> {
    TYPEDEFS
        .iter()
        .flat_map(|t| t.params.iter().map(|p| &p.ty))
        .find(|ty| ty.spelling == base)
        .and_then(|ty| ty.callback)
}

/// The Rust type of a C type, recording what it needs: a callback spelled as a pointer to a
/// function type (`VdpGetProcAddress *`) is the function pointer itself, as Rust has no function
/// types to point to; every other type as [`rust_type`] writes its spelling.
pub(crate) fn param_type(c: &CType, types: Types, needs: &mut Needs) -> String {
    match c.callback {
        Some(callback) if c.spelling.contains('*') => function_pointer(callback, types, needs),
        _ => rust_type(c.spelling, types, needs),
    }
}

/// The level of parameter `c` at which the driver produces a value of a struct or an enum: 1
/// where it writes the pointee (`CUuuid *uuid`), 2 where it stores or fills what the pointee
/// points to (`const CUgraphEdgeData **edgeData_out`, an array of the driver's own). A bindings
/// crate's definition (cudarc's `sys`) does not prove such a type holds every value the driver
/// may store (`cuda_entry::FromDriver`); declarations point to a `MaybeUninit` of it there
/// ([`uninit`]). Every `T **` of a struct or an enum is `const` at the second level, so the
/// header's reading is the parameter's ([`Access::from_header`]).
fn unproven_level(c: &CType) -> Option<usize> {
    let record = |t: &CType| matches!(t.class, Class::Record | Class::Enum);
    let access = Access::from_header(c);
    let pointee = c.pointee?;
    if access.writes_first() && record(pointee) {
        return Some(1);
    }
    let second = pointee.pointee?;
    (access.produces_second() && record(second)).then_some(2)
}

/// For a parameter passed by value whose C type is an enum or a record: what to declare instead of
/// a bindings crate's type, which carries no proof of how it is passed (`cuda_entry::ByValue`):
/// the enum's integer (`i32`; a status, the crate's `CUresult`), the crate's own record (`{krate}::types::CUmemLocation`, `krate`
/// the path the output names the crate by). The caller's value is transmuted into it (the same
/// size, checked by `transmute`). `None` for any other type.
pub(crate) fn passed_unproven(c: &CType, krate: &str) -> Option<String> {
    if c.pointer {
        return None;
    }
    match c.class {
        // A status the caller passes (`cuGetErrorName`'s): the crate's, which every `int` is.
        Class::Enum if c.spelling == "CUresult" => Some(format!("{krate}::types::CUresult")),
        Class::Enum => Some(format!("i{}", c.size * 8)),
        Class::Record => {
            let base = c.spelling.trim_start_matches("const ");
            let name = match base.trim_end_matches("_v1") {
                "CUmemLocation" => "CUmemLocation",
                "CUipcMemHandle" => "CUipcMemHandle",
                "CUipcEventHandle" => "CUipcEventHandle",
                "CUeglFrame" => "CUeglFrame",
                _ => return None,
            };
            Some(format!("{krate}::types::{name}"))
        }
        _ => None,
    }
}

/// The declared type `text` of parameter `c` with a `MaybeUninit` where the driver produces a
/// struct or an enum ([`unproven_level`]): `*mut T` as `*mut ::core::mem::MaybeUninit<T>`,
/// `*mut *const T` as `*mut *const ::core::mem::MaybeUninit<T>`. `None` where nothing is, or
/// for a text of another shape.
pub(crate) fn uninit(c: &CType, text: &str) -> Option<String> {
    let pointee = text.trim().strip_prefix("*mut ")?.trim();
    match unproven_level(c)? {
        1 => Some(format!("*mut ::core::mem::MaybeUninit<{pointee}>")),
        _ => {
            let (kind, second) = pointee
                .strip_prefix("*const ")
                .map(|t| ("*const", t))
                .or_else(|| pointee.strip_prefix("*mut ").map(|t| ("*mut", t)))?;
            Some(format!(
                "*mut {kind} ::core::mem::MaybeUninit<{}>",
                second.trim()
            ))
        }
    }
}

/// For a callback whose parameters include an enum (`CUstreamCallback`'s `CUresult status`,
/// `CUlogsCallback`'s `CUlogLevel`), the function pointer written out with an integer there
/// (the crate's `CUresult` for a status), every other type as `name` writes it: a bindings
/// crate's enum would not hold every value the driver passes. `None` for any other type.
pub(crate) fn callback_with_integers(
    c: &CType,
    status: &str,
    name: &mut dyn FnMut(&CType) -> String,
) -> Option<String> {
    let callback = c.callback?;
    if !callback.params.iter().any(|p| p.ty.class == Class::Enum) {
        return None;
    }
    let params: Vec<String> = callback
        .params
        .iter()
        .map(|p| match p.ty.class {
            Class::Enum if p.ty.spelling == "CUresult" => status.to_owned(),
            Class::Enum => format!("i{}", p.ty.size * 8),
            _ => name(&p.ty),
        })
        .collect();
    let ret = match callback.ret.class {
        Class::Void => String::new(),
        _ => format!(" -> {}", name(&callback.ret)),
    };
    Some(format!(
        "Option<unsafe extern \"C\" fn({}){ret}>",
        params.join(", ")
    ))
}

/// `Option<unsafe extern "C" fn(*mut c_void)>`: what the driver can call as `callback`.
fn function_pointer(callback: &Callback, types: Types, needs: &mut Needs) -> String {
    let params: Vec<String> = callback
        .params
        .iter()
        .map(|p| param_type(&p.ty, types, needs))
        .collect();
    let ret = match callback.ret.class {
        Class::Void => String::new(),
        _ => format!(" -> {}", param_type(&callback.ret, types, needs)),
    };
    format!("Option<unsafe extern \"C\" fn({}){ret}>", params.join(", "))
}

/// The size and alignment the table records for `base` anywhere, by value or behind pointers,
/// in a typedef or a callback's signature, if it gives one (an incomplete type has none).
fn recorded_layout(base: &str) -> Option<(u32, u32)> {
    let callback_types = |ty: &'static CType| {
        ty.callback
            .into_iter()
            .flat_map(|c| c.params.iter().map(|p| &p.ty).chain([&c.ret]))
    };
    TYPEDEFS
        .iter()
        .flat_map(|t| t.params.iter().map(|p| &p.ty).chain([&t.ret]))
        .flat_map(move |ty| std::iter::once(ty).chain(callback_types(ty)))
        .flat_map(|ty| std::iter::successors(Some(ty), |ty| ty.pointee))
        .find(|ty| ty.is_complete() && !ty.pointer && Spelling::parse(ty.spelling).base == base)
        .map(|ty| (ty.size, ty.align))
}

/// What a declaration needs besides the signature: imports and definitions.
#[derive(Debug, Default)]
pub(crate) struct Needs {
    pub(crate) std_ffi: Vec<&'static str>,
    pub(crate) facade: Vec<&'static str>,
    /// Type name -> its definition (`--types cuda-entry`) or its layout comment (`--types c`).
    pub(crate) defined: BTreeMap<String, String>,
}

impl Needs {
    fn add(list: &mut Vec<&'static str>, name: &'static str) {
        if !list.contains(&name) {
            list.push(name);
        }
    }
}

/// The Rust type of a C spelling, recording what it needs.
pub(crate) fn rust_type(spelling: &str, types: Types, needs: &mut Needs) -> String {
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
    if let Some(callback) = callback_named(base) {
        let function = function_pointer(callback, Types::CudaEntry, needs);
        return format!(
            "// `{base}`: a callback `{}` in cuda.h.\n{ALLOW}pub type {base} = {function};\n",
            callback.spelling
        );
    }
    match recorded_layout(base) {
        Some((4, 4)) => format!(
            "// TODO: define `{base}` as cuda.h does: 4 bytes there (an enum or a 32-bit integer);\n\
             // `i32` has its size and alignment.\n{ALLOW}pub type {base} = i32;\n"
        ),
        Some((8, 8)) => {
            Needs::add(&mut needs.std_ffi, "c_void");
            format!(
                "// TODO: define `{base}` as cuda.h does: 8 bytes there (an opaque handle);\n// \
                 `*mut c_void` has its size and alignment.\n\
                 {ALLOW}pub type {base} = *mut c_void;\n"
            )
        }
        Some((size, align)) => format!(
            "// TODO: define `{base}` as cuda.h does: a struct of {size} bytes aligned to {align} \
             there;\n// this stand-in has only its layout.\n{ALLOW}#[repr(C, \
             align({align}))]\n#[derive(Clone, Copy, cuda_entry::FromDriver, cuda_entry::ByValue)]\npub struct {base} \
             {{\n    pub bytes: [u8; {size}],\n}}\n"
        ),
        None => format!(
            "// TODO: define `{base}` as cuda.h does; incomplete there, so this opaque \
             stand-in\n// compiles (but cannot be built or read in Rust).\n{ALLOW}\
             #[repr(C)]\npub struct {base} {{\n    _opaque: [u8; 0],\n}}\n"
        ),
    }
}

/// The Rust type of a C spelling with every CUDA type named through `module` (`sys`, or
/// `cudarc::driver::sys`), as bindgen output such as cudarc's defines them all; C's own types
/// through `::std::ffi`, needing no import.
pub(crate) fn qualified(spelling: &str, module: &str) -> String {
    let parsed = Spelling::parse(spelling);
    let base = parsed.base.as_str();
    let name = match builtin(base) {
        Some((_, c)) if c.starts_with("c_") => format!("::std::ffi::{c}"),
        Some((_, c)) => c.to_owned(),
        None => format!("{module}::{base}"),
    };
    parsed.wrap(&name)
}

fn c_base(base: &str, needs: &mut Needs) -> String {
    if let Some((_, c)) = builtin(base) {
        if c.starts_with("c_") {
            Needs::add(&mut needs.std_ffi, c);
        }
        return c.to_owned();
    }
    if !needs.defined.contains_key(base) {
        let layout = match (callback_named(base), recorded_layout(base)) {
            (Some(callback), _) => format!(
                "a callback `{}`: `{}`",
                callback.spelling,
                function_pointer(callback, Types::C, &mut Needs::default())
            ),
            (None, Some((size, align))) => format!("{size} bytes, align {align}"),
            (None, None) => "only behind a pointer here (any layout compiles)".to_owned(),
        };
        needs.defined.insert(base.to_owned(), layout);
    }
    base.to_owned()
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
    fn callbacks_are_function_pointers() {
        let mut needs = Needs::default();
        assert_eq!(
            rust_type("CUhostFn", Types::CudaEntry, &mut needs),
            "CUhostFn"
        );
        assert_eq!(
            needs.defined["CUhostFn"],
            "// `CUhostFn`: a callback `void (*)(void *userData)` in cuda.h.\n\
             #[allow(non_camel_case_types)]\n\
             pub type CUhostFn = Option<unsafe extern \"C\" fn(*mut c_void)>;\n"
        );
        let mut needs = Needs::default();
        assert_eq!(
            rust_type("CUstreamCallback", Types::CudaEntry, &mut needs),
            "CUstreamCallback"
        );
        assert!(
            needs.defined["CUstreamCallback"]
                .ends_with("= Option<unsafe extern \"C\" fn(CUstream, CUresult, *mut c_void)>;\n")
        );
        let vdpau = TYPEDEFS
            .iter()
            .flat_map(|t| t.params)
            .find(|p| p.ty.spelling == "VdpGetProcAddress *")
            .expect("cuVDPAUGetDevice's VdpGetProcAddress *");
        let mut needs = Needs::default();
        assert_eq!(
            param_type(&vdpau.ty, Types::C, &mut needs),
            "Option<unsafe extern \"C\" fn(VdpDevice, VdpFuncId, *mut *mut c_void) -> VdpStatus>"
        );
        let mut needs = Needs::default();
        rust_type("CUoccupancyB2DSize", Types::C, &mut needs);
        assert_eq!(
            needs.defined["CUoccupancyB2DSize"],
            "a callback `size_t (*)(int blockSize)`: `Option<unsafe extern \"C\" fn(c_int) -> usize>`"
        );
    }

    #[test]
    fn qualified_names_go_through_the_module() {
        assert_eq!(
            qualified("CUdeviceptr_v2 *", "sys"),
            "*mut sys::CUdeviceptr_v2"
        );
        assert_eq!(qualified("unsigned int", "cu"), "::std::ffi::c_uint");
        assert_eq!(
            qualified("const void **", "sys"),
            "*mut *const ::std::ffi::c_void"
        );
        assert_eq!(qualified("size_t", "sys"), "usize");
    }
}
