//! The numbers the pages quote from the typedef table and from the real driver's answers, held
//! against those sources: a page that quotes "724 typedefs" says what the table holds today, or
//! this test fails and names the page. Every number the pages put before a counted noun
//! ("N typedefs", "N symbols", "N codes"...) must be one of the claims below, so a new quoted
//! count cannot go unchecked. (The pages' Rust blocks are compiled by `tests/support/docs.rs`,
//! the command-line transcripts run by `core/cli/tests/transcripts.rs`.)

use std::collections::BTreeSet;
use std::path::Path;

use cuda_entry_table::{EXPORTS, STATUSES, TYPEDEFS, rules, symbols};

/// The pages read, relative to the workspace root. `docs/table.md` is generated from the table
/// (its counts are the generator's, checked by regenerating it).
const PAGES: &[&str] = &[
    "README.md",
    "CHANGELOG.md",
    "core/cli/README.md",
    "core/sim/README.md",
    "core/src/attribute.md",
    "docs/README.md",
    "docs/decisions.md",
    "docs/declaring.md",
    "docs/deploying.md",
    "docs/errors.md",
    "docs/faq.md",
    "docs/migrating.md",
    "docs/newer-apis.md",
    "docs/per-thread.md",
    "docs/performance.md",
    "docs/reading-typedefs.md",
    "docs/reliability.md",
    "docs/runtime-resolver.md",
    "docs/security.md",
    "docs/testing.md",
    "docs/why-versions.md",
    "macros/generator/README.md",
    "tests/ground-truth/README.md",
    "core/sim/simdriver/README.md",
];

/// The nouns whose counts come from the table or the ground truth.
const COUNTED: &[&str] = &[
    "typedefs",
    "symbols",
    "codes",
    "exports",
    "rows",
    "names",
    "functions",
    "twins",
];

fn read(page: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(page);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The rows of a ground-truth table, without its comment and header lines.
fn ground_truth_rows(file: &str) -> Vec<Vec<String>> {
    read(&format!("tests/ground-truth/{file}"))
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .skip(1)
        .map(|l| l.split('\t').map(str::to_owned).collect())
        .collect()
}

/// `12345` as the pages write it: `12,345`, with commas from four digits on.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    if digits.len() < 4 {
        return digits;
    }
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// What the sources say, each count with the phrases that quote it (`{}` is the number).
fn claims() -> Vec<(&'static str, &'static str, usize)> {
    let typedefs = TYPEDEFS.len();
    let symbol_count = symbols().count();
    let per_thread_symbols = symbols()
        .filter(|s| cuda_entry_table::flavour(s, true).next().is_some())
        .count();
    let twins = TYPEDEFS.iter().filter(|t| rules::twin(t).is_some()).count();
    let in_11_7 = TYPEDEFS.iter().filter(|t| t.first_toolkit == 11070).count();
    let in_typedefs_h = TYPEDEFS
        .iter()
        .filter(|t| t.header == "cudaTypedefs.h")
        .count();

    let v2 = ground_truth_rows("driver-13000-getprocaddress.tsv");
    let legacy = ground_truth_rows("driver-13000-getprocaddress-legacy.tsv");
    let measured: BTreeSet<&str> = v2.iter().map(|r| r[0].as_str()).collect();
    let exported: Vec<String> = read("tests/ground-truth/driver-13000-exports.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect();
    let declared = exported
        .iter()
        .filter(|name| cuda_entry_table::export(name).is_some())
        .count();
    // The simulator's symbols: those the driver exports a function of, at typedefs up to its 13.0.
    let simulated: BTreeSet<&str> = exported
        .iter()
        .filter_map(|name| cuda_entry_table::export(name))
        .filter(|e| e.version <= 13000)
        .map(|e| e.symbol)
        .collect();

    // The bindgen-style binding of CUDA 13.0 that `migrate` is tested on, generated from the table.
    let bindgen_functions = read("core/cli/tests/fixtures/migrate/cuda-13.0-bindgen.rs")
        .lines()
        .filter(|l| l.trim_start().starts_with("pub fn cu"))
        .count();

    // The simulated driver's stubs: the exports its generated list says it does not implement.
    let exports_md = read("core/sim/simdriver/EXPORTS.md");
    let stubs = exports_md
        .split("## Not implemented")
        .nth(1)
        .expect("EXPORTS.md lists what is not implemented")
        .matches("`cu")
        .count();

    vec![
        (
            "docs/migrating.md",
            "CUDA 13.0 ({} functions",
            bindgen_functions,
        ),
        ("docs/testing.md", "the {} it does not implement", stubs),
        (
            "docs/testing.md",
            "both TSV files ({})",
            v2.len() + legacy.len(),
        ),
        ("CHANGELOG.md", "({} typedefs of", typedefs),
        ("CHANGELOG.md", "typedefs of {} symbols)", symbol_count),
        ("docs/reading-typedefs.md", "({} typedefs of", typedefs),
        (
            "docs/reading-typedefs.md",
            "typedefs of {} symbols)",
            symbol_count,
        ),
        (
            "docs/per-thread.md",
            "{} symbols have per-thread typedefs",
            per_thread_symbols,
        ),
        ("docs/per-thread.md", "{} legacy typedefs of the", twins),
        (
            "docs/per-thread.md",
            "typedefs of the {} symbols have a twin",
            per_thread_symbols,
        ),
        ("macros/generator/README.md", "{} typedefs in 11.7", in_11_7),
        (
            "macros/generator/README.md",
            "{} in 13.5, and every",
            typedefs,
        ),
        (
            "macros/generator/README.md",
            "the table has {}\n  typedefs",
            typedefs,
        ),
        (
            "macros/generator/README.md",
            "typedefs ({} symbols)",
            symbol_count,
        ),
        (
            "macros/generator/README.md",
            "{} of them from 13.5's",
            in_typedefs_h,
        ),
        (
            "macros/generator/README.md",
            "declare {} driver functions",
            EXPORTS.len(),
        ),
        (
            "macros/generator/README.md",
            "Of the {} names libcuda",
            exported.len(),
        ),
        ("macros/generator/README.md", "{} are among them", declared),
        (
            "macros/generator/README.md",
            "the other {} are internal",
            exported.len() - declared,
        ),
        (
            "macros/generator/README.md",
            "has {} codes over",
            STATUSES.len(),
        ),
        (
            "core/sim/simdriver/README.md",
            "({} of `cuGetProcAddress_v2`",
            v2.len(),
        ),
        (
            "core/sim/simdriver/README.md",
            "over {} symbols,",
            measured.len(),
        ),
        (
            "core/sim/simdriver/README.md",
            "{} of the 4-argument",
            legacy.len(),
        ),
        (
            "core/sim/simdriver/README.md",
            "exports its functions: {} symbols",
            simulated.len(),
        ),
        (
            "core/sim/simdriver/README.md",
            "{} are measured in the ground truth",
            measured.len(),
        ),
    ]
}

#[test]
fn every_quoted_count_is_the_sources() {
    let mut wrong = Vec::new();
    for (page, phrase, value) in claims() {
        let expected = phrase.replace("{}", &grouped(value));
        if !read(page).contains(&expected) {
            wrong.push(format!(
                "{page}: expected `{expected}` (the count is {value})"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "counts that differ from their source:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_count_is_quoted_unchecked() {
    let claimed: BTreeSet<(&str, String)> = claims()
        .into_iter()
        .map(|(page, phrase, value)| (page, phrase.replace("{}", &grouped(value))))
        .collect();
    let mut unchecked = Vec::new();
    for page in PAGES {
        for (line, quoted) in quoted_counts(&read(page)) {
            let covered = claimed
                .iter()
                .any(|(p, phrase)| p == page && phrase.contains(&quoted));
            if !covered {
                unchecked.push(format!("{page}:{line}: `{quoted}`"));
            }
        }
    }
    assert!(
        unchecked.is_empty(),
        "counts quoted without a claim in tests/docs.rs (add one, or do not quote the number):\n{}",
        unchecked.join("\n")
    );
}

/// Each "N noun" outside the transcripts (```console blocks, checked by running them), with its
/// line number. Numbers below 10 are words of prose ("two symbols"), not counts.
fn quoted_counts(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut in_console = false;
    for (i, line) in text.lines().enumerate() {
        let fence = line.trim_start();
        if fence.starts_with("```") {
            in_console = !in_console && fence.starts_with("```console");
            continue;
        }
        if in_console {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        for pair in words.windows(2) {
            let number = pair[0].trim_start_matches(['(', '`']);
            let noun = pair[1].trim_end_matches([',', '.', ')', ':', ';']);
            let digits: String = number.chars().filter(|c| *c != ',').collect();
            let is_count = !digits.is_empty()
                && digits.chars().all(|c| c.is_ascii_digit())
                && digits.parse::<usize>().is_ok_and(|n| n >= 10);
            if is_count && COUNTED.contains(&noun) {
                found.push((i + 1, format!("{number} {noun}")));
            }
        }
    }
    found
}

#[test]
fn counts_are_grouped_as_the_pages_write_them() {
    assert_eq!(grouped(724), "724");
    assert_eq!(grouped(3389), "3,389");
    assert_eq!(grouped(10167), "10,167");
    assert_eq!(grouped(1829808), "1,829,808");
}

/// The `#### `name`` headings of a part of docs/errors.md, with each section's text.
fn sections(part: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in part.lines() {
        if let Some(name) = line
            .strip_prefix("#### `")
            .and_then(|l| l.strip_suffix('`'))
        {
            out.push((name.to_owned(), String::new()));
        } else if let Some((_, text)) = out.last_mut() {
            text.push_str(line);
            text.push('\n');
        }
    }
    out
}

#[test]
fn errors_md_has_every_compile_fail_case_with_its_messages() {
    let page = read("docs/errors.md");
    let start = page
        .find("## Compile-time errors")
        .expect("the compile-time part");
    let end = page.find("## Run-time errors").expect("the run-time part");
    let documented = sections(&page[start..end]);
    let ui = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui");
    let mut cases: BTreeSet<String> = BTreeSet::new();
    for file in std::fs::read_dir(&ui).expect("tests/ui") {
        let name = file
            .expect("an entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        if let Some(case) = name.strip_suffix(".stderr") {
            cases.insert(case.to_owned());
        }
    }
    let mut wrong = Vec::new();
    for case in &cases {
        if !documented.iter().any(|(name, _)| name == case) {
            wrong.push(format!("tests/ui/{case}.rs has no section"));
        }
    }
    for (name, text) in &documented {
        if !cases.contains(name) {
            wrong.push(format!("`{name}` is no case of tests/ui"));
            continue;
        }
        let stderr = read(&format!("tests/ui/{name}.stderr"));
        let messages = text
            .lines()
            .filter(|l| l.starts_with("error:") || l.starts_with("error["));
        for quoted in messages {
            // `...` ends a line shortened at that point.
            let quoted = quoted.strip_suffix("...").unwrap_or(quoted).trim_end();
            if !stderr.contains(quoted) {
                wrong.push(format!(
                    "`{name}` quotes what the compiler does not print: {quoted}"
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "docs/errors.md against tests/ui:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn errors_md_has_every_run_time_kind() {
    let page = read("docs/errors.md");
    let start = page.find("## Run-time errors").expect("the run-time part");
    let documented: Vec<String> = sections(&page[start..])
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    // The kinds, as `ErrorKind::name` lists them (one arm per variant).
    let source = read("core/src/error.rs");
    let kinds: Vec<&str> = source
        .lines()
        .filter(|l| l.contains("=> \""))
        .filter_map(|l| l.trim().strip_prefix("ErrorKind::"))
        .map(|l| l.split([' ', '{']).next().unwrap_or(l))
        .collect();
    assert!(
        kinds.len() >= 20,
        "read {} kinds from core/src/error.rs",
        kinds.len()
    );
    let missing: Vec<&&str> = kinds
        .iter()
        .filter(|k| !documented.iter().any(|d| d == *k))
        .collect();
    assert!(
        missing.is_empty(),
        "kinds without a section in docs/errors.md: {missing:?}"
    );
}
