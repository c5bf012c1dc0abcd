//! `--write`'s last step: a set of files replaced all or nothing.
//!
//! Each file's new text is written to a temporary file beside it (same folder, so same file
//! system), flushed to disk and given the old file's permissions; only when every one is ready
//! are they renamed over their targets, one rename each, which a reader sees as the old file or
//! the new one, never a part. The old files are kept (a hard link, or a copy where links are not
//! supported) until every rename is done: a rename that fails puts back those already done.
//! Before anything is written each target is read again and compared with the text the edits
//! were made from, so a file changed meanwhile (an editor's save) is refused, not overwritten.
//!
//! # Interruption
//!
//! On Unix, `SIGINT`, `SIGTERM`, `SIGHUP` and `SIGQUIT` are blocked while the set is written and
//! delivered when it is whole (old or new): Ctrl-C during a write ends the command once the write
//! is done or undone. `SIGXFSZ` (a file-size limit) is ignored, so that the write fails with an
//! error this module handles instead of killing the process. What cannot be blocked (`SIGKILL`,
//! a power cut) can leave a temporary file (`.NAME.cuda-entry-PID.new`) beside a target, never a
//! target cut short. On Windows, Ctrl-C is not deferred: each file is still whole.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::shown;

/// One file to replace: its path, the text the edits were made from, and the new text.
#[derive(Debug)]
pub(crate) struct Replacement<'a> {
    pub(crate) path: &'a Path,
    pub(crate) old: &'a str,
    pub(crate) new: &'a str,
}

/// The file operations a replacement needs, so that a test can make one fail where the real file
/// system rarely does (a rename).
pub(crate) trait FileSystem {
    /// Renames `from` over `to`.
    fn rename(&mut self, from: &Path, to: &Path) -> std::io::Result<()>;
}

/// The real file system.
#[derive(Debug)]
pub(crate) struct Real;

impl FileSystem for Real {
    fn rename(&mut self, from: &Path, to: &Path) -> std::io::Result<()> {
        fs::rename(from, to)
    }
}

/// Replaces every file of `set` with its new text, or none (see the module's documentation).
/// The error says what happened to each file when it is not "nothing was changed".
pub(crate) fn replace_all(set: &[Replacement<'_>], fs: &mut dyn FileSystem) -> Result<(), String> {
    let _deferred = signals::Deferred::new();
    let mut staged = Vec::with_capacity(set.len());
    for (i, r) in set.iter().enumerate() {
        match stage(r, i) {
            Ok(s) => staged.push(s),
            Err(e) => {
                discard(&staged);
                return Err(format!("{e}; nothing was changed"));
            }
        }
    }
    for (done, s) in staged.iter().enumerate() {
        if let Err(e) = fs.rename(&s.new, &s.target) {
            let failed = format!("{}: cannot replace: {e}", shown::path(&s.target),);
            return Err(roll_back(&staged, done, fs, failed));
        }
    }
    // Every target is new: the old versions are no longer needed.
    for s in &staged {
        let _ = fs::remove_file(&s.backup);
    }
    sync_folders(&staged);
    Ok(())
}

/// A file ready to be replaced: its new text written and flushed beside it, its old one kept.
#[derive(Debug)]
struct Staged {
    target: PathBuf,
    new: PathBuf,
    backup: PathBuf,
}

/// `.NAME.cuda-entry-PID.SUFFIX` beside `path`.
fn beside(path: &Path, index: usize, suffix: &str) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(
        ".{name}.cuda-entry-{}-{index}.{suffix}",
        std::process::id()
    ))
}

/// Checks that `r`'s target is still the text read, then writes the new text and the backup.
fn stage(r: &Replacement<'_>, index: usize) -> Result<Staged, String> {
    let shown = shown::path(r.path);
    let metadata =
        fs::symlink_metadata(r.path).map_err(|e| format!("{shown}: cannot read: {e}"))?;
    if !metadata.file_type().is_file() {
        return Err(format!(
            "{shown}: not a regular file (a symbolic link or other): not written"
        ));
    }
    let now = fs::read(r.path).map_err(|e| format!("{shown}: cannot read: {e}"))?;
    if now != r.old.as_bytes() {
        return Err(format!(
            "{shown}: changed since it was read: run the command again"
        ));
    }
    let staged = Staged {
        target: r.path.to_owned(),
        new: beside(r.path, index, "new"),
        backup: beside(r.path, index, "old"),
    };
    let written = write_new(&staged.new, r.new, &metadata).and_then(|()| {
        // The old file, kept under a second name until every rename is done.
        fs::hard_link(r.path, &staged.backup)
            .or_else(|_| write_new(&staged.backup, r.old, &metadata))
    });
    if let Err(e) = written {
        let _ = fs::remove_file(&staged.new);
        let _ = fs::remove_file(&staged.backup);
        return Err(format!("{shown}: cannot write beside it: {e}"));
    }
    Ok(staged)
}

/// Creates `path` (it must not exist) with `text`, flushed to disk, with `like`'s permissions
/// (and owner, where this process may set it).
fn write_new(path: &Path, text: &str, like: &fs::Metadata) -> std::io::Result<()> {
    let mut file = File::options().write(true).create_new(true).open(path)?;
    let written = file
        .write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .and_then(|()| fs::set_permissions(path, like.permissions()));
    #[cfg(unix)]
    if written.is_ok() {
        use std::os::unix::fs::MetadataExt;
        // Best effort: only a privileged process may give a file away.
        let _ = std::os::unix::fs::chown(path, Some(like.uid()), Some(like.gid()));
    }
    if written.is_err() {
        let _ = fs::remove_file(path);
    }
    written
}

/// Removes the temporary files of `staged`: nothing was replaced.
fn discard(staged: &[Staged]) {
    for s in staged {
        let _ = fs::remove_file(&s.new);
        let _ = fs::remove_file(&s.backup);
    }
}

/// After the rename of `staged[done]` failed (`failed`): puts the old versions of the first
/// `done` targets back, and says what each file is now.
fn roll_back(staged: &[Staged], done: usize, fs: &mut dyn FileSystem, failed: String) -> String {
    let mut lost = Vec::new();
    for s in staged[..done].iter().rev() {
        if let Err(e) = fs.rename(&s.backup, &s.target) {
            lost.push(format!(
                "{}: could not be put back ({e}): it holds the new text; the old one is {}",
                shown::path(&s.target),
                shown::path(&s.backup)
            ));
        }
    }
    for s in &staged[done..] {
        let _ = std::fs::remove_file(&s.new);
        let _ = std::fs::remove_file(&s.backup);
    }
    sync_folders(staged);
    if lost.is_empty() {
        format!("{failed}; every file was put back as it was")
    } else {
        format!(
            "{failed}; the others were put back, except:\n{}",
            lost.join("\n")
        )
    }
}

/// Flushes the folders' entries (the renames) to disk, where the platform can.
fn sync_folders(staged: &[Staged]) {
    #[cfg(unix)]
    {
        let mut folders: Vec<&Path> = staged.iter().filter_map(|s| s.target.parent()).collect();
        folders.sort();
        folders.dedup();
        for folder in folders {
            let folder = if folder.as_os_str().is_empty() {
                Path::new(".")
            } else {
                folder
            };
            if let Ok(f) = File::open(folder) {
                let _ = f.sync_all();
            }
        }
    }
    #[cfg(not(unix))]
    let _ = staged;
}

#[cfg(unix)]
mod signals {
    //! The signals held back while a set of files is written.

    /// While alive: `SIGINT`, `SIGTERM`, `SIGHUP` and `SIGQUIT` blocked (delivered when it is
    /// dropped) and `SIGXFSZ` ignored (a write past a file-size limit fails instead of killing
    /// the process).
    #[derive(Debug)]
    pub(super) struct Deferred {
        mask: Option<libc::sigset_t>,
        xfsz: Option<libc::sighandler_t>,
    }

    impl Deferred {
        pub(super) fn new() -> Deferred {
            // SAFETY: `sigemptyset`/`sigaddset` initialise a zeroed `sigset_t` owned here;
            // `pthread_sigmask` reads it and writes the old mask into another one owned here;
            // `signal` installs `SIG_IGN`, which runs no code of ours.
            unsafe {
                let mut set: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut set);
                for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT] {
                    libc::sigaddset(&mut set, signal);
                }
                let mut old: libc::sigset_t = std::mem::zeroed();
                let mask =
                    (libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut old) == 0).then_some(old);
                let xfsz = libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                Deferred {
                    mask,
                    xfsz: (xfsz != libc::SIG_ERR).then_some(xfsz),
                }
            }
        }
    }

    impl Drop for Deferred {
        fn drop(&mut self) {
            // SAFETY: the handler and mask put back are those `new` read from this process.
            unsafe {
                if let Some(handler) = self.xfsz {
                    libc::signal(libc::SIGXFSZ, handler);
                }
                if let Some(old) = self.mask {
                    libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
                }
            }
        }
    }
}

#[cfg(not(unix))]
mod signals {
    //! Windows: nothing is held back (each file is still replaced whole).

    #[derive(Debug)]
    pub(super) struct Deferred;

    impl Deferred {
        pub(super) fn new() -> Deferred {
            Deferred
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file system whose `n`th rename fails (counting from 0), the others done for real.
    struct FailingRename {
        n: usize,
        calls: usize,
    }

    impl FileSystem for FailingRename {
        fn rename(&mut self, from: &Path, to: &Path) -> std::io::Result<()> {
            let call = self.calls;
            self.calls += 1;
            if call == self.n {
                return Err(std::io::Error::other("simulated failure"));
            }
            fs::rename(from, to)
        }
    }

    fn folder(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("cuda-entry-replace-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("create");
        dir
    }

    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// `a` and `b` from `old a`/`old b` to `new a`/`new b`.
    fn old_to_new<'a>(a: &'a Path, b: &'a Path) -> [Replacement<'a>; 2] {
        [
            Replacement {
                path: a,
                old: "old a",
                new: "new a",
            },
            Replacement {
                path: b,
                old: "old b",
                new: "new b",
            },
        ]
    }

    #[test]
    fn every_file_is_replaced_and_nothing_is_left_beside_them() {
        let dir = folder("all");
        let (a, b) = (dir.join("a.rs"), dir.join("Cargo.toml"));
        fs::write(&a, "old a").expect("a");
        fs::write(&b, "old b").expect("b");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&a, fs::Permissions::from_mode(0o640)).expect("mode");
        }
        let set = old_to_new(&a, &b);
        replace_all(&set, &mut Real).expect("replaced");
        assert_eq!(fs::read_to_string(&a).expect("a"), "new a");
        assert_eq!(fs::read_to_string(&b).expect("b"), "new b");
        assert_eq!(listing(&dir), ["Cargo.toml", "a.rs"]);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&a).expect("a").permissions().mode() & 0o777;
            assert_eq!(mode, 0o640, "the old file's permissions");
        }
    }

    #[test]
    fn a_rename_that_fails_puts_back_those_already_done() {
        for n in 0..3 {
            let dir = folder(&format!("rollback-{n}"));
            let paths: Vec<PathBuf> = (0..3).map(|i| dir.join(format!("f{i}"))).collect();
            let old: Vec<String> = (0..3).map(|i| format!("old {i}\n")).collect();
            let new: Vec<String> = (0..3).map(|i| format!("new {i}\n")).collect();
            for (p, o) in paths.iter().zip(&old) {
                fs::write(p, o).expect("write");
            }
            let set: Vec<Replacement<'_>> = (0..3)
                .map(|i| Replacement {
                    path: &paths[i],
                    old: &old[i],
                    new: &new[i],
                })
                .collect();
            let error = replace_all(&set, &mut FailingRename { n, calls: 0 })
                .expect_err("the rename fails");
            assert!(error.contains("simulated failure"), "{error}");
            assert!(
                error.ends_with("every file was put back as it was"),
                "{error}"
            );
            for (p, o) in paths.iter().zip(&old) {
                assert_eq!(
                    &fs::read_to_string(p).expect("read"),
                    o,
                    "{n}: {}",
                    p.display()
                );
            }
            assert_eq!(listing(&dir), ["f0", "f1", "f2"], "failing at rename {n}");
        }
    }

    #[test]
    fn a_file_changed_since_it_was_read_stops_everything() {
        let dir = folder("changed");
        let (a, b) = (dir.join("a"), dir.join("b"));
        fs::write(&a, "old a").expect("a");
        fs::write(&b, "edited meanwhile").expect("b");
        let set = old_to_new(&a, &b);
        let error = replace_all(&set, &mut Real).expect_err("b changed");
        assert!(error.contains("changed since it was read"), "{error}");
        assert!(error.ends_with("nothing was changed"), "{error}");
        assert_eq!(fs::read_to_string(&a).expect("a"), "old a");
        assert_eq!(fs::read_to_string(&b).expect("b"), "edited meanwhile");
        assert_eq!(listing(&dir), ["a", "b"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_not_written_through() {
        let dir = folder("link");
        let outside = folder("link-outside").join("Cargo.toml");
        fs::write(&outside, "theirs").expect("outside");
        let link = dir.join("Cargo.toml");
        std::os::unix::fs::symlink(&outside, &link).expect("link");
        let set = [Replacement {
            path: &link,
            old: "theirs",
            new: "ours",
        }];
        let error = replace_all(&set, &mut Real).expect_err("a link");
        assert!(error.contains("not a regular file"), "{error}");
        assert_eq!(fs::read_to_string(&outside).expect("outside"), "theirs");
        assert!(
            fs::symlink_metadata(&link)
                .expect("link")
                .file_type()
                .is_symlink()
        );
    }
}
