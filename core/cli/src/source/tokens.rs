//! The pass over a source's tokens that comes before the parse. It does two things no parse can:
//!
//! - **Bound the nesting.** syn's parser recurses once per nested construct, and a stack
//!   overflow cannot be caught: it aborts the process. The lexer (proc-macro2's) does not
//!   recurse, so the tokens are measured first and a source nested deeper than
//!   [`NESTING_LIMIT`] is refused with its position. The measure counts what makes the parser
//!   recurse: delimiters, generic angle brackets, prefix operators (`-`, `!`, `*`, `&`, `..`),
//!   closures, `->`, assignments, `if`/`else`/`let`/`match`/`return`..., reset where a
//!   construct ends (`;`, `=>`, a `,` outside `<...>` and `|...|`, an item after a `}`).
//! - **Find every `#[cuda_entry]`**, wherever it is: in a macro's body, behind `cfg_attr`, in an
//!   `impl` or a trait, and under another name (`#[driver_fn(symbol = ..., version = ...)]`,
//!   recognised by its arguments as the macro's rules recognise it). The parse reads the declarations it can; each attribute found here that
//!   the parse did not read is reported as not checked, so that none is missed silently.

use cuda_entry_table::rules::is_entry_attribute;
use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree, token_stream};
use syn::Token;
use syn::punctuated::Punctuated;

/// The deepest nesting read, in the units above. Real code stays under 40; at 256 the parse
/// needs about 15 MiB of stack in a debug build, and it runs on a thread with
/// [`PARSE_STACK`](super::parse::PARSE_STACK).
pub(crate) const NESTING_LIMIT: usize = 256;

/// Where a `#[cuda_entry...]` attribute sits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Context {
    /// Among items or statements: the parse reads it if it is on a declaration.
    Items,
    /// In the body of the macro `name!`, which the command does not expand.
    Macro(String),
    /// In an `impl` block.
    Impl,
    /// In a trait.
    Trait,
}

/// One `#[cuda_entry...]` attribute, or a `#[cfg_attr(..., cuda_entry...)]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    /// The line and column (0-based, in characters) of its `#`.
    pub(crate) at: (usize, usize),
    pub(crate) context: Context,
    /// Whether it is behind `cfg_attr`.
    pub(crate) cfg_attr: bool,
}

/// The source nests deeper than [`NESTING_LIMIT`] at this line and column (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TooDeep {
    pub(crate) line: usize,
    pub(crate) column: usize,
}

impl TooDeep {
    /// From a line and a 0-based column.
    fn at((line, column): (usize, usize)) -> TooDeep {
        TooDeep {
            line,
            column: column + 1,
        }
    }
}

/// One delimited level being walked.
struct Level {
    tokens: token_stream::IntoIter,
    /// The units of the enclosing levels, this group's own included.
    base: usize,
    /// Constructs open until the construct ends (`;`, `,`, `=>`...): `=`, `->`, closures,
    /// `return`, `impl`...
    units: usize,
    /// Prefix operators (`-`, `!`, `&`...) since the last operand, which an infix operator ends.
    unary: usize,
    /// `if`, `match`, `while`, `for`, `let` headers, which their `{...}` ends.
    headers: usize,
    /// `else` branches: the parser reads an `else if` chain in a loop, only dropping and walking
    /// the chain recurse, with small frames; 32 count as one unit.
    elses: usize,
    /// Unclosed `<`.
    angles: usize,
    /// Inside a closure's `|...|` parameters.
    bar_open: bool,
    /// Whether the next token starts an operand (so `-` is a negation, not a subtraction).
    prefix: bool,
    /// Whether the previous token was a `{...}` group (an item or a statement may end there).
    after_brace: bool,
    /// Whether this level is a `{...}` group.
    brace: bool,
    context: Context,
    /// The first item keyword since the last reset (`impl`, `trait`, `fn`...).
    item: Option<String>,
    /// Punctuation characters glued together (`->`, `&&-`), with their positions.
    run: Vec<(char, (usize, usize))>,
    /// The previous token, when it was an identifier.
    ident: Option<String>,
    /// The macro a following group is the body of: `name!` or `macro_rules! name`.
    bang: Option<String>,
    /// The position of a `#` (or `#!`) that a following `[...]` group is the attribute of.
    pound: Option<(usize, usize)>,
}

impl Level {
    fn new(tokens: TokenStream, base: usize, context: Context) -> Level {
        Level {
            tokens: tokens.into_iter(),
            base,
            units: 0,
            unary: 0,
            headers: 0,
            elses: 0,
            angles: 0,
            bar_open: false,
            prefix: true,
            after_brace: false,
            brace: false,
            context,
            item: None,
            run: Vec::new(),
            ident: None,
            bang: None,
            pound: None,
        }
    }

    fn depth(&self) -> usize {
        self.base + self.units + self.unary + self.headers + self.elses / 32 + self.angles
    }

    /// A construct ended: what follows starts afresh at this level.
    fn reset(&mut self) {
        self.units = 0;
        self.unary = 0;
        self.headers = 0;
        self.elses = 0;
        self.angles = 0;
        self.bar_open = false;
        self.prefix = true;
        self.item = None;
    }

    /// Counts the glued punctuation of [`Level::run`] as the operators Rust reads in it; the
    /// position of the first that nests too deep, if one does.
    fn flush(&mut self) -> Option<(usize, usize)> {
        let run = std::mem::take(&mut self.run);
        let ident = self.ident.take();
        let mut rest = &run[..];
        while let Some(&(first, at)) = rest.first() {
            let text: String = rest.iter().take(3).map(|&(c, _)| c).collect();
            let op = OPERATORS
                .iter()
                .copied()
                .find(|op| text.starts_with(op))
                .unwrap_or(&text[..first.len_utf8()]);
            let whole = rest.len() == run.len();
            rest = &rest[op.chars().count()..];
            match op {
                "#" => {
                    self.pound = Some(at);
                    continue;
                }
                // The `!` of an inner attribute `#![...]`.
                "!" if self.pound.is_some() => continue,
                "!" if whole && rest.is_empty() => {
                    self.bang = ident.as_ref().map(|name| format!("{name}!"));
                }
                _ => {}
            }
            self.pound = None;
            self.operator(op);
            if self.depth() > NESTING_LIMIT {
                return Some(at);
            }
        }
        None
    }

    /// Counts one operator.
    fn operator(&mut self, op: &str) {
        let prefix = self.prefix;
        self.prefix = true;
        let binds_tighter = matches!(op, "." | "::" | "?" | "'" | "#" | "!" | "@");
        let closes_angle = matches!(op, ">" | ">>") && self.angles > 0;
        if !prefix && !binds_tighter && !closes_angle {
            // An infix operator: the operand of the prefix operators before it has ended.
            self.unary = 0;
        }
        match op {
            ";" | "=>" => self.reset(),
            "," if self.angles == 0 && !self.bar_open => {
                self.units = 0;
                self.item = None;
            }
            "->" | "=" | "@" | "+=" | "-=" | "*=" | "/=" | "%=" | "^=" | "&=" | "|=" | "<<="
            | ">>=" => self.units += 1,
            "<" => self.angles += 1,
            "<<" if prefix => self.angles += 2,
            ">" | ">>" if self.angles > 0 => {
                self.angles = self.angles.saturating_sub(op.len());
                self.prefix = false;
            }
            "&&" if prefix => self.unary += 2,
            "|" if self.bar_open => self.bar_open = false,
            "|" if prefix => {
                self.units += 1;
                self.bar_open = true;
            }
            "||" if prefix => self.units += 1,
            "-" | "!" | "*" | "&" | ".." | "..=" | "..." if prefix => self.unary += 1,
            "?" => self.prefix = false,
            _ => {}
        }
    }
}

/// Rust's operators of two and three characters, longest first.
const OPERATORS: &[&str] = &[
    "<<=", ">>=", "...", "..=", "::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=",
    "*=", "/=", "%=", "^=", "&=", "|=", "<<", ">>", "..",
];

const ITEM_KEYWORDS: &[&str] = &[
    "fn",
    "struct",
    "enum",
    "union",
    "mod",
    "impl",
    "trait",
    "type",
    "const",
    "static",
    "extern",
    "use",
    "macro_rules",
    "let",
];

/// Keywords whose construct the parser enters recursively, open until the construct ends.
const NESTING_KEYWORDS: &[&str] = &["return", "break", "yield", "become", "dyn", "impl", "box"];

/// Keywords whose header the parser reads recursively, until the block after it.
const HEADER_KEYWORDS: &[&str] = &["if", "while", "match", "for", "let"];

/// Keywords that are not operands: a `-` after them is a negation.
const OTHER_KEYWORDS: &[&str] = &[
    "in", "mut", "const", "ref", "unsafe", "where", "pub", "use", "mod", "struct", "enum", "trait",
    "type", "extern", "fn", "move", "static", "async", "loop", "union",
];

/// Measures `tokens` and finds every `#[cuda_entry]` attribute in them.
pub(crate) fn pass(tokens: TokenStream) -> Result<Vec<Found>, TooDeep> {
    let mut found = Vec::new();
    // Every other attribute, to be read once the whole source is measured.
    let mut others = Vec::new();
    let mut stack = vec![Level::new(tokens, 0, Context::Items)];
    while let Some(level) = stack.last_mut() {
        let Some(token) = level.tokens.next() else {
            if let Some(at) = level.flush() {
                return Err(TooDeep::at(at));
            }
            let brace = level.brace;
            stack.pop();
            if let Some(parent) = stack.last_mut() {
                parent.prefix = false;
                if brace {
                    // The block of an `if`, `match`... ends its header.
                    parent.headers = parent.headers.saturating_sub(1);
                }
            }
            continue;
        };
        let at = token.span().start();
        let too_deep = TooDeep::at((at.line, at.column));
        if level.after_brace {
            level.after_brace = false;
            let starts_item = match &token {
                TokenTree::Ident(i) => i != "else" && i != "as",
                TokenTree::Punct(p) => p.as_char() == '#',
                TokenTree::Literal(_) => true,
                TokenTree::Group(_) => false,
            };
            if starts_item {
                level.reset();
            }
        }
        if let TokenTree::Punct(punct) = &token {
            if level.run.is_empty() {
                level.bang = None;
            }
            level.run.push((punct.as_char(), (at.line, at.column)));
            if punct.spacing() == Spacing::Alone
                && let Some(at) = level.flush()
            {
                return Err(TooDeep::at(at));
            }
        } else {
            if let Some(at) = level.flush() {
                return Err(TooDeep::at(at));
            }
            let pound = level.pound.take();
            let bang = level.bang.take();
            match token {
                TokenTree::Group(group) => {
                    let delimiter = group.delimiter();
                    if let (Some(at), Delimiter::Bracket) = (pound, delimiter) {
                        let attribute = Found {
                            at,
                            context: level.context.clone(),
                            cfg_attr: false,
                        };
                        match cuda_entry_attribute(group.stream()) {
                            Some(cfg_attr) => found.push(Found {
                                cfg_attr,
                                ..attribute
                            }),
                            None => others.push((attribute, group.stream())),
                        }
                    }
                    let context = match (&level.context, bang, level.item.as_deref()) {
                        (Context::Macro(name), _, _) => Context::Macro(name.clone()),
                        (_, Some(name), _) => Context::Macro(name),
                        (_, None, Some("impl")) if delimiter == Delimiter::Brace => Context::Impl,
                        (_, None, Some("trait")) if delimiter == Delimiter::Brace => Context::Trait,
                        (_, None, _) if delimiter == Delimiter::Brace => Context::Items,
                        (context, None, _) => context.clone(),
                    };
                    level.after_brace = delimiter == Delimiter::Brace;
                    level.ident = None;
                    let base = level.depth() + 1;
                    if base > NESTING_LIMIT {
                        return Err(too_deep);
                    }
                    let mut inner = Level::new(group.stream(), base, context);
                    inner.brace = delimiter == Delimiter::Brace;
                    stack.push(inner);
                    continue;
                }
                TokenTree::Ident(ident) => {
                    let word = ident.to_string();
                    if ITEM_KEYWORDS.contains(&word.as_str()) && level.item.is_none() {
                        level.item = Some(word.clone());
                    }
                    if bang.as_deref() == Some("macro_rules!") {
                        level.bang = Some(format!("macro_rules! {word}"));
                    }
                    level.prefix = true;
                    if NESTING_KEYWORDS.contains(&word.as_str()) {
                        level.units += 1;
                    } else if HEADER_KEYWORDS.contains(&word.as_str()) {
                        level.headers += 1;
                    } else if word == "else" {
                        level.elses += 1;
                    } else if word == "as" {
                        level.unary = 0;
                    } else {
                        level.prefix = OTHER_KEYWORDS.contains(&word.as_str());
                    }
                    // The name of a macro, should a `!` follow.
                    level.ident = (!level.prefix).then_some(word);
                }
                TokenTree::Literal(_) => {
                    level.prefix = false;
                    level.ident = None;
                }
                TokenTree::Punct(_) => {}
            }
        }
        if level.depth() > NESTING_LIMIT {
            return Err(too_deep);
        }
    }
    // Measured: reading an attribute's arguments now cannot recurse deeper than the parse.
    found.extend(others.into_iter().filter_map(|(attribute, inside)| {
        renamed(inside).map(|cfg_attr| Found {
            cfg_attr,
            ..attribute
        })
    }));
    found.sort_by_key(|f| f.at);
    Ok(found)
}

/// Whether the inside of `#[...]` is the attribute imported under another name, recognised by
/// its arguments as the macro's rules recognise it (`driver_fn(symbol = "...", version = N)`):
/// `Some(false)`, or `Some(true)` behind `cfg_attr`.
fn renamed(inside: TokenStream) -> Option<bool> {
    let attribute = |meta| syn::Attribute {
        pound_token: Default::default(),
        style: syn::AttrStyle::Outer,
        bracket_token: Default::default(),
        meta,
    };
    match syn::parse2::<syn::Meta>(inside).ok()? {
        syn::Meta::List(list) if list.path.is_ident("cfg_attr") => list
            .parse_args_with(Punctuated::<syn::Meta, Token![,]>::parse_terminated)
            .ok()?
            .into_iter()
            .skip(1)
            .any(|meta| is_entry_attribute(&attribute(meta)))
            .then_some(true),
        meta => is_entry_attribute(&attribute(meta)).then_some(false),
    }
}

/// Whether the inside of `#[...]` is a `cuda_entry` attribute: `Some(false)` for
/// `cuda_entry(...)` or a path ending in it, `Some(true)` for a `cfg_attr(...)` naming it.
fn cuda_entry_attribute(inside: TokenStream) -> Option<bool> {
    let mut last = None;
    for token in inside {
        match token {
            TokenTree::Ident(ident) => last = Some(ident.to_string()),
            TokenTree::Punct(p) if p.as_char() == ':' => {}
            TokenTree::Group(group) if last.as_deref() == Some("cfg_attr") => {
                return names_cuda_entry(group.stream()).then_some(true);
            }
            _ => break,
        }
    }
    (last.as_deref() == Some("cuda_entry")).then_some(false)
}

/// Whether `tokens`, a `cfg_attr`'s arguments, name `cuda_entry` among their attributes.
fn names_cuda_entry(tokens: TokenStream) -> bool {
    tokens
        .into_iter()
        .any(|t| matches!(t, TokenTree::Ident(i) if i == "cuda_entry"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measure(source: &str) -> Result<Vec<Found>, TooDeep> {
        pass(source.parse().expect("lexes"))
    }

    fn depth_refused(source: &str) -> bool {
        measure(source).is_err()
    }

    #[test]
    fn every_recursive_construct_counts() {
        let n = NESTING_LIMIT + 1;
        let deep = [
            format!("const X: i32 = {}1{};", "(".repeat(n), ")".repeat(n)),
            format!("{}{}", "mod a {".repeat(n), "}".repeat(n)),
            format!("const X: i32 = {}1;", "-".repeat(n)),
            format!("const X: bool = {}true;", "!".repeat(n)),
            format!("const X: {}i32 = 1;", "&".repeat(n)),
            format!("type X = {}i32{};", "V<".repeat(n), ">".repeat(n)),
            format!("type X = {}i32{};", "V<u8, ".repeat(n), ">".repeat(n)),
            format!("fn f() {{ let x = {}1; }}", "|| ".repeat(n)),
            format!("fn f() {{ let x = {}1; }}", "|a, b| ".repeat(n)),
            format!("fn f() {{ {}1; }}", "a = ".repeat(n)),
            format!("type X = {}i32;", "fn() -> ".repeat(n)),
            format!("fn f() {{ {}1; }}", "return ".repeat(n)),
            format!("type X = {}i32;", "*const ".repeat(n)),
            format!("fn f() {{ {}x; }}", ".. ".repeat(n)),
            format!(
                "fn f() {{ {}x {} }}",
                "if if ".repeat(n / 2),
                "{} {}".repeat(n)
            ),
            format!("fn f() {{ if a {{}} {} }}", "else if a {} ".repeat(32 * n)),
        ];
        for source in &deep {
            assert!(depth_refused(source), "not refused: {}", &source[..60]);
        }
    }

    #[test]
    fn long_flat_code_is_not_nesting() {
        let long = [
            "fn f(x: &V<u8>) -> i32 { -1 }\n".repeat(5000),
            format!("const X: [u8; 5000] = [{}];", "1, ".repeat(5000)),
            format!("fn f() {{ {} }}", "let a = &b - -c;\n".repeat(5000)),
            format!("fn f() {{ x = a{}; }}", " && b || !c".repeat(2000)),
            format!(
                "fn f() {{ match x {{ {} }} }}",
                "A | B => -1, ".repeat(5000)
            ),
            format!("enum E {{ {} }}", "A = 1, ".repeat(5000)),
            format!("fn f() {{ {} }}", "if a {} foo(); ".repeat(5000)),
            format!(
                "fn f() {{ {} }}",
                "if let Some(x) = y {} else if z {}\n".repeat(5000)
            ),
            format!("fn f() {{ if a {{}} {} }}", "else if a {} ".repeat(1000)),
            format!("fn f() {{ x = a{}; }}", " + -b as i32 - *c".repeat(2000)),
            format!(
                "impl X {{ {} }}",
                "fn f(&self) -> &T { &self.t }\n".repeat(5000)
            ),
        ];
        for source in &long {
            assert!(!depth_refused(source), "refused: {}", &source[..60]);
        }
    }

    #[test]
    fn the_position_of_the_refusal_is_given() {
        // `=` and 255 negations fit, the 256th does not.
        let source = format!("fn f() {{}}\nconst X: i32 = {}1;", "-".repeat(300));
        assert_eq!(
            measure(&source),
            Err(TooDeep {
                line: 2,
                column: 15 + NESTING_LIMIT
            })
        );
    }

    #[test]
    fn every_attribute_is_found_with_its_context() {
        let found = measure(
            r#"#[cuda_entry(symbol = "a", version = 2000)]
unsafe extern "C" fn a();
macro_rules! m { () => { #[cuda_entry(symbol = "b", version = 2000)] unsafe extern "C" fn b(); } }
cfg_if::cfg_if! { if #[cfg(unix)] { #[cuda_entry::cuda_entry(symbol = "c", version = 2000)] fn c(); } }
#[cfg_attr(unix, cuda_entry(symbol = "d", version = 2000))]
unsafe extern "C" fn d();
impl X { #[cuda_entry(symbol = "e", version = 2000)] unsafe extern "C" fn e(); }
pub unsafe trait T: A<B> { #[cuda_entry(symbol = "f", version = 2000)] unsafe extern "C" fn f(); }
fn g() -> impl Fn() { #[cuda_entry(symbol = "g", version = 2000)] unsafe extern "C" fn g(); }
#[cfg(any())] #[doc = "cuda_entry"] fn h() {}
macro_rules! n { () => { #[driver_fn(version = 2000, symbol = "i")] unsafe extern "C" fn i(); } }
#[cfg_attr(unix, driver_fn(symbol = "j", version = 2000))] #[derive(Debug)] #[other(x = 1)]
"#,
        )
        .expect("measured");
        let contexts: Vec<(usize, Context, bool)> = found
            .into_iter()
            .map(|f| (f.at.0, f.context, f.cfg_attr))
            .collect();
        assert_eq!(
            contexts,
            [
                (1, Context::Items, false),
                (3, Context::Macro("macro_rules! m".to_owned()), false),
                (4, Context::Macro("cfg_if!".to_owned()), false),
                (5, Context::Items, true),
                (7, Context::Impl, false),
                (8, Context::Trait, false),
                (9, Context::Items, false),
                (11, Context::Macro("macro_rules! n".to_owned()), false),
                (12, Context::Items, true),
            ]
        );
    }
}
