//! Resolving many entries at start-up and reporting every failure, not only the first.

use std::fmt;

use crate::entry::{Entry, Resolvers, Wake};
use crate::error::Error;
use crate::sync::wake_waiters;

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
    let mut failures = Vec::new();
    resolve_all(entries.iter().copied(), |_, error| failures.push(error));
    PreloadError::unless_empty(failures)
}

/// Resolves `entries` in one pass and hands each failure to `failed`, in order.
///
/// One pass: the driver (or runtime) is looked up once for the batch, its version read once, and
/// the queries follow each other. Each entry is still claimed on its own, one at a time, and
/// published as soon as it resolves, so a thread calling it meanwhile waits for that entry only,
/// and a query that asks for an entry of the batch from inside the driver still gets the
/// re-entrancy error rather than waiting for itself. The waiters are woken once, at the end
/// (and before the batch itself would wait on another thread's claim): a thread that waits for
/// an entry already published either sees it before it sleeps (it looks after announcing itself,
/// the fence in the wake-up pairs with its own) or sleeps until that wake-up, which comes after
/// every publication of the batch, so none is missed, and each waiter's delay is bounded by the
/// rest of the batch (or one wait slice). Waking after each entry would cost a fence and a load
/// per entry for the rare waiter.
pub(crate) fn resolve_all<'a>(
    entries: impl IntoIterator<Item = &'a Entry>,
    mut failed: impl FnMut(&'a Entry, Error),
) {
    let mut resolvers = Resolvers::default();
    for entry in entries {
        if let Err(error) = entry.resolve_from(&mut resolvers, Wake::Later) {
            failed(entry, error);
        }
    }
    wake_waiters();
}

/// Every entry of a [`preload`] that could not be resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PreloadError {
    /// One error per entry that failed, in the order the entries were given.
    pub failures: Vec<Error>,
}

impl PreloadError {
    /// `Ok` when nothing failed, else the failures.
    pub(crate) fn unless_empty(failures: Vec<Error>) -> Result<(), PreloadError> {
        if failures.is_empty() {
            Ok(())
        } else {
            Err(PreloadError { failures })
        }
    }
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
