//! The totals of a `migrate`, counted once: the text and the JSON both print this, and the exit
//! status comes from it.

use std::process::ExitCode;

use super::Migrated;
use super::plan::{Plan, Status};
use crate::exit;

/// What a `migrate` found and changes, all files together.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Summary {
    /// Files listed: the sources read, and the crates' manifests and configurations edited.
    pub(super) files: usize,
    /// Bindings found in them.
    pub(super) bindings: usize,
    /// Bindings declared through `#[cuda_entry]`.
    pub(super) ready: usize,
    /// Bindings whose signature (or call) disagrees with the typedef of their export.
    pub(super) disagree: usize,
    /// Bindings whose export the table does not know.
    pub(super) unknown: usize,
    /// Files with something left as it is (a libcuda link that could not be removed...).
    pub(super) left: usize,
    /// Files the edits change.
    pub(super) changed: usize,
    /// Files the edits change that `--write` can rewrite (not standard input).
    pub(super) rewritten: usize,
}

impl Summary {
    /// Counts the bindings and edits of `files`.
    pub(super) fn new(files: &[Migrated]) -> Summary {
        let mut summary = Summary {
            files: files.len(),
            ..Summary::default()
        };
        for m in files {
            for status in m.plans.iter().map(Plan::status) {
                summary.bindings += 1;
                *match status {
                    Status::Ready => &mut summary.ready,
                    Status::Disagrees => &mut summary.disagree,
                    Status::Unknown => &mut summary.unknown,
                } += 1;
            }
            summary.left += usize::from(!m.left.is_empty());
            let changed = !m.edits.is_empty();
            summary.changed += usize::from(changed);
            summary.rewritten += usize::from(changed && !m.stdin);
        }
        summary
    }

    /// [`FAILED`](exit::FAILED) when a binding disagrees with its typedef; otherwise
    /// [`INCOMPLETE`](exit::INCOMPLETE) when something was not migrated (an unknown export, a
    /// link left as it is); [`SUCCESS`](exit::SUCCESS) when everything was.
    pub(super) fn exit_code(&self) -> ExitCode {
        exit::code(if self.disagree > 0 {
            exit::FAILED
        } else if self.unknown > 0 || self.left > 0 {
            exit::INCOMPLETE
        } else {
            exit::SUCCESS
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(disagree: usize, unknown: usize, left: usize) -> Summary {
        Summary {
            disagree,
            unknown,
            left,
            ..Summary::default()
        }
    }

    #[test]
    fn the_exit_status_comes_from_the_counts() {
        assert_eq!(summary(0, 0, 0).exit_code(), ExitCode::SUCCESS);
        assert_eq!(summary(1, 1, 1).exit_code(), ExitCode::from(exit::FAILED));
        assert_eq!(
            summary(0, 1, 0).exit_code(),
            ExitCode::from(exit::INCOMPLETE)
        );
        assert_eq!(
            summary(0, 0, 1).exit_code(),
            ExitCode::from(exit::INCOMPLETE)
        );
    }

    #[test]
    fn standard_input_is_changed_but_not_rewritten() {
        let file = |stdin: bool| {
            let mut m = Migrated::text("Cargo.toml".into(), "a\n", "b\n", Vec::new());
            m.stdin = stdin;
            m
        };
        let summary = Summary::new(&[file(false), file(true)]);
        assert_eq!(
            (summary.files, summary.changed, summary.rewritten),
            (2, 2, 1)
        );
        assert_eq!(summary.bindings, 0);
    }
}
