//! The kit as a user's tests use it: `install`, the configuration from code and from the
//! environment, the call records, the unsupported functions, and `in_child` (which every test here
//! uses: a process loads one driver, and these tests need several).

use std::process::Command;

use cuda_entry::types::{CUdeviceptr, CUresult};
use cuda_entry::{ErrorKind, cuda_entry};
use cuda_entry_sim::{Config, Error, Mode, in_child};

/// `PFN_cuMemAlloc_v3020`.
#[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
unsafe extern "C" fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;

/// `PFN_cuCtxCreate_v12050`, with its `CUctxCreateParams *` taken as `*mut c_void`.
#[cuda_entry(symbol = "cuCtxCreate", version = 12050)]
unsafe extern "C" fn ctx_create(
    pctx: *mut cuda_entry::types::CUcontext,
    params: *mut std::ffi::c_void,
    flags: u32,
    dev: cuda_entry::types::CUdevice,
) -> CUresult;

/// `PFN_cuMemsetD2D32_v3020`: a function the simulator does not implement.
#[cuda_entry(symbol = "cuMemsetD2D32", version = 3020)]
unsafe extern "C" fn memset_d2d32(
    dst: CUdeviceptr,
    pitch: usize,
    value: u32,
    width: usize,
    height: usize,
) -> CUresult;

#[test]
fn install_points_cuda_entry_at_the_simulator_and_the_records_follow() {
    in_child(&Config::new(), || {
        // in_child installed the configuration; install() with the same one answers the same.
        let path = cuda_entry_sim::install().expect("installed");
        // On Linux the copy of the build for its version (13000), elsewhere the build itself.
        let expected = if cfg!(all(unix, not(target_vendor = "apple"))) {
            "cuda-entry-sim/cuda_entry_simdriver-13000/libcuda.so.1".to_owned()
        } else {
            format!(
                "{}cuda_entry_simdriver{}",
                std::env::consts::DLL_PREFIX,
                std::env::consts::DLL_SUFFIX
            )
        };
        assert!(path.ends_with(&expected), "{}", path.display());
        assert_eq!(Config::new().driver_path().ok(), Some(path.clone()));
        assert_eq!(
            std::env::var_os(cuda_entry::PATH_VARIABLE).as_deref(),
            Some(path.as_os_str())
        );
        let info = cuda_entry::driver_info().expect("the simulated driver loads");
        assert_eq!(info.path, path.to_string_lossy());
        assert_eq!(info.version, 13000);
        cuda_entry_sim::reset();
        assert!(mem_alloc::pointer().is_ok());
        assert_eq!(cuda_entry_sim::calls("cuGetProcAddress_v2"), 1);
        assert_eq!(cuda_entry_sim::last_call(), "cuGetProcAddress_v2");
        let recorded = cuda_entry_sim::recorded();
        assert_eq!(recorded.len(), 1, "{recorded:?}");
        assert_eq!(recorded[0].name, "cuGetProcAddress_v2");
        assert!(recorded[0].implemented);
        // The pointer is the 3.2 ABI's export, as on the real driver.
        let driver = cuda_entry_sim::driver().expect("installed");
        assert_eq!(driver.implements("cuMemAlloc_v2"), Some(true));
        // Calling it before cuInit answers as the driver does (3, not initialised), recorded.
        let mut dptr: CUdeviceptr = 0;
        // SAFETY: a valid out-pointer.
        let status = unsafe { mem_alloc(&mut dptr, 16) }.expect_err("the driver's status");
        assert_eq!(
            status.driver_status(),
            Some(CUresult::ERROR_NOT_INITIALIZED.0)
        );
        assert_eq!(cuda_entry_sim::last_call(), "cuMemAlloc_v2");
        assert_eq!(cuda_entry_sim::calls("cuMemAlloc_v2"), 1);
        assert!(cuda_entry_sim::unsupported_calls().is_empty());
    });
}

#[test]
fn a_second_configuration_in_one_process_is_refused() {
    in_child(&Config::new(), || {
        let error = cuda_entry_sim::install_with(&Config::new().version(12040))
            .expect_err("one configuration per process");
        assert!(matches!(error, Error::AlreadyInstalled { .. }), "{error:?}");
        let message = error.to_string();
        assert!(message.contains("needs a process of its own"), "{message}");
        assert!(message.contains("cuda_entry_sim::in_child"), "{message}");
    });
}

#[test]
fn each_child_has_the_driver_version_it_was_given() {
    in_child(&Config::new().version(12040), || {
        assert_eq!(cuda_entry::driver_version().expect("loads"), 12040);
        let error = ctx_create::pointer().expect_err("12050 is newer than the driver");
        assert!(
            matches!(error.kind(), ErrorKind::DriverTooOld),
            "{:?}",
            error.kind()
        );
        // A too-new version never reaches the driver.
        assert_eq!(cuda_entry_sim::calls("cuGetProcAddress_v2"), 0);
    });
    in_child(&Config::new().version(13000), || {
        assert_eq!(cuda_entry::driver_version().expect("loads"), 13000);
        assert!(ctx_create::pointer().is_ok());
        assert_eq!(cuda_entry_sim::calls("cuGetProcAddress_v2"), 1);
    });
}

#[test]
fn a_fault_mode_reaches_its_error_path() {
    in_child(&Config::new().mode(Mode::Stub), || {
        let error = cuda_entry::driver_info().expect_err("the stub library");
        assert!(
            matches!(error.kind(), ErrorKind::StubLibrary { .. }),
            "{:?}",
            error.kind()
        );
    });
    in_child(&Config::new().mode(Mode::Rc(999)), || {
        let error = mem_alloc::pointer().expect_err("the driver answers 999");
        assert!(
            matches!(error.kind(), ErrorKind::DriverError { code: 999, .. }),
            "{:?}",
            error.kind()
        );
    });
}

#[test]
fn an_unimplemented_function_resolves_and_answers_not_supported_by_name() {
    in_child(&Config::new(), || {
        // The real driver hands out cuMemsetD2D32_v2 for version 3020: so does the simulator, and
        // `cuda-entry check --simulated` agrees with a real driver about it.
        let driver = cuda_entry_sim::driver().expect("installed");
        assert_eq!(driver.implements("cuMemsetD2D32_v2"), Some(false));
        assert_eq!(driver.implements("cuFoo"), None);
        // SAFETY: the stub reads no argument.
        let status = unsafe { memset_d2d32(0x1000_0000, 16, 7, 4, 1) }.expect_err("not supported");
        assert_eq!(
            status.driver_status(),
            Some(CUresult::ERROR_NOT_SUPPORTED.0)
        );
        let unsupported = cuda_entry_sim::unsupported_calls();
        assert_eq!(unsupported.len(), 1, "{unsupported:?}");
        assert_eq!(unsupported[0].name, "cuMemsetD2D32_v2");
        assert_eq!(unsupported[0].count, 1);
        assert!(!unsupported[0].implemented);
    });
}

#[test]
fn a_failing_body_fails_the_calling_test_with_its_output() {
    let outcome = std::panic::catch_unwind(|| {
        in_child(&Config::new(), || {
            println!("the body's own output");
            panic!("the body failed");
        });
    });
    let message = outcome.expect_err("the parent fails too");
    let message = message
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(
        message.contains("a_failing_body_fails_the_calling_test_with_its_output#0"),
        "{message}"
    );
    assert!(message.contains("failed (exit status"), "{message}");
}

/// The variable that gives a test below its child role (the parent role is the plain run).
const CHILD: &str = "CUDA_ENTRY_SIM_KIT_TEST_CHILD";

/// Runs `test` of this binary again as a child with `env` (and no driver variable), and checks
/// that it passed and printed each of `expected`: the child really ran its part.
fn run_child(test: &str, env: &[(&str, &str)], expected: &[&str]) {
    let out = Command::new(std::env::current_exe().expect("the test binary"))
        .args([test, "--exact", "--nocapture"])
        .env(CHILD, "1")
        .envs(env.iter().copied())
        .env_remove(cuda_entry::PATH_VARIABLE)
        .output()
        .expect("run the child");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    for line in expected {
        assert!(
            stdout.contains(line),
            "expected {line:?} in:\n{stdout}{stderr}"
        );
    }
}

fn in_hand_made_child() -> bool {
    std::env::var_os(CHILD).is_some()
}

#[test]
fn the_environment_configures_what_the_code_leaves_unset() {
    if in_hand_made_child() {
        cuda_entry_sim::install().expect("installed");
        assert_eq!(cuda_entry::driver_version().expect("loads"), 11080);
        println!("configured by the environment: ok");
        return;
    }
    run_child(
        "the_environment_configures_what_the_code_leaves_unset",
        &[("CUDA_ENTRY_SIM_VERSION", "11080")],
        &["configured by the environment: ok"],
    );
}

#[test]
fn installing_after_a_resolution_says_it_is_too_late() {
    if in_hand_made_child() {
        // Whatever this machine's driver is (none on CI), cuda-entry has now tried to load it.
        let _ = mem_alloc::pointer();
        let error = cuda_entry_sim::install().expect_err("too late");
        assert!(
            matches!(
                error,
                Error::TooLate {
                    variable: "CUDA_ENTRY_DRIVER_PATH"
                }
            ),
            "{error:?}"
        );
        println!("{error}");
        return;
    }
    run_child(
        "installing_after_a_resolution_says_it_is_too_late",
        &[],
        &[
            "cuda-entry has already loaded its library in this process, so setting \
           CUDA_ENTRY_DRIVER_PATH now has no effect: call cuda_entry_sim::install() before the \
           first resolution, or run the test in a child process (cuda_entry_sim::in_child)",
        ],
    );
}

#[test]
fn a_malformed_variable_is_an_error_unless_the_code_sets_the_value() {
    if in_hand_made_child() {
        let error = cuda_entry_sim::install().expect_err("malformed");
        assert!(matches!(error, Error::Configuration { .. }), "{error:?}");
        println!("{error}");
        // The code's own value wins over the variable.
        assert!(cuda_entry_sim::install_with(&Config::new().mode(Mode::Normal)).is_ok());
        println!("the code's value: ok");
        return;
    }
    run_child(
        "a_malformed_variable_is_an_error_unless_the_code_sets_the_value",
        &[("CUDA_ENTRY_SIM_MODE", "stubb")],
        &[
            "refused its configuration: CUDA_ENTRY_SIM_MODE=\"stubb\" is not one of",
            "the code's value: ok",
        ],
    );
}

#[test]
fn a_malformed_injection_is_an_error_from_the_variable_or_the_code() {
    if in_hand_made_child() {
        let error = cuda_entry_sim::install().expect_err("malformed");
        assert!(matches!(error, Error::Configuration { .. }), "{error:?}");
        println!("{error}");
        // The code's own injections win over the variable; a malformed one is refused too.
        let bad = Config::new().inject("cu Mem", 2, cuda_entry_sim::When::Call(0));
        let error = cuda_entry_sim::install_with(&bad).expect_err("malformed");
        println!("{error}");
        return;
    }
    run_child(
        "a_malformed_injection_is_an_error_from_the_variable_or_the_code",
        &[("CUDA_ENTRY_SIM_STATUS", "cuMemAlloc=two")],
        &[
            "CUDA_ENTRY_SIM_STATUS: \"cuMemAlloc=two\": the status is not an integer",
            "CUDA_ENTRY_SIM_STATUS: \"cu Mem=2@0\": the name is not a function's",
        ],
    );
}

#[test]
fn apply_to_sets_the_library_and_the_values_given() {
    let mut command = Command::new("true");
    Config::new()
        .version(12040)
        .mode(Mode::NoV2)
        .inject("cuMemAlloc", 2, cuda_entry_sim::When::Call(1))
        .pending_queries(3)
        .apply_to(&mut command)
        .expect("the main driver is built");
    let envs: Vec<(String, Option<String>)> = command
        .get_envs()
        .map(|(k, v)| {
            (
                k.to_string_lossy().into_owned(),
                v.map(|v| v.to_string_lossy().into_owned()),
            )
        })
        .collect();
    let value = |name: &str| envs.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    let expected = if cfg!(all(unix, not(target_vendor = "apple"))) {
        "cuda-entry-sim/cuda_entry_simdriver-12040/libcuda.so.1".to_owned()
    } else {
        format!("cuda_entry_simdriver{}", std::env::consts::DLL_SUFFIX)
    };
    assert!(
        value("CUDA_ENTRY_DRIVER_PATH")
            .flatten()
            .is_some_and(|p| p.ends_with(&expected)),
        "{envs:?}"
    );
    assert_eq!(
        value("CUDA_ENTRY_SIM_VERSION"),
        Some(Some("12040".to_owned()))
    );
    assert_eq!(value("CUDA_ENTRY_SIM_MODE"), Some(Some("no-v2".to_owned())));
    assert_eq!(
        value("CUDA_ENTRY_SIM_STATUS"),
        Some(Some("cuMemAlloc=2@1".to_owned()))
    );
    assert_eq!(value("CUDA_ENTRY_SIM_PENDING"), Some(Some("3".to_owned())));
    // No runtime named: the runtime variable is removed, not inherited.
    assert_eq!(value("CUDA_ENTRY_RUNTIME_PATH"), Some(None));
}

#[test]
fn a_harness_of_its_own_opens_the_same_library_and_compares_addresses() {
    in_child(&Config::new(), || {
        // The library of this configuration (the one installed), not the build itself.
        let path = Config::new().driver_path().expect("built");
        let opened = cuda_entry_sim::Simulator::open(&path).expect("a simulator");
        let resolved = mem_alloc::ENTRY.resolve().expect("resolved");
        assert_eq!(opened.address("cuMemAlloc_v2"), Some(resolved.as_ptr()));
        assert_ne!(opened.address("cuMemAlloc"), Some(resolved.as_ptr()));
        assert_eq!(opened.address("cuFoo"), None);
        // The same library as the installed one: one set of records.
        assert_eq!(opened.calls("cuGetProcAddress_v2"), 1);
        assert_eq!(cuda_entry_sim::calls("cuGetProcAddress_v2"), 1);
        let error = cuda_entry_sim::Simulator::open(path.with_file_name("no-such-library.so"))
            .expect_err("missing");
        assert!(matches!(error, Error::Open { .. }), "{error:?}");
    });
}

/// The kit spells each mode; the simulator parses it (one parser, the simulator's): every mode the
/// kit can name is one the simulator accepts, or the child's `install_with` fails.
#[test]
fn every_mode_the_kit_names_is_one_the_simulator_accepts() {
    for mode in [
        Mode::Normal,
        Mode::Stub,
        Mode::StatusUnwritten,
        Mode::NullSuccess,
        Mode::Rc(999),
        Mode::VersionFails,
        Mode::NoV2,
    ] {
        in_child(&Config::new().mode(mode), || {
            assert!(cuda_entry_sim::driver().is_some());
        });
    }
}
