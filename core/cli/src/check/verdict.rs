//! What would happen to a declaration: the macro's rules first, then the driver, asked exactly as
//! the program would ask it, or the version given with `--driver-version`.

use cuda_entry::Resolver;
use cuda_entry_table::{Cuda, Version};

use super::{Declaration, Judged, Rejection, Request};
use crate::common::{entry, static_symbol};

/// Where the answers come from.
#[derive(Debug)]
pub(super) enum Driver {
    /// A loaded driver (or the error that loading it gave).
    Loaded(Result<cuda_entry::DriverInfo, cuda_entry::Error>),
    /// `--driver-version N`: the table only.
    Assumed(Version),
}

/// Why a declaration the macro accepts would fail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Failure {
    /// A short, stable name: `driver_too_old`, or the driver error's.
    pub(super) kind: &'static str,
    /// Why, and what to do.
    pub(super) message: String,
}

/// What would happen to a declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    /// It would work.
    Works,
    /// The macro rejects it: the build fails.
    Rejected(Vec<Rejection>),
    /// The macro accepts it, the driver would not serve it.
    Fails(Failure),
    /// It is `optional` and the driver would not serve it: the program runs without it.
    Unavailable(Failure),
}

/// What would happen to a declaration, and what is worth saying about it.
#[derive(Debug)]
pub(super) struct Verdict {
    pub(super) outcome: Outcome,
    pub(super) notes: Vec<String>,
}

impl Verdict {
    /// Whether it would fail, by the macro or the driver (an optional one the driver cannot
    /// serve fails nothing).
    pub(super) fn fails(&self) -> bool {
        matches!(self.outcome, Outcome::Rejected(_) | Outcome::Fails(_))
    }

    /// Whether it is optional and the driver would not serve it.
    pub(super) fn unavailable(&self) -> bool {
        matches!(self.outcome, Outcome::Unavailable(_))
    }
}

/// What would happen to `d` against `driver`.
pub(super) fn judge(d: &Declaration, driver: &Driver) -> Verdict {
    let (request, table_notes) = match &d.judged {
        Judged::Accepted { request, notes, .. } => (request, notes),
        Judged::Rejected { mistakes, .. } => {
            return Verdict {
                outcome: Outcome::Rejected(mistakes.clone()),
                notes: d.notes.clone(),
            };
        }
    };
    let mut notes: Vec<String> = d.notes.iter().chain(table_notes).cloned().collect();
    let outcome = match served(request, driver, &mut notes) {
        Ok(()) => Outcome::Works,
        Err(failure) if request.optional => Outcome::Unavailable(failure),
        Err(failure) => Outcome::Fails(failure),
    };
    Verdict { outcome, notes }
}

/// Whether `driver` would serve `request`, or why not; what is worth saying goes to `notes`.
fn served(request: &Request, driver: &Driver, notes: &mut Vec<String>) -> Result<(), Failure> {
    let known = !cuda_entry_table::lookup(&request.symbol).is_empty();
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
                return Err(Failure {
                    kind: "driver_too_old",
                    message: format!(
                        "the driver ({driver_version}) is older than this ABI ({version}): update \
                         the driver to >= {version}{since}",
                    ),
                });
            }
            if !known {
                notes.push(
                    "only the version was compared: run against a driver to know whether it \
                     serves the symbol"
                        .to_owned(),
                );
            }
            Ok(())
        }
        Driver::Loaded(Err(error)) => Err(Failure {
            kind: error.kind().name(),
            message: "no usable CUDA driver on this machine (the driver line says why)".to_owned(),
        }),
        Driver::Loaded(Ok(_)) => {
            // The rules accept C identifiers only: never without its NUL.
            let symbol = static_symbol(&request.symbol).map_err(|message| Failure {
                kind: "symbol_not_an_identifier",
                message,
            })?;
            let resolver = if request.runtime {
                Resolver::Runtime
            } else {
                Resolver::Driver
            };
            entry(symbol, version.get(), request.per_thread, resolver)
                .resolve()
                .map(drop)
                .map_err(|error| Failure {
                    kind: error.kind().name(),
                    message: error.reason(),
                })
        }
    }
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

    fn failure(verdict: Verdict) -> Failure {
        match verdict.outcome {
            Outcome::Fails(failure) => failure,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_table_judges_without_a_driver() {
        let new = Declaration::asking("cuCtxCreate", 12050);
        let old = Declaration::asking("cuCtxCreate", 3020);
        let typo = Declaration::asking("cuMemAloc", 3020);
        let too_old = failure(at(12040, &new));
        assert_eq!(too_old.kind, "driver_too_old");
        assert_eq!(
            too_old.message,
            "the driver (CUDA 12.4) is older than this ABI (CUDA 12.5): update the driver to >= \
             CUDA 12.5"
        );
        let old = at(12040, &old);
        assert_eq!(old.outcome, Outcome::Works);
        assert_eq!(old.notes.len(), 1);
        let Outcome::Rejected(mistakes) = at(12040, &typo).outcome else {
            panic!("accepted")
        };
        assert_eq!(mistakes[0].kind, "unknown_symbol");
        assert!(
            mistakes[0].message.contains("did you mean `cuMemAlloc`"),
            "{}",
            mistakes[0].message
        );
        assert_eq!(at(13000, &new).outcome, Outcome::Works);
    }

    #[test]
    fn a_symbol_newer_than_the_driver_says_so() {
        let too_old = failure(at(12040, &Declaration::asking("cuCtxRecordEvent", 12050)));
        assert!(
            too_old
                .message
                .ends_with("; `cuCtxRecordEvent` itself first appeared in CUDA 12.5"),
            "{}",
            too_old.message
        );
    }

    #[test]
    fn an_optional_declaration_the_driver_cannot_serve_fails_nothing() {
        let upgrade = at(12040, &Declaration::optional("cuCtxCreate", 12050));
        assert!(!upgrade.fails() && upgrade.unavailable());
        let Outcome::Unavailable(failure) = upgrade.outcome else {
            panic!("{:?}", upgrade.outcome)
        };
        assert_eq!(failure.kind, "driver_too_old");
        assert_eq!(
            at(12050, &Declaration::optional("cuCtxCreate", 12050)).outcome,
            Outcome::Works
        );
    }
}
