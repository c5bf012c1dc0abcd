//! Where the parser's positions are in a source's text, and the text around them: what `migrate`
//! edits is found by byte ranges.

use std::ops::Range;

use proc_macro2::{LineColumn, Span};
use syn::spanned::Spanned;

use super::parse::without_shebang;

/// Byte offsets of positions in a source, as proc-macro2 gives them (line 1-based, column in
/// characters) in the text the parser read (without a byte-order mark or a `#!` line).
pub(crate) struct Text<'a> {
    read: &'a str,
    /// Where the text read starts in the source.
    base: usize,
    /// Where each line of the text read starts.
    lines: Vec<usize>,
}

impl<'a> Text<'a> {
    pub(crate) fn new(source: &'a str) -> Text<'a> {
        let read = without_shebang(source);
        let lines = std::iter::once(0)
            .chain(read.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Text {
            read,
            base: source.len() - read.len(),
            lines,
        }
    }

    fn offset(&self, at: LineColumn) -> usize {
        let start = self
            .lines
            .get(at.line.saturating_sub(1))
            .copied()
            .unwrap_or(self.read.len());
        let rest = &self.read[start..];
        let byte = rest
            .char_indices()
            .nth(at.column)
            .map_or(rest.len(), |(i, _)| i);
        self.base + start + byte
    }

    pub(crate) fn range(&self, span: Span) -> Range<usize> {
        self.offset(span.start())..self.offset(span.end())
    }

    /// The text of `node` as written.
    pub(crate) fn of(&self, node: &dyn quote::ToTokens) -> String {
        let range = self.range(node.span());
        self.read
            .get(range.start - self.base..range.end - self.base)
            .unwrap_or_default()
            .to_owned()
    }

    /// The `//` comment lines right above the line `offset` is on (not doc comments, which are
    /// attributes), and where the first starts; `offset` itself when there are none.
    pub(crate) fn comments_above(&self, offset: usize) -> (usize, Vec<String>) {
        let mut at = offset - self.base;
        let line_start = |end: usize| self.read[..end].rfind('\n').map_or(0, |i| i + 1);
        if !self.read[line_start(at)..at].trim().is_empty() {
            return (offset, Vec::new());
        }
        let mut comments = Vec::new();
        let mut start = offset;
        while let Some(end) = line_start(at).checked_sub(1) {
            let begin = line_start(end);
            let line = self.read[begin..end].trim();
            let doc = line.starts_with("///") || line.starts_with("//!");
            if !line.starts_with("//") || doc {
                break;
            }
            comments.insert(0, line.to_owned());
            start = self.base
                + begin
                + (self.read[begin..end].len() - self.read[begin..end].trim_start().len());
            at = begin;
        }
        (start, comments)
    }

    /// The indentation of the line `offset` is on.
    pub(crate) fn indent(&self, offset: usize) -> String {
        let at = offset - self.base;
        let start = self.read[..at].rfind('\n').map_or(0, |i| i + 1);
        self.read[start..at]
            .chars()
            .take_while(|c| c.is_whitespace())
            .collect()
    }
}
