//! The command and the macro reject the same declarations for the same reasons: every case of the
//! workspace's compile-fail suite (tests/ui/*.rs) is run through `cuda-entry check`, and the
//! mistakes it reports are the `error:` lines of the case's reviewed compiler output
//! (tests/ui/*.stderr): the same messages, word for word, at the same line and column, in the
//! same order. Every accepted form (tests/ui-pass/*.rs) is accepted by the command too.

mod common;

use std::path::{Path, PathBuf};

use common::{cuda_entry, json, run};
use serde_json::Value;

/// Cases whose error comes from rustc, not from the macro's rules: the command reads sources
/// and cannot know the size of a Rust type, which the expansion asserts in a `const` that rustc
/// evaluates. The command accepts these declarations; the build rejects them.
const RUSTC_ERRORS: &[(&str, &str)] = &[
    (
        "alias-pointee-mismatch",
        "what an alias of a pointer points to: the expansion's `const` assertion (E0080), \
         evaluated by rustc",
    ),
    (
        "descriptor-of-older-version",
        "the size of a struct of the user's behind a pointer: the expansion's `const` assertion \
         (E0080), evaluated by rustc",
    ),
    (
        "integer-alias-where-float-due",
        "the class of an alias: the expansion's `const` assertion (E0080), evaluated by rustc",
    ),
    (
        "value-where-pointer-due",
        "whether a path names a pointer: the expansion's `CPointer` bound (E0277), checked by \
         rustc",
    ),
];

/// Cases the command cannot read: declarations written by a `macro_rules!`, which it does not
/// expand (it lists them as not checked, status 3).
const UNREADABLE: &[&str] = &["macro-rules-list", "version-constant-through-macro-rules"];

/// Cases whose error is one of rustc's lints on an accepted declaration (`error: ...` without a
/// code, under `#![deny(...)]`): the command accepts them.
const LINTS: &[&str] = &["missing-docs", "unused-declaration"];

/// The kind names of each case's mistakes, in order (`MistakeKind::name()`, which the macro does
/// not print and the command does): one rule, one name.
const KINDS: &[(&str, &[&str])] = &[
    ("async", &["async_function"]),
    ("c-void-by-value", &["not_a_pointer"]),
    ("crate-not-a-path", &["wrong_crate_path"]),
    ("integer-where-float-due", &["float_mismatch"]),
    ("missing-return", &["missing_return"]),
    ("pointee-size-mismatch", &["pointee_mismatch"]),
    ("pointer-slot-too-small", &["pointee_mismatch"]),
    (
        "signature-of-another-version",
        &["pointee_mismatch", "pointee_mismatch"],
    ),
    ("size-mismatch", &["layout_mismatch"]),
    ("wrong-return-size", &["layout_mismatch"]),
    ("block-item-without-attribute", &["missing_attribute"]),
    (
        "block-with-arguments",
        &["arguments_on_block", "missing_attribute"],
    ),
    ("block-without-unsafe", &["missing_unsafe"]),
    ("body", &["function_body"]),
    ("duplicate-argument", &["duplicate_argument"]),
    ("duplicate-attribute", &["duplicate_attribute"]),
    ("empty-symbol", &["symbol_not_an_identifier"]),
    ("generics", &["generics"]),
    (
        "independent-errors-combined",
        &[
            "unknown_symbol",
            "version_not_a_literal",
            "no_per_thread_variant",
        ],
    ),
    ("missing-abi", &["missing_abi"]),
    ("missing-symbol", &["missing_symbol"]),
    ("missing-unsafe", &["missing_unsafe"]),
    ("missing-version", &["missing_version"]),
    ("misspelled-symbol", &["unknown_symbol"]),
    (
        "no-follow-on-errors-at-call-sites",
        &["version_not_a_literal"],
    ),
    ("no-follow-on-errors-in-a-block", &["missing_attribute"]),
    ("not-a-c-type", &["not_a_c_type", "not_a_c_type"]),
    ("optional-with-value", &["optional_with_value"]),
    ("other-abi", &["wrong_abi"]),
    ("per-thread-with-legacy-version", &["wrong_stream_flavour"]),
    ("per-thread-without-variant", &["no_per_thread_variant"]),
    (
        "renamed-attribute-misspelled-argument",
        &["missing_version", "unknown_argument"],
    ),
    ("self-parameter", &["self_parameter"]),
    ("stream-bad-value", &["wrong_stream"]),
    ("suffixed-symbol-ptds", &["suffixed_symbol"]),
    ("suffixed-symbol-ptsz", &["suffixed_symbol"]),
    ("suffixed-symbol-v2", &["suffixed_symbol"]),
    ("symbol-with-nul", &["symbol_not_an_identifier"]),
    ("unknown-argument", &["unknown_argument"]),
    ("unknown-symbol-without-opt-in", &["unknown_symbol"]),
    ("unverified-on-known-symbol", &["needless_unverified"]),
    ("variadic", &["variadic"]),
    ("version-absurd", &["not_a_version"]),
    ("version-cuda-version-constant", &["version_not_a_literal"]),
    ("version-expression", &["version_not_a_literal"]),
    ("version-malformed", &["not_a_version"]),
    ("version-negative", &["not_a_version"]),
    ("version-not-a-typedef", &["not_a_typedef"]),
    ("version-string", &["version_not_a_literal"]),
    ("version-with-suffix", &["version_with_suffix"]),
    ("version-zero", &["not_a_version"]),
    ("wrong-arity", &["wrong_arity"]),
];

/// One mistake: its message, line and column; the kind where the command names it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Reported {
    message: String,
    line: u64,
    column: u64,
}

/// The workspace's `tests/` folder.
fn workspace_tests() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests")
}

/// The `.rs` cases of `folder`, by name, sorted.
fn cases(folder: &str) -> Vec<(String, PathBuf)> {
    let dir = workspace_tests().join(folder);
    let mut cases: Vec<(String, PathBuf)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "rs"))
        .map(|path| {
            let name = path
                .file_stem()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            (name, path)
        })
        .collect();
    cases.sort();
    cases
}

/// The macro's errors in a reviewed `.stderr`: each `error: MESSAGE` line and the ` --> FILE:
/// LINE:COLUMN` under it (the lines between are the message's notes, which the command leaves
/// out). rustc's own errors (`error[E....]`) are returned apart, by code.
fn macro_errors(stderr: &str) -> (Vec<Reported>, Vec<String>) {
    let mut errors = Vec::new();
    let mut rustc = Vec::new();
    let mut lines = stderr.lines();
    while let Some(line) = lines.next() {
        if let Some(message) = line.strip_prefix("error: ") {
            let at = lines
                .by_ref()
                .find_map(|l| l.trim_start().strip_prefix("--> "))
                .expect("` --> ` under the error");
            let mut parts = at.rsplitn(3, ':');
            let column = parts.next().and_then(|c| c.parse().ok()).expect("a column");
            let line = parts.next().and_then(|l| l.parse().ok()).expect("a line");
            errors.push(Reported {
                message: message.to_owned(),
                line,
                column,
            });
        } else if let Some(code) = line.strip_prefix("error[") {
            rustc.push(code.split(']').next().unwrap_or(code).to_owned());
        }
    }
    (errors, rustc)
}

/// `cuda-entry check --json` on one file, against any driver (the table alone: only the macro's
/// rules can fail a declaration).
fn check(path: &Path) -> Value {
    let out = run(
        cuda_entry(),
        &[
            "check",
            "--json",
            "--driver-version",
            "99990",
            path.to_str().expect("a UTF-8 path"),
        ],
    );
    assert!(out.status == 0 || out.status == 1, "{out:?}");
    json(&out)
}

/// Every mistake the command reports in a document, in order, each once (an `extern` block's
/// mistakes are reported with each of its declarations, the macro reports them once), with its
/// kind.
fn command_mistakes(doc: &Value) -> Vec<(Reported, String)> {
    let mut all: Vec<(Reported, String)> = Vec::new();
    for d in doc["declarations"].as_array().expect("declarations") {
        for m in d["mistakes"].as_array().expect("mistakes") {
            let reported = Reported {
                message: m["message"].as_str().expect("a message").to_owned(),
                line: m["line"].as_u64().expect("a line"),
                column: m["column"].as_u64().expect("a column"),
            };
            if !all.iter().any(|(r, _)| *r == reported) {
                all.push((reported, m["kind"].as_str().expect("a kind").to_owned()));
            }
        }
    }
    all
}

#[test]
fn the_command_rejects_what_the_macro_rejects_with_its_words() {
    let cases = cases("ui");
    assert!(cases.len() >= 40, "only {} cases", cases.len());
    let mut kinds_checked = 0;
    for (name, path) in &cases {
        let stderr = std::fs::read_to_string(path.with_extension("stderr"))
            .unwrap_or_else(|e| panic!("{name}.stderr: {e}"));
        if UNREADABLE.contains(&name.as_str()) {
            continue;
        }
        let (expected, rustc) = macro_errors(&stderr);
        let doc = check(path);
        let reported = command_mistakes(&doc);
        if LINTS.contains(&name.as_str()) {
            assert!(reported.is_empty(), "{name}: a lint, yet {reported:?}");
            continue;
        }
        if let Some((_, why)) = RUSTC_ERRORS.iter().find(|(case, _)| case == name) {
            assert!(
                expected.is_empty() && !rustc.is_empty(),
                "{name} is listed as rejected by rustc ({why}), but its .stderr has macro errors \
                 or none of rustc's:\n{stderr}"
            );
            assert!(
                reported.is_empty(),
                "{name}: rejected by rustc only ({why}), yet the command reports {reported:?}"
            );
            continue;
        }
        assert!(
            rustc.is_empty(),
            "{name}: rustc's own errors {rustc:?}: list the case in RUSTC_ERRORS with the reason"
        );
        assert!(
            !expected.is_empty(),
            "{name}: no `error:` line in\n{stderr}"
        );
        let messages: Vec<Reported> = reported.iter().map(|(r, _)| r.clone()).collect();
        assert_eq!(
            messages, expected,
            "{name}: the command and the macro differ"
        );
        // The command fails exactly the declarations that have mistakes.
        for d in doc["declarations"].as_array().expect("declarations") {
            let rejected = !d["mistakes"].as_array().expect("mistakes").is_empty();
            assert_eq!(d["status"] == "fail", rejected, "{name}: {d}");
            if rejected {
                assert_eq!(d["kind"], d["mistakes"][0]["kind"], "{name}: {d}");
                assert_eq!(d["message"], d["mistakes"][0]["message"], "{name}: {d}");
            }
        }
        let kinds: Vec<&str> = reported.iter().map(|(_, k)| k.as_str()).collect();
        let listed = KINDS
            .iter()
            .find(|(case, _)| case == name)
            .unwrap_or_else(|| panic!("{name}: list its kinds in KINDS: {kinds:?}"));
        assert_eq!(kinds, listed.1, "{name}");
        kinds_checked += 1;
    }
    assert_eq!(
        kinds_checked,
        KINDS.len(),
        "KINDS lists a case that is gone"
    );
}

#[test]
fn the_command_accepts_what_the_macro_accepts() {
    let cases = cases("ui-pass");
    assert!(!cases.is_empty());
    for (name, path) in &cases {
        if UNREADABLE.contains(&name.as_str()) {
            continue;
        }
        let doc = check(path);
        let declarations = doc["declarations"].as_array().expect("declarations");
        assert!(!declarations.is_empty(), "{name}: no declaration found");
        for d in declarations {
            assert_eq!(d["mistakes"], Value::Array(Vec::new()), "{name}: {d}");
            assert_eq!(d["status"], "ok", "{name}: {d}");
        }
        assert_eq!(doc["totals"]["not_checked"], 0, "{name}: {doc}");
    }
}
