//! Measures C types with the compiler: `sizeof`/`_Alignof`, the class (integer, floating, enum,
//! pointer, function pointer, struct/union, void) and, for an object pointer, the type it points
//! to, measured the same way.
//!
//! Per type `T` the probe asks (`t` is `__typeof__(T)`):
//! - `__builtin_types_compatible_p(t, void)`: void? (the key: it compiles wherever `T` exists);
//! - `sizeof(t)`, `_Alignof(t)` (does not compile for an incomplete type);
//! - `__builtin_classify_type(*(t *)0)`: integer (enums and `char` included), pointer, real,
//!   struct or union;
//! - whether `t` is compatible with `unsigned int`/`int` but not with an enum of that underlying
//!   type: then it is an enum (two different enums are never compatible, an integer type is);
//! - `_Generic(*(*(t *)0), t: 1, default: 0)`: a pointer whose pointee decays back to the pointer
//!   is a function pointer;
//! - for the pointee spelling read off the spelling (`const char **` -> `const char *`) or off the
//!   typedef (`CUcontext` -> `struct CUctx_st`): `__builtin_types_compatible_p(__typeof__(*(*(t
//!   *)0)), P)` must be 1, so a pointee's spelling is the compiler's, not a guess.
//!
//! An incomplete type (`struct CUctx_st`) has size and alignment 0; its class is that of the
//! `struct`/`union`/`enum` keyword it resolves to.

use std::collections::{BTreeMap, BTreeSet};

use crate::probe::{Compiler, Line, STAGES};

/// `sizeof` and `_Alignof` of a type (0/0 for `void` and incomplete types).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Layout {
    pub(crate) size: u32,
    pub(crate) align: u32,
}

/// What kind of type the compiler says a type is (same names as `cuda_entry_table::Class`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Class {
    Void,
    Integer,
    Floating,
    Enum,
    Pointer,
    FunctionPointer,
    Record,
}

/// A measured type: spelling, layout, class and, for an object pointer, its pointee.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct TypeInfo {
    pub(crate) spelling: String,
    /// The spelling has an explicit `*`.
    pub(crate) pointer: bool,
    pub(crate) layout: Layout,
    pub(crate) class: Class,
    pub(crate) pointee: Option<Box<TypeInfo>>,
    /// For a function pointer, the signature of what it points to ([`crate::callback`]).
    pub(crate) callback: Option<Box<CallbackInfo>>,
}

/// Pointee levels followed at most (`const char **` needs 2).
const MAX_DEPTH: usize = 4;

/// What the probe measured: per spelling, its type and the stage that compiled it.
#[derive(Debug)]
pub(crate) struct Measured {
    pub(crate) types: BTreeMap<String, TypeInfo>,
    pub(crate) stage_of: BTreeMap<String, &'static str>,
}

/// The answers about one spelling.
#[derive(Debug)]
struct Facts {
    void: bool,
    layout: Option<Layout>,
    classified: Option<i64>,
    enumeration: bool,
    function_pointer: bool,
    pointee: Option<String>,
}

/// Measures every spelling of `types` and their pointees. `typedefs` (NAME -> spelling, from
/// the preprocessed headers) resolves the pointee of a pointer typedef.
pub(crate) fn measure(
    compiler: &Compiler<'_>,
    types: &BTreeSet<String>,
    typedefs: &BTreeMap<String, String>,
) -> Result<Measured, String> {
    // The pointee spellings of every level, so one probe answers them all.
    let mut spellings: Vec<String> = types.iter().cloned().collect();
    let mut pointee_of: BTreeMap<String, String> = BTreeMap::new();
    let mut level: Vec<String> = spellings.clone();
    for _ in 0..MAX_DEPTH {
        let mut next = Vec::new();
        for s in &level {
            if let Some(p) = pointee_spelling(s, typedefs) {
                if !spellings.contains(&p) && !next.contains(&p) {
                    next.push(p.clone());
                }
                pointee_of.insert(s.clone(), p);
            }
        }
        spellings.extend(next.iter().cloned());
        level = next;
    }

    let mut lines = Vec::new();
    let mut key = Vec::new();
    for (item, s) in spellings.iter().enumerate() {
        let setup = format!("typedef __typeof__({s}) t;");
        let mut ask = |format: &'static str, args: String, setup: &str| {
            lines.push(Line {
                item,
                setup: setup.to_string(),
                format,
                args,
            });
            lines.len() - 1
        };
        // Compiles wherever `T` exists: void? an enum?
        key.push(ask(
            "%d %d %d %d %d",
            "__builtin_types_compatible_p(t, void), \
             __builtin_types_compatible_p(t, unsigned int), __builtin_types_compatible_p(t, enum probe_u), \
             __builtin_types_compatible_p(t, int), __builtin_types_compatible_p(t, enum probe_s)"
                .into(),
            &format!("{setup} enum probe_u {{ probe_u0 = 0 }}; enum probe_s {{ probe_s0 = -1 }};"),
        ));
        // Compiles for a complete type other than void.
        ask(
            "%zu %zu %d",
            "sizeof(t), _Alignof(t), __builtin_classify_type(*(t *)0)".into(),
            &setup,
        );
        // Compiles for a pointer.
        ask(
            "%d",
            "_Generic(*(*(t *)0), t: 1, default: 0)".into(),
            &setup,
        );
        if let Some(p) = pointee_of.get(s) {
            ask(
                "%d",
                format!("__builtin_types_compatible_p(__typeof__(*(*(t *)0)), __typeof__({p}))"),
                &setup,
            );
        }
    }
    let answers = compiler.staged(STAGES, spellings.len(), &key, &lines)?;

    let mut facts: BTreeMap<&str, Facts> = BTreeMap::new();
    let mut stage_of = BTreeMap::new();
    let mut lost = Vec::new();
    let mut per_item: Vec<Vec<Option<&Vec<i64>>>> = vec![Vec::new(); spellings.len()];
    for (line, v) in lines.iter().zip(&answers.values) {
        per_item[line.item].push(v.as_ref());
    }
    for (item, s) in spellings.iter().enumerate() {
        let Some(stage) = answers.stage[item] else {
            lost.push(s.as_str());
            continue;
        };
        stage_of.insert(s.clone(), stage);
        let a = &per_item[item];
        let answer = |i: usize| a.get(i).copied().flatten().map(Vec::as_slice);
        let verified = answer(3).and_then(|v| v.first().copied());
        if pointee_of.contains_key(s) && verified != Some(1) {
            return Err(format!(
                "the compiler does not confirm `{}` as the type `{s}` points to (answer {verified:?})",
                pointee_of[s]
            ));
        }
        let complete = match answer(1) {
            Some(&[size, align, class]) => Some((
                Layout {
                    size: u32::try_from(size).map_err(|_| format!("`{s}`: size {size}"))?,
                    align: u32::try_from(align).map_err(|_| format!("`{s}`: align {align}"))?,
                },
                class,
            )),
            _ => None,
        };
        let traits = answer(0).unwrap_or_default();
        facts.insert(
            s,
            Facts {
                void: traits.first() == Some(&1),
                layout: complete.map(|(l, _)| l),
                classified: complete.map(|(_, c)| c),
                enumeration: matches!(traits, [_, 1, 0, _, _] | [_, _, _, 1, 0]),
                function_pointer: answer(2) == Some(&[1]),
                pointee: pointee_of.get(s).cloned(),
            },
        );
    }
    if !lost.is_empty() {
        return Err(format!(
            "no probe stage could measure these types: {}\nlast compiler output:\n{}",
            lost.join(", "),
            answers.last_errors
        ));
    }
    let mut out = BTreeMap::new();
    for s in types {
        out.insert(s.clone(), assemble(s, &facts, typedefs, 0)?);
    }
    Ok(Measured {
        types: out,
        stage_of: stage_of
            .into_iter()
            .filter(|(s, _)| types.contains(s))
            .collect(),
    })
}

/// `CUcontext *` as `CUcontext * (pointer 8/8 to CUcontext (pointer 8/8 to struct CUctx_st
/// (struct/union 0/0)))`, for notes.
pub(crate) fn brief(t: &TypeInfo) -> String {
    let mut s = format!(
        "{} ({:?} {}/{}",
        t.spelling, t.class, t.layout.size, t.layout.align
    );
    if let Some(p) = &t.pointee {
        s.push_str(" to ");
        s.push_str(&brief(p));
    }
    s.push(')');
    s
}

/// The type of `s` from the facts, its pointee included.
fn assemble(
    s: &str,
    facts: &BTreeMap<&str, Facts>,
    typedefs: &BTreeMap<String, String>,
    depth: usize,
) -> Result<TypeInfo, String> {
    let f = facts
        .get(s)
        .ok_or_else(|| format!("`{s}` was not measured"))?;
    let class = match (f.void, f.layout, f.classified) {
        (true, _, _) => Class::Void,
        (false, None, _) => incomplete_class(s, typedefs)?,
        // GCC classifies an enum in C as an integer (1); clang as an enumeral (3).
        (false, Some(_), Some(1)) if f.enumeration => Class::Enum,
        (false, Some(_), Some(3)) => Class::Enum,
        (false, Some(_), Some(1 | 2 | 4)) => Class::Integer,
        (false, Some(_), Some(5)) if f.function_pointer => Class::FunctionPointer,
        (false, Some(_), Some(5)) => Class::Pointer,
        (false, Some(_), Some(8)) => Class::Floating,
        (false, Some(_), Some(12 | 13)) => Class::Record,
        (false, Some(_), c) => {
            return Err(format!(
                "`{s}`: unsupported type class {c:?} (__builtin_classify_type)"
            ));
        }
    };
    let layout = match class {
        Class::Void => Layout { size: 0, align: 0 },
        _ => f.layout.unwrap_or(Layout { size: 0, align: 0 }),
    };
    let pointee = match (&f.pointee, class) {
        (Some(p), Class::Pointer) if depth < MAX_DEPTH => {
            Some(Box::new(assemble(p, facts, typedefs, depth + 1)?))
        }
        (None, Class::Pointer) => {
            return Err(format!(
                "`{s}` is a pointer, but its pointee could not be read off its spelling or typedef"
            ));
        }
        _ => None,
    };
    Ok(TypeInfo {
        spelling: s.to_string(),
        pointer: s.contains('*'),
        layout,
        class,
        pointee,
        callback: None,
    })
}

/// The class of an incomplete type: the keyword of the type it names, through typedefs.
fn incomplete_class(s: &str, typedefs: &BTreeMap<String, String>) -> Result<Class, String> {
    let mut spelling = s.to_string();
    for _ in 0..16 {
        let words: Vec<&str> = spelling
            .split_whitespace()
            .filter(|w| !QUALIFIERS.contains(w))
            .collect();
        match words[..] {
            ["struct" | "union", _] => return Ok(Class::Record),
            ["enum", _] => return Ok(Class::Enum),
            [name] if typedefs.contains_key(name) => spelling = typedefs[name].clone(),
            _ => break,
        }
    }
    Err(format!(
        "`{s}` is incomplete but not a struct, union or enum"
    ))
}

const QUALIFIERS: &[&str] = &["const", "volatile", "restrict", "__restrict"];

/// What `s` points to, read off its spelling (`const char **` -> `const char *`,
/// `const void * const` -> `const void`) or its typedef (`CUcontext` -> `struct CUctx_st`).
/// `None` for a function pointer spelling and for a name that is no pointer typedef.
pub(crate) fn pointee_spelling(s: &str, typedefs: &BTreeMap<String, String>) -> Option<String> {
    let mut spelling = s.to_string();
    for _ in 0..16 {
        if spelling.contains('(') {
            return None;
        }
        let mut words: Vec<&str> = spelling.split_whitespace().collect();
        while words.last().is_some_and(|w| QUALIFIERS.contains(w)) {
            words.pop();
        }
        let last = words.pop()?;
        if let Some(rest) = last.strip_suffix('*') {
            if !rest.is_empty() {
                words.push(rest);
            }
            return (!words.is_empty()).then(|| words.join(" "));
        }
        words.push(last);
        let names: Vec<&str> = words
            .iter()
            .copied()
            .filter(|w| !QUALIFIERS.contains(w))
            .collect();
        match names[..] {
            [name] => spelling = typedefs.get(name)?.clone(),
            _ => return None,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointees_from_spellings_and_typedefs() {
        let typedefs: BTreeMap<String, String> = [
            ("CUcontext", "struct CUctx_st *"),
            ("CUdeviceptr", "CUdeviceptr_v2"),
            ("CUdeviceptr_v2", "unsigned long long"),
            ("EGLImageKHR", "void *"),
            ("CUstream_alias", "CUstream"),
            ("CUstream", "struct CUstream_st *"),
        ]
        .into_iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
        let p = |s: &str| pointee_spelling(s, &typedefs);
        assert_eq!(p("const void *").as_deref(), Some("const void"));
        assert_eq!(p("const void * const").as_deref(), Some("const void"));
        assert_eq!(p("const char **").as_deref(), Some("const char *"));
        assert_eq!(p("CUcontext *").as_deref(), Some("CUcontext"));
        assert_eq!(p("CUcontext").as_deref(), Some("struct CUctx_st"));
        assert_eq!(
            p("const CUstream_alias").as_deref(),
            Some("struct CUstream_st")
        );
        assert_eq!(p("EGLImageKHR").as_deref(), Some("void"));
        assert_eq!(p("CUdeviceptr"), None);
        assert_eq!(p("unsigned int"), None);
        assert_eq!(p("void (*)(void *)"), None);
        assert_eq!(p("*"), None);
    }

    #[test]
    fn incomplete_types_take_their_keyword() {
        let typedefs: BTreeMap<String, String> =
            [("X_t".to_string(), "struct X".to_string())].into();
        assert_eq!(
            incomplete_class("struct CUctx_st", &typedefs),
            Ok(Class::Record)
        );
        assert_eq!(
            incomplete_class("const union U", &typedefs),
            Ok(Class::Record)
        );
        assert_eq!(incomplete_class("enum E", &typedefs), Ok(Class::Enum));
        assert_eq!(incomplete_class("X_t", &typedefs), Ok(Class::Record));
        assert!(incomplete_class("Unknown", &typedefs).is_err());
    }
}

/// The probes against a small fake toolkit, compiled with `cc` (`$CC`) as the generator does.
#[cfg(test)]
mod compiler_tests {
    use super::*;
    use crate::probe::Compiler;
    use crate::probe::testing::fake_toolkit;

    const CUDA_H: &str = "typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_X = 7 } CUresult;\n\
        typedef enum { NEG = -1 } Signed;\n\
        typedef struct CUctx_st *CUcontext;\n\
        typedef unsigned long long CUdeviceptr;\n\
        typedef void (*CUhostFn)(void *userData);\n\
        typedef struct CUuuid_st { char bytes[16]; } CUuuid;\n\
        typedef union CUu_un { int a; double b; } CUu;\n\
        typedef int VdpFn(int);\n\
        #ifdef __CUDA_API_VERSION_INTERNAL\ntypedef unsigned int CUdeviceptr_v1;\n#endif\n";

    #[test]
    fn classes_layouts_and_pointees_come_from_the_compiler() {
        let dir = fake_toolkit("types", CUDA_H);
        let includes = [dir.clone()];
        let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
        let compiler = Compiler {
            cc: &cc,
            includes: &includes,
            work: &dir,
        };
        let spellings = [
            "CUcontext *",
            "const char **",
            "CUresult",
            "Signed",
            "CUhostFn",
            "void *",
            "CUuuid *",
            "double",
            "CUu",
            "VdpFn *",
            "CUdeviceptr_v1 *",
            "unsigned int",
            "void",
        ];
        let types: BTreeSet<String> = spellings.iter().map(|s| s.to_string()).collect();
        let declared = crate::cpp::declarations("cuda.h", CUDA_H).expect("declarations");
        let m = measure(&compiler, &types, &declared.typedefs).unwrap_or_else(|e| panic!("{e}"));
        let _ = std::fs::remove_dir_all(&dir);
        let show = |s: &str| {
            let mut out = Vec::new();
            let mut t = Some(&m.types[s]);
            while let Some(x) = t {
                out.push((x.spelling.clone(), x.class, x.layout.size, x.layout.align));
                t = x.pointee.as_deref();
            }
            out
        };
        let row = |s: &str, c: Class, size: u32, align: u32| (s.to_string(), c, size, align);
        assert_eq!(
            show("CUcontext *"),
            [
                row("CUcontext *", Class::Pointer, 8, 8),
                row("CUcontext", Class::Pointer, 8, 8),
                row("struct CUctx_st", Class::Record, 0, 0),
            ]
        );
        assert_eq!(
            show("const char **"),
            [
                row("const char **", Class::Pointer, 8, 8),
                row("const char *", Class::Pointer, 8, 8),
                row("const char", Class::Integer, 1, 1),
            ]
        );
        assert_eq!(show("CUresult"), [row("CUresult", Class::Enum, 4, 4)]);
        assert_eq!(show("Signed"), [row("Signed", Class::Enum, 4, 4)]);
        assert_eq!(
            show("unsigned int"),
            [row("unsigned int", Class::Integer, 4, 4)]
        );
        assert_eq!(
            show("CUhostFn"),
            [row("CUhostFn", Class::FunctionPointer, 8, 8)]
        );
        assert_eq!(
            show("VdpFn *"),
            [row("VdpFn *", Class::FunctionPointer, 8, 8)]
        );
        assert_eq!(
            show("void *"),
            [
                row("void *", Class::Pointer, 8, 8),
                row("void", Class::Void, 0, 0)
            ]
        );
        assert_eq!(show("CUuuid *")[1], row("CUuuid", Class::Record, 16, 1));
        assert_eq!(show("double"), [row("double", Class::Floating, 8, 8)]);
        assert_eq!(show("CUu"), [row("CUu", Class::Record, 8, 8)]);
        assert_eq!(show("void"), [row("void", Class::Void, 0, 0)]);
        // Known only with __CUDA_API_VERSION_INTERNAL: measured in that stage.
        assert_eq!(
            show("CUdeviceptr_v1 *")[1],
            row("CUdeviceptr_v1", Class::Integer, 4, 4)
        );
        assert_eq!(
            m.stage_of.get("CUdeviceptr_v1 *").copied(),
            Some("__CUDA_API_VERSION_INTERNAL")
        );
        assert_eq!(m.stage_of.get("CUresult").copied(), Some("plain"));
    }

    #[test]
    fn an_unknown_type_is_an_error() {
        let dir = fake_toolkit("unknown", CUDA_H);
        let includes = [dir.clone()];
        let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
        let compiler = Compiler {
            cc: &cc,
            includes: &includes,
            work: &dir,
        };
        let types: BTreeSet<String> = ["CUnothing *".to_string(), "int".to_string()].into();
        let e = measure(&compiler, &types, &BTreeMap::new()).expect_err("unknown type");
        let _ = std::fs::remove_dir_all(&dir);
        assert!(e.contains("CUnothing *"), "{e}");
    }
}

/// What a function pointer points to: its signature with the parameter names the header gives,
/// and its measured types.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct CallbackInfo {
    /// As C writes it: `void (*)(void *userData)`.
    pub(crate) spelling: String,
    pub(crate) ret: TypeInfo,
    /// Each parameter's name (`argN` when the header has none) and type.
    pub(crate) params: Vec<(String, TypeInfo)>,
}
