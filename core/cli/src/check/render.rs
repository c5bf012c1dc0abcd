//! What `check` prints: one line a declaration and the summary's lines, or one JSON document.
//! Both read the same [`Summary`]. In the text, everything that came from a file (paths,
//! function names, a binary's symbols and packages, messages quoting them) is [`shown()`]: escaped
//! so that a forged binary cannot drive the terminal.

use cuda_entry_table::Cuda;

use super::judge::{Driver, Outcome, Verdict};
use super::summary::Summary;
use super::{Declaration, Request, Unchecked, Unversioned};
use crate::common::simulated;
use crate::json::Json;
use crate::shown::{self, shown};

/// Everything found, in the order found.
#[derive(Debug)]
pub(super) struct Found<'a> {
    pub(super) declarations: &'a [Declaration],
    /// One for each declaration.
    pub(super) verdicts: &'a [Verdict],
    pub(super) unchecked: &'a [Unchecked],
    pub(super) unversioned: &'a [Unversioned],
}

/// What is said of a function linked against libcuda.
fn unversioned_note(u: &Unversioned) -> String {
    format!(
        "`{}` is linked against libcuda (the export `{}`, which is {} at {}{}), not resolved \
         through cuGetProcAddress: `cuda-entry migrate {}` declares it through #[cuda_entry]",
        u.function,
        u.export,
        u.symbol,
        u.version,
        if u.per_thread { " per_thread" } else { "" },
        u.file.display()
    )
}

/// `file:line`, or `file` for a binary.
fn at(file: &std::path::Path, line: usize) -> String {
    if line == 0 {
        shown::path(file)
    } else {
        format!("{}:{line}", shown::path(file))
    }
}

/// `cuLaunchKernel@7000 per_thread via runtime unverified optional`, or `?` when the arguments
/// name no symbol and version. `optional` is left out where the status says it already.
fn request(d: &Declaration, v: &Verdict) -> String {
    match d.request() {
        Some(r) => format!(
            "{}{}{}{}",
            requested(r),
            if r.runtime { " via runtime" } else { "" },
            if r.unverified { " unverified" } else { "" },
            if r.optional && !v.unavailable() {
                " optional"
            } else {
                ""
            }
        ),
        None => "?".to_owned(),
    }
}

/// `cuLaunchKernel@7000 per_thread`: the typedef asked for.
fn requested(r: &Request) -> String {
    format!(
        "{}@{}{}",
        r.symbol,
        r.version.get(),
        if r.per_thread { " per_thread" } else { "" }
    )
}

/// A declaration's status: `ok`, `fail`, or `unavailable` (optional, not served).
fn status(v: &Verdict) -> &'static str {
    match v.outcome {
        Outcome::Works => "ok",
        Outcome::Rejected(_) | Outcome::Fails(_) => "fail",
        Outcome::Unavailable(_) => "unavailable",
    }
}

fn driver_line(driver: &Driver) -> String {
    match driver {
        Driver::Assumed(v) => format!(
            "driver: assumed {} ({v}), from --driver-version; none loaded, answers from the \
             typedef table",
            v.get()
        ),
        Driver::Loaded(Ok(info)) => format!(
            "driver: {}{} reports {} ({})",
            shown(&info.path),
            if simulated() { " (SIMULATED)" } else { "" },
            info.version,
            Cuda(info.version)
        ),
        Driver::Loaded(Err(e)) => format!(
            "driver: none usable: {}\n(to check against a given version without a driver, pass \
             --driver-version N; to try the simulated driver, --simulated)",
            shown(&e.to_string())
        ),
    }
}

/// The lines: the driver, each declaration, what was not checked, the minimum driver, the totals.
pub(super) fn text(found: &Found<'_>, driver: &Driver, summary: &Summary) -> String {
    let mut out = driver_line(driver);
    out.push('\n');
    for (d, v) in found.declarations.iter().zip(found.verdicts) {
        let head = format!(
            "{}: {} `{}` {}",
            at(&d.file, d.line),
            match v.outcome {
                Outcome::Works => "ok  ",
                Outcome::Rejected(_) | Outcome::Fails(_) => "FAIL",
                Outcome::Unavailable(_) => "unavailable, optional",
            },
            shown(&d.function),
            shown(&request(d, v))
        );
        let mut parts = Vec::new();
        match &v.outcome {
            Outcome::Works => {}
            Outcome::Rejected(_) => parts.push("the macro rejects it".to_owned()),
            Outcome::Fails(failure) => parts.push(shown(&failure.message).into_owned()),
            Outcome::Unavailable(failure) => {
                parts.push(shown(&failure.message).into_owned());
                parts.push("the program runs without it".to_owned());
            }
        }
        parts.extend(v.notes.iter().map(|n| format!("note: {}", shown(n))));
        if parts.is_empty() {
            out.push_str(&head);
        } else {
            out.push_str(&format!("{head}: {}", parts.join("; ")));
        }
        out.push('\n');
        // Each mistake on a line of its own, where rustc would point, in the macro's words.
        if let Outcome::Rejected(mistakes) = &v.outcome {
            for m in mistakes {
                let place = match m.at {
                    Some((line, column)) => format!("{}:{column}", at(&d.file, line)),
                    None => at(&d.file, 0),
                };
                out.push_str(&format!("    {place}: {}: {}\n", m.kind, shown(&m.message)));
            }
        }
    }
    for u in found.unchecked {
        out.push_str(&format!(
            "{}: not checked: {}\n",
            at(&u.file, u.line),
            shown(&u.why)
        ));
    }
    for u in found.unversioned {
        out.push_str(&format!(
            "{}: unversioned: {}\n",
            at(&u.file, u.line),
            shown(&unversioned_note(u))
        ));
    }
    if let Some(minimum) = &summary.minimum_driver {
        out.push_str(&format!(
            "minimum driver: {} ({}), set by {}\n",
            minimum.version.get(),
            minimum.version,
            shown(&minimum.set_by.join(", "))
        ));
    }
    if !summary.optional.is_empty() {
        let upgrades: Vec<String> = summary.optional.iter().map(requested).collect();
        out.push_str(&format!(
            "optional upgrades: {}\n",
            shown(&upgrades.join(", "))
        ));
    }
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let compiler = found
        .declarations
        .iter()
        .filter(|d| !d.left_to_compiler().is_empty())
        .count();
    if compiler > 0 {
        out.push_str(&format!(
            "left to the compiler: {compiler} declaration{} {} types whose layout the command \
             cannot read (types of your own, aliases); the build checks them (`--json` lists \
             what, under `left_to_compiler`)\n",
            plural(compiler),
            if compiler == 1 { "has" } else { "have" }
        ));
    }
    out.push_str(&format!(
        "{} declaration{} in {} file{}: {} ok, {} would fail, {}{} with notes, {} not checked{}\n",
        summary.declarations,
        plural(summary.declarations),
        summary.files,
        plural(summary.files),
        summary.ok,
        summary.failed,
        match summary.unavailable {
            0 => String::new(),
            n => format!("{n} unavailable (optional), "),
        },
        summary.noted,
        summary.unchecked,
        match summary.unversioned {
            0 => String::new(),
            n => format!(
                "; {n} unversioned binding{} (linked against libcuda)",
                plural(n)
            ),
        }
    ));
    out
}

fn driver_json(driver: &Driver) -> Json {
    match driver {
        Driver::Assumed(v) => Json::object([
            ("source", Json::str("driver_version_option")),
            ("path", Json::Null),
            ("version", Json::Number(v.get().into())),
            ("simulated", Json::Bool(false)),
            ("error", Json::Null),
        ]),
        Driver::Loaded(Ok(info)) => Json::object([
            ("source", Json::str("loaded")),
            ("path", Json::str(info.path.clone())),
            ("version", Json::Number(info.version.into())),
            ("simulated", Json::Bool(simulated())),
            ("error", Json::Null),
        ]),
        Driver::Loaded(Err(e)) => Json::object([
            ("source", Json::str("loaded")),
            ("path", Json::Null),
            ("version", Json::Null),
            ("simulated", Json::Bool(simulated())),
            ("error", Json::str(e.to_string())),
        ]),
    }
}

fn declaration_json(d: &Declaration, v: &Verdict) -> Json {
    let request = d.request();
    let (kind, message, mistakes) = match &v.outcome {
        Outcome::Works => (None, None, &[][..]),
        Outcome::Fails(failure) | Outcome::Unavailable(failure) => {
            (Some(failure.kind), Some(failure.message.clone()), &[][..])
        }
        Outcome::Rejected(mistakes) => {
            let first = mistakes.first();
            (
                first.map(|m| m.kind),
                first.map(|m| m.message.clone()),
                &mistakes[..],
            )
        }
    };
    let mistakes = mistakes.iter().map(|m| {
        Json::object([
            ("kind", Json::str(m.kind)),
            ("message", Json::str(m.message.clone())),
            (
                "line",
                m.at.map_or(Json::Null, |(line, _)| Json::Number(line as u64)),
            ),
            (
                "column",
                m.at.map_or(Json::Null, |(_, column)| Json::Number(column as u64)),
            ),
        ])
    });
    Json::object([
        ("file", Json::str(d.file.display().to_string())),
        ("line", Json::Number(d.line as u64)),
        ("function", Json::str(d.function.clone())),
        ("symbol", Json::opt_str(request.map(|r| r.symbol.clone()))),
        (
            "version",
            Json::opt_number(request.map(|r| r.version.get())),
        ),
        (
            "stream",
            Json::opt_str(request.map(|r| if r.per_thread { "per_thread" } else { "legacy" })),
        ),
        (
            "resolver",
            Json::opt_str(request.map(|r| if r.runtime { "runtime" } else { "driver" })),
        ),
        (
            "unverified",
            Json::Bool(request.is_some_and(|r| r.unverified)),
        ),
        ("optional", Json::Bool(request.is_some_and(|r| r.optional))),
        ("status", Json::str(status(v))),
        ("kind", Json::opt_str(kind)),
        ("message", Json::opt_str(message)),
        ("mistakes", Json::Array(mistakes.collect())),
        (
            "notes",
            Json::Array(v.notes.iter().map(|n| Json::str(n.clone())).collect()),
        ),
        (
            "left_to_compiler",
            Json::Array(
                d.left_to_compiler()
                    .iter()
                    .map(|n| Json::str(n.clone()))
                    .collect(),
            ),
        ),
    ])
}

/// The document: the driver, each declaration, what was not checked, the minimum driver, the
/// totals.
pub(super) fn json(found: &Found<'_>, driver: &Driver, summary: &Summary) -> Json {
    let count = |n: usize| Json::Number(n as u64);
    Json::object([
        ("driver", driver_json(driver)),
        (
            "declarations",
            Json::Array(
                found
                    .declarations
                    .iter()
                    .zip(found.verdicts)
                    .map(|(d, v)| declaration_json(d, v))
                    .collect(),
            ),
        ),
        (
            "not_checked",
            Json::Array(
                found
                    .unchecked
                    .iter()
                    .map(|u| {
                        Json::object([
                            ("file", Json::str(u.file.display().to_string())),
                            ("line", Json::Number(u.line as u64)),
                            ("reason", Json::str(u.why.clone())),
                        ])
                    })
                    .collect(),
            ),
        ),
        (
            "unversioned",
            Json::Array(
                found
                    .unversioned
                    .iter()
                    .map(|u| {
                        Json::object([
                            ("file", Json::str(u.file.display().to_string())),
                            ("line", Json::Number(u.line as u64)),
                            ("function", Json::str(u.function.clone())),
                            ("export", Json::str(u.export.clone())),
                            ("symbol", Json::str(u.symbol)),
                            ("version", Json::Number(u.version.into())),
                            (
                                "stream",
                                Json::str(if u.per_thread { "per_thread" } else { "legacy" }),
                            ),
                            ("note", Json::str(unversioned_note(u))),
                        ])
                    })
                    .collect(),
            ),
        ),
        (
            "minimum_driver",
            Json::opt_number(summary.minimum_driver.as_ref().map(|m| m.version.get())),
        ),
        (
            "optional_upgrades",
            Json::Array(
                summary
                    .optional
                    .iter()
                    .map(|r| {
                        Json::object([
                            ("symbol", Json::str(r.symbol.clone())),
                            ("version", Json::Number(r.version.get().into())),
                            (
                                "stream",
                                Json::str(if r.per_thread { "per_thread" } else { "legacy" }),
                            ),
                        ])
                    })
                    .collect(),
            ),
        ),
        (
            "totals",
            Json::object([
                ("files", count(summary.files)),
                ("declarations", count(summary.declarations)),
                ("ok", count(summary.ok)),
                ("fail", count(summary.failed)),
                ("unavailable", count(summary.unavailable)),
                ("with_notes", count(summary.noted)),
                ("not_checked", count(summary.unchecked)),
                ("unversioned", count(summary.unversioned)),
            ]),
        ),
    ])
}
