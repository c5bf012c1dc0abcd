//! The signatures of function pointer types (`CUhostFn`, `CUstreamCallback`, `void (*)(void *)`,
//! `VdpGetProcAddress *`): read off the spelling or off the typedef in the preprocessed headers,
//! confirmed by the compiler (`__builtin_types_compatible_p(t, RET (*)(ARGS))`), and their return
//! and parameter types measured like every other type.

use std::collections::{BTreeMap, BTreeSet};

use crate::cpp::FunctionType;
use crate::parse::{self, CTy, ParsedParam};
use crate::probe::{Compiler, Line, STAGES};
use crate::types::{self, CallbackInfo, Class, Measured, TypeInfo};

/// Typedefs followed at most to reach a function type.
const MAX_ALIASES: usize = 16;

/// The signature of the function pointer type `s`, read off its spelling (`void (*)(void *)`)
/// or its typedef (`CUhostFn`; `VdpGetProcAddress *` for a typedef of a function type).
pub(crate) fn signature_of(
    s: &str,
    functions: &BTreeMap<String, FunctionType>,
    typedefs: &BTreeMap<String, String>,
) -> Option<FunctionType> {
    let mut spelling = s.to_string();
    for _ in 0..MAX_ALIASES {
        if spelling.contains('(') {
            return spelled(&spelling);
        }
        let words: Vec<&str> = spelling
            .split_whitespace()
            .filter(|w| !matches!(*w, "const" | "volatile"))
            .collect();
        match words[..] {
            // `F *` with `typedef RET F(ARGS)`.
            [name, "*"] => return functions.get(name).filter(|f| !f.pointer).cloned(),
            [name] => match functions.get(name) {
                Some(f) if f.pointer => return Some(f.clone()),
                Some(_) => return None,
                None => spelling = typedefs.get(name)?.clone(),
            },
            _ => return None,
        }
    }
    None
}

/// `RET (*)(ARGS)`: the spelling of a function pointer parameter.
fn spelled(spelling: &str) -> Option<FunctionType> {
    let lexed = parse::lex("a function pointer spelling", spelling).ok()?;
    let toks = &lexed.tokens;
    let open = toks.iter().position(|t| t.is_punct('('))?;
    let close = parse::matching(toks, open)?;
    if !(close == open + 2 && toks[open + 1].is_punct('*')) {
        return None;
    }
    let args_close = parse::matching(toks, close + 1)?;
    if args_close + 1 != toks.len() {
        return None;
    }
    Some(FunctionType {
        pointer: true,
        ret: parse::simple_type(&toks[..open]).ok()?,
        params: parse::parse_params(&toks[close + 2..args_close]).ok()?,
    })
}

/// The signature as C writes it, with the names: `void (*)(CUstream hStream, void *userData)`.
pub(crate) fn show(f: &FunctionType) -> String {
    let params: Vec<String> = f.params.iter().map(param_text).collect();
    let params = if params.is_empty() {
        "void".to_string()
    } else {
        params.join(", ")
    };
    format!("{} (*)({params})", f.ret.spelling)
}

fn param_text(p: &ParsedParam) -> String {
    if p.ty.spelling.ends_with('*') || p.ty.spelling.ends_with(')') {
        format!("{}{}", p.ty.spelling, p.name)
    } else {
        format!("{} {}", p.ty.spelling, p.name)
    }
}

/// The type without names, for the compiler: `void (*)(CUstream, void *)`.
fn unnamed(f: &FunctionType) -> String {
    let params: Vec<&str> = f.params.iter().map(|p| p.ty.spelling.as_str()).collect();
    let params = if params.is_empty() {
        "void".to_string()
    } else {
        params.join(", ")
    };
    format!("{} (*)({params})", f.ret.spelling)
}

/// Gives every function pointer among `measured`'s types (pointees included) its signature:
/// read, confirmed by the compiler, its types measured.
///
/// # Errors
/// A function pointer whose signature cannot be read, or that the compiler does not confirm.
pub(crate) fn resolve(
    compiler: &Compiler<'_>,
    measured: &mut Measured,
    functions: &BTreeMap<String, FunctionType>,
    typedefs: &BTreeMap<String, String>,
) -> Result<(), String> {
    let mut spellings = BTreeSet::new();
    for t in measured.types.values() {
        function_pointers(t, &mut spellings);
    }
    if spellings.is_empty() {
        return Ok(());
    }
    let mut signatures: BTreeMap<&str, FunctionType> = BTreeMap::new();
    for s in &spellings {
        let f = signature_of(s, functions, typedefs).ok_or_else(|| {
            format!("`{s}` is a function pointer, but its signature could not be read")
        })?;
        signatures.insert(s, f);
    }
    confirm(compiler, &signatures)?;
    let types: BTreeSet<String> = signatures
        .values()
        .flat_map(|f| std::iter::once(&f.ret).chain(f.params.iter().map(|p| &p.ty)))
        .map(|t| t.spelling.clone())
        .collect();
    let inner = types::measure(compiler, &types, typedefs)?;
    let mut infos: BTreeMap<&str, CallbackInfo> = BTreeMap::new();
    for (s, f) in &signatures {
        let ty = |c: &CTy| {
            inner
                .types
                .get(&c.spelling)
                .cloned()
                .ok_or_else(|| format!("`{}` (in `{s}`) was not measured", c.spelling))
        };
        let params = f
            .params
            .iter()
            .map(|p| Ok((p.name.clone(), ty(&p.ty)?)))
            .collect::<Result<Vec<_>, String>>()?;
        infos.insert(
            s,
            CallbackInfo {
                spelling: show(f),
                ret: ty(&f.ret)?,
                params,
            },
        );
    }
    for t in measured.types.values_mut() {
        attach(t, &infos);
    }
    Ok(())
}

/// The spellings of the function pointers among `t` and its pointees.
fn function_pointers(t: &TypeInfo, out: &mut BTreeSet<String>) {
    if t.class == Class::FunctionPointer {
        out.insert(t.spelling.clone());
    }
    if let Some(p) = &t.pointee {
        function_pointers(p, out);
    }
}

fn attach(t: &mut TypeInfo, infos: &BTreeMap<&str, CallbackInfo>) {
    if t.class == Class::FunctionPointer {
        t.callback = infos.get(t.spelling.as_str()).cloned().map(Box::new);
    }
    if let Some(p) = &mut t.pointee {
        attach(p, infos);
    }
}

/// The compiler must find each signature compatible with its type.
fn confirm(
    compiler: &Compiler<'_>,
    signatures: &BTreeMap<&str, FunctionType>,
) -> Result<(), String> {
    let lines: Vec<Line> = signatures
        .iter()
        .enumerate()
        .map(|(item, (s, f))| Line {
            item,
            setup: format!("typedef __typeof__({s}) t;"),
            format: "%d",
            args: format!("__builtin_types_compatible_p(t, {})", unnamed(f)),
        })
        .collect();
    let key: Vec<usize> = (0..lines.len()).collect();
    let answers = compiler.staged(STAGES, lines.len(), &key, &lines)?;
    for ((s, f), v) in signatures.iter().zip(&answers.values) {
        if v.as_deref() != Some(&[1]) {
            return Err(format!(
                "the compiler does not confirm `{}` as the signature of `{s}` (answer {v:?})\n{}",
                unnamed(f),
                answers.last_errors
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(spelling: &str) -> CTy {
        CTy {
            spelling: spelling.to_string(),
            pointer: spelling.contains('*'),
        }
    }

    fn function(pointer: bool, ret: &str, params: &[(&str, &str)]) -> FunctionType {
        FunctionType {
            pointer,
            ret: ty(ret),
            params: params
                .iter()
                .map(|(name, t)| ParsedParam {
                    name: name.to_string(),
                    ty: ty(t),
                })
                .collect(),
        }
    }

    #[test]
    fn signatures_from_spellings_and_typedefs() {
        let functions: BTreeMap<String, FunctionType> = [
            (
                "CUhostFn".to_string(),
                function(true, "void", &[("userData", "void *")]),
            ),
            (
                "VdpGetProcAddress".to_string(),
                function(false, "VdpStatus", &[("device", "VdpDevice")]),
            ),
        ]
        .into();
        let typedefs: BTreeMap<String, String> =
            [("HostFnAlias".to_string(), "CUhostFn".to_string())].into();
        let shown = |s: &str| signature_of(s, &functions, &typedefs).map(|f| show(&f));
        assert_eq!(
            shown("CUhostFn").as_deref(),
            Some("void (*)(void *userData)")
        );
        assert_eq!(
            shown("HostFnAlias").as_deref(),
            Some("void (*)(void *userData)")
        );
        assert_eq!(
            shown("VdpGetProcAddress *").as_deref(),
            Some("VdpStatus (*)(VdpDevice device)")
        );
        assert_eq!(
            shown("void (*)(void *, CUresult)").as_deref(),
            Some("void (*)(void *arg0, CUresult arg1)")
        );
        assert_eq!(shown("int (*)(void)").as_deref(), Some("int (*)(void)"));
        assert_eq!(shown("VdpGetProcAddress"), None);
        assert_eq!(shown("CUhostFn *"), None);
        assert_eq!(shown("Unknown"), None);
    }
}

/// The signatures against a small fake toolkit, compiled with `cc` (`$CC`) as the generator does.
#[cfg(test)]
mod compiler_tests {
    use super::*;
    use crate::probe::testing::fake_toolkit;

    const CUDA_H: &str = "typedef enum cudaError_enum { CUDA_SUCCESS = 0 } CUresult;\n\
        typedef struct CUstream_st *CUstream;\n\
        typedef void (*CUhostFn)(void *userData);\n\
        typedef void (*CUstreamCallback)(CUstream hStream, CUresult status, void *userData);\n\
        typedef double VdpFn(float x);\n\
        typedef int (*Lying)(int);\n";

    fn measured(spellings: &[&str]) -> Result<Measured, String> {
        let dir = fake_toolkit(&format!("callback-{}", spellings.len()), CUDA_H);
        let includes = [dir.clone()];
        let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
        let compiler = Compiler {
            cc: &cc,
            includes: &includes,
            work: &dir,
        };
        let declared = crate::cpp::declarations("cuda.h", CUDA_H)?;
        let types: BTreeSet<String> = spellings.iter().map(|s| s.to_string()).collect();
        let mut m = types::measure(&compiler, &types, &declared.typedefs)?;
        let mut functions = declared.function_types.clone();
        // A signature the header does not have: the compiler must refuse it.
        if spellings.contains(&"Lying") {
            functions.insert(
                "Lying".into(),
                spelled("int (*)(long)").expect("a function pointer"),
            );
        }
        let resolved = resolve(&compiler, &mut m, &functions, &declared.typedefs);
        let _ = std::fs::remove_dir_all(&dir);
        resolved.map(|()| m)
    }

    #[test]
    fn signatures_are_confirmed_and_measured() {
        let m = measured(&[
            "CUhostFn",
            "CUstreamCallback",
            "VdpFn *",
            "void (*)(int, double)",
        ])
        .unwrap_or_else(|e| panic!("{e}"));
        let callback = |s: &str| m.types[s].callback.clone().expect("a signature");
        let shape = |s: &str| {
            let c = callback(s);
            let params: Vec<(String, Class, u32)> = c
                .params
                .iter()
                .map(|(n, t)| (n.clone(), t.class, t.layout.size))
                .collect();
            (c.spelling, c.ret.class, params)
        };
        let p = |n: &str, c, size| (n.to_string(), c, size);
        assert_eq!(
            shape("CUhostFn"),
            (
                "void (*)(void *userData)".to_string(),
                Class::Void,
                vec![p("userData", Class::Pointer, 8)]
            )
        );
        assert_eq!(
            shape("CUstreamCallback").2,
            [
                p("hStream", Class::Pointer, 8),
                p("status", Class::Enum, 4),
                p("userData", Class::Pointer, 8)
            ]
        );
        assert_eq!(
            shape("VdpFn *"),
            (
                "double (*)(float x)".to_string(),
                Class::Floating,
                vec![p("x", Class::Floating, 4)]
            )
        );
        assert_eq!(
            shape("void (*)(int, double)").2[1],
            p("arg1", Class::Floating, 8)
        );
    }

    #[test]
    fn a_signature_the_compiler_does_not_confirm_is_an_error() {
        let e = measured(&["Lying"]).expect_err("a wrong signature");
        assert!(e.contains("does not confirm `int (*)(long)`"), "{e}");
    }
}
