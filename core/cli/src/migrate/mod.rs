//! `cuda-entry migrate`: finds the driver functions a crate binds without cuda-entry (the
//! functions of `extern "C"` blocks linked against libcuda, calls through
//! `cudarc::driver::sys`), says which typedef each export implements and the `#[cuda_entry]`
//! declaration to use, and with `--write` turns the `extern` blocks into `#[cuda_entry]` ones.
//!
//! One job a file: [`find`] reads a parsed source ([`loaded`]: the bindings loaded by name), each
//! driver function found a [`binding`], [`plan`] maps each export to its typedef and holds the
//! signature against it, [`status`] reads what each binding's status type is (across the files
//! and crates of the run), [`write`](mod@write) builds the edits (and the one adapter a shim's
//! body is), [`link`] removes the other libcuda links, [`manifest`] edits a crate's Cargo.toml,
//! [`diff`] shows the edits, [`summary`] counts once, [`render`] prints. Sources are listed, read
//! and parsed by [`source`](crate::source), as `check` reads them (the same limits, the same
//! nesting bound).

mod binding;
mod diff;
mod find;
mod guard;
mod link;
mod loaded;
mod manifest;
mod plan;
mod render;
mod replace;
mod status;
mod summary;
mod verify;
mod write;

#[cfg(test)]
mod fixture;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::common::CliError;
use crate::output;
use crate::shown;
use crate::source::parse::parse;
use crate::source::read::{self, Content, Input};
use crate::source::walk;
use manifest::{Dependency, Manifest};
use plan::{Plan, Status};
use status::{Conversion, Items};
use summary::Summary;
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
    /// `--dependency`: the cuda-entry dependency to add to a crate's manifest, as given.
    pub(crate) dependency: Option<String>,
    /// `--allow-dirty` and `--allow-no-vcs`.
    pub(crate) allow: guard::Allow,
    /// `--required`: the declarations written are required, not `optional`.
    pub(crate) entries: plan::Entries,
    /// `--verify`: after writing (or alone), build each crate without CUDA and read its
    /// artifacts for libcuda.
    pub(crate) verify: bool,
}

pub(crate) use guard::Allow;
pub(crate) use plan::Entries;

/// What one file holds and becomes: a Rust source, or a crate's `Cargo.toml` or
/// `.cargo/config.toml`.
#[derive(Debug)]
struct Migrated {
    file: PathBuf,
    plans: Vec<Plan>,
    /// The extern functions of each plan, by [`plan::Origin::Extern`]'s indices.
    found: find::Found,
    edits: Vec<Edit>,
    /// The unified diff of the edits; empty when there are none.
    diff: String,
    /// The text the edits were made from, as read.
    original: String,
    /// The source with the edits applied.
    migrated: String,
    /// Whether it was read from standard input, which `--write` cannot rewrite.
    stdin: bool,
    /// What the edits do, a line each (`adds cuda-entry = "0.1" to [dependencies]`).
    changes: Vec<String>,
    /// What still links libcuda and is left for the user, a line each.
    left: Vec<String>,
}

impl Migrated {
    /// A file that is no Rust source, edited from `old` to `new`.
    fn text(file: PathBuf, old: &str, new: &str, changes: Vec<String>) -> Migrated {
        let edits: Vec<Edit> = minimal_edit(old, new).into_iter().collect();
        Migrated {
            diff: diff::unified(&file.display().to_string(), old, &edits),
            original: old.to_owned(),
            migrated: new.to_owned(),
            file,
            plans: Vec::new(),
            found: find::Found::default(),
            edits,
            stdin: false,
            changes,
            left: Vec::new(),
        }
    }
}

/// The one edit that turns `old` into `new`: the lines between their common first and last
/// lines.
fn minimal_edit(old: &str, new: &str) -> Option<Edit> {
    if old == new {
        return None;
    }
    let prefix: usize = old
        .split_inclusive('\n')
        .zip(new.split_inclusive('\n'))
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a.len())
        .sum();
    let suffix: usize = old[prefix..]
        .split_inclusive('\n')
        .rev()
        .zip(new[prefix..].split_inclusive('\n').rev())
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a.len())
        .sum();
    let suffix = suffix.min(old.len() - prefix).min(new.len() - prefix);
    Some(Edit {
        range: prefix..old.len() - suffix,
        text: new[prefix..new.len() - suffix].to_owned(),
    })
}

/// `inputs` without the files of crates nested in the crate folders `given` (a folder under one
/// of them, not given itself, with a `Cargo.toml`), and those crates' folders, sorted.
fn without_nested_crates(inputs: Vec<Input>, given: &[&PathBuf]) -> (Vec<Input>, Vec<PathBuf>) {
    let mut nested: Vec<PathBuf> = Vec::new();
    let kept = inputs
        .into_iter()
        .filter(|input| {
            let Input::File(file) = input else {
                return true;
            };
            let Some(root) = given
                .iter()
                .filter(|c| file.starts_with(c))
                .max_by_key(|c| c.components().count())
            else {
                return true;
            };
            // The nearest folder above the file, up to the crate given, with a manifest.
            let owner = file
                .ancestors()
                .skip(1)
                .take_while(|dir| *dir != root.as_path() && dir.starts_with(root))
                .find(|dir| dir.join("Cargo.toml").is_file());
            match owner {
                Some(dir) => {
                    if !nested.iter().any(|n| n == dir) {
                        nested.push(dir.to_path_buf());
                    }
                    false
                }
                None => true,
            }
        })
        .collect();
    nested.sort();
    (kept, nested)
}

/// A crate folder given: one with a `Cargo.toml`.
fn is_crate(path: &Path) -> bool {
    path.is_dir() && path.join("Cargo.toml").is_file()
}

/// What `migrate` learnt of a crate folder before reading its sources.
struct Crate {
    dir: PathBuf,
    manifest: Manifest,
    build_script: Option<PathBuf>,
    /// A member of a workspace given, not named itself: its manifest gets the dependency only
    /// when one of its files is migrated.
    member: bool,
}

pub(crate) fn run(options: &Options) -> Result<ExitCode, CliError> {
    let rewriting = options.write || options.dry_run;
    let dependency = match &options.dependency {
        Some(spec) => Dependency::parse(spec).map_err(CliError::BadInput)?,
        None => Dependency::default_version(),
    };
    let given_crates: Vec<&PathBuf> = options.paths.iter().filter(|p| is_crate(p)).collect();
    // A workspace's root given: each member under it is a crate of the run too, migrated with
    // its own manifest (one without anything to migrate gets no dependency).
    let mut members: Vec<PathBuf> = Vec::new();
    let mut bad_workspaces = Vec::new();
    for root in &given_crates {
        match manifest::workspace_members(root) {
            Ok(Some(dirs)) => {
                let absolute = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
                for dir in dirs {
                    match dir.strip_prefix(&absolute) {
                        Ok(inside) if !inside.as_os_str().is_empty() => {
                            let member = root.join(inside);
                            if !given_crates.contains(&&member) && !members.contains(&member) {
                                members.push(member);
                            }
                        }
                        Ok(_) => {}
                        Err(_) => eprintln!(
                            "note: {} is a member of the workspace {} outside its folder: not \
                             migrated (nothing is written outside the paths given); run \
                             `cuda-entry migrate {}` for it",
                            shown::path(&dir),
                            shown::path(root),
                            shown::path(&dir)
                        ),
                    }
                }
            }
            Ok(None) => {}
            Err(e) => bad_workspaces.push(format!("{}: {e}", shown::path(root))),
        }
    }
    let crate_dirs: Vec<&PathBuf> = given_crates.iter().copied().chain(&members).collect();
    if options.dependency.is_some() && crate_dirs.is_empty() {
        return Err(CliError::BadInput(
            "--dependency: no crate folder given (a folder with a Cargo.toml), whose manifest \
             it is for"
                .to_owned(),
        ));
    }
    let (inputs, mut bad) = walk::collect(&options.paths, walk::Look::Sources);
    bad.extend(bad_workspaces);
    // A crate nested in a crate folder given (cargo-fuzz's `fuzz/`, with a `[workspace]` of its
    // own; a workspace member) is another crate: its sources are not this crate's, and the
    // dependency they would need is not this manifest's. Left, and said, unless given itself.
    let (inputs, nested) = without_nested_crates(inputs, &crate_dirs);
    for dir in &nested {
        eprintln!(
            "note: {} is a crate of its own ({}): not migrated with {}; run `cuda-entry migrate \
             {}` for it",
            shown::path(dir),
            shown::path(&dir.join("Cargo.toml")),
            crate_dirs
                .iter()
                .find(|c| dir.starts_with(c))
                .map_or_else(String::new, |c| shown::path(c).to_string()),
            shown::path(dir)
        );
    }
    if rewriting && inputs.contains(&Input::Stdin) {
        bad.push(
            "-: standard input cannot be rewritten: name the file, or drop --write/--dry-run to \
             see the declarations to use"
                .to_owned(),
        );
    }
    let mut crates = Vec::new();
    for dir in crate_dirs {
        let manifest_path = dir.join("Cargo.toml");
        let manifest = std::fs::read_to_string(&manifest_path)
            .map_err(|e| e.to_string())
            .and_then(Manifest::read);
        match manifest {
            Ok(manifest) => {
                if let Some(path) = dependency.path() {
                    let target = dir.join(&path);
                    if !target.join("Cargo.toml").is_file() {
                        bad.push(format!(
                            "--dependency: {} has no Cargo.toml (a path is read from the \
                             crate's folder, {}, as Cargo reads it)",
                            shown::path(&path),
                            shown::path(dir)
                        ));
                    }
                }
                crates.push(Crate {
                    build_script: manifest.build_script().map(|s| dir.join(s)),
                    dir: dir.clone(),
                    manifest,
                    member: members.contains(dir),
                });
            }
            Err(e) => bad.push(format!("{}: {e}", shown::path(&manifest_path))),
        }
    }
    // Each source parsed once; planned and written once every source of the run is read, so
    // that a status type is found in whichever file or crate of the run defines it.
    let mut parsed = Vec::new();
    let mut items = Vec::new();
    for input in &inputs {
        let name = input.name();
        let build_script = crates
            .iter()
            .any(|c| c.build_script.as_deref() == Some(name.as_path()));
        let read = read::read(input).and_then(|content| match content {
            Content::Source(text) => read_source(name, text, *input == Input::Stdin, build_script),
            Content::Binary(_) => Err(format!(
                "{}: a built binary: migrate reads Rust sources",
                shown::path(&name)
            )),
        });
        match read {
            Ok((source, read)) => {
                parsed.push(source);
                items.push(read);
            }
            Err(message) => bad.push(message),
        }
    }
    let index = index(&parsed, &items, &crates);
    let mut files: Vec<Migrated> = parsed
        .into_iter()
        .enumerate()
        .map(|(i, source)| migrate(source, &status::Resolver::new(&index, i), options.entries))
        .collect();
    let mut advice = Vec::new();
    // Each source's crate: the innermost crate folder holding it.
    let owner = |file: &Path| {
        crates
            .iter()
            .filter(|c| file.starts_with(&c.dir))
            .max_by_key(|c| c.dir.components().count())
            .map(|c| c.dir.clone())
    };
    let changed: Vec<PathBuf> = files
        .iter()
        .filter(|m| !m.edits.is_empty())
        .filter_map(|m| owner(&m.file))
        .collect();
    for c in &crates {
        if c.member && !changed.contains(&c.dir) {
            continue;
        }
        match crate_files(c, &dependency) {
            Ok((edited, lock)) => {
                files.extend(edited);
                advice.extend(lock);
            }
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
    let summary = Summary::new(&files);
    if mode == render::Mode::Write {
        // Nothing outside what was given, and nothing that cannot be reviewed and undone.
        let targets: Vec<&Path> = files
            .iter()
            .filter(|m| !m.edits.is_empty())
            .map(|m| m.file.as_path())
            .collect();
        let outside = guard::outside(&targets, &options.paths);
        if !outside.is_empty() {
            return Err(CliError::BadInput(format!(
                "--write writes nothing outside the paths it is given; refused, nothing was \
                 changed:\n{}",
                outside.join("\n")
            )));
        }
        let refused = guard::reviewable(&targets, options.allow);
        if !refused.is_empty() {
            return Err(CliError::BadInput(format!(
                "{}\nnothing was changed (--dry-run shows the diff)",
                refused.join("\n")
            )));
        }
        // Every file or none: a failure or an interruption leaves each as it was.
        let set: Vec<replace::Replacement<'_>> = files
            .iter()
            .filter(|m| !m.edits.is_empty())
            .map(|m| replace::Replacement {
                path: &m.file,
                old: &m.original,
                new: &m.migrated,
            })
            .collect();
        replace::replace_all(&set, &mut replace::Real)
            .map_err(|e| CliError::Failed(format!("--write: {e}")))?;
    }
    // The report after the write: it says the files were rewritten.
    let out = if options.json {
        output::json(&render::json(&files, &advice, mode, &summary))
    } else {
        let terminal = std::io::IsTerminal::is_terminal(&std::io::stdout());
        render::text(&files, &advice, mode, &summary, terminal)
    };
    output::print(&out)?;
    if options.verify {
        // Each crate of the run, as it now stands on disk.
        let mut failed = false;
        for c in &crates {
            if c.manifest.is_virtual() || (c.member && !changed.contains(&c.dir)) {
                continue;
            }
            let verified = verify::verify(&c.dir).map_err(CliError::Failed)?;
            failed |= !verified.passed();
            eprintln!("{}", verified.line());
        }
        if failed {
            return Ok(crate::exit::code(crate::exit::INCOMPLETE));
        }
    }
    Ok(summary.exit_code())
}

/// A crate's `Cargo.toml` with the dependency, its `.cargo/config.toml` without `-l cuda`, and
/// what its lockfile needs updated: `(package spec, held, minimum)`.
fn crate_files(
    c: &Crate,
    dependency: &Dependency,
) -> Result<(Vec<Migrated>, Vec<render::Stale>), String> {
    let mut files = Vec::new();
    let manifest = c.dir.join("Cargo.toml");
    let old = std::fs::read_to_string(&manifest)
        .map_err(|e| format!("{}: cannot read: {e}", shown::path(&manifest)))?;
    let mut edited = match c.manifest.with_dependency(dependency) {
        Some((new, change)) => Migrated::text(manifest.clone(), &old, &new, vec![change]),
        None => Migrated::text(manifest, &old, &old, Vec::new()),
    };
    if c.manifest.edition_2015() {
        edited.left.push(
            "edition 2015: the declarations name `::cuda_entry`, which such a crate reaches only \
             with `extern crate cuda_entry;` at its root: add that line"
                .to_owned(),
        );
    }
    if !edited.edits.is_empty() || !edited.left.is_empty() {
        files.push(edited);
    }
    for name in ["config.toml", "config"] {
        let path = c.dir.join(".cargo").join(name);
        let Ok(old) = std::fs::read_to_string(&path) else {
            continue;
        };
        let edited = link::config(&old).map_err(|e| format!("{}: {e}", shown::path(&path)))?;
        if let Some((new, changes)) = edited {
            files.push(Migrated::text(path, &old, &new, changes));
        }
    }
    let lock = c.dir.join("Cargo.lock");
    let stale = match std::fs::read_to_string(&lock) {
        Ok(text) => manifest::lock_advice(&text)
            .map_err(|e| format!("{}: {e}", shown::path(&lock)))?
            .into_iter()
            .map(|(spec, held, minimum)| render::Stale {
                lock: lock.clone(),
                spec,
                held,
                minimum,
            })
            .collect(),
        Err(_) => Vec::new(),
    };
    Ok((files, stale))
}

/// A source read and parsed: what it binds, and its build script's edits if it is one.
struct Parsed {
    file: PathBuf,
    source: String,
    stdin: bool,
    found: find::Found,
    /// A build script's libcuda link lines removed, and those left.
    script: Option<(Vec<Edit>, Vec<String>)>,
}

/// Parses one source (as `check` parses it) and finds what it binds and its type items.
fn read_source(
    file: PathBuf,
    source: String,
    stdin: bool,
    build_script: bool,
) -> Result<(Parsed, Items), String> {
    let text = &source;
    let (found, items, script) = parse(&file, text, |ast, _| {
        let found = find::find(text, ast);
        let items = status::collect(&crate::source::text::Text::new(text), ast);
        let script = build_script.then(|| link::build_script(text, ast));
        (found, items, script)
    })?;
    let parsed = Parsed {
        file,
        source,
        stdin,
        found,
        script,
    };
    Ok((parsed, items))
}

/// The index of every source of the run: each in its crate's library (the file's module from
/// its path under `src/`), or a crate of its own (a test, an example, a binary, a file given
/// alone).
fn index<'a>(parsed: &[Parsed], items: &'a [Items], crates: &[Crate]) -> status::Index<'a> {
    let mut units: Vec<(PathBuf, Option<String>)> = Vec::new();
    let mut unit = |key: PathBuf, name: Option<String>| match units.iter().position(|u| u.0 == key)
    {
        Some(i) => i,
        None => {
            units.push((key, name));
            units.len() - 1
        }
    };
    let mut sources = Vec::new();
    for (p, items) in parsed.iter().zip(items) {
        let owner = crates
            .iter()
            .filter(|c| p.file.starts_with(&c.dir))
            .max_by_key(|c| c.dir.components().count());
        let library = owner.and_then(|c| Some((c, module_in_library(&c.dir, &p.file)?)));
        let (krate, module) = match library {
            Some((c, module)) => (unit(c.dir.join("src"), c.manifest.lib_name()), module),
            None => (unit(p.file.clone(), None), Vec::new()),
        };
        sources.push(status::Source {
            name: shown::path(&p.file).to_string(),
            items,
            krate,
            module,
        });
    }
    status::Index::new(sources, units.into_iter().map(|(_, name)| name).collect())
}

/// The module of `file` in the library of the crate in `dir` (`src/a/b.rs` and `src/a/b/mod.rs`
/// are `a::b`; `src/lib.rs`, or `src/main.rs` without one, the root); `None` for a file of
/// another target.
fn module_in_library(dir: &Path, file: &Path) -> Option<Vec<String>> {
    let relative = file.strip_prefix(dir.join("src")).ok()?;
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let (last, folders) = parts.split_last()?;
    let stem = last.strip_suffix(".rs")?;
    if folders.first().is_some_and(|f| f == "bin") {
        return None;
    }
    let mut module = folders.to_vec();
    match stem {
        "lib" if folders.is_empty() => {}
        "main" if folders.is_empty() => {
            if dir.join("src/lib.rs").is_file() {
                return None;
            }
        }
        "mod" => {}
        _ => module.push(stem.to_owned()),
    }
    Some(module)
}

/// Plans and edits one source, its types read through `types`; a build script's libcuda link
/// lines are removed too.
fn migrate(p: Parsed, types: &status::Resolver<'_>, entries: plan::Entries) -> Migrated {
    let Parsed {
        file,
        source,
        stdin,
        found,
        script,
    } = p;
    let mut plans = plan::plans(&found, entries);
    // A binding whose status is an enum with no variant for a code it does not list is refused;
    // the types not seen into are said.
    let mut unseen: Vec<(String, usize)> = Vec::new();
    for plan in plans.iter_mut().filter(|p| p.status() == Status::Ready) {
        let function = write::function(&found, &plan.origin);
        let at = write::origin_at(&found, &plan.origin);
        let (Some(ret), Some(at)) = (function.and_then(|f| f.ret.as_ref()), at) else {
            continue;
        };
        match &*types.conversion(at, ret) {
            Conversion::Refused(why) => plan.notes.push(plan::Note {
                kind: plan::STATUS_REFUSED,
                message: why.clone(),
            }),
            Conversion::Unseen => match unseen.iter_mut().find(|(ty, _)| ty == ret) {
                Some((_, count)) => *count += 1,
                None => unseen.push((ret.clone(), 1)),
            },
            _ => {}
        }
    }
    let mut edits = write::edits(&source, &found, &plans, types);
    let (unlinked, mut left) = write::unlinked(&source, &found, &plans);
    let mut changes = Vec::new();
    let ready = plans.iter().filter(|p| p.status() == Status::Ready).count();
    if ready > 0 {
        changes.push(format!(
            "declares {ready} binding{} through #[cuda_entry]",
            if ready == 1 { "" } else { "s" }
        ));
    }
    for (ty, count) in &unseen {
        changes.push(format!(
            "converts the status of {count} binding{} to `{ty}` through \
             `cuda_entry::FromDriver`: `{ty}` is not defined in the sources migrated, so the \
             build must prove it holds every status (an enum cannot: migrate the crate defining \
             it with this one)",
            if *count == 1 { "" } else { "s" }
        ));
    }
    let mut removed = unlinked;
    if let Some((script, script_left)) = script {
        edits.extend(script.iter().cloned());
        removed.extend(script);
        left.extend(script_left);
    }
    for edit in &removed {
        let line = source[..edit.range.start].matches('\n').count() + 1;
        let removed: Vec<&str> = source[edit.range.clone()].split_whitespace().collect();
        changes.push(format!("removes line {line}: `{}`", removed.join(" ")));
    }
    edits.sort_by_key(|e| (e.range.start, e.range.end));
    edits.dedup();
    let name = file.display().to_string();
    Migrated {
        diff: diff::unified(&name, &source, &edits),
        migrated: write::apply(&source, &edits),
        original: source,
        file,
        plans,
        found,
        edits,
        stdin,
        changes,
        left,
    }
}
