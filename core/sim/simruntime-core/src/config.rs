//! The simulated runtime's own configuration: the version `cudaRuntimeGetVersion` reports and the
//! fault-injection mode of its entry-point exports.
//!
//! `CUDA_ENTRY_SIMRT_VERSION` and `CUDA_ENTRY_SIMRT_MODE` (see core/sim/simruntime/README.md), read
//! and set by the driver simulator's configuration mechanism (`shared::config`); this module only
//! says what the runtime's modes are. The embedded driver keeps its own configuration
//! (`CUDA_ENTRY_SIM_VERSION`, `CUDA_ENTRY_SIM_MODE`).

use std::ffi::{c_char, c_int};
use std::sync::Mutex;

use cuda_entry_simdriver_core::config::{Modes, Settings};

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

/// The runtime's whole configuration: `version` is what `cudaRuntimeGetVersion` reports (and the
/// version the unversioned `cudaGetDriverEntryPoint` resolves at).
pub type RuntimeConfig = Settings<RuntimeMode>;

static CONFIG: Mutex<Option<RuntimeConfig>> = Mutex::new(None);

impl Modes for RuntimeMode {
    const VERSION_VARIABLE: &'static str = "CUDA_ENTRY_SIMRT_VERSION";
    const MODE_VARIABLE: &'static str = "CUDA_ENTRY_SIMRT_MODE";
    const SPEAKER: &'static str = "cuda-entry simulated runtime";
    const NAMED: &'static [(&'static str, RuntimeMode)] = &[
        ("normal", RuntimeMode::Normal),
        ("unwritten-status", RuntimeMode::UnwrittenStatus),
        ("null-success", RuntimeMode::NullSuccess),
    ];

    fn rc(code: i32) -> RuntimeMode {
        RuntimeMode::Rc(code)
    }

    fn default_version() -> i32 {
        super::runtime_build().default_version
    }

    fn slot() -> &'static Mutex<Option<RuntimeConfig>> {
        &CONFIG
    }
}

/// The current runtime configuration, reading the environment the first time.
pub fn get() -> RuntimeConfig {
    RuntimeConfig::current()
}

/// Replaces the runtime configuration (in-process; what the environment said is forgotten).
pub fn set_runtime_config(config: RuntimeConfig) {
    config.install();
}

/// Sets only the reported runtime version.
pub fn set_runtime_version(version: i32) {
    RuntimeConfig { version, ..get() }.install();
}

/// Sets only the runtime mode.
pub fn set_runtime_mode(mode: RuntimeMode) {
    RuntimeConfig { mode, ..get() }.install();
}

/// Forgets any in-process runtime setting: the next call reads the environment again.
pub fn reset_runtime_config() {
    RuntimeConfig::forget();
}

/// `const char *cuda_entry_simrt_configure(int version, const char *mode)`: sets the runtime's own
/// configuration in-process, as `cuda_entry_sim_configure` does the embedded driver's: `version`
/// 0 and `mode` NULL mean "as `CUDA_ENTRY_SIMRT_VERSION` / `CUDA_ENTRY_SIMRT_MODE` say". Returns
/// NULL, or a message (static) when a value is malformed, nothing changed.
///
/// # Safety
/// `mode` must be NULL or a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuda_entry_simrt_configure(
    version: c_int,
    mode: *const c_char,
) -> *const c_char {
    // SAFETY: the caller's promise, forwarded.
    unsafe { RuntimeConfig::configure_from_c(version, mode) }
}
