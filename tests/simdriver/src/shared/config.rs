//! Configuration: the reported driver version and the behaviour mode.
//!
//! Read from the environment once, at the first export call that needs it
//! (`CUDA_ENTRY_SIM_VERSION`, `CUDA_ENTRY_SIM_MODE`; see the crate's README.md), and settable
//! in-process through [`set_config`] for the simulator's own tests.

use std::sync::Mutex;

/// How the simulated driver behaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `normal`: answer as driver 580.159.04 did (tests/ground-truth/).
    Normal,
    /// `stub`: every simulated CUDA export returns 34 (`CUDA_ERROR_STUB_LIBRARY`) and writes
    /// nothing, as the toolkit's `lib64/stubs/libcuda.so` does (measured: `cuDriverGetVersion`,
    /// `cuInit` and `cuGetProcAddress_v2` all return 34).
    Stub,
    /// `status-unwritten`: `cuGetProcAddress_v2` answers as in `normal` but never writes `*status`.
    StatusUnwritten,
    /// `null-success`: `cuGetProcAddress_v2` returns 0, writes status 0 and sets `*pfn` to NULL
    /// (`cuGetProcAddress` returns 0 with `*pfn` NULL), whatever was asked. Requests the real
    /// driver rejects with rc 1 (bad flags, version above the driver) still get rc 1.
    NullSuccess,
    /// `rc=<N>`: `cuGetProcAddress_v2` and `cuGetProcAddress` return N and write nothing.
    Rc(i32),
    /// `version-fails`: `cuDriverGetVersion` returns 3 (`CUDA_ERROR_NOT_INITIALIZED`) and writes
    /// nothing.
    VersionFails,
    /// `no-v2`: `cuGetProcAddress_v2` behaves as if the driver had no such export: calling it
    /// anyway returns 500 (`CUDA_ERROR_NOT_FOUND`) with nothing written (and says so on stderr),
    /// and `cuGetProcAddress("cuGetProcAddress", ..)` never resolves to it. An export cannot be
    /// removed at run time; `cuda-entry-simdriver-11x` is the build that really lacks it.
    NoV2,
}

impl Mode {
    /// Parses a `CUDA_ENTRY_SIM_MODE` value.
    pub fn parse(text: &str) -> Result<Mode, String> {
        let text = text.trim();
        Ok(match text {
            "" | "normal" => Mode::Normal,
            "stub" => Mode::Stub,
            "status-unwritten" => Mode::StatusUnwritten,
            "null-success" => Mode::NullSuccess,
            "version-fails" => Mode::VersionFails,
            "no-v2" => Mode::NoV2,
            _ => match text.strip_prefix("rc=") {
                Some(n) => Mode::Rc(n.trim().parse().map_err(|_| {
                    format!("CUDA_ENTRY_SIM_MODE={text:?}: rc=<N> needs an integer N")
                })?),
                None => {
                    return Err(format!(
                        "CUDA_ENTRY_SIM_MODE={text:?} is not one of normal, stub, status-unwritten, \
                         null-success, rc=<N>, version-fails, no-v2"
                    ));
                }
            },
        })
    }
}

/// The whole configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// What `cuDriverGetVersion` reports; `cuGetProcAddress*` answers rc 1 above it.
    pub version: i32,
    /// The behaviour mode.
    pub mode: Mode,
}

impl Config {
    /// The configuration of this build with nothing set: `crate::DEFAULT_VERSION`, normal mode.
    pub fn default_for_build() -> Config {
        Config {
            version: crate::DEFAULT_VERSION,
            mode: Mode::Normal,
        }
    }

    /// The configuration the two environment values describe (`None`: unset).
    pub fn from_values(version: Option<&str>, mode: Option<&str>) -> Result<Config, String> {
        let mut config = Config::default_for_build();
        if let Some(v) = version {
            config.version = match v.trim().parse::<i32>() {
                Ok(n) if n > 0 => n,
                _ => {
                    return Err(format!(
                        "CUDA_ENTRY_SIM_VERSION={v:?} is not a positive integer such as 13000"
                    ));
                }
            };
        }
        if let Some(m) = mode {
            config.mode = Mode::parse(m)?;
        }
        Ok(config)
    }

    /// The configuration the environment describes.
    pub fn from_env() -> Result<Config, String> {
        let version = std::env::var("CUDA_ENTRY_SIM_VERSION").ok();
        let mode = std::env::var("CUDA_ENTRY_SIM_MODE").ok();
        Config::from_values(version.as_deref(), mode.as_deref())
    }
}

static CONFIG: Mutex<Option<Config>> = Mutex::new(None);

/// The current configuration, reading the environment the first time.
///
/// A malformed variable aborts the process with a message: silently falling back to `normal`
/// would make a test of a misbehaviour mode pass for the wrong reason.
pub fn get() -> Config {
    let mut slot = CONFIG.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(config) = *slot {
        return config;
    }
    match Config::from_env() {
        Ok(config) => {
            *slot = Some(config);
            config
        }
        Err(message) => {
            super::say(format_args!("cuda-entry simulated driver: {message}"));
            std::process::abort();
        }
    }
}

/// Replaces the configuration (in-process; what the environment said is forgotten).
pub fn set_config(config: Config) {
    *CONFIG.lock().unwrap_or_else(|e| e.into_inner()) = Some(config);
}

/// Sets only the reported driver version.
pub fn set_version(version: i32) {
    let mode = get().mode;
    set_config(Config { version, mode });
}

/// Sets only the mode.
pub fn set_mode(mode: Mode) {
    let version = get().version;
    set_config(Config { version, mode });
}

/// Forgets any in-process setting: the next call reads the environment again.
pub fn reset_config() {
    *CONFIG.lock().unwrap_or_else(|e| e.into_inner()) = None;
}
