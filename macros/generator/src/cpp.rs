//! Reads the headers as the compiler sees them (after `cc -E -P`): the driver functions they
//! declare, under their export names (`cuMemAlloc_v2`, `cuMemcpyHtoD_v2_ptds`: the `#define`s of
//! cuda.h already applied), and the plain typedefs (`typedef struct CUctx_st *CUcontext;`).

use std::collections::BTreeMap;

use crate::parse::{self, CTy, ParsedParam, Tok, Token};

/// A function declaration: return type and parameter list as C source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Proto {
    pub(crate) ret: String,
    pub(crate) params: String,
}

/// What a preprocessed translation unit declares.
#[derive(Debug, Default)]
pub(crate) struct Declared {
    /// Functions whose name starts with `cu`, by name.
    pub(crate) functions: BTreeMap<String, Proto>,
    /// `typedef <type> NAME;` without parentheses, braces or commas: NAME -> normalised spelling.
    pub(crate) typedefs: BTreeMap<String, String>,
    /// `typedef RET (*NAME)(PARAMS);` and `typedef RET NAME(PARAMS);`, by NAME.
    pub(crate) function_types: BTreeMap<String, FunctionType>,
}

/// A typedef of a function pointer (`CUhostFn`) or of a function type (`VdpGetProcAddress`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FunctionType {
    /// `typedef RET (*NAME)(PARAMS)`: NAME is a pointer; `typedef RET NAME(PARAMS)`: a function.
    pub(crate) pointer: bool,
    pub(crate) ret: CTy,
    pub(crate) params: Vec<ParsedParam>,
}

/// The declarations of preprocessed C source `text` (`what` names it in errors).
pub(crate) fn declarations(what: &str, text: &str) -> Result<Declared, String> {
    let lexed = parse::lex(what, text).map_err(|e| e.to_string())?;
    let mut out = Declared::default();
    for stmt in statements(&lexed.tokens) {
        if stmt.first().and_then(Token::ident) == Some("typedef") {
            if let Some((name, spelling)) = plain_typedef(&stmt[1..]) {
                out.typedefs.insert(name, spelling);
            } else if let Some((name, function)) = function_typedef(&stmt[1..]) {
                out.function_types.insert(name, function);
            }
        } else if let Some((name, proto)) = function(stmt) {
            out.functions.insert(name, proto);
        }
    }
    Ok(out)
}

/// Splits tokens into statements: at `;` outside brackets, and after a function body.
fn statements(toks: &[Token]) -> Vec<&[Token]> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, t) in toks.iter().enumerate() {
        match t.tok {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']') => depth = depth.saturating_sub(1),
            Tok::Punct('}') => {
                depth = depth.saturating_sub(1);
                // `f(...) { ... }`: a definition ends without a `;`.
                if depth == 0 && is_function_body_end(&toks[start..=i]) {
                    start = i + 1;
                }
            }
            Tok::Punct(';') if depth == 0 => {
                out.push(&toks[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out
}

/// Whether `stmt` (ending in `}`) is a function definition: its first `{` follows a `)`.
fn is_function_body_end(stmt: &[Token]) -> bool {
    stmt.iter()
        .position(|t| t.is_punct('{'))
        .is_some_and(|b| b > 0 && stmt[b - 1].is_punct(')'))
}

/// `typedef <type> NAME` (the tokens after `typedef`): NAME and the normalised type.
fn plain_typedef(toks: &[Token]) -> Option<(String, String)> {
    let (name, ty) = toks.split_last()?;
    if ty
        .iter()
        .any(|t| matches!(t.tok, Tok::Punct('(' | '{' | '[' | ',')))
    {
        return None;
    }
    let ty = parse::simple_type(ty).ok()?;
    Some((name.ident()?.to_string(), ty.spelling))
}

/// `RET (*NAME)(PARAMS)` or `RET NAME(PARAMS)` (the tokens after `typedef`): NAME and the
/// function type.
pub(crate) fn function_typedef(toks: &[Token]) -> Option<(String, FunctionType)> {
    let toks: Vec<Token> = without_attributes(toks).into_iter().cloned().collect();
    let open = toks.iter().position(|t| t.is_punct('('))?;
    let close = parse::matching(&toks, open)?;
    let (name, pointer, params_open) = match &toks[open + 1..close] {
        // `RET (*NAME)(PARAMS)`
        [star, name] if star.is_punct('*') && toks.get(close + 1)?.is_punct('(') => {
            (name.ident()?, true, close + 1)
        }
        // `RET NAME(PARAMS)`
        _ => (toks.get(open.checked_sub(1)?)?.ident()?, false, open),
    };
    let params_close = parse::matching(&toks, params_open)?;
    if params_close + 1 != toks.len() {
        return None;
    }
    let ret_end = if pointer { open } else { open - 1 };
    let ret = parse::simple_type(&toks[..ret_end]).ok()?;
    let params = parse::parse_params(&toks[params_open + 1..params_close]).ok()?;
    Some((
        name.to_string(),
        FunctionType {
            pointer,
            ret,
            params,
        },
    ))
}

/// `[attributes] RET cuName(PARAMS) [attributes]`: the name and prototype.
fn function(stmt: &[Token]) -> Option<(String, Proto)> {
    let stmt: Vec<Token> = without_attributes(stmt).into_iter().cloned().collect();
    let open = stmt.iter().position(|t| t.is_punct('('))?;
    let name = stmt.get(open.checked_sub(1)?)?.ident()?;
    if !name.starts_with("cu") {
        return None;
    }
    let close = parse::matching(&stmt, open)?;
    let ret: Vec<&Token> = stmt[..open - 1]
        .iter()
        .filter(|t| !matches!(t.ident(), Some("extern" | "__extension__")))
        .collect();
    if close + 1 != stmt.len() || ret.is_empty() {
        return None;
    }
    let params: Vec<&Token> = stmt[open + 1..close].iter().collect();
    Some((
        name.to_string(),
        Proto {
            ret: join(&ret),
            params: join(&params),
        },
    ))
}

/// The tokens without `__attribute__((...))`, `__asm__(...)` and `__declspec(...)`.
fn without_attributes(toks: &[Token]) -> Vec<&Token> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        let attribute = matches!(
            t.ident(),
            Some("__attribute__" | "__attribute" | "__asm__" | "__asm" | "__declspec")
        );
        if attribute && toks.get(i + 1).is_some_and(|n| n.is_punct('(')) {
            match parse::matching(toks, i + 1) {
                Some(close) => i = close + 1,
                None => return toks.iter().collect(),
            }
        } else {
            out.push(t);
            i += 1;
        }
    }
    out
}

/// Tokens as C source: a space only between two words (`const char*name,...`).
pub(crate) fn join(toks: &[&Token]) -> String {
    let mut s = String::new();
    let mut prev_word = false;
    for t in toks {
        let word = !matches!(t.tok, Tok::Punct(_));
        if word && prev_word {
            s.push(' ');
        }
        s.push_str(&t.text());
        prev_word = word;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_and_typedefs() {
        let src = "typedef struct CUctx_st *CUcontext;\ntypedef unsigned long long CUdeviceptr_v2;\n\
            typedef CUdeviceptr_v2 CUdeviceptr;\ntypedef void (*CUhostFn)(void *userData);\n\
            typedef VdpStatus VdpGetProcAddress(VdpDevice device, VdpFuncId function_id, void * * function_pointer);\n\
            typedef struct CUuuid_st { char bytes[16]; } CUuuid;\n\
            __attribute__((deprecated)) CUresult cuCtxAttach(CUcontext *pctx, unsigned int flags);\n\
            extern CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize);\n\
            static inline int cuHelper(int a) { return a; }\n\
            int printf(const char *fmt, ...);\nCUresult cuLog(const char *fmt, ...) __attribute__((format(printf, 1, 2)));\n";
        let d = declarations("t.i", src).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(d.typedefs["CUcontext"], "struct CUctx_st *");
        assert_eq!(d.typedefs["CUdeviceptr"], "CUdeviceptr_v2");
        assert_eq!(d.typedefs["CUdeviceptr_v2"], "unsigned long long");
        assert!(!d.typedefs.contains_key("CUhostFn"));
        let host_fn = &d.function_types["CUhostFn"];
        assert!(host_fn.pointer);
        assert_eq!(host_fn.ret.spelling, "void");
        assert_eq!(host_fn.params.len(), 1);
        assert_eq!(
            (
                host_fn.params[0].name.as_str(),
                host_fn.params[0].ty.spelling.as_str()
            ),
            ("userData", "void *")
        );
        let get = &d.function_types["VdpGetProcAddress"];
        assert!(!get.pointer);
        assert_eq!(get.ret.spelling, "VdpStatus");
        let params: Vec<&str> = get.params.iter().map(|p| p.ty.spelling.as_str()).collect();
        assert_eq!(params, ["VdpDevice", "VdpFuncId", "void **"]);
        assert!(!d.typedefs.contains_key("CUuuid"));
        assert_eq!(
            d.functions["cuCtxAttach"],
            Proto {
                ret: "CUresult".into(),
                params: "CUcontext*pctx,unsigned int flags".into()
            }
        );
        assert_eq!(
            d.functions["cuMemAlloc_v2"].params,
            "CUdeviceptr*dptr,size_t bytesize"
        );
        assert_eq!(d.functions["cuLog"].params, "const char*fmt,...");
        // A definition is not a declaration the driver exports; printf is not a cu function.
        assert_eq!(d.functions.len(), 3, "{:?}", d.functions.keys());
    }
}
