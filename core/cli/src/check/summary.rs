//! The totals of a `check`, counted once: the text and the JSON both print this, and the exit
//! status comes from it.

use std::process::ExitCode;

use cuda_entry_table::{Needs, Version, needs};

use super::verdict::Verdict;
use super::{Declaration, Request, Unchecked};
use crate::exit;

/// What a `check` found, all declarations together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Summary {
    /// Files read (sources and binaries).
    pub(super) files: usize,
    /// Declarations found in them.
    pub(super) declarations: usize,
    /// Declarations that would work.
    pub(super) ok: usize,
    /// Declarations that would fail.
    pub(super) failed: usize,
    /// Optional declarations the driver would not serve: the program runs without them.
    pub(super) unavailable: usize,
    /// Declarations with at least one note.
    pub(super) noted: usize,
    /// Declarations found but not read, and binaries without a manifest.
    pub(super) unchecked: usize,
    /// Driver functions linked against libcuda (noted, not judged).
    pub(super) unversioned: usize,
    /// The driver the required declarations need together; `None` when none states a version.
    pub(super) minimum_driver: Option<MinimumDriver>,
    /// What the optional declarations ask for, newest first, each once (and none that a required
    /// declaration asks for too): used when the driver serves them, they set no minimum.
    pub(super) optional: Vec<Request>,
}

/// The newest typedef version among the required declarations: no older driver serves them all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct MinimumDriver {
    pub(super) version: Version,
    /// The symbols of the declarations that ask for it, sorted, each once.
    pub(super) set_by: Vec<String>,
}

impl Summary {
    /// Counts `verdicts`, one for each of `declarations`, and what was not checked, found in
    /// `files` files.
    pub(super) fn new(
        files: usize,
        declarations: &[Declaration],
        verdicts: &[Verdict],
        unchecked: &[Unchecked],
    ) -> Summary {
        let failed = verdicts.iter().filter(|v| v.fails()).count();
        let unavailable = verdicts.iter().filter(|v| v.unavailable()).count();
        let (optional, required): (Vec<&Request>, Vec<&Request>) = declarations
            .iter()
            .filter_map(Declaration::request)
            .partition(|r| r.optional);
        Summary {
            files,
            declarations: declarations.len(),
            ok: declarations.len() - failed - unavailable,
            failed,
            unavailable,
            noted: verdicts.iter().filter(|v| !v.notes.is_empty()).count(),
            unchecked: unchecked.len(),
            unversioned: 0,
            minimum_driver: minimum_driver(&required),
            optional: upgrades(optional, &required),
        }
    }

    /// [`FAILED`](exit::FAILED) when a declaration would fail; otherwise
    /// [`INCOMPLETE`](exit::INCOMPLETE) when something could not be checked (a deployment gate
    /// must not pass what was not read); [`SUCCESS`](exit::SUCCESS) when everything was read and
    /// works.
    pub(super) fn exit_code(&self) -> ExitCode {
        exit::code(if self.failed > 0 {
            exit::FAILED
        } else if self.unchecked > 0 {
            exit::INCOMPLETE
        } else {
            exit::SUCCESS
        })
    }
}

/// Every required declaration whose request can be read counts, as the text has always said: a
/// refused one still names the version it was written for.
fn minimum_driver(required: &[&Request]) -> Option<MinimumDriver> {
    let needs = needs_of(required.to_vec(), Vec::new());
    let mut set_by: Vec<String> = needs.required[..needs.set_by]
        .iter()
        .map(|r| r.symbol.clone())
        .collect();
    set_by.dedup();
    Some(MinimumDriver {
        version: needs.required.first()?.version,
        set_by,
    })
}

/// The optional requests, newest first, each once, without those also required (declared both
/// ways, an entry is required), as the runtime's `requirements()` lists them.
fn upgrades(optional: Vec<&Request>, required: &[&Request]) -> Vec<Request> {
    let needs = needs_of(required.to_vec(), optional);
    needs.optional.into_iter().cloned().collect()
}

/// The table's one computation of what a program needs, keyed as `check` tells requests apart.
fn needs_of<'a>(required: Vec<&'a Request>, optional: Vec<&'a Request>) -> Needs<&'a Request> {
    needs(
        required,
        optional,
        |r| r.version.get(),
        |r| (r.symbol.clone(), r.per_thread),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::verdict::{Failure, Outcome};

    fn verdict(failed: bool, notes: usize) -> Verdict {
        Verdict {
            outcome: if failed {
                Outcome::Fails(Failure {
                    kind: "driver_too_old",
                    message: String::new(),
                })
            } else {
                Outcome::Works
            },
            notes: vec![String::new(); notes],
        }
    }

    #[test]
    fn counted_once_for_every_renderer() {
        let declarations = [
            Declaration::asking("cuCtxCreate", 12050),
            Declaration::asking("cuMemAlloc", 3020),
            Declaration::asking("cuCtxRecordEvent", 12050),
            Declaration::asking("cuCtxCreate", 12050),
        ];
        let verdicts = [
            verdict(true, 0),
            verdict(false, 2),
            verdict(true, 1),
            verdict(false, 0),
        ];
        let unchecked = [Unchecked {
            file: "app".into(),
            line: 0,
            why: String::new(),
        }];
        let summary = Summary::new(2, &declarations, &verdicts, &unchecked);
        assert_eq!(
            (
                summary.files,
                summary.declarations,
                summary.ok,
                summary.failed,
                summary.noted,
                summary.unchecked
            ),
            (2, 4, 2, 2, 2, 1)
        );
        assert_eq!(
            summary.minimum_driver,
            Some(MinimumDriver {
                version: Version::new(12050).expect("a version"),
                set_by: vec!["cuCtxCreate".to_owned(), "cuCtxRecordEvent".to_owned()],
            })
        );
        assert_eq!(summary.exit_code(), ExitCode::from(1));
        let none = Summary::new(0, &[], &[], &[]);
        assert_eq!(none.minimum_driver, None);
        assert_eq!(none.exit_code(), ExitCode::SUCCESS);
        // Nothing fails, something was not read: no pass.
        let unread = Summary::new(1, &declarations[1..2], &verdicts[1..2], &unchecked);
        assert_eq!(unread.exit_code(), exit::code(exit::INCOMPLETE));
    }

    #[test]
    fn optional_declarations_set_no_minimum_and_fail_nothing() {
        let declarations = [
            Declaration::optional("cuCtxCreate", 12050),
            Declaration::asking("cuCtxCreate", 3020),
            Declaration::optional("cuCtxCreate", 12050),
            Declaration::optional("cuMemFree", 3020),
            Declaration::asking("cuMemFree", 3020),
        ];
        let unavailable = || Verdict {
            outcome: Outcome::Unavailable(Failure {
                kind: "driver_too_old",
                message: String::new(),
            }),
            notes: Vec::new(),
        };
        let verdicts = [
            unavailable(),
            verdict(false, 0),
            unavailable(),
            verdict(false, 0),
            verdict(false, 0),
        ];
        let summary = Summary::new(1, &declarations, &verdicts, &[]);
        assert_eq!((summary.ok, summary.failed, summary.unavailable), (3, 0, 2));
        assert_eq!(summary.exit_code(), ExitCode::SUCCESS);
        assert_eq!(
            summary.minimum_driver,
            Some(MinimumDriver {
                version: Version::new(3020).expect("a version"),
                set_by: vec!["cuCtxCreate".to_owned(), "cuMemFree".to_owned()],
            })
        );
        // cuMemFree@3020 is declared required too: it is no upgrade.
        let upgrades: Vec<(&str, u32)> = summary
            .optional
            .iter()
            .map(|r| (r.symbol.as_str(), r.version.get()))
            .collect();
        assert_eq!(upgrades, [("cuCtxCreate", 12050)]);
        // Only optional declarations: no minimum at all.
        let only = Summary::new(1, &declarations[..1], &verdicts[..1], &[]);
        assert_eq!(only.minimum_driver, None);
        assert_eq!(only.optional.len(), 1);
    }
}
