//! Parameter lists and the types in them.

use super::lex::{Tok, Token};
use super::{CTy, ParsedParam};

/// Calling-convention macros dropped from spellings.
const CALLING_CONVENTIONS: &[&str] = &["CUDAAPI", "CUDARTAPI", "__stdcall", "__cdecl", "APIENTRY"];
/// Keywords that cannot be a parameter name.
const TYPE_KEYWORDS: &[&str] = &[
    "void",
    "char",
    "short",
    "int",
    "long",
    "float",
    "double",
    "signed",
    "unsigned",
    "_Bool",
    "bool",
    "const",
    "volatile",
    "restrict",
    "__restrict",
    "struct",
    "enum",
    "union",
];
/// Keywords that do not complete a type on their own.
const INCOMPLETE: &[&str] = &[
    "const",
    "volatile",
    "restrict",
    "__restrict",
    "struct",
    "enum",
    "union",
];

pub(crate) fn matching(toks: &[Token], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (j, t) in toks.iter().enumerate().skip(open) {
        match t.tok {
            Tok::Punct('(' | '[') => depth += 1,
            Tok::Punct(')' | ']') => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(j);
                }
            }
            _ => {}
        }
    }
    None
}

/// Parses a parameter list (without its parentheses). `(void)` and `()` are empty.
pub(crate) fn parse_params(toks: &[Token]) -> Result<Vec<ParsedParam>, String> {
    if toks.is_empty() || (toks.len() == 1 && toks[0].ident() == Some("void")) {
        return Ok(Vec::new());
    }
    let mut params = Vec::new();
    for (n, part) in split_commas(toks).into_iter().enumerate() {
        let (ty, name) = parse_param(part).map_err(|m| format!("parameter {}: {m}", n + 1))?;
        if ty.is_void() {
            return Err(format!(
                "parameter {} is `void` in a list of several",
                n + 1
            ));
        }
        params.push(ParsedParam {
            name: name.unwrap_or_else(|| format!("arg{n}")),
            ty,
        });
    }
    Ok(params)
}

fn split_commas(toks: &[Token]) -> Vec<&[Token]> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (j, t) in toks.iter().enumerate() {
        match t.tok {
            Tok::Punct('(' | '[') => depth += 1,
            Tok::Punct(')' | ']') => depth = depth.saturating_sub(1),
            Tok::Punct(',') if depth == 0 => {
                parts.push(&toks[start..j]);
                start = j + 1;
            }
            _ => {}
        }
    }
    parts.push(&toks[start..]);
    parts
}

/// One parameter: its type and name (if any).
fn parse_param(toks: &[Token]) -> Result<(CTy, Option<String>), String> {
    if toks.is_empty() {
        return Err("empty".into());
    }
    // A function pointer: RET ( [cc] * [name] ) ( ARGS ).
    if let Some(open) = toks.iter().position(|t| t.is_punct('(')) {
        let close = matching(toks, open).ok_or("unbalanced parentheses")?;
        let inner: Vec<&Token> = toks[open + 1..close]
            .iter()
            .filter(|t| !t.ident().is_some_and(|s| CALLING_CONVENTIONS.contains(&s)))
            .collect();
        let name = match inner.as_slice() {
            [s] if s.is_punct('*') => None,
            [s, n] if s.is_punct('*') && n.ident().is_some() => n.ident().map(str::to_string),
            _ => {
                return Err(
                    "unsupported declarator (expected a function pointer `RET (*name)(args)`)"
                        .into(),
                );
            }
        };
        let aopen = close + 1;
        if !toks.get(aopen).is_some_and(|t| t.is_punct('(')) {
            return Err("function pointer without an argument list".into());
        }
        let aclose = matching(toks, aopen).ok_or("unbalanced parentheses")?;
        if aclose + 1 != toks.len() {
            return Err("unexpected tokens after a function pointer's argument list".into());
        }
        let ret = simple_type(&toks[..open])?;
        let args = parse_params(&toks[aopen + 1..aclose])?;
        let args: Vec<&str> = args.iter().map(|p| p.ty.spelling.as_str()).collect();
        let args = if args.is_empty() {
            "void".to_string()
        } else {
            args.join(", ")
        };
        return Ok((
            CTy {
                spelling: format!("{} (*)({args})", ret.spelling),
                pointer: true,
            },
            name,
        ));
    }
    // An array parameter: T name [N] is adjusted to T *.
    let (toks, array) = match toks.iter().position(|t| t.is_punct('[')) {
        Some(b) => {
            let close = matching(toks, b).ok_or("unbalanced brackets")?;
            if close + 1 != toks.len() {
                return Err("only one-dimensional array parameters are supported".into());
            }
            (&toks[..b], true)
        }
        None => (toks, false),
    };
    let (ty_toks, name) = split_name_off(toks);
    let mut ty = simple_type(ty_toks)?;
    if array {
        ty = CTy {
            spelling: format!("{} *", ty.spelling),
            pointer: true,
        };
    }
    Ok((ty, name))
}

/// Splits a trailing parameter name off `toks`, if there is one.
fn split_name_off(toks: &[Token]) -> (&[Token], Option<String>) {
    let Some((last, prefix)) = toks.split_last() else {
        return (toks, None);
    };
    let named = last
        .ident()
        .is_some_and(|s| !TYPE_KEYWORDS.contains(&s) && !CALLING_CONVENTIONS.contains(&s))
        && prefix.iter().any(|t| match &t.tok {
            Tok::Ident(s) => {
                !INCOMPLETE.contains(&s.as_str()) && !CALLING_CONVENTIONS.contains(&s.as_str())
            }
            Tok::Punct('*') => true,
            _ => false,
        });
    if named {
        (prefix, last.ident().map(str::to_string))
    } else {
        (toks, None)
    }
}

/// A type made of identifiers, keywords and `*`s: normalised spelling.
pub(crate) fn simple_type(toks: &[Token]) -> Result<CTy, String> {
    let mut spelling = String::new();
    let mut pointer = false;
    let mut prev_star = false;
    for t in toks {
        let piece = match &t.tok {
            Tok::Ident(s) if CALLING_CONVENTIONS.contains(&s.as_str()) => continue,
            Tok::Ident(s) => s.as_str(),
            Tok::Punct('*') => "*",
            _ => return Err(format!("unexpected `{}` in a type", t.text())),
        };
        let star = piece == "*";
        if !(spelling.is_empty() || star && prev_star) {
            spelling.push(' ');
        }
        spelling.push_str(piece);
        pointer |= star;
        prev_star = star;
    }
    if spelling.is_empty() || spelling.starts_with('*') {
        return Err("missing type".into());
    }
    Ok(CTy { spelling, pointer })
}
