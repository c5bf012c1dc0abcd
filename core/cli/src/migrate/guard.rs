//! What `--write` checks before it touches anything, as `cargo fix` does: that every file it would
//! rewrite lies inside what it was given (no symbolic link, no folder reached through one), and
//! that the rewrite can be reviewed and undone: each file tracked by git without uncommitted
//! changes, unless `--allow-dirty`; inside a repository at all, unless `--allow-no-vcs`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::shown;

/// What the user allowed.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Allow {
    /// `--allow-dirty`: files with uncommitted changes (or untracked) may be rewritten.
    pub(crate) dirty: bool,
    /// `--allow-no-vcs`: files outside any git repository (or ignored by it) may be rewritten.
    pub(crate) no_vcs: bool,
}

/// The files of `targets` that lie outside every path of `given` (a folder and what is under
/// it, or a file itself), or are reached through a symbolic link, a line each saying why.
pub(crate) fn outside(targets: &[&Path], given: &[PathBuf]) -> Vec<String> {
    let roots: Vec<PathBuf> = given.iter().filter_map(|p| p.canonicalize().ok()).collect();
    let mut lines = Vec::new();
    for target in targets {
        let shown = shown::path(target);
        if let Ok(m) = std::fs::symlink_metadata(target)
            && m.file_type().is_symlink()
        {
            let to = std::fs::read_link(target)
                .map(|t| format!(" to {}", shown::path(&t)))
                .unwrap_or_default();
            lines.push(format!(
                "{shown}: a symbolic link{to}: not followed (it may lead out of the crate); \
                 replace it with the file, or migrate the crate it belongs to"
            ));
            continue;
        }
        let real = target
            .canonicalize()
            .unwrap_or_else(|_| target.to_path_buf());
        if !roots.iter().any(|root| real.starts_with(root)) {
            lines.push(format!(
                "{shown}: is {} through a symbolic link, outside what was given: migrate the \
                 crate it belongs to",
                shown::path(&real)
            ));
        }
    }
    lines
}

/// Why `targets` may not be rewritten under `allow`, a line per file; empty when they may.
pub(crate) fn reviewable(targets: &[&Path], allow: Allow) -> Vec<String> {
    let mut dirty = Vec::new();
    let mut no_vcs = Vec::new();
    for target in targets {
        match state(target) {
            State::Clean => {}
            State::NoVcs(why) if !allow.no_vcs => {
                no_vcs.push(format!("  {} ({why})", shown::path(target)));
            }
            State::Dirty(how) if !allow.dirty => {
                dirty.push(format!("  {} ({how})", shown::path(target)));
            }
            State::NoVcs(_) | State::Dirty(_) => {}
        }
    }
    let mut lines = Vec::new();
    if !no_vcs.is_empty() {
        lines.push(format!(
            "--write: these files are not under version control, so the rewrite could not be \
             reviewed or undone: commit them to a git repository first, or pass --allow-no-vcs:\n{}",
            no_vcs.join("\n")
        ));
    }
    if !dirty.is_empty() {
        lines.push(format!(
            "--write: these files have changes that are not committed, which the rewrite would \
             mix with its own: commit or stash them first, or pass --allow-dirty:\n{}",
            dirty.join("\n")
        ));
    }
    lines
}

/// What git says of one file.
#[derive(Debug, PartialEq, Eq)]
enum State {
    /// Tracked, as committed.
    Clean,
    /// Outside any repository, ignored by it, or git is not installed: why.
    NoVcs(&'static str),
    /// Modified, staged, untracked...: git's two status letters, in words.
    Dirty(String),
}

fn state(target: &Path) -> State {
    let folder = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let Some(name) = target.file_name() else {
        return State::NoVcs("not a file");
    };
    let git = |args: &[&std::ffi::OsStr]| {
        Command::new("git")
            .arg("-C")
            .arg(folder)
            .args(args)
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
    };
    let inside = git(&["rev-parse".as_ref(), "--is-inside-work-tree".as_ref()]);
    match inside {
        Err(_) => return State::NoVcs("git is not installed"),
        Ok(out) if !out.status.success() || out.stdout.trim_ascii() != b"true" => {
            return State::NoVcs("in no git repository");
        }
        Ok(_) => {}
    }
    let ignored = git(&["check-ignore".as_ref(), "-q".as_ref(), "--".as_ref(), name]);
    if ignored.is_ok_and(|out| out.status.success()) {
        return State::NoVcs("ignored by git");
    }
    let status = git(&[
        "status".as_ref(),
        "--porcelain=v1".as_ref(),
        "--untracked-files=all".as_ref(),
        "--".as_ref(),
        name,
    ]);
    match status {
        Ok(out) if out.status.success() => match out.stdout.get(..2) {
            None => State::Clean,
            Some(b"??") => State::Dirty("untracked".to_owned()),
            Some(&[index, tree]) => State::Dirty(
                match (index, tree) {
                    (b' ', _) => "modified, not staged",
                    (_, b' ') => "staged, not committed",
                    _ => "staged and modified",
                }
                .to_owned(),
            ),
            Some(_) => State::Dirty("changed".to_owned()),
        },
        _ => State::NoVcs("git status failed"),
    }
}
