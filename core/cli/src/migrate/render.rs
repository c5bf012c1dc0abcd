//! What `migrate` prints: a paragraph a binding (where, the typedef its export implements, the
//! declaration to use, where it disagrees), the diffs, the totals; or one JSON document. Text that
//! came from a file is [`shown()`], escaped.

use std::fmt::Write;

use super::Migrated;
use super::find::Linked;
use super::plan::{Origin, Plan, Status};
use crate::json::Json;
use crate::shown::{self, shown};

/// What is done with the edits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// Nothing: the declarations to use are printed.
    Report,
    /// `--dry-run`: the diffs are printed.
    DryRun,
    /// `--write`: the diffs are printed, then the files written.
    Write,
}

/// The function declared in Rust a plan is about, if it is one.
pub(super) fn linked<'a>(m: &'a Migrated, plan: &Plan) -> Option<&'a Linked> {
    match plan.origin {
        Origin::Extern { block, function } => m
            .found
            .blocks
            .get(block)
            .and_then(|b| b.functions.get(function)),
        Origin::Loaded { strukt, field } => m
            .found
            .loaded
            .structs
            .get(strukt)
            .and_then(|s| s.fields.get(field))
            .map(|f| &f.function),
        Origin::Wrapper { index } => m.found.loaded.wrappers.get(index),
        Origin::Cudarc { .. } => None,
    }
}

/// How a binding is named in the text: `` `cuMemAlloc_v2` in an `extern` block `` (with the
/// export when a `#[link_name]` differs), or `` the call `sys::cuInit(..)` ``.
fn what(m: &Migrated, plan: &Plan) -> String {
    match (&plan.origin, linked(m, plan)) {
        (Origin::Cudarc { path }, _) => format!("the call `{path}(..)` through cudarc"),
        (Origin::Loaded { strukt, .. }, Some(f)) => {
            let owner = m.found.loaded.structs.get(*strukt).map(|s| s.name.as_str());
            format!(
                "the field `{}` of `{}` (loading `{}`)",
                f.name,
                owner.unwrap_or_default(),
                f.export
            )
        }
        (Origin::Wrapper { .. }, Some(f)) => {
            format!("the function `{}` (loading `{}`)", f.name, f.export)
        }
        (_, Some(f)) if f.name != f.export => {
            format!("`{}` (linking `{}`) in an `extern` block", f.name, f.export)
        }
        (_, Some(f)) => format!("`{}` in an `extern` block", f.name),
        (_, None) => format!("`{}`", plan.export),
    }
}

/// A package of a crate's lockfile older than cuda-entry needs.
#[derive(Debug)]
pub(super) struct Stale {
    pub(super) lock: std::path::PathBuf,
    /// How `cargo update -p` names it: `quote`, or `quote@1.0.9` among several versions.
    pub(super) spec: String,
    pub(super) held: String,
    pub(super) minimum: String,
}

/// `cargo update -p A -p B` for the stale packages of one lockfile.
fn update_command(stale: &[&Stale]) -> String {
    let mut command = String::from("cargo update");
    for s in stale {
        command.push_str(" -p ");
        command.push_str(&s.spec);
    }
    command
}

/// The stale packages, by lockfile.
fn by_lock(advice: &[Stale]) -> Vec<(&std::path::Path, Vec<&Stale>)> {
    let mut locks: Vec<(&std::path::Path, Vec<&Stale>)> = Vec::new();
    for s in advice {
        match locks.iter_mut().find(|(lock, _)| *lock == s.lock.as_path()) {
            Some((_, list)) => list.push(s),
            None => locks.push((&s.lock, vec![s])),
        }
    }
    locks
}

/// What changes file by file, what is left, and the lockfile's update.
fn changes(files: &[Migrated], advice: &[Stale]) -> String {
    let mut out = String::new();
    for m in files {
        let file = shown::path(&m.file);
        for change in &m.changes {
            let _ = writeln!(out, "{file}: {}", shown(change));
        }
        for left in &m.left {
            let _ = writeln!(out, "{file}: left as it is: {}", shown(left));
        }
    }
    for (lock, stale) in by_lock(advice) {
        let held: Vec<String> = stale
            .iter()
            .map(|s| format!("{} {} (cuda-entry needs {})", s.spec, s.held, s.minimum))
            .collect();
        let _ = writeln!(
            out,
            "{}: holds {}: run `{}` before building",
            shown::path(lock),
            held.join(", "),
            update_command(&stale)
        );
    }
    out
}

pub(super) fn text(files: &[Migrated], advice: &[Stale], mode: Mode) -> String {
    let mut out = String::new();
    let mut counts = [0usize; 3];
    for m in files {
        for plan in &m.plans {
            let at = format!("{}:{}:{}", shown::path(&m.file), plan.line, plan.column);
            let status = plan.status();
            counts[status as usize] += 1;
            let head = match (&plan.target, status) {
                (Some(t), Status::Ready) => format!(
                    "{at}: {} is {} at {} ({}); declare it as:",
                    what(m, plan),
                    t.symbol,
                    t.version,
                    t.typedef
                ),
                (Some(t), _) => format!(
                    "{at}: {} is {} at {} ({}), but {}:",
                    what(m, plan),
                    t.symbol,
                    t.version,
                    t.typedef,
                    match plan.origin {
                        Origin::Cudarc { .. } => "the call disagrees with that typedef",
                        _ => "its signature disagrees with that typedef (not migrated)",
                    }
                ),
                (None, _) => format!("{at}: {} is not migrated:", what(m, plan)),
            };
            let _ = writeln!(out, "{}", shown(&head));
            for note in &plan.notes {
                let _ = writeln!(out, "    {}: {}", note.kind, shown(&note.message));
            }
            if let Some(t) = &plan.target {
                for line in t.declaration.lines() {
                    let _ = writeln!(out, "    {}", shown::lines(line));
                }
            }
        }
    }
    if mode != Mode::Report {
        for m in files {
            out.push_str(&shown::lines(&m.diff));
        }
    }
    out.push_str(&changes(files, advice));
    let changed = files
        .iter()
        .filter(|m| !m.edits.is_empty() && !m.stdin)
        .count();
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let bindings = counts.iter().sum::<usize>();
    let _ = write!(
        out,
        "{bindings} binding{} in {} file{}: {} ready, {} disagree{} with the typedef, {} unknown",
        plural(bindings),
        files.len(),
        plural(files.len()),
        counts[Status::Ready as usize],
        counts[Status::Disagrees as usize],
        if counts[Status::Disagrees as usize] == 1 {
            "s"
        } else {
            ""
        },
        counts[Status::Unknown as usize],
    );
    let _ = match mode {
        Mode::Report if changed > 0 => writeln!(
            out,
            "; --write rewrites {changed} file{} (--dry-run shows the diff)",
            plural(changed)
        ),
        Mode::Report => writeln!(out),
        Mode::DryRun => writeln!(
            out,
            "; --write would rewrite {changed} file{}",
            plural(changed)
        ),
        Mode::Write => writeln!(out, "; rewrote {changed} file{}", plural(changed)),
    };
    out
}

fn plan_json(m: &Migrated, plan: &Plan) -> Json {
    let t = plan.target.as_ref();
    let name = |f: Option<&Linked>| f.map_or_else(|| plan.export.clone(), |f| f.name.clone());
    let (origin, name) = match (&plan.origin, linked(m, plan)) {
        (Origin::Cudarc { path }, _) => ("cudarc", path.clone()),
        (Origin::Loaded { .. }, f) => ("loaded_field", name(f)),
        (Origin::Wrapper { .. }, f) => ("wrapper", name(f)),
        (Origin::Extern { .. }, f) => ("extern", name(f)),
    };
    Json::object([
        ("file", Json::str(m.file.display().to_string())),
        ("line", Json::Number(plan.line as u64)),
        ("column", Json::Number(plan.column as u64)),
        ("origin", Json::str(origin)),
        ("name", Json::str(name)),
        ("export", Json::str(plan.export.clone())),
        (
            "status",
            Json::str(match plan.status() {
                Status::Ready => "ready",
                Status::Disagrees => "disagrees",
                Status::Unknown => "unknown_export",
            }),
        ),
        ("symbol", Json::opt_str(t.map(|t| t.symbol))),
        ("version", Json::opt_number(t.map(|t| t.version))),
        (
            "stream",
            Json::opt_str(t.map(|t| if t.per_thread { "per_thread" } else { "legacy" })),
        ),
        ("typedef", Json::opt_str(t.map(|t| t.typedef.clone()))),
        (
            "declaration",
            Json::opt_str(t.map(|t| t.declaration.clone())),
        ),
        (
            "notes",
            Json::Array(
                plan.notes
                    .iter()
                    .map(|n| {
                        Json::object([
                            ("kind", Json::str(n.kind)),
                            ("message", Json::str(n.message.clone())),
                        ])
                    })
                    .collect(),
            ),
        ),
    ])
}

pub(super) fn json(files: &[Migrated], advice: &[Stale], mode: Mode) -> Json {
    let count = |status: Status| {
        let n = files
            .iter()
            .flat_map(|m| &m.plans)
            .filter(|p| p.status() == status)
            .count();
        Json::Number(n as u64)
    };
    let changed: Vec<&Migrated> = files.iter().filter(|m| !m.edits.is_empty()).collect();
    let listed = files
        .iter()
        .filter(|m| !m.edits.is_empty() || !m.left.is_empty());
    let strings = |lines: &[String]| Json::Array(lines.iter().cloned().map(Json::str).collect());
    Json::object([
        (
            "bindings",
            Json::Array(
                files
                    .iter()
                    .flat_map(|m| m.plans.iter().map(move |p| plan_json(m, p)))
                    .collect(),
            ),
        ),
        (
            "files",
            Json::Array(
                listed
                    .map(|m| {
                        Json::object([
                            ("file", Json::str(m.file.display().to_string())),
                            ("changes", strings(&m.changes)),
                            ("left", strings(&m.left)),
                            (
                                "diff",
                                if mode == Mode::Report {
                                    Json::Null
                                } else {
                                    Json::str(m.diff.clone())
                                },
                            ),
                            (
                                "written",
                                Json::Bool(mode == Mode::Write && !m.edits.is_empty()),
                            ),
                        ])
                    })
                    .collect(),
            ),
        ),
        (
            "lockfiles",
            Json::Array(
                by_lock(advice)
                    .into_iter()
                    .map(|(lock, stale)| {
                        Json::object([
                            ("lockfile", Json::str(lock.display().to_string())),
                            (
                                "stale",
                                Json::Array(
                                    stale
                                        .iter()
                                        .map(|s| {
                                            Json::object([
                                                ("package", Json::str(s.spec.clone())),
                                                ("held", Json::str(s.held.clone())),
                                                ("minimum", Json::str(s.minimum.clone())),
                                            ])
                                        })
                                        .collect(),
                                ),
                            ),
                            ("update", Json::str(update_command(&stale))),
                        ])
                    })
                    .collect(),
            ),
        ),
        (
            "totals",
            Json::object([
                ("files", Json::Number(files.len() as u64)),
                (
                    "bindings",
                    Json::Number(files.iter().map(|m| m.plans.len() as u64).sum()),
                ),
                ("ready", count(Status::Ready)),
                ("disagree", count(Status::Disagrees)),
                ("unknown", count(Status::Unknown)),
                ("changed_files", Json::Number(changed.len() as u64)),
            ]),
        ),
    ])
}
