//! The simulated runtime's own configuration: the version `cudaRuntimeGetVersion` reports and the
//! fault-injection mode of its entry-point exports.
//!
//! Read from the environment once, at the first runtime export call that needs it
//! (`CUDA_ENTRY_SIMRT_VERSION`, `CUDA_ENTRY_SIMRT_MODE`; see tests/simruntime/README.md), and
//! settable in-process through [`set_runtime_config`] for the simulator's own tests. The embedded
//! driver keeps its own configuration (`CUDA_ENTRY_SIM_VERSION`, `CUDA_ENTRY_SIM_MODE`, read by
//! `shared::config`).

use std::sync::Mutex;

/// How the simulated runtime's `cudaGetDriverEntryPoint*` exports behave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuntimeMode {
    /// `normal`: answer as libcudart.so.13 did, i.e. as the driver's `cuGetProcAddress_v2`.
    Normal,
    /// `unwritten-status`: answer as in `normal` (set `*funcPtr`, return 0 where `normal` does)
    /// but never write `*driverStatus`.
    UnwrittenStatus,
    /// `null-success`: return 0, write status 0 (`cudaDriverEntryPointSuccess`) and set
    /// `*funcPtr` to NULL, whatever was asked. Requests the driver rejects with 1 (bad flags,
    /// version above the driver) still get 1.
    NullSuccess,
    /// `rc=<N>`: return N and write nothing.
    Rc(i32),
}

impl RuntimeMode {
    /// Parses a `CUDA_ENTRY_SIMRT_MODE` value.
    pub fn parse(text: &str) -> Result<RuntimeMode, String> {
        let text = text.trim();
        Ok(match text {
            "" | "normal" => RuntimeMode::Normal,
            "unwritten-status" => RuntimeMode::UnwrittenStatus,
            "null-success" => RuntimeMode::NullSuccess,
            _ => match text.strip_prefix("rc=") {
                Some(n) => RuntimeMode::Rc(n.trim().parse().map_err(|_| {
                    format!("CUDA_ENTRY_SIMRT_MODE={text:?}: rc=<N> needs an integer N")
                })?),
                None => {
                    return Err(format!(
                        "CUDA_ENTRY_SIMRT_MODE={text:?} is not one of normal, unwritten-status, \
                         null-success, rc=<N>"
                    ));
                }
            },
        })
    }
}

/// The runtime's whole configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuntimeConfig {
    /// What `cudaRuntimeGetVersion` reports (and the version the unversioned
    /// `cudaGetDriverEntryPoint` resolves at).
    pub version: i32,
    /// The behaviour mode of the entry-point exports.
    pub mode: RuntimeMode,
}

impl RuntimeConfig {
    /// The configuration of this build with nothing set: `crate::DEFAULT_RUNTIME_VERSION`,
    /// normal mode.
    pub fn default_for_build() -> RuntimeConfig {
        RuntimeConfig {
            version: crate::DEFAULT_RUNTIME_VERSION,
            mode: RuntimeMode::Normal,
        }
    }

    /// The configuration the two environment values describe (`None`: unset).
    pub fn from_values(version: Option<&str>, mode: Option<&str>) -> Result<RuntimeConfig, String> {
        let mut config = RuntimeConfig::default_for_build();
        if let Some(v) = version {
            config.version = match v.trim().parse::<i32>() {
                Ok(n) if n > 0 => n,
                _ => {
                    return Err(format!(
                        "CUDA_ENTRY_SIMRT_VERSION={v:?} is not a positive integer such as 13000"
                    ));
                }
            };
        }
        if let Some(m) = mode {
            config.mode = RuntimeMode::parse(m)?;
        }
        Ok(config)
    }

    /// The configuration the environment describes.
    pub fn from_env() -> Result<RuntimeConfig, String> {
        let version = std::env::var("CUDA_ENTRY_SIMRT_VERSION").ok();
        let mode = std::env::var("CUDA_ENTRY_SIMRT_MODE").ok();
        RuntimeConfig::from_values(version.as_deref(), mode.as_deref())
    }
}

static CONFIG: Mutex<Option<RuntimeConfig>> = Mutex::new(None);

/// The current runtime configuration, reading the environment the first time.
///
/// A malformed variable aborts the process with a message: silently falling back to `normal`
/// would make a test of a misbehaviour mode pass for the wrong reason.
pub fn get() -> RuntimeConfig {
    let mut slot = CONFIG.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(config) = *slot {
        return config;
    }
    match RuntimeConfig::from_env() {
        Ok(config) => {
            *slot = Some(config);
            config
        }
        Err(message) => {
            crate::shared::say(format_args!("cuda-entry simulated runtime: {message}"));
            std::process::abort();
        }
    }
}

/// Replaces the runtime configuration (in-process; what the environment said is forgotten).
pub fn set_runtime_config(config: RuntimeConfig) {
    *CONFIG.lock().unwrap_or_else(|e| e.into_inner()) = Some(config);
}

/// Sets only the reported runtime version.
pub fn set_runtime_version(version: i32) {
    let mode = get().mode;
    set_runtime_config(RuntimeConfig { version, mode });
}

/// Sets only the runtime mode.
pub fn set_runtime_mode(mode: RuntimeMode) {
    let version = get().version;
    set_runtime_config(RuntimeConfig { version, mode });
}

/// Forgets any in-process runtime setting: the next call reads the environment again.
pub fn reset_runtime_config() {
    *CONFIG.lock().unwrap_or_else(|e| e.into_inner()) = None;
}
