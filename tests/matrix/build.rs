//! The generated crates and the compiler's answers: each cell becomes a module holding its
//! declaration, a crate is checked with `cargo check --message-format=json`, and each error is
//! mapped to the cell whose lines hold its span.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::catalogue::Cell;
use crate::json;
use crate::positions::{Position, Varied};

/// The workspace root (the generated crates depend on its `core/` by path).
pub(crate) fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Where the generated crates and their shared target folder live.
pub(crate) fn scratch() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("matrix")
}

/// The user types every generated crate declares, each over a field type.
pub(crate) const USER_TYPES: &str = r#"
pub mod user {
    use ::core::mem::ManuallyDrop;
    #[repr(C)]
    pub struct Plain<T>(pub T);
    #[repr(C)]
    #[derive(::cuda_entry::FromDriver)]
    pub struct Filled<T>(pub T);
    #[repr(C)]
    #[derive(::cuda_entry::ByValue)]
    pub struct Passed<T>(pub T);
    #[repr(C)]
    #[derive(::cuda_entry::FromDriver, ::cuda_entry::ByValue)]
    pub struct Both<T>(pub T);
    #[repr(transparent)]
    pub struct Newtype<T>(pub T);
    #[repr(transparent)]
    #[derive(::cuda_entry::FromDriver, ::cuda_entry::ByValue)]
    pub struct Proven<T>(pub T);
    #[repr(C)]
    pub union RawUnion<T> {
        pub value: ManuallyDrop<T>,
    }
    #[repr(C)]
    #[derive(::cuda_entry::FromDriver)]
    pub union FilledUnion<T> {
        pub value: ManuallyDrop<T>,
    }
    #[repr(C)]
    #[derive(::cuda_entry::ByValue)]
    pub struct PairPassed<T> {
        pub kind: T,
        pub id: T,
    }
    #[repr(C)]
    pub struct PairPlain<T> {
        pub kind: T,
        pub id: T,
    }
    #[repr(i32)]
    pub enum EnumI32 {
        A = 0,
        B = 1,
    }
    #[repr(i32)]
    #[derive(Clone, Copy, ::cuda_entry::ByValue)]
    pub enum EnumI32ByValue {
        A = 0,
        B = 1,
    }
    #[repr(u32)]
    #[derive(Clone, Copy, ::cuda_entry::ByValue)]
    pub enum EnumU32ByValue {
        A = 0,
        B = 1,
    }
    #[repr(u8)]
    #[derive(Clone, Copy, ::cuda_entry::ByValue)]
    pub enum EnumU8ByValue {
        A = 0,
        B = 1,
    }
    #[repr(u64)]
    #[derive(Clone, Copy, ::cuda_entry::ByValue)]
    pub enum EnumU64ByValue {
        A = 0,
        B = 1,
    }
    pub struct Zst;
}

pub mod prelude {
    pub use ::core::cell::{Cell, UnsafeCell};
    pub use ::core::ffi::{c_char, c_int, c_void};
    pub use ::core::mem::{ManuallyDrop, MaybeUninit};
    pub use ::core::num::{NonZero, Wrapping};
    pub use ::core::ptr::NonNull;
    pub use ::core::sync::atomic::{
        AtomicBool, AtomicI32, AtomicPtr, AtomicU8, AtomicU32, AtomicU64, AtomicUsize,
    };
    pub use ::cuda_entry::cuda_entry;
    pub use super::user::*;
}
"#;

/// The declaration of `cell`, as a user writes it.
pub(crate) fn declaration(cell: &Cell, positions: &[Position]) -> String {
    let position = &positions[cell.position];
    let name = cell.name(positions);
    let ty = cell.ty.spell();
    let params: Vec<String> = position
        .params
        .iter()
        .enumerate()
        .map(|(at, (param, canonical))| {
            if position.varied == Varied::Param(at) {
                format!("{param}: {ty}")
            } else {
                format!("{param}: {canonical}")
            }
        })
        .collect();
    let ret = if position.varied == Varied::Return {
        ty
    } else {
        position.ret.to_owned()
    };
    let ret = if ret == "()" {
        String::new()
    } else {
        format!(" -> {ret}")
    };
    format!(
        "#[cuda_entry(symbol = \"{}\", version = {}{})]\n    pub unsafe extern \"C\" fn {name}({}){ret};",
        position.symbol,
        position.version,
        if position.unverified {
            ", unverified"
        } else {
            ""
        },
        params.join(", "),
    )
}

/// The source of a crate holding `cells`, and the lines (1-based, inclusive) of each cell's
/// module. `extra(cell)` adds code inside the cell's module (the Miri tests).
pub(crate) fn source(
    cells: &[&Cell],
    positions: &[Position],
    header: &str,
    extra: &dyn Fn(&Cell) -> String,
) -> (String, BTreeMap<usize, (usize, usize)>) {
    let mut out = String::new();
    out.push_str(header);
    out.push_str(USER_TYPES);
    let mut lines = BTreeMap::new();
    for cell in cells {
        let first = out.lines().count() + 1;
        let position = &positions[cell.position];
        let _ = writeln!(
            out,
            "\n/// `{}` at {}",
            cell.ty.spell().replace('`', "'"),
            position.title().replace('`', "'")
        );
        let name = cell.name(positions);
        let _ = writeln!(out, "pub mod {name} {{");
        out.push_str("    #[allow(unused_imports)]\n    use super::prelude::*;\n");
        for item in cell.ty.items() {
            let _ = writeln!(out, "    #[allow(dead_code)]\n    {item}");
        }
        let _ = writeln!(out, "    {}", declaration(cell, positions));
        out.push_str(&extra(cell));
        out.push_str("}\n");
        let last = out.lines().count();
        lines.insert(cell.index, (first, last));
    }
    (out, lines)
}

/// Writes a crate named `name` in `dir` (its `Cargo.toml`, the workspace's lock file, the
/// source), leaving files that are already as they should be untouched.
pub(crate) fn write_crate(dir: &Path, name: &str, lib: &str, dev: &str) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let core = workspace().join("core");
    let manifest = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [lib]\npath = \"src/lib.rs\"\ntest = true\ndoctest = false\n\n\
         [dependencies]\ncuda-entry = {{ path = \"{}\" }}\n{dev}\n\
         # Not a member of the repository's workspace.\n[workspace]\n",
        core.display()
    );
    write_if_changed(&dir.join("Cargo.toml"), &manifest);
    // The workspace's versions of every dependency (cargo trims what the crate does not use).
    let lock = std::fs::read_to_string(workspace().join("Cargo.lock")).unwrap();
    write_if_changed(&dir.join("Cargo.lock"), &lock);
    write_if_changed(&dir.join("src/lib.rs"), lib);
}

fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).unwrap();
    }
}

/// One error of the compiler.
#[derive(Clone, Debug)]
pub(crate) struct Error {
    /// Its text as rustc renders it.
    pub(crate) rendered: String,
    /// The lines of `src/lib.rs` its spans point to: the primary spans' first, then the others
    /// (expansions followed to where the macro was called).
    pub(crate) lines: Vec<usize>,
}

/// What `cargo check` said of a generated crate.
#[derive(Debug)]
pub(crate) struct Answer {
    pub(crate) success: bool,
    /// The errors of the generated crate.
    pub(crate) errors: Vec<Error>,
    /// Errors in other crates (a dependency being edited elsewhere, say).
    pub(crate) foreign: Vec<String>,
    pub(crate) stderr: String,
}

/// A `cargo` command with the environment of this test's own build taken out (so the generated
/// crate's build is its own).
pub(crate) fn cargo(toolchain: Option<&str>) -> Command {
    let mut command = match toolchain {
        // Through rustup's proxy, for `+nightly`.
        Some(toolchain) => {
            let mut c = Command::new("cargo");
            c.arg(format!("+{toolchain}"));
            c.env_remove("RUSTUP_TOOLCHAIN");
            c.env_remove("CARGO");
            c.env_remove("RUSTC");
            c.env_remove("RUSTDOC");
            c
        }
        None => Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned())),
    };
    for (key, _) in std::env::vars() {
        if key.starts_with("CARGO_")
            && key != "CARGO_HOME"
            && key != "CARGO_NET_OFFLINE"
            && !key.starts_with("CARGO_REGISTRIES_")
        {
            command.env_remove(&key);
        }
    }
    command.env("CARGO_TERM_COLOR", "never");
    command
}

/// `cargo check` of the crate in `dir`, into the target folder `target`.
pub(crate) fn check(dir: &Path, target: &Path) -> Answer {
    let output = cargo(None)
        .args([
            "check",
            "--offline",
            "--lib",
            "--message-format=json",
            "--manifest-path",
        ])
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target)
        .output()
        .expect("cargo runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut errors = Vec::new();
    let mut foreign = Vec::new();
    let mut success = output.status.success();
    for line in stdout.lines() {
        let Ok(message) = json::parse(line) else {
            continue;
        };
        match message.get("reason").str() {
            Some("build-finished") => success = message.get("success").truthy(),
            Some("compiler-message") => {}
            _ => continue,
        }
        let diagnostic = message.get("message");
        if diagnostic.get("level").str() != Some("error") {
            continue;
        }
        let rendered = diagnostic.get("rendered").str().unwrap_or("").to_owned();
        let ours = message
            .get("manifest_path")
            .str()
            .is_some_and(|m| Path::new(m).starts_with(dir));
        if !ours {
            foreign.push(rendered);
            continue;
        }
        let mut primary = Vec::new();
        let mut other = Vec::new();
        collect_lines(diagnostic, &mut primary, &mut other);
        if primary.is_empty() && other.is_empty() && rendered.starts_with("aborting") {
            continue;
        }
        primary.extend(other);
        errors.push(Error {
            rendered,
            lines: primary,
        });
    }
    Answer {
        success,
        errors,
        foreign,
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// The lines of `src/lib.rs` a diagnostic's spans (and its children's) point to, following each
/// span's expansion back to the call site.
fn collect_lines(diagnostic: &json::Json, primary: &mut Vec<usize>, other: &mut Vec<usize>) {
    for span in diagnostic.get("spans").items() {
        let target = if span.get("is_primary").truthy() {
            &mut *primary
        } else {
            &mut *other
        };
        let mut at = span;
        loop {
            if at.get("file_name").str() == Some("src/lib.rs") {
                let start = at.get("line_start").num().unwrap_or(0.0) as usize;
                let end = at.get("line_end").num().unwrap_or(0.0) as usize;
                target.extend(start..=end);
            }
            let next = at.get("expansion").get("span");
            if *next == json::Json::Null {
                break;
            }
            at = next;
        }
    }
    for child in diagnostic.get("children").items() {
        collect_lines(child, other, &mut Vec::new());
    }
}

/// Which cells the errors fall in, and the errors that fall in none.
pub(crate) fn attribute(
    errors: &[Error],
    lines: &BTreeMap<usize, (usize, usize)>,
) -> (BTreeMap<usize, Vec<String>>, Vec<String>) {
    // Cells by their first line, to find the one holding a line.
    let by_start: BTreeMap<usize, (usize, usize)> = lines
        .iter()
        .map(|(&cell, &(first, last))| (first, (cell, last)))
        .collect();
    let cell_of = |line: usize| {
        by_start
            .range(..=line)
            .next_back()
            .and_then(|(_, &(cell, last))| (line <= last).then_some(cell))
    };
    let mut found: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    let mut stray = Vec::new();
    for error in errors {
        match error.lines.iter().find_map(|&line| cell_of(line)) {
            Some(cell) => found.entry(cell).or_default().push(error.rendered.clone()),
            None => stray.push(error.rendered.clone()),
        }
    }
    (found, stray)
}

/// Whether an error is one the macro (or the crate's assertions) gives, rather than rustc's own
/// about a malformed cell.
pub(crate) fn is_the_macros(message: &str) -> bool {
    message.contains("PFN_") || message.contains("cuda_entry")
}

/// The macro's verdict on each cell: `Ok(())` accepted, `Err(first error)` refused.
pub(crate) type Found = BTreeMap<usize, Result<(), String>>;

/// Checks `cells` expecting them to compile (`accept`) or not, in rounds: a crate's errors may
/// hide others (rustc stops some stages after errors), so the cells not yet settled are checked
/// again alone until a round settles nothing more.
pub(crate) fn verdicts(
    cells: &[&Cell],
    positions: &[Position],
    dir: &Path,
    name: &str,
    target: &Path,
    log: &mut String,
) -> Result<Found, String> {
    let mut found = Found::new();
    let mut open: Vec<&Cell> = cells.to_vec();
    let mut round = 0;
    while !open.is_empty() {
        round += 1;
        let header = format!(
            "// Generated by tests/matrix.rs ({} cells, round {round}); do not edit.\n\
             #![allow(warnings)]\n",
            open.len()
        );
        let (lib, lines) = source(&open, positions, &header, &|_| String::new());
        write_crate(dir, name, &lib, "");
        let began = std::time::Instant::now();
        let answer = check(dir, target);
        let _ = writeln!(
            log,
            "{name} round {round}: {} cells, {} errors, {:.1} s",
            open.len(),
            answer.errors.len(),
            began.elapsed().as_secs_f64()
        );
        if !answer.foreign.is_empty() {
            return Err(format!(
                "a dependency of the generated crate did not build (work in progress elsewhere?):\n{}",
                answer.foreign.join("\n")
            ));
        }
        if answer.success {
            for cell in &open {
                found.insert(cell.index, Ok(()));
            }
            break;
        }
        let (by_cell, stray) = attribute(&answer.errors, &lines);
        if by_cell.is_empty() {
            return Err(format!(
                "{name}: the build failed with no error in any cell:\n{}\n{}",
                stray.join("\n"),
                answer.stderr
            ));
        }
        if !stray.is_empty() {
            let _ = writeln!(
                log,
                "{name} round {round}: {} errors outside every cell, e.g.:\n{}",
                stray.len(),
                stray[0]
            );
        }
        let settled: BTreeSet<usize> = by_cell.keys().copied().collect();
        for (cell, messages) in by_cell {
            // The macro's own message where there is one (its errors name the typedef, its
            // assertions and proofs are `cuda_entry`'s).
            let message = messages
                .iter()
                .find(|m| is_the_macros(m))
                .unwrap_or(&messages[0]);
            found.insert(cell, Err(message.clone()));
        }
        open.retain(|c| !settled.contains(&c.index));
    }
    Ok(found)
}
