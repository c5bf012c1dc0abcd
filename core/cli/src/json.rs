//! A small JSON writer: the command only ever writes JSON, so a value tree and an escaper are all
//! it needs (no serde).

use std::fmt::{self, Write};

/// A JSON value, built by the subcommands and printed once.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    Number(u64),
    String(String),
    Array(Vec<Json>),
    /// Keys in insertion order (the order the documentation lists them in).
    Object(Vec<(&'static str, Json)>),
}

impl Json {
    /// An object from `(key, value)` pairs.
    pub(crate) fn object(fields: impl IntoIterator<Item = (&'static str, Json)>) -> Json {
        Json::Object(fields.into_iter().collect())
    }

    /// A string value.
    pub(crate) fn str(s: impl Into<String>) -> Json {
        Json::String(s.into())
    }

    /// A string, or `null` for `None`.
    pub(crate) fn opt_str(s: Option<impl Into<String>>) -> Json {
        s.map_or(Json::Null, |s| Json::String(s.into()))
    }

    /// A number, or `null` for `None`.
    pub(crate) fn opt_number(n: Option<u32>) -> Json {
        n.map_or(Json::Null, |n| Json::Number(n.into()))
    }

    /// An array of numbers.
    pub(crate) fn numbers(ns: impl IntoIterator<Item = u32>) -> Json {
        Json::Array(ns.into_iter().map(|n| Json::Number(n.into())).collect())
    }

    fn write(&self, out: &mut String, indent: usize) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Number(n) => {
                let _ = write!(out, "{n}");
            }
            Json::String(s) => escape_into(s, out),
            Json::Array(items) if items.is_empty() => out.push_str("[]"),
            Json::Array(items) => {
                // Arrays of scalars stay on one line; arrays of objects get a line each.
                let flat = items
                    .iter()
                    .all(|i| !matches!(i, Json::Array(_) | Json::Object(_)));
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                        if flat {
                            out.push(' ');
                        }
                    }
                    if !flat {
                        newline(out, indent + 1);
                    }
                    item.write(out, indent + 1);
                }
                if !flat {
                    newline(out, indent);
                }
                out.push(']');
            }
            Json::Object(fields) if fields.is_empty() => out.push_str("{}"),
            Json::Object(fields) => {
                out.push('{');
                for (i, (key, value)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    newline(out, indent + 1);
                    escape_into(key, out);
                    out.push_str(": ");
                    value.write(out, indent + 1);
                }
                newline(out, indent);
                out.push('}');
            }
        }
    }
}

fn newline(out: &mut String, indent: usize) {
    out.push('\n');
    for _ in 0..indent {
        out.push_str("  ");
    }
}

/// Writes `s` as a JSON string literal: quotes, backslashes and control characters escaped, and
/// the other characters a terminal would act on (C1 controls, bidirectional overrides), so that
/// the document is safe to print too.
pub(crate) fn escape_into(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if crate::shown::is_hidden(c) => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

impl fmt::Display for Json {
    /// Pretty-printed, two spaces per level.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        self.write(&mut out, 0);
        f.write_str(&out)
    }
}

#[cfg(test)]
mod tests {
    use super::Json;

    #[test]
    fn escapes_what_json_requires() {
        let s = Json::str("a\"b\\c\nd\u{1}é\u{9b}\u{202e}");
        assert_eq!(s.to_string(), r#""a\"b\\c\nd\u0001é\u009b\u202e""#);
    }

    #[test]
    fn nests_objects_and_arrays() {
        let doc = Json::object([
            ("n", Json::Number(3)),
            ("list", Json::numbers([1, 2])),
            ("none", Json::Null),
            (
                "objs",
                Json::Array(vec![Json::object([("b", Json::Bool(true))])]),
            ),
            ("empty", Json::Array(Vec::new())),
        ]);
        assert_eq!(
            doc.to_string(),
            "{\n  \"n\": 3,\n  \"list\": [1, 2],\n  \"none\": null,\n  \"objs\": [\n    {\n      \
             \"b\": true\n    }\n  ],\n  \"empty\": []\n}"
        );
    }
}
