//! Every exit status of the command, in one place: the crate's README has the table, and
//! `cuda-entry --help` the summary. It imports nothing of the command: every other module may use
//! it.

use std::process::ExitCode;

/// Everything was done as asked (`check`: everything was read and no required declaration would
/// fail).
pub(crate) const SUCCESS: u8 = 0;
/// A required declaration would fail (`check`), a binding disagrees with its typedef
/// (`migrate`), no driver could be loaded (`probe`), or the environment or the output could not
/// be used (`CliError::Failed`).
pub(crate) const FAILED: u8 = 1;
/// Bad input (`CliError::BadInput`), and a command-line mistake clap reports.
pub(crate) const BAD_INPUT: u8 = 2;
/// Nothing fails, but something was left undone: a declaration or binary `check` could not check,
/// an export or a link `migrate` could not migrate.
pub(crate) const INCOMPLETE: u8 = 3;
/// The `--simulated` re-run crashed (`CliError::Crashed`): 1 would read as "a declaration would
/// fail".
pub(crate) const CRASHED: u8 = 4;
/// Standard output was closed by its reader (`| head`, `CliError::ClosedOutput`): what a shell
/// reports for a command a closed pipe stopped (128 + SIGPIPE).
pub(crate) const CLOSED_OUTPUT: u8 = 141;

/// The exit status of `status`.
pub(crate) fn code(status: u8) -> ExitCode {
    ExitCode::from(status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readme_table_lists_every_status() {
        let readme = include_str!("../README.md");
        for status in [
            SUCCESS,
            FAILED,
            BAD_INPUT,
            INCOMPLETE,
            CRASHED,
            CLOSED_OUTPUT,
        ] {
            assert!(
                readme.contains(&format!("\n| {status} | ")),
                "README.md's exit status table lacks {status}"
            );
        }
    }
}
