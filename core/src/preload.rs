//! Resolving many entries at start-up and reporting every failure, not only the first.

use std::fmt;

use crate::entry::Entry;
use crate::error::Error;

/// Resolves every entry now and reports every one that fails, not just the first.
///
/// For programs that prefer to fail at start-up rather than at their first driver call.
///
/// # Errors
/// A [`PreloadError`] listing the error of each entry that cannot be resolved.
///
/// # Thread-safety
/// Safe to call while other threads use the same entries: each entry still resolves once.
pub fn preload(entries: &[&Entry]) -> Result<(), PreloadError> {
    let failures: Vec<Error> = entries.iter().filter_map(|e| e.resolve().err()).collect();
    if failures.is_empty() {
        Ok(())
    } else {
        Err(PreloadError { failures })
    }
}

/// Every entry of a [`preload`] that could not be resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PreloadError {
    /// One error per entry that failed, in the order the entries were given.
    pub failures: Vec<Error>,
}

impl fmt::Display for PreloadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} CUDA driver entries cannot be resolved:",
            self.failures.len()
        )?;
        for failure in &self.failures {
            write!(f, "\n  - {failure}")?;
        }
        Ok(())
    }
}

impl std::error::Error for PreloadError {}
