//! `cuda-entry check`: finds every `#[cuda_entry(...)]` declaration in Rust sources (parsed with
//! syn), or in a built binary's manifest section (read with `object`, for any target), and says
//! which would fail against a driver, and why.
//!
//! One job a file: [`walk`] lists the files, [`binary`] reads a binary's manifest, [`scan`] finds
//! the declarations of a source file, [`rules`] applies the macro's rules, [`judge`] asks the
//! driver (or the table), [`summary`] counts once, and [`render`] prints text or JSON from it.

mod binary;
mod judge;
mod render;
mod rules;
mod scan;
mod summary;
mod walk;

use std::path::PathBuf;
use std::process::ExitCode;

use cuda_entry_table::Version;

use crate::common::CliError;
use judge::{Driver, Verdict};
use rules::Mistake;
use summary::Summary;

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
}

/// One declaration found in a source file or a binary.
#[derive(Debug)]
struct Declaration {
    file: PathBuf,
    /// The line of its attribute; 0 for a binary's record, which has none.
    line: usize,
    /// The function's name, or `in <package>` for a binary's record.
    function: String,
    /// What it asks for, or why the macro refuses its arguments.
    request: Result<Request, Mistake>,
    /// Why the macro refuses its form (a body...), whatever its arguments.
    form: Option<Mistake>,
}

#[cfg(test)]
impl Declaration {
    /// A declaration of `x.rs` asking for `symbol@version` (legacy, the driver), for unit tests.
    fn asking(symbol: &str, version: u32) -> Declaration {
        Declaration {
            file: "x.rs".into(),
            line: 1,
            function: "f".to_owned(),
            request: Ok(Request {
                symbol: symbol.to_owned(),
                version: Version::new(version).expect("a version"),
                per_thread: false,
                runtime: false,
                unverified: false,
            }),
            form: None,
        }
    }
}

pub(crate) fn run(options: &Options) -> Result<ExitCode, CliError> {
    let (files, mut bad) = walk::collect(&options.paths);
    let mut declarations = Vec::new();
    for file in &files {
        let found = if binary::is_binary(file) {
            binary::declarations(file)
        } else {
            scan::declarations(file)
        };
        match found {
            Ok(found) => declarations.extend(found),
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
        .map(|d| judge::judge(d, &driver))
        .collect();
    let summary = Summary::new(files.len(), &declarations, &verdicts);
    if options.json {
        println!(
            "{}",
            render::json(&declarations, &verdicts, &driver, &summary)
        );
    } else {
        print!(
            "{}",
            render::text(&declarations, &verdicts, &driver, &summary)
        );
    }
    Ok(summary.exit_code())
}
