//! Starting a program built for the target under test (this test executable again, an example,
//! `cuda-entry`): directly, or through the emulator that runs the target's programs on this
//! machine. Cargo's runner (`CARGO_TARGET_<TRIPLE>_RUNNER`) starts the test executables only; a
//! program they start in turn is the kernel's to run, and without `binfmt_misc` the kernel runs
//! no aarch64 program on an x86_64 machine. So the tests start every such program here, through
//! the emulator [`EMULATOR_VARIABLE`] names when it is set (tests/run-all.sh sets it for the
//! aarch64 run under qemu-user, to the same command as Cargo's runner).
//!
//! Under Wine nothing is needed: a Windows program's child is a Windows program, and Wine runs it.

use std::ffi::OsStr;
use std::process::Command;

/// The environment variable naming the emulator that runs the target's programs on this machine,
/// with its arguments, split on whitespace as Cargo splits a runner
/// (`qemu-aarch64 -L /usr/aarch64-linux-gnu`). Unset or empty: programs run directly. Children
/// inherit it, so a program started through the emulator starts its own children through it too.
pub const EMULATOR_VARIABLE: &str = "CUDA_ENTRY_TEST_EMULATOR";

/// A command that runs `program`, a program built for the target under test: through the
/// emulator of [`EMULATOR_VARIABLE`] when one is set, else directly.
pub fn target_command(program: impl AsRef<OsStr>) -> Command {
    command_through(std::env::var(EMULATOR_VARIABLE).ok().as_deref(), program)
}

/// [`target_command`] with the variable's value given.
fn command_through(emulator: Option<&str>, program: impl AsRef<OsStr>) -> Command {
    let mut words = emulator.unwrap_or_default().split_whitespace();
    match words.next() {
        Some(emulator) => {
            let mut command = Command::new(emulator);
            command.args(words).arg(program);
            command
        }
        None => Command::new(program),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(command: &Command) -> Vec<String> {
        std::iter::once(command.get_program())
            .chain(command.get_args())
            .map(|w| w.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn without_an_emulator_the_program_runs_itself() {
        for unset in [None, Some(""), Some("  ")] {
            assert_eq!(words(&command_through(unset, "app")), ["app"], "{unset:?}");
        }
    }

    #[test]
    fn the_emulator_and_its_arguments_come_first() {
        let command = command_through(Some("qemu-aarch64  -L /usr/aarch64-linux-gnu "), "/t/app");
        assert_eq!(
            words(&command),
            ["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu", "/t/app"]
        );
    }
}
