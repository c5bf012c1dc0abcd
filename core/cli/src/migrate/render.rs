//! What `migrate` prints: a paragraph a binding (where, the typedef its export implements, the
//! declaration to use, where it disagrees), the diffs, the totals; or one JSON document. Text that
//! came from a file is [`shown()`], escaped.

use std::fmt::Write;

use serde_json::{Value, json};

use super::Migrated;
use super::binding::Linked;
use super::plan::{Origin, Plan, STATUS_REFUSED, Status};
use super::summary::Summary;
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
    super::write::function(&m.found, &plan.origin)
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

/// The report as text. The diff is escaped as every text from a file is ([`shown`]) when
/// `terminal`, and otherwise written as the files' own bytes, so that `patch -p0` applies it
/// (a file's control characters would otherwise be `\u{1b}` in the patch).
pub(super) fn text(
    files: &[Migrated],
    advice: &[Stale],
    mode: Mode,
    summary: &Summary,
    terminal: bool,
) -> String {
    let mut out = String::new();
    for m in files {
        for plan in &m.plans {
            let at = format!("{}:{}:{}", shown::path(&m.file), plan.line, plan.column);
            let status = plan.status();
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
                        _ if plan.notes.iter().all(|n| n.kind == STATUS_REFUSED) => {
                            "its status type cannot hold every status a driver returns (not \
                             migrated)"
                        }
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
            if terminal {
                out.push_str(&shown::lines(&m.diff));
            } else {
                out.push_str(&m.diff);
            }
        }
    }
    out.push_str(&changes(files, advice));
    let changed = summary.rewritten;
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let _ = write!(
        out,
        "{} binding{} in {} file{}: {} ready, {} disagree{} with the typedef, {} unknown",
        summary.bindings,
        plural(summary.bindings),
        summary.files,
        plural(summary.files),
        summary.ready,
        summary.disagree,
        if summary.disagree == 1 { "s" } else { "" },
        summary.unknown,
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

fn plan_json(m: &Migrated, plan: &Plan) -> Value {
    let t = plan.target.as_ref();
    let name = |f: Option<&Linked>| f.map_or_else(|| plan.export.clone(), |f| f.name.clone());
    let (origin, name) = match (&plan.origin, linked(m, plan)) {
        (Origin::Cudarc { path }, _) => ("cudarc", path.clone()),
        (Origin::Loaded { .. }, f) => ("loaded_field", name(f)),
        (Origin::Wrapper { .. }, f) => ("wrapper", name(f)),
        (Origin::Extern { .. }, f) => ("extern", name(f)),
    };
    let notes: Vec<Value> = plan
        .notes
        .iter()
        .map(|n| json!({"kind": n.kind, "message": n.message}))
        .collect();
    json!({
        "file": m.file.display().to_string(),
        "line": plan.line,
        "column": plan.column,
        "origin": origin,
        "name": name,
        "export": plan.export,
        "status": match plan.status() {
            Status::Ready => "ready",
            Status::Disagrees => "disagrees",
            Status::Unknown => "unknown_export",
        },
        "symbol": t.map(|t| t.symbol),
        "version": t.map(|t| t.version),
        "stream": t.map(|t| if t.per_thread { "per_thread" } else { "legacy" }),
        "typedef": t.map(|t| &t.typedef),
        "declaration": t.map(|t| &t.declaration),
        "notes": notes,
    })
}

pub(super) fn json(files: &[Migrated], advice: &[Stale], mode: Mode, summary: &Summary) -> Value {
    let bindings: Vec<Value> = files
        .iter()
        .flat_map(|m| m.plans.iter().map(move |p| plan_json(m, p)))
        .collect();
    let listed: Vec<Value> = files
        .iter()
        .filter(|m| !m.edits.is_empty() || !m.left.is_empty())
        .map(|m| {
            json!({
                "file": m.file.display().to_string(),
                "changes": m.changes,
                "left": m.left,
                "diff": (mode != Mode::Report).then_some(&m.diff),
                "written": mode == Mode::Write && !m.edits.is_empty(),
            })
        })
        .collect();
    let lockfiles: Vec<Value> = by_lock(advice)
        .into_iter()
        .map(|(lock, stale)| {
            let packages: Vec<Value> = stale
                .iter()
                .map(|s| json!({"package": s.spec, "held": s.held, "minimum": s.minimum}))
                .collect();
            json!({
                "lockfile": lock.display().to_string(),
                "stale": packages,
                "update": update_command(&stale),
            })
        })
        .collect();
    json!({
        "bindings": bindings,
        "files": listed,
        "lockfiles": lockfiles,
        "totals": {
            "files": summary.files,
            "bindings": summary.bindings,
            "ready": summary.ready,
            "disagree": summary.disagree,
            "unknown": summary.unknown,
            "changed_files": summary.changed,
        },
    })
}
