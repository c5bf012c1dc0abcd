//! The command's one way to standard output. A closed pipe (`cuda-entry check src | head -1`)
//! ends the command quietly, as it ends any other command in a pipeline; any other failure to
//! write (a full disk) is an error with a non-zero status, never a panic and never a silent
//! success.

use std::io::{ErrorKind, Write};

use crate::common::CliError;

/// Writes `text` to standard output and flushes it.
pub(crate) fn print(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| written(&e))
}

/// What a failed write of the output means for the command.
pub(crate) fn written(e: &std::io::Error) -> CliError {
    if e.kind() == ErrorKind::BrokenPipe {
        CliError::ClosedOutput
    } else {
        CliError::Failed(format!("cannot write the output: {e}"))
    }
}
