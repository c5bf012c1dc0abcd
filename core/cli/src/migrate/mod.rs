//! `cuda-entry migrate`: finds the driver functions a crate binds without cuda-entry (the
//! functions of `extern "C"` blocks linked against libcuda, calls through
//! `cudarc::driver::sys`), says which typedef each export implements and the `#[cuda_entry]`
//! declaration to use, and with `--write` turns the `extern` blocks into `#[cuda_entry]` ones.
//!
//! One job a file: [`find`] reads a parsed source, [`plan`] maps each export to its typedef and
//! holds the signature against it, [`write`](mod@write) builds the edits (and the one adapter a shim's body
//! is), [`diff`] shows them, [`render`] prints. Sources are read as `check` reads them (the same
//! limits, the same nesting bound).

mod diff;
pub(crate) mod find;
mod plan;
mod render;
mod write;

#[cfg(test)]
mod fixture;

use std::path::PathBuf;
use std::process::ExitCode;

use crate::check::read::{self, Content};
use crate::check::scan;
use crate::check::walk::{self, Input};
use crate::common::CliError;
use crate::output;
use crate::shown;
use plan::{Plan, Status};
use write::Edit;

/// Options of `migrate`.
#[derive(Debug)]
pub(crate) struct Options {
    pub(crate) paths: Vec<PathBuf>,
    /// Rewrite the files (after showing the diff).
    pub(crate) write: bool,
    /// Show the diff `--write` would apply, and write nothing.
    pub(crate) dry_run: bool,
    pub(crate) json: bool,
}

/// What one source holds and becomes.
#[derive(Debug)]
struct Migrated {
    file: PathBuf,
    plans: Vec<Plan>,
    /// The extern functions of each plan, by [`plan::Origin::Extern`]'s indices.
    found: find::Found,
    edits: Vec<Edit>,
    /// The unified diff of the edits; empty when there are none.
    diff: String,
    /// The source with the edits applied.
    migrated: String,
    /// Whether it was read from standard input, which `--write` cannot rewrite.
    stdin: bool,
}

/// The exit status when something was not migrated (an unknown export) and nothing disagrees.
const NOT_MIGRATED: u8 = 3;

pub(crate) fn run(options: &Options) -> Result<ExitCode, CliError> {
    let rewriting = options.write || options.dry_run;
    let (inputs, mut bad) = walk::collect(&options.paths, walk::Look::Sources);
    if rewriting && inputs.contains(&Input::Stdin) {
        bad.push(
            "-: standard input cannot be rewritten: name the file, or drop --write/--dry-run to \
             see the declarations to use"
                .to_owned(),
        );
    }
    let mut files = Vec::new();
    for input in &inputs {
        let name = input.name();
        let migrated = read::read(input).and_then(|content| match content {
            Content::Source(text) => migrate(name, &text, *input == Input::Stdin),
            Content::Binary(_) => Err(format!(
                "{}: a built binary: migrate reads Rust sources",
                shown::path(&name)
            )),
        });
        match migrated {
            Ok(m) => files.push(m),
            Err(message) => bad.push(message),
        }
    }
    if !bad.is_empty() {
        return Err(CliError::BadInput(bad.join("\n")));
    }
    let mode = match (options.write, options.dry_run) {
        (_, true) => render::Mode::DryRun,
        (true, false) => render::Mode::Write,
        (false, false) => render::Mode::Report,
    };
    let out = if options.json {
        format!("{}\n", render::json(&files, mode))
    } else {
        render::text(&files, mode)
    };
    output::print(&out)?;
    if mode == render::Mode::Write {
        for m in files.iter().filter(|m| !m.edits.is_empty()) {
            std::fs::write(&m.file, &m.migrated).map_err(|e| {
                CliError::Failed(format!(
                    "{}: cannot write: {e}; the file is as it was or partly written, compare it \
                     with the diff above",
                    shown::path(&m.file)
                ))
            })?;
        }
    }
    let statuses = files.iter().flat_map(|m| m.plans.iter().map(Plan::status));
    let statuses: Vec<Status> = statuses.collect();
    Ok(if statuses.contains(&Status::Disagrees) {
        ExitCode::from(1)
    } else if statuses.contains(&Status::Unknown) {
        ExitCode::from(NOT_MIGRATED)
    } else {
        ExitCode::SUCCESS
    })
}

/// Finds, plans and edits one source (parsed as `check` parses it).
fn migrate(file: PathBuf, source: &str, stdin: bool) -> Result<Migrated, String> {
    let (found, plans, edits) = scan::parse(&file, source, |ast, _| {
        let found = find::find(source, ast);
        let plans = plan::plans(&found);
        let edits = write::edits(source, &found, &plans);
        (found, plans, edits)
    })?;
    let name = file.display().to_string();
    Ok(Migrated {
        diff: diff::unified(&name, source, &edits),
        migrated: write::apply(source, &edits),
        file,
        plans,
        found,
        edits,
        stdin,
    })
}
