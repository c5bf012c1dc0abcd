//! Which inputs `check` and `migrate` read: the paths given, the `.rs` files under each folder
//! (and, for `check`, the executables and libraries), and standard input for `-`. Only regular
//! files are read: a FIFO would block forever and a device such as `/dev/zero` never ends, so
//! either is refused unless asked for with `-`.

use std::fs;
use std::path::{Path, PathBuf};

use super::read::{self, Input, NOT_REGULAR, io_message};
use crate::shown;

/// What a folder is searched for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Look {
    /// Rust sources (`.rs`): `migrate`.
    Sources,
    /// Rust sources and built binaries (ELF, PE, Mach-O, told by their first bytes): `check`,
    /// whose folder may be a `src/` or a `dist/`. A folder holding neither is bad input.
    SourcesAndBinaries,
}

/// The inputs: each path as given or, for a folder, what `look` looks for under it, sorted; and a
/// message for each path that cannot be used. A file named explicitly is read whatever its
/// extension (a binary, most often).
pub(crate) fn collect(paths: &[PathBuf], look: Look) -> (Vec<Input>, Vec<String>) {
    let mut inputs = Vec::new();
    let mut bad = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            if inputs.contains(&Input::Stdin) {
                bad.push("-: standard input can be read once only".to_owned());
            } else {
                inputs.push(Input::Stdin);
            }
            continue;
        }
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                let (found, failed) = (inputs.len(), bad.len());
                if let Err(e) = walk(path, look, &mut inputs, &mut bad) {
                    bad.push(e);
                }
                if look == Look::SourcesAndBinaries && inputs.len() == found && bad.len() == failed
                {
                    bad.push(format!(
                        "{}: no sources or binaries found: no .rs file, and no executable or \
                         library (ELF, PE, Mach-O), in it or its folders",
                        shown::path(path)
                    ));
                }
            }
            Ok(meta) if meta.is_file() => inputs.push(Input::File(path.clone())),
            Ok(_) => bad.push(not_regular(path)),
            Err(e) => bad.push(format!("{}: {}", shown::path(path), io_message(&e))),
        }
    }
    (inputs, bad)
}

fn not_regular(path: &Path) -> String {
    format!("{}: {NOT_REGULAR}", shown::path(path))
}

/// Recursively adds the `.rs` files of `dir` and, when `look` says so, its binaries, skipping
/// `target/` and hidden folders. Symbolic links to folders are not followed (no cycles) but
/// reported, since what is under them is not read; a `.rs`
/// name that is no regular file (a broken link, a FIFO) is reported, not skipped: it may be a
/// module the crate compiles. Any other regular file is a binary when its first bytes say so
/// (one that cannot be opened to tell is reported); anything else is no input.
fn walk(
    dir: &Path,
    look: Look,
    inputs: &mut Vec<Input>,
    bad: &mut Vec<String>,
) -> Result<(), String> {
    let cannot_list =
        |e: std::io::Error| format!("{}: cannot list: {}", shown::path(dir), io_message(&e));
    let mut paths: Vec<(PathBuf, fs::FileType)> = Vec::new();
    for entry in fs::read_dir(dir).map_err(cannot_list)? {
        let entry = entry.map_err(cannot_list)?;
        let file_type = entry
            .file_type()
            .map_err(|e| format!("{}: {}", shown::path(&entry.path()), io_message(&e)))?;
        paths.push((entry.path(), file_type));
    }
    paths.sort_by(|a, b| a.0.cmp(&b.0));
    for (path, file_type) in paths {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let name = name.unwrap_or_default();
        if file_type.is_dir() {
            if name.starts_with('.') || name == "target" {
                continue;
            }
            walk(&path, look, inputs, bad)?;
        } else if file_type.is_symlink()
            && !name.starts_with('.')
            && name != "target"
            && fs::metadata(&path).is_ok_and(|meta| meta.is_dir())
        {
            // Not read, and not passed over in silence: what is not read is not checked (nor
            // migrated).
            bad.push(format!(
                "{}: a symbolic link to a folder, not followed (it may lead out of the folder \
                 given, or back into it): name the folder it points to, to read it",
                shown::path(&path)
            ));
        } else if path.extension().is_some_and(|e| e == "rs") {
            match fs::metadata(&path) {
                Ok(meta) if meta.is_file() => inputs.push(Input::File(path)),
                Ok(meta) if meta.is_dir() => {}
                Ok(_) => bad.push(not_regular(&path)),
                Err(e) => bad.push(format!("{}: {}", shown::path(&path), io_message(&e))),
            }
        } else if look == Look::SourcesAndBinaries
            && fs::metadata(&path).is_ok_and(|meta| meta.is_file())
        {
            match read::starts_like_binary(&path) {
                Ok(true) => inputs.push(Input::File(path)),
                Ok(false) => {}
                Err(e) => bad.push(format!("{}: {e}", shown::path(&path))),
            }
        }
    }
    Ok(())
}
