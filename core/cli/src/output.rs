//! The command's one way to standard output. A closed pipe (`cuda-entry check src | head -1`)
//! ends the command quietly, as it ends any other command in a pipeline; any other failure to
//! write (a full disk) is an error with a non-zero status, never a panic and never a silent
//! success.

use std::fmt::Write as _;
use std::io::{ErrorKind, Write};

use crate::common::CliError;

/// Writes `text` to standard output and flushes it.
pub(crate) fn print(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| written(&e))
}

/// What a failed write of the output means for the command.
pub(crate) fn written(e: &std::io::Error) -> CliError {
    if e.kind() == ErrorKind::BrokenPipe {
        CliError::ClosedOutput
    } else {
        CliError::Failed(format!("cannot write the output: {e}"))
    }
}

/// `value` as one JSON document and a line break: pretty-printed (two spaces a level), with every
/// character a terminal would act on (C1 controls, DEL, bidirectional overrides: what
/// [`shown`](crate::shown) escapes) written as a `\uXXXX` escape, so that the document is safe to
/// print too.
pub(crate) fn json(value: &serde_json::Value) -> String {
    // A `Value` always serializes; its strings' C0 controls are escaped already, so that a hidden
    // character left in the text is inside a string, where `\uXXXX` stands for it.
    let pretty = serde_json::to_string_pretty(value).unwrap_or_default();
    let mut out = String::with_capacity(pretty.len() + 1);
    for c in pretty.chars() {
        if c != '\n' && crate::shown::is_hidden(c) {
            let mut units = [0; 2];
            for unit in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        } else {
            out.push(c);
        }
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn escapes_what_a_terminal_would_act_on() {
        let doc = json!({"s": "a\"b\\c\nd\u{1}é\u{9b}\u{202e}\u{7f}"});
        assert_eq!(
            super::json(&doc),
            "{\n  \"s\": \"a\\\"b\\\\c\\nd\\u0001é\\u009b\\u202e\\u007f\"\n}\n"
        );
        let read: serde_json::Value = serde_json::from_str(&super::json(&doc)).expect("JSON");
        assert_eq!(read, doc);
    }

    #[test]
    fn keeps_the_order_keys_are_written_in() {
        let doc = json!({"n": 3, "list": [1, 2], "none": null, "empty": []});
        assert_eq!(
            super::json(&doc),
            "{\n  \"n\": 3,\n  \"list\": [\n    1,\n    2\n  ],\n  \"none\": null,\n  \
             \"empty\": []\n}\n"
        );
    }
}
