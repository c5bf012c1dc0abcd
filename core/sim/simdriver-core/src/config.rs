//! Configuration: the version a simulator reports and its behaviour mode.
//!
//! One mechanism for the driver ([`Config`], `CUDA_ENTRY_SIM_VERSION` / `CUDA_ENTRY_SIM_MODE`)
//! and the simulated runtime (`RuntimeConfig`, `CUDA_ENTRY_SIMRT_*`, in
//! `cuda-entry-simruntime-core`): read from the environment once, at the first call that needs
//! it, and settable in-process for the simulators' own tests. What differs between the two is a
//! [`Modes`] implementation.

use std::ffi::{CStr, CString, c_char, c_int};
use std::fmt::{self, Debug};
use std::str::FromStr;
use std::sync::Mutex;

/// A simulator's configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings<M> {
    /// The version the simulator reports.
    pub version: i32,
    /// The behaviour mode.
    pub mode: M,
}

/// A simulator's modes and where its configuration comes from.
pub trait Modes: Copy + PartialEq + Debug + Send + 'static {
    /// The variable holding the reported version (`CUDA_ENTRY_SIM_VERSION`).
    const VERSION_VARIABLE: &'static str;
    /// The variable holding the mode (`CUDA_ENTRY_SIM_MODE`).
    const MODE_VARIABLE: &'static str;
    /// Who reports a malformed value (`cuda-entry simulated driver`).
    const SPEAKER: &'static str;
    /// Every mode spelled by a name, the default (`normal`) first; `rc=<N>` comes on top.
    const NAMED: &'static [(&'static str, Self)];

    /// The mode `rc=<N>`.
    fn rc(code: i32) -> Self;

    /// The version reported when the version variable is unset: the build's.
    fn default_version() -> i32;

    /// Where the current configuration is kept (`None`: the environment is not read yet).
    fn slot() -> &'static Mutex<Option<Settings<Self>>>;

    /// Parses a mode variable's value (`""` is the default).
    fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(Self::NAMED[0].1);
        }
        if let Some((_, mode)) = Self::NAMED.iter().find(|(name, _)| *name == text) {
            return Ok(*mode);
        }
        let variable = Self::MODE_VARIABLE;
        match text.strip_prefix("rc=") {
            Some(n) => n
                .trim()
                .parse()
                .map(Self::rc)
                .map_err(|_| format!("{variable}={text:?}: rc=<N> needs an integer N")),
            None => {
                let names: Vec<&str> = Self::NAMED.iter().map(|(name, _)| *name).collect();
                Err(format!(
                    "{variable}={text:?} is not one of {}, rc=<N>",
                    names.join(", ")
                ))
            }
        }
    }
}

impl<M: Modes> Settings<M> {
    /// The configuration of this build with nothing set: its default version, normal mode.
    pub fn default_for_build() -> Self {
        Settings {
            version: M::default_version(),
            mode: M::NAMED[0].1,
        }
    }

    /// The configuration the two environment values describe (`None`: unset).
    pub fn from_values(version: Option<&str>, mode: Option<&str>) -> Result<Self, String> {
        let mut config = Self::default_for_build();
        // An empty value is unset, as for the mode.
        if let Some(v) = version.filter(|v| !v.trim().is_empty()) {
            config.version = match v.trim().parse::<i32>() {
                Ok(n) if n > 0 => n,
                _ => {
                    return Err(format!(
                        "{}={v:?} is not a positive integer such as 13000",
                        M::VERSION_VARIABLE
                    ));
                }
            };
        }
        if let Some(m) = mode {
            config.mode = M::parse(m)?;
        }
        Ok(config)
    }

    /// The configuration the environment describes.
    pub fn from_env() -> Result<Self, String> {
        let version = std::env::var(M::VERSION_VARIABLE).ok();
        let mode = std::env::var(M::MODE_VARIABLE).ok();
        Self::from_values(version.as_deref(), mode.as_deref())
    }

    /// The current configuration, reading the environment the first time.
    ///
    /// A malformed variable aborts the process with a message: silently falling back to `normal`
    /// would make a test of a misbehaviour mode pass for the wrong reason.
    pub fn current() -> Self {
        let mut slot = M::slot().lock().unwrap_or_else(|e| e.into_inner());
        if let Some(config) = *slot {
            return config;
        }
        match Self::from_env() {
            Ok(config) => {
                *slot = Some(config);
                config
            }
            Err(message) => {
                super::say(format_args!("{}: {message}", M::SPEAKER));
                std::process::abort();
            }
        }
    }

    /// Replaces the configuration (in-process; what the environment said is forgotten).
    pub fn install(self) {
        *M::slot().lock().unwrap_or_else(|e| e.into_inner()) = Some(self);
    }

    /// Forgets any in-process setting: the next call reads the environment again.
    pub fn forget() {
        *M::slot().lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// Sets the configuration from the values given, each `None` read from its environment
    /// variable (unset: the build's default), as the test kit does before the library under test
    /// first asks. Nothing changes on error.
    ///
    /// # Errors
    /// A malformed value, given or read, with the variable it stands for.
    pub fn configure(version: Option<&str>, mode: Option<&str>) -> Result<Self, String> {
        let from_env = |variable| std::env::var(variable).ok();
        let version = version
            .map(str::to_owned)
            .or_else(|| from_env(M::VERSION_VARIABLE));
        let mode = mode
            .map(str::to_owned)
            .or_else(|| from_env(M::MODE_VARIABLE));
        let config = Self::from_values(version.as_deref(), mode.as_deref())?;
        config.install();
        Ok(config)
    }

    /// What the `*_configure` C exports do: [`configure`](Self::configure) with `version` (0: not
    /// given) and `mode` (NULL: not given); NULL on success, else the message, NUL-terminated and
    /// kept for the life of the library (a rare path: each message is leaked).
    ///
    /// # Safety
    /// `mode` must be NULL or a NUL-terminated string.
    pub unsafe fn configure_from_c(version: c_int, mode: *const c_char) -> *const c_char {
        let version = (version != 0).then(|| version.to_string());
        let mode = if mode.is_null() {
            None
        } else {
            // SAFETY: non-NULL, and the caller promises a NUL-terminated string.
            Some(
                unsafe { CStr::from_ptr(mode) }
                    .to_string_lossy()
                    .into_owned(),
            )
        };
        match Self::configure(version.as_deref(), mode.as_deref()) {
            Ok(_) => std::ptr::null(),
            Err(message) => {
                let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
                message.into_raw().cast_const()
            }
        }
    }
}

/// How the simulated driver misbehaves, to reach the error paths of the code under test. The one
/// definition: the test kit (`cuda-entry-sim`) re-exports it, and hands the simulators its text
/// ([`Display`](fmt::Display)), which they read back ([`Modes::parse`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Mode {
    /// `normal`: answers as the real driver 580.159.04 did (tests/ground-truth/).
    #[default]
    Normal,
    /// `stub`: every export returns 34 (`CUDA_ERROR_STUB_LIBRARY`) and writes nothing, like the
    /// toolkit's `lib64/stubs/libcuda.so` (measured: `cuDriverGetVersion`, `cuInit` and
    /// `cuGetProcAddress_v2` all return 34).
    Stub,
    /// `status-unwritten`: `cuGetProcAddress_v2` answers as in `normal` but never writes its
    /// status.
    StatusUnwritten,
    /// `null-success`: `cuGetProcAddress*` succeed with a NULL pointer (`cuGetProcAddress_v2`
    /// also writes status 0), whatever was asked. Requests the real driver rejects with rc 1 (bad
    /// flags, version above the driver) still get rc 1.
    NullSuccess,
    /// `rc=<N>`: both `cuGetProcAddress` exports return `N` and write nothing.
    Rc(i32),
    /// `version-fails`: `cuDriverGetVersion` returns 3 (`CUDA_ERROR_NOT_INITIALIZED`) and writes
    /// nothing.
    VersionFails,
    /// `no-v2`: `cuGetProcAddress_v2` is exported but answers 500 (`CUDA_ERROR_NOT_FOUND`) with
    /// nothing written (and says so on stderr), as if the driver had no such export, and
    /// `cuGetProcAddress("cuGetProcAddress", ..)` never resolves to it. An export cannot be
    /// removed at run time; `cuda-entry-simdriver-11x` is the build that really lacks it.
    NoV2,
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self, Mode::NAMED.iter().find(|(_, mode)| mode == self)) {
            (Mode::Rc(code), _) => write!(f, "rc={code}"),
            (_, Some((name, _))) => f.write_str(name),
            (_, None) => unreachable!("every mode but rc=<N> is named"),
        }
    }
}

impl FromStr for Mode {
    type Err = String;

    /// The mode a variable's value names (`stub`, `rc=999`).
    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if let Some((_, mode)) = Mode::NAMED.iter().find(|(name, _)| *name == text) {
            return Ok(*mode);
        }
        match text.strip_prefix("rc=").map(|n| n.trim().parse()) {
            Some(Ok(code)) => Ok(Mode::Rc(code)),
            Some(Err(_)) => Err(format!("{text:?}: rc=<N> needs an integer N")),
            None => {
                let names: Vec<&str> = Mode::NAMED.iter().map(|(name, _)| *name).collect();
                Err(format!(
                    "{text:?} is not one of {}, rc=<N>",
                    names.join(", ")
                ))
            }
        }
    }
}

/// The simulated driver's configuration.
pub type Config = Settings<Mode>;

static CONFIG: Mutex<Option<Config>> = Mutex::new(None);

impl Modes for Mode {
    const VERSION_VARIABLE: &'static str = "CUDA_ENTRY_SIM_VERSION";
    const MODE_VARIABLE: &'static str = "CUDA_ENTRY_SIM_MODE";
    const SPEAKER: &'static str = "cuda-entry simulated driver";
    const NAMED: &'static [(&'static str, Mode)] = &[
        ("normal", Mode::Normal),
        ("stub", Mode::Stub),
        ("status-unwritten", Mode::StatusUnwritten),
        ("null-success", Mode::NullSuccess),
        ("version-fails", Mode::VersionFails),
        ("no-v2", Mode::NoV2),
    ];

    fn rc(code: i32) -> Mode {
        Mode::Rc(code)
    }

    fn default_version() -> i32 {
        super::build().default_version
    }

    fn slot() -> &'static Mutex<Option<Config>> {
        &CONFIG
    }
}

/// The driver's current configuration, reading the environment the first time.
pub fn get() -> Config {
    Config::current()
}

/// Replaces the driver's configuration (in-process; what the environment said is forgotten).
pub fn set_config(config: Config) {
    config.install();
}

/// Sets only the reported driver version.
pub fn set_version(version: i32) {
    Config { version, ..get() }.install();
}

/// Sets only the driver's mode.
pub fn set_mode(mode: Mode) {
    Config { mode, ..get() }.install();
}

/// Forgets any in-process driver setting: the next call reads the environment again.
pub fn reset_config() {
    Config::forget();
}

/// `const char *cuda_entry_sim_configure(int version, const char *mode)`: sets the driver's
/// configuration in-process, before or after the first call. `version` 0 and `mode` NULL mean
/// "as `CUDA_ENTRY_SIM_VERSION` / `CUDA_ENTRY_SIM_MODE` say" (unset: the build's default, normal).
/// Returns NULL, or a message (static) when a value is malformed, nothing changed. For the test
/// kit (`cuda-entry-sim`), which sets the configuration from code.
///
/// # Safety
/// `mode` must be NULL or a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuda_entry_sim_configure(
    version: c_int,
    mode: *const c_char,
) -> *const c_char {
    // SAFETY: the caller's promise, forwarded.
    unsafe { Config::configure_from_c(version, mode) }
}
