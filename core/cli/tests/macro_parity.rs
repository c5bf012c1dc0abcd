//! The command and the macro reject the same declarations for the same reasons: every case of the
//! workspace's compile-fail suite (tests/ui/*.rs) is run through `cuda-entry check`, and the
//! mistakes it reports are the `error:` lines of the case's reviewed compiler output
//! (tests/ui/*.stderr): the same messages, word for word, at the same line and column, in the
//! same order. Every accepted form (tests/ui-pass/*.rs) is accepted by the command too. The
//! exceptions are listed, each with its reason, and held to it: a case rustc rejects for what
//! the command cannot see, and a case whose declarations the command cannot read (not checked,
//! which is neither a pass nor a rejection).

mod common;

use std::path::{Path, PathBuf};

use common::{cuda_entry, json, run};
use serde_json::Value;

/// Cases whose error comes from rustc, not from the macro's rules: the command reads sources
/// and cannot know the size of a Rust type, which the expansion asserts in a `const` that rustc
/// evaluates. The command accepts these declarations; the build rejects them.
const RUSTC_ERRORS: &[(&str, &str)] = &[
    (
        "reference-to-void",
        "that a reference (not a raw pointer) points to `c_void`: the expansion's `const` \
         assertion (E0080), evaluated by rustc",
    ),
    (
        "reference-shorter-than-extent",
        "the size of what a reference points to against the extent the driver reaches: the \
         expansion's `const` assertion (E0080), evaluated by rustc",
    ),
    (
        "integer-in-pointer-slot",
        "that what a `void **` points to is a pointer, behind an alias: the expansion's `CSlot` \
         bound (E0277), checked by rustc",
    ),
    (
        "forged-proof",
        "an impl of a sealed helper trait, no declaration: rustc's unsatisfied seal (E0277)",
    ),
    (
        "forged-write-through",
        "an impl of a sealed helper trait, no declaration: rustc's unsatisfied seal (E0277)",
    ),
    (
        "alias-pointee-mismatch",
        "what an alias of a pointer points to: the expansion's `const` assertion (E0080), \
         evaluated by rustc",
    ),
    (
        "alias-callback-not-a-function",
        "whether an alias names a function pointer: the expansion's `const` assertion (E0080), \
         evaluated by rustc",
    ),
    (
        "alias-callback-rust-abi",
        "the ABI of a function pointer behind an alias: the expansion's `const` assertion \
         (E0080), evaluated by rustc",
    ),
    (
        "alias-callback-wrong-parameter",
        "the class of a callback's parameter behind an alias: the expansion's `const` assertion \
         (E0080), evaluated by rustc",
    ),
    (
        "alias-pointee-of-no-header-layout",
        "the layout of a struct of the user's behind an alias of a pointer: the expansion's \
         `const` assertion (E0080), evaluated by rustc",
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
        "enum-status",
        "whether a status type holds every `int` (an enum, a padded struct): the expansion's \
         `const` assertion (E0080), evaluated by rustc",
    ),
    (
        "invalid-values-through-aliases",
        "what aliases are (a `bool`, a `NonNull`, a float array): the expansion's `const` \
         assertions (E0080), evaluated by rustc",
    ),
    (
        "read-only-through-alias",
        "whether an alias of a pointer promises no write: the expansion's `const` assertion \
         (E0080), evaluated by rustc",
    ),
    (
        "read-only-out-pointer",
        "whether a shared reference may be written through (a `Cell`, an atomic, or a type \
         without interior mutability, whatever it is named): the expansion's `const` assertion \
         (E0080), evaluated by rustc",
    ),
    (
        "read-only-shared-reference",
        "whether what a shared reference points to has interior mutability (a type of the \
         user's named `Cell` has not): the expansion's `const` assertions (E0080), evaluated by \
         rustc",
    ),
    (
        "unproven-written-pointee",
        "whether what the driver writes is proven to hold every value (`FromDriver`, through \
         arrays, wrappers and the user's types): the expansion's `const` assertions (E0080), \
         evaluated by rustc",
    ),
    (
        "unproven-callback-parameter",
        "whether a callback's parameter types are proven to hold every value the driver passes: \
         the expansion's `const` assertions (E0080), evaluated by rustc",
    ),
    (
        "by-value-not-proven",
        "how a type is passed by value (`ByValue`: a newtype of `u32`, a record of floats, a \
         pointer, a struct without the proof): the expansion's `const` assertions (E0080), \
         evaluated by rustc",
    ),
    (
        "derive-from-driver-field",
        "a field not proven `FromDriver`: the derive's assertion (E0277), evaluated by rustc",
    ),
    (
        "shadowed-primitive",
        "what a name of the user's (`ffi::u64`) is: the expansion's `const` assertions (E0080), \
         evaluated by rustc",
    ),
    (
        "unverified-status-size",
        "the size of a status type an `unverified` declaration names: the expansion's `const` \
         assertion (E0080), evaluated by rustc",
    ),
    (
        "user-type-named-c-void",
        "what a type named `c_void` is: the expansion's `const` assertion (E0080), evaluated by \
         rustc",
    ),
    (
        "value-where-pointer-due",
        "whether a path names a pointer: the expansion's `CPointer` bound (E0277), checked by \
         rustc",
    ),
];

/// Cases whose error is `#[derive(FromDriver)]`'s, on a type, not a declaration: the command
/// reads declarations, and these have none.
const DERIVE_ERRORS: &[(&str, &str)] = &[
    (
        "derive-from-driver-enum",
        "an enum cannot be proven to hold every value of its size",
    ),
    (
        "derive-from-driver-without-repr",
        "a type with Rust's layout, not the C header's",
    ),
    (
        "derive-by-value-refused",
        "types without a C layout to compute classes from, and a field that is no C type",
    ),
];

/// Cases whose error is a rustc lint the case denies, on what the expansion declares: the
/// declarations are the macro's to accept and the command's too; whether the crate documents
/// or uses them is the compiler's to say.
const LINT_ERRORS: &[(&str, &str)] = &[
    (
        "missing-docs",
        "`#![deny(missing_docs)]` on an undocumented public declaration: a lint of the crate",
    ),
    (
        "improper-ctypes-kept",
        "`#![deny(improper_ctypes)]` on a struct without `#[repr(C)]` passed by value: rustc's \
         FFI lint, on the signature the expansion declares in an `extern` block",
    ),
    (
        "unused-declaration",
        "`#![deny(dead_code)]` on a declaration nothing uses: a lint of the crate",
    ),
];

/// Cases (compile-fail or accepted) whose declarations are written in a `macro_rules!` body:
/// the command does not expand macros, so it lists each as not checked (status 3: a deployment
/// gate does not pass it) and judges none. Not a rejection, and not a pass either.
const NOT_CHECKED: &[(&str, &str)] = &[
    (
        "version-constant-through-macro-rules",
        "the declaration is in `macro_rules! declare`; the macro rejects an invocation's \
         `CUDA_VERSION`, which the command never sees",
    ),
    (
        "macro-rules-list",
        "the declarations are in `macro_rules! driver_functions` and `macro_rules! \
         with_expressions`, which the command does not expand",
    ),
    (
        "not-a-c-type-in-fragment",
        "the declaration is in `macro_rules! declare`; the macro rejects the `impl Copy` its \
         invocation passes as a `$t:ty` fragment, which the command never sees",
    ),
];

/// Cases whose declaration is written in an `impl` block or a `trait`, where the attribute cannot
/// expand: the macro refuses it with one message; the command lists it as not checked (status 3:
/// not a pass), since it judges module items, and the build fails anyway.
const MISPLACED: &[(&str, &str)] = &[
    (
        "declaration-in-impl",
        "the declaration is in an `impl` block",
    ),
    ("declaration-in-trait", "the declaration is in a `trait`"),
];

/// Cases whose mistake is a shadowable name's (`u32`, `bool`, `c_void`, `NonZeroI32`, `str`): the
/// macro leaves every name to the compiler, which resolves it (`type u32 = u64;` makes
/// `bytesize: u32` right), so the build's refusal is rustc's evaluation of the expansion's
/// assertion (E0080, or E0277 for a type that is no pointer); the command, without a compiler,
/// reads names as they usually are and refuses the same places.
const NAMES_LEFT_TO_THE_COMPILER: &[&str] = &[
    "c-void-by-value",
    "callback-not-a-function",
    "float-array-for-integer-record",
    "integer-where-float-due",
    "invalid-status-types",
    "invalid-values-through-aliases",
    "invalid-written-pointee",
    "pointee-of-no-header-layout",
    "pointee-size-mismatch",
    "pointer-slot-too-small",
    "second-level-filled-invalid",
    "second-level-invalid-value",
    "signature-of-another-version",
    "size-mismatch",
    "unsized-pointee",
    "wrong-return-size",
];

/// The line of each of rustc's own errors (`error[E....]`) in a reviewed `.stderr`.
fn rustc_error_lines(stderr: &str) -> Vec<u64> {
    let mut found = Vec::new();
    let mut lines = stderr.lines();
    while let Some(line) = lines.next() {
        if line.starts_with("error[") {
            let at = lines
                .by_ref()
                .find_map(|l| l.trim_start().strip_prefix("--> "))
                .expect("` --> ` under the error");
            let mut parts = at.rsplitn(3, ':');
            parts.next();
            found.push(parts.next().and_then(|l| l.parse().ok()).expect("a line"));
        }
    }
    found
}

/// The kind names of each case's mistakes, in order (`MistakeKind::name()`, which the macro does
/// not print and the command does): one rule, one name.
const KINDS: &[(&str, &[&str])] = &[
    ("async", &["async_function"]),
    ("c-void-by-value", &["not_a_pointer"]),
    ("callback-not-a-function", &["callback_mismatch"]),
    ("callback-rust-abi", &["callback_mismatch"]),
    ("callback-wrong-signature", &["callback_mismatch"]),
    ("reference-in-callback-parameter", &["callback_mismatch"]),
    ("integer-where-float-due", &["float_mismatch"]),
    ("missing-return", &["missing_return"]),
    ("pointee-of-no-header-layout", &["pointee_mismatch"]),
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
    ("crate-keyword", &["wrong_crate_path"]),
    ("crate-not-a-path", &["wrong_crate_path"]),
    ("duplicate-argument", &["duplicate_argument"]),
    ("duplicate-attribute", &["duplicate_attribute"]),
    ("empty-symbol", &["symbol_not_an_identifier"]),
    ("generics", &["generics"]),
    (
        "independent-errors-combined",
        &[
            "unknown_symbol",
            "version_not_a_literal",
            "unverified_within_table",
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
    ("not-a-c-type-called", &["not_a_c_type"]),
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
    (
        "unverified-within-table-older-abi",
        &["unverified_within_table"],
    ),
    (
        "unverified-within-table-toolkit-version",
        &["unverified_within_table"],
    ),
    ("version-above-typedefs-within-table", &["not_a_typedef"]),
    ("variadic", &["variadic"]),
    (
        "conditional-parameter",
        &["conditional_parameter", "conditional_parameter"],
    ),
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
    ("read-only-second-level", &["read_only_pointer"]),
    ("second-level-invalid-value", &["invalid_value"]),
    ("second-level-filled-invalid", &["invalid_value"]),
    ("invalid-status-types", &["invalid_value", "invalid_value"]),
    (
        "invalid-written-pointee",
        &[
            "invalid_value",
            "invalid_value",
            "invalid_value",
            "invalid_value",
        ],
    ),
    ("float-array-for-integer-record", &["float_mismatch"]),
    ("conditional-attribute-in-block", &["conditional_attribute"]),
    ("link-attribute-on-block", &["attributes_on_block"]),
    ("lifetime-generics", &["generics"]),
    ("unsized-pointee", &["layout_mismatch"]),
    ("result-return", &["layout_mismatch"]),
    ("unit-return-of-status", &["missing_return"]),
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
fn cases_named(folder: &str) -> Vec<(String, PathBuf)> {
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
/// rules can fail a declaration), and its exit status.
fn check(path: &Path) -> (Value, i32) {
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
    assert!([0, 1, 3].contains(&out.status), "{out:?}");
    (json(&out), out.status)
}

/// For a case listed in [`NOT_CHECKED`]: the command judges nothing in it, and lists what it did
/// not read as in the body of a `macro_rules!`, so that the run is no pass (status 3).
fn assert_not_checked(name: &str, why: &str, doc: &Value, status: i32) {
    assert_eq!(
        doc["declarations"],
        Value::Array(Vec::new()),
        "{name} ({why}): the command judged something"
    );
    let unread = doc["not_checked"].as_array().expect("not_checked");
    assert!(!unread.is_empty(), "{name} ({why}): nothing listed: {doc}");
    for u in unread {
        let reason = u["reason"].as_str().expect("a reason");
        assert!(
            reason.starts_with("in the body of `macro_rules! ")
                && reason.contains("the command does not expand macros"),
            "{name} ({why}): {reason}"
        );
    }
    assert_eq!(status, 3, "{name} ({why}): not checked must not pass");
}

/// For a case listed in [`MISPLACED`]: the command judges nothing in it, and lists the
/// declaration as not checked at the macro's line, saying where it is (status 3).
fn assert_misplaced(name: &str, why: &str, error: &Reported, doc: &Value, status: i32) {
    assert_eq!(
        doc["declarations"],
        Value::Array(Vec::new()),
        "{name} ({why}): the command judged something"
    );
    let unread = doc["not_checked"].as_array().expect("not_checked");
    assert_eq!(unread.len(), 1, "{name} ({why}): {doc}");
    let reason = unread[0]["reason"].as_str().expect("a reason");
    assert!(
        (reason.starts_with("in an `impl` block") || reason.starts_with("in a `trait`"))
            && reason.contains("move the declaration to the module around it"),
        "{name} ({why}): {reason}"
    );
    assert_eq!(unread[0]["line"], error.line, "{name} ({why}): {doc}");
    assert_eq!(status, 3, "{name} ({why}): not checked must not pass");
}

/// The exceptions of `list` that name no case of `cases`: each exception is a case of the suite.
fn gone<'a>(list: &[(&'a str, &str)], cases: &[(String, PathBuf)]) -> Vec<&'a str> {
    list.iter()
        .map(|(case, _)| *case)
        .filter(|case| !cases.iter().any(|(name, _)| name == case))
        .collect()
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
    let cases = cases_named("ui");
    assert!(cases.len() >= 40, "only {} cases", cases.len());
    let pass_cases = cases_named("ui-pass");
    for list in [RUSTC_ERRORS, LINT_ERRORS, DERIVE_ERRORS, MISPLACED] {
        assert_eq!(
            gone(list, &cases),
            Vec::<&str>::new(),
            "listed, but no such case"
        );
    }
    let mut kinds_checked = 0;
    for (name, path) in &cases {
        let stderr = std::fs::read_to_string(path.with_extension("stderr"))
            .unwrap_or_else(|e| panic!("{name}.stderr: {e}"));
        let (expected, rustc) = macro_errors(&stderr);
        let (doc, status) = check(path);
        let reported = command_mistakes(&doc);
        if let Some((_, why)) = DERIVE_ERRORS.iter().find(|(case, _)| case == name) {
            let source = std::fs::read_to_string(path).expect("the case");
            assert!(
                !source.contains("#[cuda_entry")
                    && !expected.is_empty()
                    && rustc.iter().all(|code| code == "E0277"),
                "{name} is listed as the derive's errors ({why}), but it has a declaration, or \
                 no error of the derive's, or another of rustc's than a field's bound:\n{stderr}"
            );
            assert!(
                reported.is_empty(),
                "{name}: the derive's error only ({why}), yet the command reports {reported:?}"
            );
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
        if let Some((_, why)) = LINT_ERRORS.iter().find(|(case, _)| case == name) {
            // Every error is a lint's: rustc names where its level is set.
            let lints = stderr
                .matches("note: the lint level is defined here")
                .count();
            assert!(
                !expected.is_empty() && lints == expected.len() && rustc.is_empty(),
                "{name} is listed as a lint's error ({why}), but its .stderr has others:\n{stderr}"
            );
            assert_accepted(name, &doc, status);
            continue;
        }
        if let Some((_, why)) = NOT_CHECKED.iter().find(|(case, _)| case == name) {
            assert!(
                !expected.is_empty(),
                "{name}: no `error:` line in\n{stderr}"
            );
            assert_not_checked(name, why, &doc, status);
            continue;
        }
        if NAMES_LEFT_TO_THE_COMPILER.contains(&name.as_str()) {
            assert!(
                expected.is_empty()
                    && !rustc.is_empty()
                    && rustc.iter().all(|c| c == "E0080" || c == "E0277"),
                "{name}: listed as a name left to the compiler, but its .stderr has the macro's \
                 errors or none of the assertions':\n{stderr}"
            );
            let mut command_lines: Vec<u64> = reported.iter().map(|(r, _)| r.line).collect();
            let mut rustc_lines = rustc_error_lines(&stderr);
            command_lines.dedup();
            rustc_lines.dedup();
            assert_eq!(
                command_lines, rustc_lines,
                "{name}: the command refuses other places than the build:\n{stderr}\n{doc}"
            );
            assert_eq!(status, 1, "{name}: rejected, yet the command passes it");
            assert_kinds(name, &reported);
            kinds_checked += 1;
            continue;
        }
        if let Some((_, why)) = MISPLACED.iter().find(|(case, _)| case == name) {
            // The macro's one error, and nothing of rustc's: the expansion is not attempted.
            assert!(
                expected.len() == 1 && rustc.is_empty(),
                "{name} ({why}): one error of the macro's, none of rustc's:\n{stderr}"
            );
            assert_misplaced(name, why, &expected[0], &doc, status);
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
        assert!(
            !stderr.contains("note: the lint level is defined here"),
            "{name}: a lint's error: list the case in LINT_ERRORS with the reason"
        );
        assert_eq!(
            doc["not_checked"],
            Value::Array(Vec::new()),
            "{name}: not checked: list the case in NOT_CHECKED with the reason"
        );
        let messages: Vec<Reported> = reported.iter().map(|(r, _)| r.clone()).collect();
        assert_eq!(
            messages, expected,
            "{name}: the command and the macro differ"
        );
        assert_eq!(status, 1, "{name}: rejected, yet the command passes it");
        // The command fails exactly the declarations that have mistakes.
        for d in doc["declarations"].as_array().expect("declarations") {
            let rejected = !d["mistakes"].as_array().expect("mistakes").is_empty();
            assert_eq!(d["status"] == "fail", rejected, "{name}: {d}");
            if rejected {
                assert_eq!(d["kind"], d["mistakes"][0]["kind"], "{name}: {d}");
                assert_eq!(d["message"], d["mistakes"][0]["message"], "{name}: {d}");
            }
        }
        assert_kinds(name, &reported);
        kinds_checked += 1;
    }
    assert_eq!(
        kinds_checked,
        KINDS.len(),
        "KINDS lists a case that is gone"
    );
    // Each NOT_CHECKED exception is a case of one suite or the other.
    let all: Vec<(String, PathBuf)> = cases.into_iter().chain(pass_cases).collect();
    assert_eq!(
        gone(NOT_CHECKED, &all),
        Vec::<&str>::new(),
        "listed, but no such case"
    );
}

/// The kinds of the mistakes the command reports in a case are those [`KINDS`] lists for it.
fn assert_kinds(name: &str, reported: &[(Reported, String)]) {
    let kinds: Vec<&str> = reported.iter().map(|(_, k)| k.as_str()).collect();
    let listed = KINDS
        .iter()
        .find(|(case, _)| *case == name)
        .unwrap_or_else(|| panic!("{name}: list its kinds in KINDS: {kinds:?}"));
    assert_eq!(kinds, listed.1, "{name}");
}

/// Every declaration of a document accepted, nothing left unread: the run passes.
fn assert_accepted(name: &str, doc: &Value, status: i32) {
    let declarations = doc["declarations"].as_array().expect("declarations");
    assert!(!declarations.is_empty(), "{name}: no declaration found");
    for d in declarations {
        assert_eq!(d["mistakes"], Value::Array(Vec::new()), "{name}: {d}");
        assert_eq!(d["status"], "ok", "{name}: {d}");
    }
    assert_eq!(doc["totals"]["not_checked"], 0, "{name}: {doc}");
    assert_eq!(status, 0, "{name}: {doc}");
}

#[test]
fn the_command_accepts_what_the_macro_accepts() {
    let cases = cases_named("ui-pass");
    assert!(!cases.is_empty());
    for (name, path) in &cases {
        let (doc, status) = check(path);
        match NOT_CHECKED.iter().find(|(case, _)| case == name) {
            Some((_, why)) => assert_not_checked(name, why, &doc, status),
            None => assert_accepted(name, &doc, status),
        }
    }
}
