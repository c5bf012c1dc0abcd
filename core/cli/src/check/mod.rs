//! `cuda-entry check`: finds every `#[cuda_entry(...)]` declaration in Rust sources (parsed with
//! syn), or in a built binary's manifest section (read with `object`, for any target), and says
//! which would fail against a driver, and why.
//!
//! Inputs are listed, read and parsed by [`source`](crate::source). One job a file: [`binary`]
//! reads a binary's manifest, [`scan`] finds the declarations of a source file, [`ruling`]
//! applies the macro's own rules (`cuda_entry_table::rules`: the same mistakes, kind names and
//! messages), [`verdict`] asks the driver (or the table), [`summary`] counts once, and [`render`]
//! prints text or JSON from it.
//!
//! What could not be read is never passed: an unreadable input stops the command (status 2), and
//! a declaration or binary found but not readable is listed as not checked (status 3 when
//! nothing fails).

mod binary;
mod render;
mod ruling;
mod scan;
mod summary;
mod verdict;

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::ExitCode;

use cuda_entry_table::Version;

use crate::common::CliError;
use crate::output;
use crate::source::{read, walk};
use summary::Summary;
use verdict::{Driver, Verdict};

/// Options of `check`.
#[derive(Debug)]
pub(crate) struct Options {
    pub(crate) paths: Vec<PathBuf>,
    /// Judge from the table against this driver version, loading no driver.
    pub(crate) driver_version: Option<Version>,
    pub(crate) json: bool,
}

/// What a declaration asks the driver for.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Request {
    symbol: String,
    version: Version,
    per_thread: bool,
    runtime: bool,
    unverified: bool,
    /// `optional`: the program runs without it, so a driver that cannot serve it fails nothing
    /// and it sets no minimum driver.
    optional: bool,
}

/// A mistake the macro rejects a declaration for, as the shared rules state it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Rejection {
    /// The mistake kind's stable name (`unknown_symbol`, `not_a_typedef`).
    kind: &'static str,
    /// The macro's message, word for word.
    message: String,
    /// Its line and column (1-based) in the source, where rustc points; `None` for a binary's
    /// record.
    at: Option<(usize, usize)>,
}

/// What the macro's rules make of a declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Judged {
    /// Accepted: what it asks for, and what the table has to say about it.
    Accepted {
        request: Request,
        notes: Vec<String>,
        /// What its types' tokens leave to the compiler (`Checked::left_to_compiler`): the
        /// build checks it, the command cannot.
        compiler: Vec<String>,
    },
    /// Rejected, with every mistake in source order; `asked` is what its arguments ask for when
    /// they name a symbol and a version.
    Rejected {
        asked: Option<Request>,
        mistakes: Vec<Rejection>,
    },
}

/// One declaration found in a source file or a binary.
#[derive(Debug)]
struct Declaration {
    file: PathBuf,
    /// The line of its `#[cuda_entry(...)]` (of its name, when it has none); 0 for a binary's
    /// record, which has none.
    line: usize,
    /// The function's name, or `in <package>` for a binary's record.
    function: String,
    /// What the macro's rules make of it.
    judged: Judged,
    /// What the scan has to say about it (never compiled...).
    notes: Vec<String>,
}

impl Declaration {
    /// What its types leave to the compiler, when the rules accept it.
    fn left_to_compiler(&self) -> &[String] {
        match &self.judged {
            Judged::Accepted { compiler, .. } => compiler,
            Judged::Rejected { .. } => &[],
        }
    }

    /// What it asks for, accepted or not.
    fn request(&self) -> Option<&Request> {
        match &self.judged {
            Judged::Accepted { request, .. } => Some(request),
            Judged::Rejected { asked, .. } => asked.as_ref(),
        }
    }
}

/// A declaration found but not read (in a macro's body, behind `cfg_attr`...), or a binary
/// without a manifest: nothing to judge, and so no pass either.
#[derive(Debug)]
struct Unchecked {
    file: PathBuf,
    /// The line of its attribute; 0 for a binary.
    line: usize,
    /// Why it is not checked.
    why: String,
}

/// A driver function of an `extern` block, linked against libcuda rather than resolved through
/// `cuGetProcAddress`: not judged (it is no `#[cuda_entry]` declaration), noted with the typedef
/// its export implements and the `migrate` command that declares it.
#[derive(Debug)]
struct Unversioned {
    file: PathBuf,
    line: usize,
    /// The function's name.
    function: String,
    /// The export it links (`cuMemAlloc_v2`).
    export: String,
    /// The typedef that export implements: the symbol and the version.
    symbol: &'static str,
    version: u32,
    per_thread: bool,
}

/// What one input holds.
#[derive(Debug, Default)]
struct Scanned {
    declarations: Vec<Declaration>,
    unchecked: Vec<Unchecked>,
    unversioned: Vec<Unversioned>,
    /// The files its `mod name;` and `include!("...")` bring in, to read as well.
    follow: Vec<PathBuf>,
}

#[cfg(test)]
impl Declaration {
    /// A declaration of `x.rs` asking for `symbol@version` (legacy, the driver), as the rules
    /// judge it, for unit tests.
    fn asking(symbol: &str, version: u32) -> Declaration {
        Declaration::asked(symbol, version, false)
    }

    /// The same, declared `optional`.
    fn optional(symbol: &str, version: u32) -> Declaration {
        Declaration::asked(symbol, version, true)
    }

    fn asked(symbol: &str, version: u32, optional: bool) -> Declaration {
        Declaration {
            file: "x.rs".into(),
            line: 1,
            function: "f".to_owned(),
            judged: ruling::record(Request {
                symbol: symbol.to_owned(),
                version: Version::new(version).expect("a version"),
                per_thread: false,
                runtime: false,
                unverified: false,
                optional,
            }),
            notes: Vec::new(),
        }
    }
}

pub(crate) fn run(options: &Options) -> Result<ExitCode, CliError> {
    let (mut inputs, mut bad) = walk::collect(&options.paths, walk::Look::SourcesAndBinaries);
    let mut declarations = Vec::new();
    let mut unchecked = Vec::new();
    let mut unversioned = Vec::new();
    // Every file read once, those the folders hold and those their modules bring in from
    // elsewhere (`#[path = "../gen/decls.rs"] mod decls;`): what is not read is not checked.
    let mut read_once: HashSet<PathBuf> = inputs
        .iter()
        .filter_map(|input| match input {
            read::Input::File(path) => Some(path.canonicalize().unwrap_or_else(|_| path.clone())),
            read::Input::Stdin => None,
        })
        .collect();
    let mut at = 0;
    while at < inputs.len() {
        let input = inputs[at].clone();
        at += 1;
        let name = input.name();
        let found = read::read(&input).and_then(|content| match content {
            read::Content::Source(text) => scan::declarations(&name, &text),
            read::Content::Binary(binary) => binary::declarations(&name, binary),
        });
        match found {
            Ok(found) => {
                declarations.extend(found.declarations);
                unchecked.extend(found.unchecked);
                unversioned.extend(found.unversioned);
                for path in found.follow {
                    let key = path.canonicalize().unwrap_or_else(|_| path.clone());
                    if read_once.insert(key) {
                        inputs.push(read::Input::File(path));
                    }
                }
            }
            Err(message) => bad.push(message),
        }
    }
    if !bad.is_empty() {
        return Err(CliError::BadInput(bad.join("\n")));
    }
    let driver = match options.driver_version {
        Some(version) => Driver::Assumed(version),
        None => Driver::Loaded(cuda_entry::driver_info()),
    };
    let verdicts: Vec<Verdict> = declarations
        .iter()
        .map(|d| verdict::judge(d, &driver))
        .collect();
    let mut summary = Summary::new(inputs.len(), &declarations, &verdicts, &unchecked);
    summary.unversioned = unversioned.len();
    let found = render::Found {
        declarations: &declarations,
        verdicts: &verdicts,
        unchecked: &unchecked,
        unversioned: &unversioned,
    };
    let out = if options.json {
        output::json(&render::json(&found, &driver, &summary))
    } else {
        render::text(&found, &driver, &summary)
    };
    output::print(&out)?;
    Ok(summary.exit_code())
}

/// The binary reader, for the fuzz target.
pub(crate) fn fuzz_binary(bytes: &[u8]) {
    binary::fuzz(bytes);
}

/// The source scanner, for the fuzz target.
pub(crate) fn fuzz_source(source: &str) {
    scan::fuzz(source);
}
