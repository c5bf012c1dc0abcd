//! Why a simulated library could not be installed.

use std::fmt;
use std::path::PathBuf;

use crate::Config;

/// Why [`install`](crate::install) (or [`Config::apply_to`]) could not point cuda-entry at a
/// simulated library. Each message says what to do.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The shared object is not where Cargo puts the cdylib of a dependency, beside the running
    /// test binary: the kit is not a dependency of this crate, the feature that builds that
    /// library is off, or the program was not built by Cargo (a doctest runs from a temporary
    /// folder).
    NotBuilt {
        /// The file looked for (`libcuda_entry_simdriver.so`).
        file: String,
        /// The folders looked in.
        looked_in: Vec<PathBuf>,
        /// The feature of `cuda-entry-sim` that builds it, when one must be turned on.
        feature: Option<&'static str>,
    },
    /// cuda-entry has already loaded its driver (or runtime) library in this process, or is
    /// loading it: it reads its library variable once, so it is too late to point it elsewhere.
    TooLate {
        /// The variable it no longer reads (`CUDA_ENTRY_DRIVER_PATH`).
        variable: &'static str,
    },
    /// Another configuration is already installed in this process (one per process).
    AlreadyInstalled {
        /// The configuration installed first.
        installed: Box<Config>,
        /// The one asked for now.
        requested: Box<Config>,
    },
    /// The shared object did not open.
    Open {
        /// Its path.
        path: PathBuf,
        /// The loader's message.
        message: String,
    },
    /// The library lacks an export every simulator of this kit has: not one of them.
    NotASimulator {
        /// Its path.
        path: PathBuf,
        /// The missing export.
        missing: String,
    },
    /// The copy of the simulated driver for its version (whose exports are the ones a driver of
    /// that version has) could not be written beside the build: the folder is not writable, or
    /// the build is an ELF file the kit cannot read.
    Copy {
        /// The copy's path, or the build's when it could not be read.
        path: PathBuf,
        /// What failed.
        message: String,
    },
    /// The simulator refused a configuration value: a malformed `CUDA_ENTRY_SIM_*` variable.
    Configuration {
        /// The simulator's path.
        path: PathBuf,
        /// The simulator's message, naming the variable.
        message: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NotBuilt {
                file,
                looked_in,
                feature,
            } => {
                let folders: Vec<String> =
                    looked_in.iter().map(|d| d.display().to_string()).collect();
                write!(
                    f,
                    "the simulated library `{file}` is not built (looked in {}): ",
                    folders.join(" and ")
                )?;
                match feature {
                    Some(feature) => write!(
                        f,
                        "turn on the feature `{feature}` of cuda-entry-sim in [dev-dependencies]"
                    ),
                    None => f.write_str(
                        "add cuda-entry-sim to [dev-dependencies] and run the code as a test, \
                         example or binary built by Cargo",
                    ),
                }
            }
            Error::TooLate { variable } => write!(
                f,
                "cuda-entry has already loaded its library in this process, so setting \
                 {variable} now has no effect: call cuda_entry_sim::install() before the first \
                 resolution, or run the test in a child process (cuda_entry_sim::in_child)"
            ),
            Error::AlreadyInstalled {
                installed,
                requested,
            } => write!(
                f,
                "this process already runs under {installed:?}, and a process loads its driver \
                 once, so {requested:?} needs a process of its own: cuda_entry_sim::in_child"
            ),
            Error::Open { path, message } => {
                write!(f, "cannot open {}: {message}", path.display())
            }
            Error::NotASimulator { path, missing } => write!(
                f,
                "{} is not a simulated library of cuda-entry-sim (no `{missing}` export)",
                path.display()
            ),
            Error::Copy { path, message } => write!(
                f,
                "the simulated driver for its version, {}: {message} (the kit loads a copy of the \
                 driver whose exports are the ones a driver of that version has, in a folder \
                 beside the build)",
                path.display()
            ),
            Error::Configuration { path, message } => {
                write!(
                    f,
                    "the simulator {} refused its configuration: {message}",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for Error {}
