//! What a process's simulated libraries are: which builds, the versions they report, their fault
//! modes. One [`Config`] per process; [`Config::apply_to`] gives it to a child process.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::str::FromStr;

use crate::Error;
use crate::library::{Driver, Library, Runtime};
use crate::versioned::{self, Prepared, SEARCH_PATH_VARIABLE};

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
    /// every `cuGetProcAddress*` answer follows it, and so do the exports (on ELF platforms: the
    /// driver loaded is a copy without the exports newer than the version, see
    /// [`driver_path`](Config::driver_path)).
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

    /// The version the driver reports under this configuration: the one given, else
    /// `version_variable` (the value of `CUDA_ENTRY_SIM_VERSION`; unset or empty: none), else the
    /// build's default. Checked as the simulator checks it: a positive `int`.
    fn effective_version(
        &self,
        build: &Path,
        version_variable: Option<&OsStr>,
    ) -> Result<i32, Error> {
        let refused = |message: String| Error::Configuration {
            path: build.to_path_buf(),
            message,
        };
        if let Some(version) = self.version {
            return i32::try_from(version)
                .ok()
                .filter(|v| *v > 0)
                .ok_or_else(|| refused(format!("version {version} is not a positive int")));
        }
        match version_variable.map(|v| v.to_string_lossy()) {
            Some(text) if !text.trim().is_empty() => match text.trim().parse::<i32>() {
                Ok(version) if version > 0 => Ok(version),
                // The simulator's own words (cuda-entry-simdriver-core's `Settings::from_values`).
                _ => Err(refused(format!(
                    "{VERSION_VARIABLE}={text:?} is not a positive integer such as 13000"
                ))),
            },
            _ => Ok(self.driver.default_version()),
        }
    }

    /// The driver library for this configuration, written if needed, with `version_variable` as
    /// [`effective_version`](Self::effective_version) takes it.
    pub(crate) fn prepare_driver(
        &self,
        version_variable: Option<&OsStr>,
    ) -> Result<Prepared, Error> {
        let build = self.driver.path()?;
        let version = self.effective_version(&build, version_variable)?;
        versioned::prepare(&build, Library::Driver(self.driver).stem(), version)
    }

    /// The shared object a process running under this configuration loads as its driver (and
    /// [`install_with`](crate::install_with) returns): on ELF platforms (Linux) the copy of the
    /// driver's build for the version it reports, in which every export that a real driver of
    /// that version lacks is hidden from `dlsym` (`cuCtxCreate_v4`, CUDA 12.5, is not found in
    /// a 12.4 driver); it is `libcuda.so.1` in [`driver_dir`](Config::driver_dir). It is written
    /// the first time it is asked for, and again when the build changed. Elsewhere (Windows,
    /// macOS) the build itself, which exports every function of the 13.0 driver: only its
    /// `cuGetProcAddress*` answers follow the version there.
    ///
    /// The version is this configuration's, else `CUDA_ENTRY_SIM_VERSION` of this process, else
    /// the build's default.
    ///
    /// # Errors
    /// [`Error::NotBuilt`]; [`Error::Configuration`] for a malformed `CUDA_ENTRY_SIM_VERSION` or
    /// a version that is no positive `int`; [`Error::Copy`] when the copy cannot be written.
    pub fn driver_path(&self) -> Result<PathBuf, Error> {
        let variable = std::env::var_os(VERSION_VARIABLE);
        Ok(self.prepare_driver(variable.as_deref())?.path)
    }

    /// The folder holding [`driver_path`](Config::driver_path), as `libcuda.so.1` and
    /// `libcuda.so` (a symbolic link to it): the folder to put first on the library search path
    /// (`LD_LIBRARY_PATH`) of a process, so that code loading the driver by name
    /// (`dlopen("libcuda.so")`, as cudarc does) loads the simulated driver of this version.
    /// [`apply_to`](Config::apply_to) does that for a child. `None` where there is no copy (not
    /// an ELF platform).
    ///
    /// # Errors
    /// As [`driver_path`](Config::driver_path).
    pub fn driver_dir(&self) -> Result<Option<PathBuf>, Error> {
        let variable = std::env::var_os(VERSION_VARIABLE);
        Ok(self.prepare_driver(variable.as_deref())?.folder)
    }

    /// Sets up `command` to run under this configuration: the library variables of cuda-entry
    /// (`CUDA_ENTRY_DRIVER_PATH`, and `CUDA_ENTRY_RUNTIME_PATH` or its removal) and the
    /// simulators' variables this configuration sets (the ones it leaves unset are inherited).
    /// For a binary of your own under test, or a harness of your own; [`in_child`](crate::in_child)
    /// uses it.
    ///
    /// The driver is [`driver_path`](Config::driver_path) for the version the child will see (a
    /// `CUDA_ENTRY_SIM_VERSION` already set on `command` counts), and on ELF platforms its
    /// folder ([`driver_dir`](Config::driver_dir)) goes in front of the child's
    /// `LD_LIBRARY_PATH` (the one set on `command`, else this process's): a crate that opens
    /// `libcuda.so` or `libcuda.so.1` by name, such as cudarc, loads the simulated driver there,
    /// the same library as cuda-entry's, with the exports of that version.
    ///
    /// # Errors
    /// [`Error::NotBuilt`] when a simulated library this configuration names is not built;
    /// [`Error::Configuration`] and [`Error::Copy`] as [`driver_path`](Config::driver_path).
    pub fn apply_to<'c>(&self, command: &'c mut Command) -> Result<&'c mut Command, Error> {
        // What the child will inherit or be given.
        let child_value = |command: &Command, variable: &str| -> Option<OsString> {
            match command.get_envs().find(|(name, _)| *name == variable) {
                Some((_, value)) => value.map(OsStr::to_owned),
                None => std::env::var_os(variable),
            }
        };
        let version_variable = child_value(command, VERSION_VARIABLE);
        let driver = self.prepare_driver(version_variable.as_deref())?;
        command.env(cuda_entry::PATH_VARIABLE, &driver.path);
        if let Some(folder) = &driver.folder {
            let current = child_value(command, SEARCH_PATH_VARIABLE);
            let value = versioned::search_path(folder, current.as_deref());
            command.env(SEARCH_PATH_VARIABLE, value);
        }
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
