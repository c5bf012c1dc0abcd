//! Which files `check` reads: the paths given, and the `.rs` files under each folder.

use std::fs;
use std::path::{Path, PathBuf};

/// The files to check: each path as given or, for a folder, the `.rs` files under it, sorted;
/// and a message for each path that cannot be used. A file named explicitly is checked whatever
/// its extension (a binary, most often).
pub(super) fn collect(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<String>) {
    let mut files = Vec::new();
    let mut bad = Vec::new();
    for path in paths {
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                if let Err(e) = walk(path, &mut files) {
                    bad.push(e);
                }
            }
            Ok(_) => files.push(path.clone()),
            Err(e) => bad.push(format!("{}: {}", path.display(), io_message(&e))),
        }
    }
    (files, bad)
}

/// An I/O error in the words the command's messages use.
pub(super) fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => e.to_string(),
    }
}

/// Recursively adds the `.rs` files of `dir`, skipping `target/` and hidden folders. Symbolic
/// links to folders are not followed (no cycles).
fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = fs::read_dir(dir)
        .map_err(|e| format!("{}: cannot list: {}", dir.display(), io_message(&e)))?;
    let mut paths: Vec<(PathBuf, fs::FileType)> = Vec::new();
    for entry in entries {
        let entry =
            entry.map_err(|e| format!("{}: cannot list: {}", dir.display(), io_message(&e)))?;
        let file_type = entry
            .file_type()
            .map_err(|e| format!("{}: {}", entry.path().display(), io_message(&e)))?;
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
            walk(&path, files)?;
        } else if path.extension().is_some_and(|e| e == "rs")
            && (file_type.is_file() || path.is_file())
        {
            files.push(path);
        }
    }
    Ok(())
}
