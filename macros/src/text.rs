//! Expansion written as source text where no span matters.
//!
//! Inside the compiler, every token a proc macro makes crosses the proc-macro bridge (built on
//! the macro's side, sent, rebuilt on the compiler's), and the macro is compiled without
//! optimisation in the dev profile: building the fixed parts of a declaration's expansion token
//! by token was most of what the attribute cost a build (docs/performance.md). Runs of code whose
//! tokens all take the call site's span (what `quote!` gives them anyway) are written here as text
//! and handed to the compiler's lexer once per run; the tokens that carry the declaration's spans
//! are put between the runs as they are.

use std::fmt::Write as _;

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

/// A path the expansion repeats: as text where it is the call site's (made by the macro), else as
/// the tokens it was given as.
pub(crate) enum PathCode {
    Text(String),
    Tokens(TokenStream),
}

/// Code text and token streams, in order.
#[derive(Default)]
pub(crate) struct Text {
    out: TokenStream,
    run: String,
}

impl Text {
    pub(crate) fn new() -> Text {
        Text::default()
    }

    /// `code`, at the call site. The caller keeps each run of text balanced: a group opened in a
    /// run is closed in it (around tokens, a group is made as tokens).
    pub(crate) fn code(&mut self, code: &str) -> &mut Text {
        self.run.push_str(code);
        self
    }

    /// `value` displayed (a number's suffix is the caller's: `8usize`).
    pub(crate) fn display(&mut self, value: impl std::fmt::Display) -> &mut Text {
        // Writing to a `String` cannot fail.
        let _ = write!(self.run, "{value}");
        self
    }

    /// A string literal of `value`, escaped as `proc_macro2::Literal::string` escapes it.
    pub(crate) fn str(&mut self, value: &str) -> &mut Text {
        self.run.push('"');
        escape(value, &mut self.run);
        self.run.push('"');
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
        self.run.push_str("c\"");
        escape(value, &mut self.run);
        self.run.push('"');
        self
    }

    /// A byte string literal of `bytes`, escaped as `proc_macro2::Literal::byte_string` escapes
    /// it.
    pub(crate) fn bytes(&mut self, bytes: &[u8]) -> &mut Text {
        self.run.push_str("b\"");
        for (i, &b) in bytes.iter().enumerate() {
            match b {
                b'\0' if matches!(bytes.get(i + 1), Some(b'0'..=b'7')) => {
                    self.run.push_str(r"\x00");
                }
                b'\0' => self.run.push_str(r"\0"),
                b'\t' => self.run.push_str(r"\t"),
                b'\n' => self.run.push_str(r"\n"),
                b'\r' => self.run.push_str(r"\r"),
                b'"' => self.run.push_str("\\\""),
                b'\\' => self.run.push_str(r"\\"),
                b' '..=b'~' => self.run.push(char::from(b)),
                _ => {
                    let _ = write!(self.run, r"\x{b:02X}");
                }
            }
        }
        self.run.push('"');
        self
    }

    /// `tokens` as they are, spans and all.
    pub(crate) fn tokens(&mut self, tokens: impl ToTokens) -> &mut Text {
        self.flush();
        tokens.to_tokens(&mut self.out);
        self
    }

    pub(crate) fn finish(mut self) -> TokenStream {
        self.flush();
        self.out
    }

    fn flush(&mut self) {
        if self.run.is_empty() {
            return;
        }
        let tokens = lex(&self.run).unwrap_or_else(|| {
            // Only a fault of this crate's text: said as an error rather than a panic.
            let message = format!(
                "cuda-entry internal error: the expansion text does not lex: {}",
                self.run
            );
            quote!(::core::compile_error! { #message })
        });
        self.out.extend(tokens);
        self.run.clear();
    }
}

impl From<Text> for TokenStream {
    fn from(text: Text) -> TokenStream {
        text.finish()
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
pub(crate) fn escape(value: &str, out: &mut String) {
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
        assert_eq!(text.run, Literal::byte_string(bytes).to_string());
        let mut text = Text::new();
        text.c_str("cuMemAlloc_v2");
        let c = std::ffi::CString::new("cuMemAlloc_v2").expect("no NUL");
        assert_eq!(text.run, Literal::c_string(&c).to_string());
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
        let mut text = Text::new();
        text.code("fn f() {");
        let out = text.finish().to_string();
        assert!(out.contains("compile_error"), "{out}");
    }
}
