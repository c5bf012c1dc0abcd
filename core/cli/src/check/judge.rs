//! What would happen to a declaration: the macro's rules first, then the driver, asked exactly as
//! the program would ask it, or the version given with `--driver-version`.

use cuda_entry::Resolver;
use cuda_entry_table::{Cuda, Version};

use super::Declaration;
use super::rules::{self, Mistake};
use crate::common::{entry, static_symbol};
use crate::error_text;

/// Where the answers come from.
#[derive(Debug)]
pub(super) enum Driver {
    /// A loaded driver (or the error that loading it gave).
    Loaded(Result<cuda_entry::DriverInfo, cuda_entry::Error>),
    /// `--driver-version N`: the table only.
    Assumed(Version),
}

/// Why a declaration would fail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Failure {
    /// A short, stable name: a macro mistake's, `driver_too_old`, or the driver error's.
    pub(super) kind: &'static str,
    /// Why, and what to do.
    pub(super) message: String,
}

/// What would happen to a declaration.
#[derive(Debug)]
pub(super) struct Verdict {
    /// `None`: it would work.
    pub(super) failure: Option<Failure>,
    pub(super) notes: Vec<String>,
}

impl From<Mistake> for Failure {
    fn from(m: Mistake) -> Failure {
        Failure {
            kind: m.kind,
            message: m.message,
        }
    }
}

/// What would happen to `d` against `driver`.
pub(super) fn judge(d: &Declaration, driver: &Driver) -> Verdict {
    let fail = |failure: Failure| Verdict {
        failure: Some(failure),
        notes: d.notes.clone(),
    };
    if let Some(mistake) = &d.form {
        return fail(mistake.clone().into());
    }
    let request = match &d.request {
        Ok(request) => request,
        Err(mistake) => return fail(mistake.clone().into()),
    };
    let table = match rules::against_table(request) {
        Ok(table) => table,
        Err(mistake) => return fail(mistake.into()),
    };
    let mut verdict = Verdict {
        failure: None,
        notes: d.notes.iter().cloned().chain(table.notes).collect(),
    };
    let version = request.version;
    match driver {
        Driver::Assumed(driver_version) => {
            if *driver_version < version {
                let first = cuda_entry_table::lookup(&request.symbol)
                    .iter()
                    .map(|t| t.version)
                    .min();
                let since = match first {
                    Some(first) if first > driver_version.get() => format!(
                        "; `{}` itself first appeared in {}",
                        request.symbol,
                        Cuda(first)
                    ),
                    _ => String::new(),
                };
                verdict.failure = Some(Failure {
                    kind: "driver_too_old",
                    message: format!(
                        "the driver ({driver_version}) is older than this ABI ({version}): update \
                         the driver to >= {version}{since}",
                    ),
                });
            } else if !table.known {
                verdict.notes.push(
                    "only the version was compared: run against a driver to know whether it \
                     serves the symbol"
                        .to_owned(),
                );
            }
        }
        Driver::Loaded(Err(error)) => {
            verdict.failure = Some(Failure {
                kind: error_text::kind_name(error),
                message: "no usable CUDA driver on this machine (the driver line says why)"
                    .to_owned(),
            });
        }
        Driver::Loaded(Ok(_)) => {
            let symbol = match static_symbol(&request.symbol) {
                Ok(symbol) => symbol,
                Err(message) => {
                    return fail(Failure {
                        kind: "macro_rejects",
                        message,
                    });
                }
            };
            let resolver = if request.runtime {
                Resolver::Runtime
            } else {
                Resolver::Driver
            };
            let resolved = entry(symbol, version.get(), request.per_thread, resolver).resolve();
            if let Err(error) = resolved {
                verdict.failure = Some(Failure {
                    kind: error_text::kind_name(&error),
                    message: error_text::reason(&error),
                });
            }
        }
    }
    verdict
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(driver: u32, d: &Declaration) -> Verdict {
        judge(
            d,
            &Driver::Assumed(Version::new(driver).expect("a version")),
        )
    }

    #[test]
    fn the_table_judges_without_a_driver() {
        let new = Declaration::asking("cuCtxCreate", 12050);
        let old = Declaration::asking("cuCtxCreate", 3020);
        let typo = Declaration::asking("cuMemAloc", 3020);
        let failure = at(12040, &new).failure.expect("too old");
        assert_eq!(failure.kind, "driver_too_old");
        assert_eq!(
            failure.message,
            "the driver (CUDA 12.4) is older than this ABI (CUDA 12.5): update the driver to >= \
             CUDA 12.5"
        );
        let old = at(12040, &old);
        assert!(old.failure.is_none());
        assert_eq!(old.notes.len(), 1);
        let typo = at(12040, &typo).failure.expect("unknown");
        assert_eq!(typo.kind, "unknown_symbol");
        assert!(typo.message.contains("cuMemAlloc"), "{}", typo.message);
        assert!(at(13000, &new).failure.is_none());
    }

    #[test]
    fn a_symbol_newer_than_the_driver_says_so() {
        let failure = at(12040, &Declaration::asking("cuCtxRecordEvent", 12050))
            .failure
            .expect("too old");
        assert!(
            failure
                .message
                .ends_with("; `cuCtxRecordEvent` itself first appeared in CUDA 12.5"),
            "{}",
            failure.message
        );
    }
}
