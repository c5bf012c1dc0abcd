//! What `check` prints: one line a declaration and the summary's lines, or one JSON document.
//! Both read the same [`Summary`].

use cuda_entry_table::Cuda;

use super::Declaration;
use super::judge::{Driver, Verdict};
use super::summary::Summary;
use crate::common::simulated;
use crate::json::Json;

/// `cuLaunchKernel@7000 per_thread via runtime unverified`, or `?` when the arguments are refused.
fn request(d: &Declaration) -> String {
    match &d.request {
        Ok(r) => format!(
            "{}@{}{}{}{}",
            r.symbol,
            r.version.get(),
            if r.per_thread { " per_thread" } else { "" },
            if r.runtime { " via runtime" } else { "" },
            if r.unverified { " unverified" } else { "" }
        ),
        Err(_) => "?".to_owned(),
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
            info.path,
            if simulated() { " (SIMULATED)" } else { "" },
            info.version,
            Cuda(info.version)
        ),
        Driver::Loaded(Err(e)) => format!(
            "driver: none usable: {e}\n(to check against a given version without a driver, pass \
             --driver-version N; to try the simulated driver, --simulated)"
        ),
    }
}

/// The lines: the driver, each declaration, the minimum driver, the totals.
pub(super) fn text(
    declarations: &[Declaration],
    verdicts: &[Verdict],
    driver: &Driver,
    summary: &Summary,
) -> String {
    let mut out = driver_line(driver);
    out.push('\n');
    for (d, v) in declarations.iter().zip(verdicts) {
        let at = if d.line == 0 {
            d.file.display().to_string()
        } else {
            format!("{}:{}", d.file.display(), d.line)
        };
        let head = format!(
            "{at}: {} `{}` {}",
            if v.failure.is_some() { "FAIL" } else { "ok  " },
            d.function,
            request(d)
        );
        let mut parts = Vec::new();
        if let Some(failure) = &v.failure {
            parts.push(failure.message.clone());
        }
        parts.extend(v.notes.iter().map(|n| format!("note: {n}")));
        if parts.is_empty() {
            out.push_str(&head);
        } else {
            out.push_str(&format!("{head}: {}", parts.join("; ")));
        }
        out.push('\n');
    }
    if let Some(minimum) = &summary.minimum_driver {
        out.push_str(&format!(
            "minimum driver: {} ({}), set by {}\n",
            minimum.version.get(),
            minimum.version,
            minimum.set_by.join(", ")
        ));
    }
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    out.push_str(&format!(
        "{} declaration{} in {} file{}: {} ok, {} would fail, {} with notes\n",
        summary.declarations,
        plural(summary.declarations),
        summary.files,
        plural(summary.files),
        summary.ok,
        summary.failed,
        summary.noted,
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
    let request = d.request.as_ref().ok();
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
        (
            "status",
            Json::str(if v.failure.is_some() { "fail" } else { "ok" }),
        ),
        ("kind", Json::opt_str(v.failure.as_ref().map(|f| f.kind))),
        (
            "message",
            Json::opt_str(v.failure.as_ref().map(|f| f.message.clone())),
        ),
        (
            "notes",
            Json::Array(v.notes.iter().map(|n| Json::str(n.clone())).collect()),
        ),
    ])
}

/// The document: the driver, each declaration, the minimum driver, the totals.
pub(super) fn json(
    declarations: &[Declaration],
    verdicts: &[Verdict],
    driver: &Driver,
    summary: &Summary,
) -> Json {
    let count = |n: usize| Json::Number(n as u64);
    Json::object([
        ("driver", driver_json(driver)),
        (
            "declarations",
            Json::Array(
                declarations
                    .iter()
                    .zip(verdicts)
                    .map(|(d, v)| declaration_json(d, v))
                    .collect(),
            ),
        ),
        (
            "minimum_driver",
            Json::opt_number(summary.minimum_driver.as_ref().map(|m| m.version.get())),
        ),
        (
            "totals",
            Json::object([
                ("files", count(summary.files)),
                ("declarations", count(summary.declarations)),
                ("ok", count(summary.ok)),
                ("fail", count(summary.failed)),
                ("with_notes", count(summary.noted)),
            ]),
        ),
    ])
}
