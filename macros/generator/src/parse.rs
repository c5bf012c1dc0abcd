//! Parser of the `PFN_<symbol>_v<version>[_ptsz|_ptds]` typedefs in the CUDA typedef headers.
//!
//! It does not run the preprocessor: every typedef counts, whatever `#if` block it sits in (the
//! block's condition is recorded). Odd input gives a [`ParseError`] with the file and line.

use std::fmt;

mod lex;
mod params;

pub(crate) use lex::{Tok, Token, lex};
pub(crate) use params::{matching, parse_params, simple_type};

/// The default-stream flavour of a typedef (same order as `cuda_entry_table::Flavour`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Flavour {
    Legacy,
    Ptsz,
    Ptds,
}

impl Flavour {
    pub(crate) fn suffix(self) -> &'static str {
        match self {
            Flavour::Legacy => "",
            Flavour::Ptsz => "_ptsz",
            Flavour::Ptds => "_ptds",
        }
    }
}

/// A C type: its normalised spelling and whether it has an explicit `*`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct CTy {
    /// Single-spaced spelling without names (`"const void *"`, `"void (*)(void *)"`); an array
    /// parameter is spelt as the pointer it is adjusted to.
    pub(crate) spelling: String,
    pub(crate) pointer: bool,
}

impl CTy {
    pub(crate) fn is_void(&self) -> bool {
        self.spelling == "void"
    }
}

/// One parameter: its name (`argN` when unnamed) and type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ParsedParam {
    pub(crate) name: String,
    pub(crate) ty: CTy,
}

/// One `PFN_` typedef as read from a header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ParsedTypedef {
    pub(crate) symbol: String,
    pub(crate) version: u32,
    pub(crate) flavour: Flavour,
    pub(crate) ret: CTy,
    pub(crate) params: Vec<ParsedParam>,
    /// 1-based line of the `typedef` keyword.
    pub(crate) line: usize,
    /// The `#if`/`#ifdef`/`#ifndef` conditions around it, outermost first, without include
    /// guards and `__cplusplus`.
    pub(crate) conditions: Vec<String>,
    /// The header named it without a version (`PFN_cuFoo`); the version came from its
    /// `#define PFN_cuFoo PFN_cuFoo_v<N>`.
    pub(crate) unversioned: bool,
}

impl ParsedTypedef {
    pub(crate) fn name(&self) -> String {
        format!(
            "PFN_{}_v{}{}",
            self.symbol,
            self.version,
            self.flavour.suffix()
        )
    }
}

/// A parse failure at `file:line`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ParseError {
    pub(crate) file: String,
    pub(crate) line: usize,
    pub(crate) message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Parses every `PFN_` typedef of `text` (`file` names it in errors).
pub(crate) fn parse_header(file: &str, text: &str) -> Result<Vec<ParsedTypedef>, ParseError> {
    let lexed = lex(file, text)?;
    let toks = &lexed.tokens;
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i].ident() != Some("typedef") {
            i += 1;
            continue;
        }
        let start = i;
        let mut depth = 0usize;
        let mut end = None;
        for (j, t) in toks.iter().enumerate().skip(i + 1) {
            match t.tok {
                Tok::Punct('(' | '[' | '{') => depth += 1,
                Tok::Punct(')' | ']' | '}') => depth = depth.saturating_sub(1),
                Tok::Punct(';') if depth == 0 => {
                    end = Some(j);
                    break;
                }
                _ => {}
            }
        }
        let Some(end) = end else {
            return Err(err(file, toks[start].line, "typedef without a closing `;`"));
        };
        let stmt = &toks[start + 1..end];
        if stmt
            .iter()
            .any(|t| t.ident().is_some_and(|s| s.starts_with("PFN_")))
        {
            let mut td = parse_pfn(file, toks[start].line, stmt, &lexed.aliases)?;
            td.conditions = lexed.conds[toks[start].cond].clone();
            out.push(td);
        }
        i = end + 1;
    }
    Ok(out)
}

/// The `#define PFN_a PFN_b_v<N>` aliases of `text` whose target is another symbol's typedef
/// (`PFN_cuGraphInstantiate` -> `PFN_cuGraphInstantiateWithFlags_v11040`).
pub(crate) fn cross_symbol_aliases(
    file: &str,
    text: &str,
) -> Result<Vec<(String, String)>, ParseError> {
    let lexed = lex(file, text)?;
    Ok(lexed
        .aliases
        .into_iter()
        .filter(|(a, b)| {
            !b.strip_prefix(a.as_str())
                .is_some_and(|r| r.starts_with("_v"))
        })
        .collect())
}

fn err(file: &str, line: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        file: file.to_string(),
        line,
        message: message.into(),
    }
}

/// Parses `RET ( [CUDAAPI] * PFN_name ) ( PARAMS )` (the tokens between `typedef` and `;`).
fn parse_pfn(
    file: &str,
    line: usize,
    stmt: &[Token],
    aliases: &[(String, String)],
) -> Result<ParsedTypedef, ParseError> {
    let e = |m: String| err(file, line, m);
    let shown = || stmt.iter().map(Token::text).collect::<Vec<_>>().join(" ");
    let Some(open) = stmt.iter().position(|t| t.is_punct('(')) else {
        return Err(e(format!(
            "`{}` declares a PFN_ name but is not a function pointer typedef",
            shown()
        )));
    };
    let close = matching(stmt, open)
        .ok_or_else(|| e(format!("unbalanced parentheses in `{}`", shown())))?;
    let inner = &stmt[open + 1..close];
    let star = inner.iter().position(|t| t.is_punct('*'));
    let name = match (star, inner.last().and_then(Token::ident)) {
        (Some(s), Some(n))
            if s + 2 == inner.len() && inner[..s].iter().all(|t| t.ident().is_some()) =>
        {
            n
        }
        _ => {
            return Err(e(format!(
                "`{}` is not of the form `RET (CUDAAPI *PFN_name)(params)`",
                shown()
            )));
        }
    };
    let alias = aliases.iter().find(|(a, _)| a == name).map(|(_, b)| b);
    let (symbol, version, flavour, unversioned) = match (split_name(name), alias) {
        (Ok((s, v, f)), _) => (s, v, f, false),
        // `typedef ... PFN_cuFoo` with `#define PFN_cuFoo PFN_cuFoo_v12040` (CUDA 12.4-12.9).
        (Err(_), Some(target))
            if target
                .strip_prefix(name)
                .is_some_and(|r| r.starts_with("_v")) =>
        {
            let (s, v, f) = split_name(target).map_err(e)?;
            (s, v, f, true)
        }
        (Err(m), _) => return Err(e(m)),
    };
    let popen = close + 1;
    if !stmt.get(popen).is_some_and(|t| t.is_punct('(')) {
        return Err(e(format!("`{name}` has no parameter list")));
    }
    let pclose =
        matching(stmt, popen).ok_or_else(|| e(format!("unbalanced parentheses in `{name}`")))?;
    if pclose + 1 != stmt.len() {
        return Err(e(format!(
            "unexpected tokens after the parameter list of `{name}`"
        )));
    }
    let ret = simple_type(&stmt[..open]).map_err(|m| e(format!("return type of `{name}`: {m}")))?;
    let params = parse_params(&stmt[popen + 1..pclose]).map_err(|m| e(format!("`{name}`: {m}")))?;
    Ok(ParsedTypedef {
        symbol,
        version,
        flavour,
        ret,
        params,
        line,
        conditions: Vec::new(),
        unversioned,
    })
}

/// Splits `PFN_cuFoo_v3020_ptsz` into (`cuFoo`, 3020, Ptsz).
pub(crate) fn split_name(name: &str) -> Result<(String, u32, Flavour), String> {
    let bad = |why: &str| {
        format!("cannot parse `{name}`: {why} (expected PFN_<symbol>_v<version>[_ptsz|_ptds])")
    };
    let rest = name
        .strip_prefix("PFN_")
        .ok_or_else(|| bad("no PFN_ prefix"))?;
    let (rest, flavour) = if let Some(r) = rest.strip_suffix("_ptsz") {
        (r, Flavour::Ptsz)
    } else if let Some(r) = rest.strip_suffix("_ptds") {
        (r, Flavour::Ptds)
    } else {
        (rest, Flavour::Legacy)
    };
    let (symbol, digits) = rest
        .rsplit_once("_v")
        .ok_or_else(|| bad("no _v<version> suffix"))?;
    if symbol.is_empty() {
        return Err(bad("empty symbol"));
    }
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad("the version is not a number"));
    }
    let version: u32 = digits
        .parse()
        .map_err(|_| bad("the version does not fit in u32"))?;
    if version == 0 {
        return Err(bad("version 0"));
    }
    Ok((symbol.to_string(), version, flavour))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(src: &str) -> ParsedTypedef {
        let mut v = parse_header("t.h", src).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(v.len(), 1, "{v:?}");
        v.remove(0)
    }

    fn sig(td: &ParsedTypedef) -> Vec<(String, String, bool)> {
        td.params
            .iter()
            .map(|p| (p.name.clone(), p.ty.spelling.clone(), p.ty.pointer))
            .collect()
    }

    fn p(name: &str, spelling: &str, pointer: bool) -> (String, String, bool) {
        (name.into(), spelling.into(), pointer)
    }

    #[test]
    fn simple_and_void() {
        let td = one("typedef CUresult (CUDAAPI *PFN_cuInit_v2000)(unsigned int Flags);");
        assert_eq!(
            (td.symbol.as_str(), td.version, td.flavour),
            ("cuInit", 2000, Flavour::Legacy)
        );
        assert_eq!(
            td.ret,
            CTy {
                spelling: "CUresult".into(),
                pointer: false
            }
        );
        assert_eq!(sig(&td), vec![p("Flags", "unsigned int", false)]);
        let td = one("typedef CUresult (CUDAAPI *PFN_cuProfilerStart_v4000)(void);");
        assert!(td.params.is_empty());
        assert_eq!(td.name(), "PFN_cuProfilerStart_v4000");
    }

    #[test]
    fn multi_line_const_double_pointer_unsigned_long_long() {
        let td = one(
            "typedef CUresult (CUDAAPI\n   *PFN_cuFoo_v12000_ptsz)(\n  const   char **pStr,\n unsigned long long\n x,\n CUdevResource* r,\n const void * const p);\n",
        );
        assert_eq!(td.flavour, Flavour::Ptsz);
        assert_eq!(td.line, 1);
        assert_eq!(
            sig(&td),
            vec![
                p("pStr", "const char **", true),
                p("x", "unsigned long long", false),
                p("r", "CUdevResource *", true),
                p("p", "const void * const", true),
            ]
        );
    }

    #[test]
    fn unnamed_params() {
        let td = one(
            "typedef CUresult (CUDAAPI *PFN_cuBar_v7000_ptds)(CUstream, unsigned int, const char *, unsigned long long, struct Foo);",
        );
        assert_eq!(td.flavour, Flavour::Ptds);
        assert_eq!(
            sig(&td),
            vec![
                p("arg0", "CUstream", false),
                p("arg1", "unsigned int", false),
                p("arg2", "const char *", true),
                p("arg3", "unsigned long long", false),
                p("arg4", "struct Foo", false),
            ]
        );
    }

    #[test]
    fn function_pointer_and_array_params() {
        let td = one(
            "typedef CUresult (CUDAAPI *PFN_cuHost_v10000)(void (CUDAAPI *fn)(void *userData, CUresult), int (*)(void), char name[16], int v[]);",
        );
        assert_eq!(
            sig(&td),
            vec![
                p("fn", "void (*)(void *, CUresult)", true),
                p("arg1", "int (*)(void)", true),
                p("name", "char *", true),
                p("v", "int *", true),
            ]
        );
    }

    #[test]
    fn if_blocks_comments_and_other_typedefs() {
        let src = "#ifndef CUDATYPEDEFS_H\n#define CUDATYPEDEFS_H\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\
            /* a comment; with PFN_cuX_v1 */ typedef int myint; // PFN_cuY_v2;\n\
            typedef struct { int a; } S;\n\
            #if defined(__CUDA_API_VERSION_INTERNAL)\n  typedef CUresult (CUDAAPI *PFN_cuMemAlloc_v2000)(CUdeviceptr_v1 *dptr, unsigned int bytesize);\n#else\n\
            typedef CUresult (CUDAAPI *PFN_cuMemFree_v3020)(CUdeviceptr dptr);\n#endif\n\
            #define PFN_cuMemAlloc PFN_cuMemAlloc_v3020\n#ifdef __cplusplus\n}\n#endif\n#endif\n";
        let v = parse_header("t.h", src).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].symbol, "cuMemAlloc");
        assert_eq!(v[0].line, 9);
        assert_eq!(
            v[0].conditions,
            vec!["defined(__CUDA_API_VERSION_INTERNAL)".to_string()]
        );
        assert_eq!(
            v[1].conditions,
            vec!["!(defined(__CUDA_API_VERSION_INTERNAL))".to_string()]
        );
    }

    #[test]
    fn unversioned_typedef_takes_the_version_of_its_define() {
        let src = "#define PFN_cuModuleGetFunctionCount PFN_cuModuleGetFunctionCount_v12040\n\
            typedef CUresult (CUDAAPI *PFN_cuModuleGetFunctionCount)(unsigned int *count, CUmodule hmod);";
        let td = one(src);
        assert_eq!(
            (td.symbol.as_str(), td.version, td.unversioned),
            ("cuModuleGetFunctionCount", 12040, true)
        );
        let e = parse_header("u.h", "typedef CUresult (CUDAAPI *PFN_cuFoo)(int a);")
            .expect_err("no define");
        assert_eq!(e.line, 1);
    }

    #[test]
    fn cross_symbol_aliases_are_found() {
        let src = "#define PFN_cuGraphInstantiate  PFN_cuGraphInstantiateWithFlags_v11040\n#define PFN_cuInit PFN_cuInit_v2000\n";
        let v = cross_symbol_aliases("a.h", src).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            v,
            vec![(
                "PFN_cuGraphInstantiate".to_string(),
                "PFN_cuGraphInstantiateWithFlags_v11040".to_string()
            )]
        );
    }

    #[test]
    fn names_and_versions() {
        assert_eq!(
            split_name("PFN_cuMemcpy_v7000_ptds"),
            Ok(("cuMemcpy".into(), 7000, Flavour::Ptds))
        );
        assert_eq!(
            split_name("PFN_cuStreamGetCtx_v2_v12050"),
            Ok(("cuStreamGetCtx_v2".into(), 12050, Flavour::Legacy))
        );
        for bad in [
            "PFN_cuFoo",
            "PFN_cuFoo_vX",
            "PFN__v1000",
            "PFN_cuFoo_v",
            "PFN_cuFoo_v0",
            "PFN_cuFoo_v99999999999",
            "cuFoo_v1000",
        ] {
            assert!(split_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn errors_carry_file_and_line() {
        let cases = [
            ("\ntypedef CUresult (CUDAAPI *PFN_cuFoo_vX)(int a);", 2),
            ("typedef CUresult (CUDAAPI *PFN_cuFoo_v1000)(int a", 1),
            ("\n\ntypedef int PFN_cuFoo_v1000;", 3),
            ("typedef CUresult (CUDAAPI *PFN_cuFoo_v1000)(int a,);", 1),
            ("typedef CUresult (CUDAAPI *PFN_cuFoo_v1000)(void, int);", 1),
            (
                "typedef CUresult (CUDAAPI *PFN_cuFoo_v1000)(int a) extra;",
                1,
            ),
            (
                "typedef CUresult (CUDAAPI *PFN_cuFoo_v1000)(int (*f)(int);",
                1,
            ),
            (
                "typedef CUresult (CUDAAPI *PFN_cuFoo_v1000)(int a[2][3]);",
                1,
            ),
            ("typedef CUresult (CUDAAPI *PFN_cuFoo_v1000)(\"x\" a);", 1),
            ("typedef (CUDAAPI *PFN_cuFoo_v1000)(int a);", 1),
            ("\n#endif\n", 2),
            ("#if X\n", 2),
            ("/* open", 1),
            ("\"open", 1),
        ];
        for (src, line) in cases {
            let e = parse_header("x.h", src).expect_err(src);
            assert_eq!((e.file.as_str(), e.line), ("x.h", line), "{src}: {e}");
            assert!(e.to_string().starts_with(&format!("x.h:{line}: ")));
        }
    }

    #[test]
    fn odd_input_does_not_panic() {
        let junk = [
            "",
            "typedef",
            "typedef ;",
            "PFN_",
            "#",
            "#else",
            "typedef ((((;",
            ")))",
            "typedef PFN_x (",
            "é typedef ü PFN_a_v1 (*) ( ;",
            "'\\",
        ];
        for src in junk {
            let _ = parse_header("j.h", src);
        }
    }
}
