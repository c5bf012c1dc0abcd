//! Where the driver and the runtime are looked for, as docs/security.md ("No loading from the
//! current directory") states it: a copy of this test runs from folders holding planted libraries
//! (the simulators, under the names the real libraries have), with the current directory and
//! `PATH` pointing at them. Each planted simulator reports [`PLANTED`], a version no real library
//! reports, so the copy's answer shows whether it loaded the planted file: on Linux through
//! `dlopen`'s search, on Windows (under Wine in tests/run-all.sh) through `LoadLibraryExW` with
//! the search flags of core/src/library.rs.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cuda_entry_sim as sim;
use cuda_entry_support::{Driver, SCENARIO_VARIABLE, Scenario, run_scenarios, target_command};

/// The version every planted simulator reports (`CUDA_ENTRY_SIM_VERSION`,
/// `CUDA_ENTRY_SIMRT_VERSION`): CUDA 99.99, the largest `Version`, which no library reports. (It
/// must be a version: a driver reporting anything else is refused, `DriverVersionUnavailable`,
/// and a planted library would then answer an error as a library not loaded does.)
const PLANTED: u32 = 99_990;

/// In a copy of this test: `driver` or `runtime`, the library to load and report on.
const CHILD: &str = "CUDA_ENTRY_TEST_SEARCH_CHILD";

#[cfg(windows)]
const DRIVER_NAME: &str = "nvcuda.dll";
#[cfg(not(windows))]
const DRIVER_NAME: &str = "libcuda.so.1";
#[cfg(windows)]
const RUNTIME_NAME: &str = "cudart64_13.dll";
#[cfg(not(windows))]
const RUNTIME_NAME: &str = "libcudart.so.13";

fn main() -> ExitCode {
    if let Some(code) = child() {
        return code;
    }
    run_scenarios(&[
        Scenario {
            name: "the_driver_is_never_loaded_from_the_application_folder_the_current_directory_or_path",
            driver: Driver::Default,
            env: &[],
            run:
                the_driver_is_never_loaded_from_the_application_folder_the_current_directory_or_path,
        },
        Scenario {
            name: "the_runtime_is_loaded_from_the_application_folder_on_windows_only",
            driver: Driver::Default,
            env: &[],
            run: the_runtime_is_loaded_from_the_application_folder_on_windows_only,
        },
        Scenario {
            name: "the_runtime_is_never_loaded_from_the_current_directory_or_path",
            driver: Driver::Default,
            env: &[],
            run: the_runtime_is_never_loaded_from_the_current_directory_or_path,
        },
        Scenario {
            name: "a_relative_override_is_resolved_against_the_current_directory_on_linux_only",
            driver: Driver::Default,
            env: &[],
            run: a_relative_override_is_resolved_against_the_current_directory_on_linux_only,
        },
    ])
}

/// In a copy of this test: loads the library [`CHILD`] names and prints `version N` or
/// `error <kind>`.
fn child() -> Option<ExitCode> {
    let role = std::env::var(CHILD).ok()?;
    let answer = if role == "driver" {
        cuda_entry::driver_version()
    } else {
        cuda_entry::runtime_version()
    };
    match answer {
        Ok(version) => println!("version {version}"),
        Err(e) => println!("error {}: {e}", e.kind().name()),
    }
    Some(ExitCode::SUCCESS)
}

/// A fresh, empty folder for one scenario.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cuda-entry-search-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// Copies `simulator` into `dir` as `name`.
fn plant(built: Result<PathBuf, sim::Error>, dir: &Path, name: &str) {
    let from = built.unwrap_or_else(|e| panic!("{e}"));
    let to = dir.join(name);
    std::fs::copy(&from, &to)
        .unwrap_or_else(|e| panic!("{} -> {}: {e}", from.display(), to.display()));
}

/// Copies this test into `dir`; returns the copy's path.
fn copy_of_this_test(dir: &Path) -> PathBuf {
    let copy = dir.join(format!("search-copy{}", std::env::consts::EXE_SUFFIX));
    std::fs::copy(std::env::current_exe().expect("current_exe"), &copy)
        .unwrap_or_else(|e| panic!("{}: {e}", copy.display()));
    copy
}

/// Runs `exe` as [`CHILD`] `role` from `cwd`, with `path_first` first in `PATH` and no override
/// (unless `driver_override`); returns its one line.
fn run(
    exe: &Path,
    role: &str,
    cwd: &Path,
    path_first: &Path,
    driver_override: Option<&str>,
) -> String {
    let mut path = OsString::from(path_first);
    if let Some(rest) = std::env::var_os("PATH") {
        path.push(if cfg!(windows) { ";" } else { ":" });
        path.push(rest);
    }
    let mut command = target_command(exe);
    command
        .current_dir(cwd)
        .env(CHILD, role)
        .env("PATH", path)
        .env("CUDA_ENTRY_SIM_VERSION", PLANTED.to_string())
        .env("CUDA_ENTRY_SIMRT_VERSION", PLANTED.to_string())
        .env_remove(SCENARIO_VARIABLE)
        .env_remove(cuda_entry::PATH_VARIABLE)
        .env_remove(cuda_entry::RUNTIME_PATH_VARIABLE)
        .env_remove("LD_LIBRARY_PATH");
    if let Some(value) = driver_override {
        command.env(cuda_entry::PATH_VARIABLE, value);
    }
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", exe.display()));
    let text = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    assert!(out.status.success(), "{}: {out:?}", exe.display());
    text
}

/// Whether the copy's answer is the planted simulator's (a real library, or none, is not).
fn loaded_the_planted_one(answer: &str) -> bool {
    answer == format!("version {PLANTED}")
}

fn the_driver_is_never_loaded_from_the_application_folder_the_current_directory_or_path() {
    let dir = folder("driver");
    plant(sim::Driver::Current.path(), &dir, DRIVER_NAME);
    let exe = copy_of_this_test(&dir);
    let answer = run(&exe, "driver", &dir, &dir, None);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        !loaded_the_planted_one(&answer),
        "the planted {DRIVER_NAME} beside the program, in the current directory and on PATH was \
         loaded: {answer}"
    );
    // Without a real driver, the error names the one library tried, by its name.
    assert!(
        answer.starts_with("version ") || answer.starts_with("error library_not_found"),
        "{answer}"
    );
}

fn the_runtime_is_loaded_from_the_application_folder_on_windows_only() {
    let dir = folder("runtime-app");
    let elsewhere = folder("runtime-app-cwd");
    plant(sim::Runtime::Current.path(), &dir, RUNTIME_NAME);
    let exe = copy_of_this_test(&dir);
    let answer = run(&exe, "runtime", &elsewhere, &elsewhere, None);
    let _ = (
        std::fs::remove_dir_all(&dir),
        std::fs::remove_dir_all(&elsewhere),
    );
    if cfg!(windows) {
        // LOAD_LIBRARY_SEARCH_APPLICATION_DIR: where applications ship cudart64_*.dll.
        assert!(loaded_the_planted_one(&answer), "{answer}");
    } else {
        // dlopen never searches the executable's folder (no $ORIGIN run path here).
        assert!(!loaded_the_planted_one(&answer), "{answer}");
    }
}

fn the_runtime_is_never_loaded_from_the_current_directory_or_path() {
    let app = folder("runtime-cwd-app");
    let dir = folder("runtime-cwd");
    plant(sim::Runtime::Current.path(), &dir, RUNTIME_NAME);
    let exe = copy_of_this_test(&app);
    let answer = run(&exe, "runtime", &dir, &dir, None);
    let _ = (std::fs::remove_dir_all(&app), std::fs::remove_dir_all(&dir));
    assert!(
        !loaded_the_planted_one(&answer),
        "the planted {RUNTIME_NAME} in the current directory and on PATH was loaded: {answer}"
    );
}

/// Linux hands a relative override (`./planted/…`, `./…`) to `dlopen`, which opens it from the
/// current directory; Windows hands it (`planted\…`, `.\…`) to `LoadLibraryExW` with the driver's
/// search flag, which looks for it under System32 (Microsoft's documentation of `LoadLibraryExW`),
/// never under the current directory.
fn a_relative_override_is_resolved_against_the_current_directory_on_linux_only() {
    let dir = folder("relative");
    let planted = dir.join("planted");
    std::fs::create_dir_all(&planted).expect("planted folder");
    plant(sim::Driver::Current.path(), &planted, DRIVER_NAME);
    plant(sim::Driver::Current.path(), &dir, DRIVER_NAME);
    let exe = copy_of_this_test(&dir);
    let relatives: &[String] = if cfg!(windows) {
        &[
            format!("planted\\{DRIVER_NAME}"),
            format!(".\\{DRIVER_NAME}"),
        ]
    } else {
        &[
            format!("./planted/{DRIVER_NAME}"),
            format!("./{DRIVER_NAME}"),
        ]
    };
    let answers: Vec<String> = relatives
        .iter()
        .map(|relative| run(&exe, "driver", &dir, &dir, Some(relative)))
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    for (relative, answer) in relatives.iter().zip(&answers) {
        if cfg!(windows) {
            assert!(
                answer.starts_with("error library_not_found") && answer.contains(relative.as_str()),
                "{relative}: {answer}"
            );
        } else {
            assert!(loaded_the_planted_one(answer), "{relative}: {answer}");
        }
    }
}
