//! A simulated driver of version V is a driver of version V: on ELF platforms its exports are the
//! ones a real driver of that version has (looked up by name, as cudarc does), cuda-entry still
//! resolves through it, and a child finds it by name on its library search path.

#![cfg(all(unix, not(target_vendor = "apple")))]

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use cuda_entry::cuda_entry;
use cuda_entry::types::{CUdeviceptr, CUresult};
use cuda_entry_sim::{Config, in_child};

/// `PFN_cuMemAlloc_v3020`.
#[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
unsafe extern "C" fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult;

/// The first version of every export the simulator's table names.
fn first_versions() -> HashMap<&'static str, i32> {
    let mut first: HashMap<&'static str, i32> = HashMap::new();
    for symbol in cuda_entry_simdriver_core::table::SYMBOLS {
        for variant in symbol.variants {
            let version = first.entry(variant.export).or_insert(variant.version);
            *version = (*version).min(variant.version);
        }
    }
    first
}

/// Whether the library at `path` (or found by that name) exports `name` to `dlsym`.
fn exports(library: &libloading::Library, name: &str) -> bool {
    // SAFETY: only the address is read.
    unsafe { library.get::<*mut std::ffi::c_void>(name.as_bytes()) }.is_ok()
}

fn open(path: impl AsRef<std::ffi::OsStr>) -> libloading::Library {
    let path = path.as_ref();
    // SAFETY: the simulator's initialisers only register its build.
    unsafe { libloading::Library::new(path) }
        .unwrap_or_else(|e| panic!("open {}: {e}", path.display()))
}

/// Checks, in a child running `version`, that the installed driver exports exactly what the
/// table dates at or before it, naming `present` and `absent` too.
fn exports_of(version: i32, present: &[&str], absent: &[&str]) {
    let config = Config::new().version(u32::try_from(version).expect("positive"));
    let present = present.to_vec();
    let absent = absent.to_vec();
    in_child(&config, move || {
        let driver = cuda_entry_sim::driver().expect("installed");
        let library = open(driver.path());
        for name in &present {
            assert!(exports(&library, name), "{version}: {name} is missing");
        }
        for name in &absent {
            assert!(!exports(&library, name), "{version}: {name} is exported");
        }
        for (name, first) in first_versions() {
            assert_eq!(
                exports(&library, name),
                first <= version,
                "{version}: {name} (first in {first})"
            );
        }
        // What is not in the table stays: the instrumentation, and the real driver's exports
        // that cuGetProcAddress does not hand out.
        assert!(exports(&library, "cuda_entry_sim_calls"));
        assert!(exports(&library, "cudbgGetAPI"));
    });
}

#[test]
fn a_12_2_driver_has_cu_ctx_create_v3_and_not_v4() {
    exports_of(
        12020,
        &[
            "cuCtxCreate_v3",
            "cuGetProcAddress_v2",
            "cuGetProcAddress",
            "cuInit",
        ],
        &["cuCtxCreate_v4"],
    );
}

#[test]
fn an_11_8_driver_has_the_4_argument_get_proc_address_only() {
    exports_of(11080, &["cuGetProcAddress"], &["cuGetProcAddress_v2"]);
}

#[test]
fn an_11_2_driver_has_no_get_proc_address() {
    exports_of(11020, &[], &["cuGetProcAddress", "cuGetProcAddress_v2"]);
}

#[test]
fn a_13_0_driver_has_every_export_of_the_table() {
    exports_of(13000, &["cuCtxCreate_v4", "cuGetProcAddress_v2"], &[]);
}

#[test]
fn cuda_entry_resolves_through_each_versions_driver() {
    in_child(&Config::new().version(12020), || {
        assert_eq!(cuda_entry::driver_version().expect("loads"), 12020);
        assert!(mem_alloc::pointer().is_ok());
        assert_eq!(cuda_entry_sim::calls("cuGetProcAddress_v2"), 1);
        assert_eq!(cuda_entry_sim::last_call(), "cuGetProcAddress_v2");
        // The pointer is the copy's export.
        let resolved = mem_alloc::ENTRY.resolve().expect("resolved");
        let driver = cuda_entry_sim::driver().expect("installed");
        assert_eq!(driver.address("cuMemAlloc_v2"), Some(resolved.as_ptr()));
        // And calling it works (3: not initialised, as the driver answers before cuInit).
        let mut dptr: CUdeviceptr = 0;
        // SAFETY: a valid out-pointer.
        let status = unsafe { mem_alloc(&mut dptr, 16) }.expect_err("the driver's status");
        assert_eq!(
            status.driver_status(),
            Some(CUresult::ERROR_NOT_INITIALIZED.0)
        );
        assert_eq!(cuda_entry_sim::calls("cuMemAlloc_v2"), 1);
    });
    // 11.8: no cuGetProcAddress_v2 to find, so cuda-entry takes the 4-argument query.
    in_child(&Config::new().version(11080), || {
        assert_eq!(cuda_entry::driver_version().expect("loads"), 11080);
        assert!(mem_alloc::pointer().is_ok());
        assert_eq!(cuda_entry_sim::calls("cuGetProcAddress"), 1);
        assert_eq!(cuda_entry_sim::calls("cuGetProcAddress_v2"), 0);
    });
    // 11.2: no cuGetProcAddress of either kind: cuda-entry finds the export of the typedef by
    // name, as a program linked against that driver does.
    in_child(&Config::new().version(11020), || {
        let info = cuda_entry::driver_info().expect("loads");
        assert_eq!(info.bootstrap, cuda_entry::Bootstrap::ExportName);
        let resolved = mem_alloc::ENTRY.resolve().expect("resolved by name");
        let driver = cuda_entry_sim::driver().expect("installed");
        assert_eq!(driver.address("cuMemAlloc_v2"), Some(resolved.as_ptr()));
        assert_eq!(cuda_entry_sim::calls("cuGetProcAddress"), 0);
        assert_eq!(cuda_entry_sim::calls("cuGetProcAddress_v2"), 0);
    });
}

#[test]
fn the_hidden_exports_are_still_the_drivers_own() {
    // The library loaded, so the loader resolved its relocations against the hidden symbols (its
    // tables of function pointers) to itself; its cuGetProcAddress_v2 hands out its own exports.
    in_child(&Config::new().version(12020), || {
        type GetProcAddress = unsafe extern "C" fn(
            *const std::ffi::c_char,
            *mut *mut std::ffi::c_void,
            i32,
            u64,
            *mut i32,
        ) -> i32;
        let driver = cuda_entry_sim::driver().expect("installed");
        let library = open(driver.path());
        // SAFETY: cuGetProcAddress_v2's C type.
        let get = unsafe { library.get::<GetProcAddress>(b"cuGetProcAddress_v2") }.expect("12.0+");
        let mut pointer = std::ptr::null_mut();
        let mut status = -1;
        // SAFETY: valid out-pointers, a NUL-terminated name.
        let rc = unsafe { get(c"cuCtxCreate".as_ptr(), &mut pointer, 12020, 0, &mut status) };
        assert_eq!((rc, status), (0, 0));
        assert_eq!(Some(pointer), driver.address("cuCtxCreate_v3"));
        // The simulator still knows its hidden cuCtxCreate_v4 (through its own pointer to it).
        assert_eq!(driver.address("cuCtxCreate_v4"), None);
        assert_eq!(driver.implements("cuCtxCreate_v4"), Some(true));
    });
}

#[test]
fn a_child_finds_the_driver_of_its_version_by_name() {
    in_child(&Config::new().version(12020), || {
        let driver = cuda_entry_sim::driver().expect("installed");
        let folder = driver.path().parent().expect("its folder");
        assert!(folder.ends_with("cuda-entry-sim/cuda_entry_simdriver-12020"));
        let search = std::env::var_os("LD_LIBRARY_PATH").expect("set by apply_to");
        let first = std::env::split_paths(&search).next().expect("an entry");
        assert_eq!(first, folder);
        // cudarc's way: dlopen by name, through the search path.
        for name in ["libcuda.so", "libcuda.so.1"] {
            let library = open(name);
            assert!(exports(&library, "cuCtxCreate_v3"), "{name}");
            assert!(!exports(&library, "cuCtxCreate_v4"), "{name}");
            // The same library as cuda-entry's: one set of records.
            // SAFETY: only the address is read.
            let init = unsafe { library.get::<*mut std::ffi::c_void>(b"cuInit") }.expect("cuInit");
            assert_eq!(Some(*init), driver.address("cuInit"), "{name}");
        }
    });
}

#[test]
fn apply_to_puts_the_folder_first_on_the_childs_search_path() {
    let config = Config::new().version(12020);
    let folder = config
        .driver_dir()
        .expect("written")
        .expect("an ELF platform");
    assert!(folder.ends_with("cuda-entry-sim/cuda_entry_simdriver-12020"));
    assert_eq!(
        config.driver_path().expect("written"),
        folder.join("libcuda.so.1")
    );
    let value = |command: &Command, name: &str| {
        command
            .get_envs()
            .find(|(k, _)| *k == name)
            .and_then(|(_, v)| v.map(|v| v.to_string_lossy().into_owned()))
    };
    let mut command = Command::new("true");
    command.env("LD_LIBRARY_PATH", "/opt/a:/opt/b");
    config.apply_to(&mut command).expect("applied");
    assert_eq!(
        value(&command, "LD_LIBRARY_PATH"),
        Some(format!("{}:/opt/a:/opt/b", folder.display()))
    );
    assert_eq!(
        value(&command, "CUDA_ENTRY_DRIVER_PATH")
            .as_deref()
            .map(Path::new),
        Some(folder.join("libcuda.so.1").as_path())
    );
    // A version already set on the command, where the configuration leaves it: that one's copy.
    let mut command = Command::new("true");
    command.env("CUDA_ENTRY_SIM_VERSION", "11080");
    Config::new().apply_to(&mut command).expect("applied");
    let path = value(&command, "CUDA_ENTRY_DRIVER_PATH").expect("set");
    assert!(
        path.ends_with("cuda-entry-sim/cuda_entry_simdriver-11080/libcuda.so.1"),
        "{path}"
    );
    // A malformed one is the simulator's error, before any child runs.
    let mut command = Command::new("true");
    command.env("CUDA_ENTRY_SIM_VERSION", "12.2");
    let error = Config::new().apply_to(&mut command).expect_err("malformed");
    assert!(
        matches!(error, cuda_entry_sim::Error::Configuration { .. }),
        "{error:?}"
    );
    assert!(
        error
            .to_string()
            .contains("CUDA_ENTRY_SIM_VERSION=\"12.2\" is not a positive integer such as 13000"),
        "{error}"
    );
}

#[test]
fn the_records_api_opens_the_installed_copy() {
    in_child(&Config::new().version(12020), || {
        let installed = cuda_entry_sim::driver().expect("installed");
        let opened = cuda_entry_sim::Simulator::open(installed.path()).expect("a simulator");
        assert!(mem_alloc::pointer().is_ok());
        assert_eq!(opened.calls("cuGetProcAddress_v2"), 1);
        assert_eq!(
            opened.address("cuMemAlloc_v2"),
            installed.address("cuMemAlloc_v2")
        );
        // A hidden export has no address to compare with.
        assert_eq!(opened.address("cuCtxCreate_v4"), None);
    });
}

#[test]
fn each_build_is_copied_for_the_version_it_reports_by_default() {
    let builds = [
        (
            cuda_entry_sim::Driver::Current,
            "cuda_entry_simdriver",
            13000,
        ),
        #[cfg(feature = "simdriver-11x")]
        (
            cuda_entry_sim::Driver::Cuda11x,
            "cuda_entry_simdriver_11x",
            11080,
        ),
        #[cfg(feature = "simdriver-old")]
        (
            cuda_entry_sim::Driver::BeforeCuda113,
            "cuda_entry_simdriver_old",
            11020,
        ),
    ];
    for (build, stem, version) in builds {
        let mut command = Command::new("true");
        // The default: whatever this process's environment says does not count.
        command.env_remove("CUDA_ENTRY_SIM_VERSION");
        Config::new()
            .driver(build)
            .apply_to(&mut command)
            .expect("applied");
        let applied = command
            .get_envs()
            .find(|(k, _)| *k == "CUDA_ENTRY_DRIVER_PATH")
            .and_then(|(_, v)| v)
            .map(Path::new)
            .expect("set");
        let expected = format!("cuda-entry-sim/{stem}-{version}/libcuda.so.1");
        assert!(applied.ends_with(&expected), "{}", applied.display());
        in_child(&Config::new().driver(build), move || {
            let path = cuda_entry_sim::driver().expect("installed").path();
            let library = open(path);
            // SAFETY: cuDriverGetVersion's C type.
            let get = unsafe {
                library.get::<unsafe extern "C" fn(*mut i32) -> i32>(b"cuDriverGetVersion")
            }
            .expect("every driver has it");
            let mut reported = 0;
            // SAFETY: a valid out-pointer.
            assert_eq!(unsafe { get(&mut reported) }, 0);
            assert_eq!(reported, version);
            let expected = format!("cuda-entry-sim/{stem}-{version}/libcuda.so.1");
            assert!(path.ends_with(&expected), "{}", path.display());
        });
    }
}
