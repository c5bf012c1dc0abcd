//! What a process's simulated libraries are: which builds, the versions they report, their fault
//! modes. One [`Config`] per process; [`Config::apply_to`] gives it to a child process.

use std::ffi::OsStr;
use std::fmt;
use std::process::Command;
use std::str::FromStr;

use crate::Error;

/// The simulator's own variable for the version `cuDriverGetVersion` reports.
pub(crate) const VERSION_VARIABLE: &str = "CUDA_ENTRY_SIM_VERSION";
/// The simulator's own variable for its fault mode.
pub(crate) const MODE_VARIABLE: &str = "CUDA_ENTRY_SIM_MODE";
/// The simulated runtime's variable for the version `cudaRuntimeGetVersion` reports.
pub(crate) const RUNTIME_VERSION_VARIABLE: &str = "CUDA_ENTRY_SIMRT_VERSION";
/// The simulated runtime's variable for its fault mode.
pub(crate) const RUNTIME_MODE_VARIABLE: &str = "CUDA_ENTRY_SIMRT_MODE";
/// The simulator's variable for the statuses injected into named functions.
pub(crate) const STATUS_VARIABLE: &str = "CUDA_ENTRY_SIM_STATUS";
/// The simulator's variable for how many queries launched or recorded work stays pending.
pub(crate) const PENDING_VARIABLE: &str = "CUDA_ENTRY_SIM_PENDING";

/// Which simulated driver: each is a shared object of its own, because a missing export cannot be
/// switched off by configuration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Driver {
    /// A CUDA 12.0+ driver with `cuGetProcAddress_v2` (and the 4-argument `cuGetProcAddress`),
    /// reporting 13000 unless told otherwise: `libcuda_entry_simdriver.so`, always built.
    #[default]
    Current,
    /// A CUDA 11.3-11.8 driver: the 4-argument `cuGetProcAddress` only, reporting 11080.
    /// Needs the feature `simdriver-11x`.
    Cuda11x,
    /// A driver before CUDA 11.3: no `cuGetProcAddress` at all, reporting 11020. Needs the
    /// feature `simdriver-old`.
    BeforeCuda113,
}

/// Which simulated runtime (`libcudart` look-alike), for entries declared with
/// `resolver = "runtime"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Runtime {
    /// A CUDA 12.5+ runtime with `cudaGetDriverEntryPointByVersion`, reporting 13000. Needs the
    /// feature `simruntime`.
    Current,
    /// A CUDA 12.0-12.4 runtime without it, reporting 12040. Needs the feature `simruntime-old`.
    BeforeCuda125,
}

// How the simulated driver misbehaves: the simulators' own definition (cuda-entry-simdriver-core),
// which reads back the text `Config` hands it.
pub use cuda_entry_simdriver_core::Mode;

/// How the simulated runtime's entry-point exports misbehave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RuntimeMode {
    /// `normal`: answers as the simulated driver's `cuGetProcAddress_v2`.
    #[default]
    Normal,
    /// `unwritten-status`: the status is never written.
    UnwrittenStatus,
    /// `null-success`: success with a NULL pointer.
    NullSuccess,
    /// `rc=<N>`: the entry-point exports return `N`.
    Rc(i32),
}

/// Which calls of a function an injected status answers ([`Config::inject`]). Calls are counted
/// from the installation on, per injection; [`reset`](crate::reset) does not restart them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum When {
    /// Every call.
    Always,
    /// The `n`th call only (1 is the first).
    Call(u64),
    /// `count` calls from the `from`th on (`from` 1: the first `count` calls).
    Calls {
        /// The first call answered (1-based).
        from: u64,
        /// How many calls are answered.
        count: u64,
    },
}

/// The names the simulated runtimes read (their one parser is theirs: [`Config`] hands them the
/// text).
const RUNTIME_MODES: &[(&str, RuntimeMode)] = &[
    ("normal", RuntimeMode::Normal),
    ("unwritten-status", RuntimeMode::UnwrittenStatus),
    ("null-success", RuntimeMode::NullSuccess),
];

/// `Display` and `FromStr` for a mode enum: its named modes and `rc=<N>`.
macro_rules! mode_text {
    ($mode:ident, $names:ident) => {
        impl fmt::Display for $mode {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match (self, $names.iter().find(|(_, mode)| mode == self)) {
                    ($mode::Rc(code), _) => write!(f, "rc={code}"),
                    (_, Some((name, _))) => f.write_str(name),
                    (_, None) => unreachable!("every mode but rc=<N> is named"),
                }
            }
        }

        impl FromStr for $mode {
            type Err = String;

            /// The mode a variable's value names (`stub`, `rc=999`).
            fn from_str(text: &str) -> Result<Self, String> {
                let text = text.trim();
                if let Some((_, mode)) = $names.iter().find(|(name, _)| *name == text) {
                    return Ok(*mode);
                }
                match text.strip_prefix("rc=").map(|n| n.trim().parse()) {
                    Some(Ok(code)) => Ok($mode::Rc(code)),
                    Some(Err(_)) => Err(format!("{text:?}: rc=<N> needs an integer N")),
                    None => {
                        let names: Vec<&str> = $names.iter().map(|(name, _)| *name).collect();
                        Err(format!(
                            "{text:?} is not one of {}, rc=<N>",
                            names.join(", ")
                        ))
                    }
                }
            }
        }
    };
}
mode_text!(RuntimeMode, RUNTIME_MODES);

/// A process's simulated libraries: which driver (and runtime), and what they report. Fields left
/// unset come from the environment (`CUDA_ENTRY_SIM_VERSION`, `CUDA_ENTRY_SIM_MODE`,
/// `CUDA_ENTRY_SIMRT_VERSION`, `CUDA_ENTRY_SIMRT_MODE`), else the build's defaults.
///
/// ```
/// use cuda_entry_sim::{Config, Mode};
///
/// let driver_12_4 = Config::new().version(12040);
/// let stub_library = Config::new().mode(Mode::Stub);
/// # let _ = (driver_12_4, stub_library);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[must_use]
pub struct Config {
    driver: Driver,
    version: Option<u32>,
    mode: Option<Mode>,
    runtime: Option<Runtime>,
    runtime_version: Option<u32>,
    runtime_mode: Option<RuntimeMode>,
    injections: Vec<(String, i32, When)>,
    pending_queries: Option<u32>,
}

impl Config {
    /// The main simulated driver, configured by the environment (by default: reports 13000,
    /// normal mode), and no simulated runtime.
    pub fn new() -> Config {
        Config::default()
    }

    /// Which simulated driver.
    pub fn driver(mut self, driver: Driver) -> Config {
        self.driver = driver;
        self
    }

    /// What `cuDriverGetVersion` reports, `1000 * major + 10 * minor` (`12040` for CUDA 12.4);
    /// every `cuGetProcAddress*` answer follows it.
    pub fn version(mut self, version: u32) -> Config {
        self.version = Some(version);
        self
    }

    /// The driver's fault mode.
    pub fn mode(mut self, mode: Mode) -> Config {
        self.mode = Some(mode);
        self
    }

    /// Makes the driver function `function` return `status` on the calls `when` names, without
    /// doing anything: the error paths of the code under test (`cuMemAlloc` answering
    /// `CUDA_ERROR_OUT_OF_MEMORY`, 2, on its first call). A base symbol (`cuMemAlloc`) names every
    /// ABI variant of the function, an export name (`cuMemAlloc_v2`) only that one. Repeatable;
    /// where two injections answer the same call, the first given wins.
    ///
    /// ```
    /// use cuda_entry_sim::{Config, When};
    ///
    /// let out_of_memory_once = Config::new().inject("cuMemAlloc", 2, When::Call(1));
    /// # let _ = out_of_memory_once;
    /// ```
    pub fn inject(mut self, function: &str, status: i32, when: When) -> Config {
        self.injections.push((function.to_owned(), status, when));
        self
    }

    /// How many `cuStreamQuery`/`cuEventQuery` calls answer `CUDA_ERROR_NOT_READY` (600) after
    /// work was launched on the stream or the event recorded, before they answer success
    /// (`CUDA_ENTRY_SIM_PENDING`; default 1, 0 for never). Synchronising ends the wait.
    pub fn pending_queries(mut self, queries: u32) -> Config {
        self.pending_queries = Some(queries);
        self
    }

    /// A simulated runtime too (for `resolver = "runtime"` entries). It embeds its own copy of the
    /// simulated driver, configured like the driver here.
    pub fn runtime(mut self, runtime: Runtime) -> Config {
        self.runtime = Some(runtime);
        self
    }

    /// What `cudaRuntimeGetVersion` reports.
    pub fn runtime_version(mut self, version: u32) -> Config {
        self.runtime_version = Some(version);
        self
    }

    /// The runtime's fault mode.
    pub fn runtime_mode(mut self, mode: RuntimeMode) -> Config {
        self.runtime_mode = Some(mode);
        self
    }

    /// The driver this configuration names.
    pub fn driver_build(&self) -> Driver {
        self.driver
    }

    /// The runtime this configuration names, if any.
    pub fn runtime_build(&self) -> Option<Runtime> {
        self.runtime
    }

    /// The driver's settings as the simulator's configure export takes them (`None`: from the
    /// environment).
    pub(crate) fn driver_settings(&self) -> (Option<u32>, Option<String>) {
        (self.version, self.mode.map(|m| m.to_string()))
    }

    /// The injections as `CUDA_ENTRY_SIM_STATUS` writes them, and the pending queries (`None`:
    /// from the environment).
    pub(crate) fn calls_settings(&self) -> (Option<String>, Option<u32>) {
        let injections = (!self.injections.is_empty()).then(|| {
            self.injections
                .iter()
                .map(|(function, status, when)| match when {
                    When::Always => format!("{function}={status}"),
                    When::Call(n) => format!("{function}={status}@{n}"),
                    When::Calls { from, count } => {
                        let to = (from + count).saturating_sub(1);
                        format!("{function}={status}@{from}-{to}")
                    }
                })
                .collect::<Vec<_>>()
                .join(",")
        });
        (injections, self.pending_queries)
    }

    /// The runtime's own settings, likewise.
    pub(crate) fn runtime_settings(&self) -> (Option<u32>, Option<String>) {
        (
            self.runtime_version,
            self.runtime_mode.map(|m| m.to_string()),
        )
    }

    /// Sets up `command` to run under this configuration: the library variables of cuda-entry
    /// (`CUDA_ENTRY_DRIVER_PATH`, and `CUDA_ENTRY_RUNTIME_PATH` or its removal) and the
    /// simulators' variables this configuration sets (the ones it leaves unset are inherited).
    /// For a binary of your own under test, or a harness of your own; [`in_child`](crate::in_child)
    /// uses it.
    ///
    /// # Errors
    /// [`Error::NotBuilt`] when a simulated library this configuration names is not built.
    pub fn apply_to<'c>(&self, command: &'c mut Command) -> Result<&'c mut Command, Error> {
        command.env(cuda_entry::PATH_VARIABLE, self.driver.path()?);
        set(
            command,
            VERSION_VARIABLE,
            self.version.map(|v| v.to_string()),
        );
        set(command, MODE_VARIABLE, self.mode.map(|m| m.to_string()));
        let (injections, pending) = self.calls_settings();
        set(command, STATUS_VARIABLE, injections);
        set(command, PENDING_VARIABLE, pending.map(|p| p.to_string()));
        match self.runtime {
            Some(runtime) => {
                command.env(cuda_entry::RUNTIME_PATH_VARIABLE, runtime.path()?);
                let version = self.runtime_version.map(|v| v.to_string());
                set(command, RUNTIME_VERSION_VARIABLE, version);
                let mode = self.runtime_mode.map(|m| m.to_string());
                set(command, RUNTIME_MODE_VARIABLE, mode);
            }
            None => {
                command.env_remove(cuda_entry::RUNTIME_PATH_VARIABLE);
            }
        }
        Ok(command)
    }
}

fn set(command: &mut Command, variable: &str, value: Option<impl AsRef<OsStr>>) {
    if let Some(value) = value {
        command.env(variable, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_read_back_what_they_write() {
        for mode in [
            Mode::Normal,
            Mode::Stub,
            Mode::StatusUnwritten,
            Mode::NullSuccess,
            Mode::Rc(-3),
            Mode::VersionFails,
            Mode::NoV2,
        ] {
            assert_eq!(mode.to_string().parse::<Mode>(), Ok(mode));
        }
        for mode in [
            RuntimeMode::Normal,
            RuntimeMode::UnwrittenStatus,
            RuntimeMode::NullSuccess,
            RuntimeMode::Rc(999),
        ] {
            assert_eq!(mode.to_string().parse::<RuntimeMode>(), Ok(mode));
        }
        assert_eq!(Mode::Rc(999).to_string(), "rc=999");
        assert_eq!(Mode::StatusUnwritten.to_string(), "status-unwritten");
    }

    #[test]
    fn malformed_modes_say_what_is_accepted() {
        assert_eq!(
            "stubb".parse::<Mode>(),
            Err(
                "\"stubb\" is not one of normal, stub, status-unwritten, null-success, \
                 version-fails, no-v2, rc=<N>"
                    .to_owned()
            )
        );
        assert_eq!(
            "rc=x".parse::<RuntimeMode>(),
            Err("\"rc=x\": rc=<N> needs an integer N".to_owned())
        );
    }

    #[test]
    fn a_configuration_sets_only_what_it_names() {
        let config = Config::new().version(12040).mode(Mode::Stub);
        assert_eq!(
            config.driver_settings(),
            (Some(12040), Some("stub".to_owned()))
        );
        assert_eq!(config.runtime_settings(), (None, None));
        assert_eq!(Config::new().driver_settings(), (None, None));
        assert_eq!(config.driver_build(), Driver::Current);
        assert_eq!(Config::new().calls_settings(), (None, None));
        let injected = Config::new()
            .inject("cuMemAlloc", 2, When::Call(1))
            .inject("cuStreamQuery_ptsz", 600, When::Calls { from: 2, count: 3 })
            .inject("cuInit", 999, When::Always)
            .pending_queries(0);
        assert_eq!(
            injected.calls_settings(),
            (
                Some("cuMemAlloc=2@1,cuStreamQuery_ptsz=600@2-4,cuInit=999".to_owned()),
                Some(0)
            )
        );
        assert_eq!(config.runtime_build(), None);
    }
}
