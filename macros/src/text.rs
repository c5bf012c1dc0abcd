//! Expansion written as source text where no span matters.
//!
//! Inside the compiler, every token a proc macro makes crosses the proc-macro bridge (built on
//! the macro's side, sent, rebuilt on the compiler's), and the macro is compiled without
//! optimisation in the dev profile: building the fixed parts of a declaration's expansion token
//! by token was most of what the attribute cost a build (docs/performance.md). Runs of code whose
//! tokens all take the call site's span (what `quote!` gives them anyway) are written here as text
//! and handed to the compiler's lexer, all the runs of one [`Text`] in one call; the tokens that
//! carry the declaration's spans are put between the runs as they are. (Small runs between many
//! spanned tokens, as in the ABI assertions, measured slower as text than as `quote!`: they stay
//! tokens.)

use std::fmt::Write as _;

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use quote::{ToTokens, quote};

/// A path the expansion repeats: as text where it is the call site's (made by the macro), else as
/// the tokens it was given as.
pub(crate) enum PathCode {
    Text(String),
    Tokens(TokenStream),
}

/// Code text and token streams, in order. Every run of text of one `Text` is lexed in one call
/// when it is finished: the runs are written one after the other, each in parentheses, and each
/// parenthesised group's tokens take the run's place.
#[derive(Default)]
pub(crate) struct Text {
    /// Every run, each in `(` `)`; the last one still open when `open`.
    code: String,
    open: bool,
    /// How many runs `code` holds.
    runs: usize,
    parts: Vec<Part>,
}

enum Part {
    /// The next run of `code`.
    Run,
    Tokens(TokenStream),
}

impl Text {
    pub(crate) fn new() -> Text {
        Text::default()
    }

    /// The text of the current run, begun if need be.
    fn run(&mut self) -> &mut String {
        if !self.open {
            self.code.push('(');
            self.parts.push(Part::Run);
            self.open = true;
            self.runs += 1;
        }
        &mut self.code
    }

    fn close(&mut self) {
        if self.open {
            self.code.push(')');
            self.open = false;
        }
    }

    /// `code`, at the call site. The caller keeps each run of text balanced: a group opened in a
    /// run is closed in it.
    pub(crate) fn code(&mut self, code: &str) -> &mut Text {
        self.run().push_str(code);
        self
    }

    /// `value` displayed (a number's suffix is the caller's: `8usize`).
    pub(crate) fn display(&mut self, value: impl std::fmt::Display) -> &mut Text {
        // Writing to a `String` cannot fail.
        let _ = write!(self.run(), "{value}");
        self
    }

    /// A string literal of `value`, escaped as `proc_macro2::Literal::string` escapes it.
    pub(crate) fn str(&mut self, value: &str) -> &mut Text {
        let run = self.run();
        if proc_macro::is_available() {
            // The compiler's own escaping, compiled optimised (this crate may not be): the
            // messages are most of the text.
            let _ = write!(run, "{}", proc_macro::Literal::string(value));
        } else {
            run.push('"');
            escape(value, run);
            run.push('"');
        }
        self
    }

    /// A path: its text, or its tokens where they carry spans of their own.
    pub(crate) fn path(&mut self, path: &PathCode) -> &mut Text {
        match path {
            PathCode::Text(text) => self.code(text),
            PathCode::Tokens(tokens) => self.tokens(tokens),
        }
    }

    /// A C string literal of `value` (a C identifier: no NUL).
    pub(crate) fn c_str(&mut self, value: &str) -> &mut Text {
        let run = self.run();
        run.push_str("c\"");
        escape(value, run);
        run.push('"');
        self
    }

    /// A byte string literal of `bytes`, escaped as `proc_macro2::Literal::byte_string` escapes
    /// it.
    pub(crate) fn bytes(&mut self, bytes: &[u8]) -> &mut Text {
        let run = self.run();
        run.push_str("b\"");
        for (i, &b) in bytes.iter().enumerate() {
            match b {
                b'\0' if matches!(bytes.get(i + 1), Some(b'0'..=b'7')) => run.push_str(r"\x00"),
                b'\0' => run.push_str(r"\0"),
                b'\t' => run.push_str(r"\t"),
                b'\n' => run.push_str(r"\n"),
                b'\r' => run.push_str(r"\r"),
                b'"' => run.push_str("\\\""),
                b'\\' => run.push_str(r"\\"),
                b' '..=b'~' => run.push(char::from(b)),
                _ => {
                    let _ = write!(run, r"\x{b:02X}");
                }
            }
        }
        run.push('"');
        self
    }

    /// `tokens` as they are, spans and all.
    pub(crate) fn tokens(&mut self, tokens: impl ToTokens) -> &mut Text {
        self.close();
        self.parts.push(Part::Tokens(tokens.into_token_stream()));
        self
    }

    pub(crate) fn finish(mut self) -> TokenStream {
        self.close();
        let runs: Option<Vec<TokenStream>> = lex(&self.code).and_then(|lexed| {
            lexed
                .into_iter()
                .map(|tree| match tree {
                    TokenTree::Group(g) if g.delimiter() == Delimiter::Parenthesis => {
                        Some(g.stream())
                    }
                    _ => None,
                })
                .collect()
        });
        // As many groups as runs: a run that closed a parenthesis of its own would leave more.
        let runs = runs.filter(|runs| runs.len() == self.runs);
        let Some(runs) = runs else {
            // Only a fault of this crate's text: said as an error rather than a panic.
            let message = format!(
                "cuda-entry internal error: the expansion text does not lex as balanced runs: {}",
                self.code
            );
            return quote!(::core::compile_error! { #message });
        };
        let mut runs = runs.into_iter();
        let mut out = TokenStream::new();
        for part in self.parts {
            match part {
                Part::Run => out.extend(runs.next()),
                Part::Tokens(tokens) => out.extend(tokens),
            }
        }
        out
    }
}

impl ToTokens for PathCode {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            PathCode::Text(text) => tokens.extend(lex(text)),
            PathCode::Tokens(path) => path.to_tokens(tokens),
        }
    }
}

/// `code` lexed: by the compiler's lexer inside it (`proc_macro2` would lex it first with its
/// own, compiled here without optimisation, to catch what the compiler cannot recover from;
/// this crate's text is well-formed, which its tests check through that lexer), by `proc_macro2`'s
/// elsewhere (the crate's tests and fuzz targets).
fn lex(code: &str) -> Option<TokenStream> {
    if proc_macro::is_available() {
        code.parse::<proc_macro::TokenStream>()
            .ok()
            .map(TokenStream::from)
    } else {
        code.parse().ok()
    }
}

/// `value` escaped into a string literal's body as `proc_macro2`'s `Literal::string` writes it
/// (`char::escape_debug`, but `'` as itself and a NUL before a digit as `\x00`).
fn escape(value: &str, out: &mut String) {
    let mut chars = value.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            ' '..='~' if ch != '"' && ch != '\\' => out.push(ch),
            '\'' => out.push(ch),
            '\0' if chars.peek().is_some_and(|next| ('0'..='7').contains(next)) => {
                out.push_str(r"\x00");
            }
            _ => out.extend(ch.escape_debug()),
        }
    }
}

#[cfg(test)]
mod tests {
    use proc_macro2::Literal;

    use super::*;

    #[test]
    fn strings_are_escaped_as_literals_are() {
        for value in [
            "plain",
            "a \"quoted\" \\ path",
            "it's\n\ttabbed\r",
            "\0\u{1}\u{7f}\0",
            "nul then digit \u{0}7",
            "é ü \u{200b} \u{301} 😀",
            "",
        ] {
            let mut text = String::from("\"");
            escape(value, &mut text);
            text.push('"');
            assert_eq!(text, Literal::string(value).to_string(), "{value:?}");
        }
    }

    #[test]
    fn byte_and_c_strings_are_escaped_as_literals_are() {
        let bytes = b"CUEN\x01\0\x007\t\n\r\"\\ ~\x7f\xff";
        let mut text = Text::new();
        text.bytes(bytes);
        assert_eq!(text.code, format!("({}", Literal::byte_string(bytes)));
        let mut text = Text::new();
        text.c_str("cuMemAlloc_v2");
        let c = std::ffi::CString::new("cuMemAlloc_v2").expect("no NUL");
        assert_eq!(text.code, format!("({}", Literal::c_string(&c)));
    }

    #[test]
    fn runs_and_tokens_keep_their_order() {
        let name = proc_macro2::Ident::new("name", proc_macro2::Span::call_site());
        let mut text = Text::new();
        text.code("fn ")
            .tokens(&name)
            .code("() { let x = ")
            .str("a\"b")
            .code("; }");
        assert_eq!(
            text.finish().to_string(),
            quote!(
                fn name() {
                    let x = "a\"b";
                }
            )
            .to_string()
        );
    }

    #[test]
    fn text_that_does_not_lex_is_an_error_not_a_panic() {
        for bad in ["fn f() {", "a) (b", "\"open"] {
            let mut text = Text::new();
            text.code(bad);
            let out = text.finish().to_string();
            assert!(out.contains("compile_error"), "{bad}: {out}");
        }
    }
}
