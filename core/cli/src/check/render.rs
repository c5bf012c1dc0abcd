//! What `check` prints: one line a declaration and the summary's lines, or one JSON document.
//! Both read the same [`Summary`]. In the text, everything that came from a file (paths,
//! function names, a binary's symbols and packages, messages quoting them) is [`shown()`]: escaped
//! so that a forged binary cannot drive the terminal.

use cuda_entry_table::Cuda;
use serde_json::{Value, json};

use super::summary::Summary;
use super::verdict::{Driver, Outcome, Verdict};
use super::{Declaration, Request, Unchecked, Unversioned};
use crate::common::simulated;
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
        Driver::Loaded(Err(e)) if simulated() => format!(
            "driver: the simulated driver is not usable: {}\n(to check against a given version \
             without a driver, pass --driver-version N)",
            shown(&e.to_string())
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

fn driver_json(driver: &Driver) -> Value {
    match driver {
        Driver::Assumed(v) => json!({
            "source": "driver_version_option",
            "path": null,
            "version": v.get(),
            "simulated": false,
            "error": null,
        }),
        Driver::Loaded(Ok(info)) => json!({
            "source": "loaded",
            "path": info.path,
            "version": info.version,
            "simulated": simulated(),
            "error": null,
        }),
        Driver::Loaded(Err(e)) => json!({
            "source": "loaded",
            "path": null,
            "version": null,
            "simulated": simulated(),
            "error": e.to_string(),
        }),
    }
}

/// `per_thread` or `legacy`.
fn stream(per_thread: bool) -> &'static str {
    if per_thread { "per_thread" } else { "legacy" }
}

fn declaration_json(d: &Declaration, v: &Verdict) -> Value {
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
    let mistakes: Vec<Value> = mistakes
        .iter()
        .map(|m| {
            json!({
                "kind": m.kind,
                "message": m.message,
                "line": m.at.map(|(line, _)| line),
                "column": m.at.map(|(_, column)| column),
            })
        })
        .collect();
    json!({
        "file": d.file.display().to_string(),
        "line": d.line,
        "function": d.function,
        "symbol": request.map(|r| &r.symbol),
        "version": request.map(|r| r.version.get()),
        "stream": request.map(|r| stream(r.per_thread)),
        "resolver": request.map(|r| if r.runtime { "runtime" } else { "driver" }),
        "unverified": request.is_some_and(|r| r.unverified),
        "optional": request.is_some_and(|r| r.optional),
        "status": status(v),
        "kind": kind,
        "message": message,
        "mistakes": mistakes,
        "notes": v.notes,
        "left_to_compiler": d.left_to_compiler(),
    })
}

/// The document: the driver, each declaration, what was not checked, the minimum driver, the
/// totals.
pub(super) fn json(found: &Found<'_>, driver: &Driver, summary: &Summary) -> Value {
    let declarations: Vec<Value> = found
        .declarations
        .iter()
        .zip(found.verdicts)
        .map(|(d, v)| declaration_json(d, v))
        .collect();
    let not_checked: Vec<Value> = found
        .unchecked
        .iter()
        .map(|u| {
            json!({
                "file": u.file.display().to_string(),
                "line": u.line,
                "reason": u.why,
            })
        })
        .collect();
    let unversioned: Vec<Value> = found
        .unversioned
        .iter()
        .map(|u| {
            json!({
                "file": u.file.display().to_string(),
                "line": u.line,
                "function": u.function,
                "export": u.export,
                "symbol": u.symbol,
                "version": u.version,
                "stream": stream(u.per_thread),
                "note": unversioned_note(u),
            })
        })
        .collect();
    let optional_upgrades: Vec<Value> = summary
        .optional
        .iter()
        .map(|r| {
            json!({
                "symbol": r.symbol,
                "version": r.version.get(),
                "stream": stream(r.per_thread),
            })
        })
        .collect();
    json!({
        "driver": driver_json(driver),
        "declarations": declarations,
        "not_checked": not_checked,
        "unversioned": unversioned,
        "minimum_driver": summary.minimum_driver.as_ref().map(|m| m.version.get()),
        "optional_upgrades": optional_upgrades,
        "totals": {
            "files": summary.files,
            "declarations": summary.declarations,
            "ok": summary.ok,
            "fail": summary.failed,
            "unavailable": summary.unavailable,
            "with_notes": summary.noted,
            "not_checked": summary.unchecked,
            "unversioned": summary.unversioned,
        },
    })
}
