//! Shared by the command's tests: running `cuda-entry` as a process, against the simulated driver.
#![allow(dead_code, reason = "each test file uses a part")]

pub(crate) mod binary;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Every variable that changes which driver the command loads or how the simulator answers.
const DRIVER_VARIABLES: &[&str] = &[
    "CUDA_ENTRY_DRIVER_PATH",
    "CUDA_ENTRY_RUNTIME_PATH",
    "CUDA_ENTRY_SIM_VERSION",
    "CUDA_ENTRY_SIM_MODE",
    "CUDA_ENTRY_CLI_SIMULATED",
];

/// The command, with none of the driver variables of the test's own environment.
pub(crate) fn cuda_entry() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cuda-entry"));
    for variable in DRIVER_VARIABLES {
        command.env_remove(variable);
    }
    command
}

/// The simulated driver: built as a dev-dependency, so it sits in the `deps/` folder this test
/// executable runs from.
pub(crate) fn simdriver() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    let deps = exe.parent().expect("the test executable's folder");
    let file = format!(
        "{}cuda_entry_simdriver{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    let path = deps.join(file);
    assert!(path.is_file(), "{} is not built", path.display());
    path
}

/// The command against the simulated driver reporting `version` (its default 13000 for `None`).
pub(crate) fn simulated(version: Option<u32>) -> Command {
    let mut command = cuda_entry();
    command.env("CUDA_ENTRY_DRIVER_PATH", simdriver());
    if let Some(version) = version {
        command.env("CUDA_ENTRY_SIM_VERSION", version.to_string());
    }
    command
}

/// What a run printed and returned.
#[derive(Debug)]
pub(crate) struct Output {
    pub(crate) status: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

/// Runs `command` with `args` to the end.
pub(crate) fn run(mut command: Command, args: &[&str]) -> Output {
    let out = command.args(args).output().expect("cuda-entry runs");
    Output {
        status: out.status.code().expect("exited, not killed"),
        stdout: String::from_utf8(out.stdout).expect("UTF-8 stdout"),
        stderr: String::from_utf8(out.stderr).expect("UTF-8 stderr"),
    }
}

/// Parses stdout as the one JSON document `--json` prints.
pub(crate) fn json(out: &Output) -> serde_json::Value {
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", out.stdout))
}

/// `core/cli/tests/fixtures`.
pub(crate) fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("fixtures")
}

/// A fresh, empty folder for one test under Cargo's temporary folder.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cuda-entry-cli")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch folder");
    dir
}
