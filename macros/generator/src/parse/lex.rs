//! The lexer: C tokens without comments, each with its line and the `#if` conditions in force.

use super::{ParseError, err};

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
    pub(super) line: usize,
    /// The condition stack in force (index into the condition snapshots).
    pub(super) cond: usize,
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

/// The tokens of a header, with what its preprocessor lines said.
pub(crate) struct Lexed {
    pub(crate) tokens: Vec<Token>,
    /// `#define PFN_a PFN_b` aliases.
    pub(super) aliases: Vec<(String, String)>,
    /// Condition stack snapshots; `Token::cond` indexes this.
    pub(super) conds: Vec<Vec<String>>,
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
