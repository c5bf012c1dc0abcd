//! Parser of the `PFN_<symbol>_v<version>[_ptsz|_ptds]` typedefs in the CUDA typedef headers.
//!
//! It does not run the preprocessor: every typedef counts, whatever `#if` block it sits in (the
//! block's condition is recorded). Odd input gives a [`ParseError`] with the file and line.

use std::fmt;

/// The default-stream flavour of a typedef (same order as `cuda_entry_table::Stream`).
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

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    Ident(String),
    /// A number, string or character literal (kept only so it is not mistaken for anything).
    Literal(String),
    Punct(char),
}

#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub(crate) tok: Tok,
    line: usize,
    /// The condition stack in force (index into the condition snapshots).
    cond: usize,
}

impl Token {
    pub(crate) fn is_punct(&self, c: char) -> bool {
        self.tok == Tok::Punct(c)
    }

    pub(crate) fn ident(&self) -> Option<&str> {
        match &self.tok {
            Tok::Ident(s) => Some(s),
            _ => None,
        }
    }

    pub(crate) fn text(&self) -> String {
        match &self.tok {
            Tok::Ident(s) | Tok::Literal(s) => s.clone(),
            Tok::Punct(c) => c.to_string(),
        }
    }
}

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

pub(crate) struct Lexed {
    pub(crate) tokens: Vec<Token>,
    /// `#define PFN_a PFN_b` aliases.
    aliases: Vec<(String, String)>,
    /// Condition stack snapshots; `Token::cond` indexes this.
    conds: Vec<Vec<String>>,
}

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

/// Tokenises `text`: drops comments, reads preprocessor lines into the condition stack.
pub(crate) fn lex(file: &str, text: &str) -> Result<Lexed, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut stack: Vec<Option<String>> = Vec::new();
    let mut conds: Vec<Vec<String>> = vec![Vec::new()];
    let mut aliases = Vec::new();
    let mut line = 1;
    let mut at_line_start = true;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            at_line_start = true;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            let start_line = line;
            i += 2;
            loop {
                match chars.get(i) {
                    None => return Err(err(file, start_line, "unterminated /* comment")),
                    Some('*') if chars.get(i + 1) == Some(&'/') => {
                        i += 2;
                        break;
                    }
                    Some('\n') => line += 1,
                    Some(_) => {}
                }
                i += 1;
            }
        } else if c == '#' && at_line_start {
            let start_line = line;
            let mut directive = String::new();
            i += 1;
            while i < chars.len() && chars[i] != '\n' {
                if chars[i] == '\\' && chars.get(i + 1) == Some(&'\n') {
                    line += 1;
                    i += 2;
                    directive.push(' ');
                } else if chars[i] == '/' && chars.get(i + 1) == Some(&'/') {
                    while i < chars.len() && chars[i] != '\n' {
                        i += 1;
                    }
                } else if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    i += 2;
                    while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                        if chars[i] == '\n' {
                            line += 1;
                        }
                        i += 1;
                    }
                    if i >= chars.len() {
                        return Err(err(file, start_line, "unterminated /* comment"));
                    }
                    i += 2;
                    directive.push(' ');
                } else {
                    directive.push(chars[i]);
                    i += 1;
                }
            }
            if let ["define", a, b] = directive.split_whitespace().collect::<Vec<_>>()[..]
                && a.starts_with("PFN_")
                && b.starts_with("PFN_")
            {
                aliases.push((a.to_string(), b.to_string()));
            }
            if directive_changes(&mut stack, &directive).map_err(|m| err(file, start_line, m))? {
                conds.push(stack.iter().flatten().cloned().collect());
            }
        } else {
            at_line_start = false;
            let tok_line = line;
            let tok = if c.is_ascii_alphabetic() || c == '_' {
                let s = take_while(&chars, &mut i, |c| c.is_ascii_alphanumeric() || c == '_');
                Tok::Ident(s)
            } else if c.is_ascii_digit() {
                Tok::Literal(take_while(&chars, &mut i, |c| {
                    c.is_ascii_alphanumeric() || c == '.' || c == '_'
                }))
            } else if c == '"' || c == '\'' {
                let start = i;
                i += 1;
                while i < chars.len() && chars[i] != c && chars[i] != '\n' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                if chars.get(i) != Some(&c) {
                    return Err(err(file, tok_line, "unterminated literal"));
                }
                i += 1;
                Tok::Literal(chars[start..i].iter().collect())
            } else {
                i += 1;
                Tok::Punct(c)
            };
            tokens.push(Token {
                tok,
                line: tok_line,
                cond: conds.len() - 1,
            });
        }
    }
    if !stack.is_empty() {
        return Err(err(
            file,
            line,
            format!("{} unterminated #if block(s) at end of file", stack.len()),
        ));
    }
    Ok(Lexed {
        tokens,
        aliases,
        conds,
    })
}

fn take_while(chars: &[char], i: &mut usize, f: impl Fn(char) -> bool) -> String {
    let start = *i;
    while *i < chars.len() && f(chars[*i]) {
        *i += 1;
    }
    chars[start..*i].iter().collect()
}

/// Applies one directive to the condition stack; true if the stack changed. Include guards and
/// `__cplusplus` are pushed as `None` (kept for balance, not recorded).
fn directive_changes(stack: &mut Vec<Option<String>>, directive: &str) -> Result<bool, String> {
    let d = directive.trim_start();
    let (word, rest) = d.split_once(char::is_whitespace).unwrap_or((d, ""));
    let rest = rest.split_whitespace().collect::<Vec<_>>().join(" ");
    let recorded = |cond: String| {
        let guard = (word == "ifndef" && rest.ends_with("_H")) || rest.contains("__cplusplus");
        if guard { None } else { Some(cond) }
    };
    match word {
        "if" => stack.push(recorded(rest.clone())),
        "ifdef" => stack.push(recorded(format!("defined({rest})"))),
        "ifndef" => stack.push(recorded(format!("!defined({rest})"))),
        "elif" | "else" => {
            let top = stack
                .last_mut()
                .ok_or_else(|| format!("#{word} without #if"))?;
            if let Some(cond) = top {
                *top = Some(if word == "else" {
                    format!("!({cond})")
                } else {
                    rest.clone()
                });
            }
        }
        "endif" => {
            stack.pop().ok_or("#endif without #if")?;
        }
        _ => return Ok(false),
    }
    Ok(true)
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
