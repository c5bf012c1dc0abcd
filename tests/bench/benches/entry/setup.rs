//! Which driver this run measures, and the raw `cuGetProcAddress_v2` / function pointers the
//! entries are compared with.
//!
//! Without a usable driver (or with `CUDA_ENTRY_BENCH_DRIVER=sim`) the bench re-runs itself against
//! the simulated driver, reached through a directory holding one `libcuda.so` link to it: that
//! path is given to cuda-entry (`CUDA_ENTRY_DRIVER_PATH`) and the directory to the loader
//! (`LD_LIBRARY_PATH`), which is how cudarc, which only searches standard names, finds it too.

use std::ffi::{CStr, c_char, c_int, c_void};
use std::path::PathBuf;
use std::process::{Command, ExitCode};
use std::ptr;

use cuda_entry::types::{CUcontext, CUresult};
use cuda_entry::{Bootstrap, DriverInfo};
use libloading::Library;

/// Set to `sim` to measure the simulated driver even where a real one is installed.
pub(crate) const DRIVER_VARIABLE: &str = "CUDA_ENTRY_BENCH_DRIVER";
/// Set in the re-run child that measures the simulated driver (cuda_entry_support reads it too).
const SIMULATED_VARIABLE: &str = "CUDA_ENTRY_SIMULATED";

pub(crate) type GetProcAddressV2 =
    unsafe extern "C" fn(*const c_char, *mut *mut c_void, c_int, u64, *mut c_int) -> c_int;
pub(crate) type DriverGetVersion = unsafe extern "C" fn(*mut c_int) -> CUresult;
pub(crate) type CtxGetCurrent = unsafe extern "C" fn(*mut CUcontext) -> CUresult;

/// Whether this process measures the simulated driver.
pub(crate) fn is_simulated() -> bool {
    cuda_entry_support::is_simulated()
}

/// The driver this process measures, or the exit code of the child that measured the simulator.
pub(crate) fn driver() -> Result<DriverInfo, ExitCode> {
    let want_sim = std::env::var(DRIVER_VARIABLE).is_ok_and(|v| v == "sim");
    if want_sim && !is_simulated() {
        println!("{DRIVER_VARIABLE}=sim: measuring the SIMULATED driver.");
        return Err(rerun_with_simulator());
    }
    match cuda_entry::driver_info() {
        Ok(info) if info.bootstrap == Bootstrap::GetProcAddressV2 => Ok(info),
        Ok(info) => {
            println!(
                "The driver `{}` ({}) has no cuGetProcAddress_v2: this suite compares against it.",
                info.path, info.version
            );
            Err(ExitCode::FAILURE)
        }
        Err(error) if !is_simulated() => {
            println!("No CUDA driver could be used on this machine: {error}");
            Err(rerun_with_simulator())
        }
        Err(error) => {
            println!("The simulated driver could not be loaded: {error}");
            Err(ExitCode::FAILURE)
        }
    }
}

/// Runs this executable again, with its arguments, against the simulated driver.
fn rerun_with_simulator() -> ExitCode {
    let target = match cuda_entry_sim::Driver::Current.path() {
        Ok(path) => path,
        Err(e) => {
            println!("and the simulated driver is not available either: {e}");
            return ExitCode::FAILURE;
        }
    };
    let dir = std::env::temp_dir().join(format!("cuda-entry-bench-{}", std::process::id()));
    let link = dir.join("libcuda.so");
    let made = std::fs::create_dir_all(&dir).and_then(|()| symlink(&target, &link));
    if let Err(e) = made {
        println!("cannot link {} to the simulator: {e}", link.display());
        return ExitCode::FAILURE;
    }
    println!(
        "Measuring the SIMULATED driver {} (as {}; cudarc finds it through LD_LIBRARY_PATH).\n",
        target.display(),
        link.display()
    );
    let library_path = match std::env::var_os("LD_LIBRARY_PATH") {
        Some(old) if !old.is_empty() => {
            let mut paths = vec![dir.clone()];
            paths.extend(std::env::split_paths(&old));
            std::env::join_paths(paths).unwrap_or_else(|_| dir.clone().into_os_string())
        }
        _ => dir.clone().into_os_string(),
    };
    let status = Command::new(std::env::current_exe().expect("current_exe"))
        .args(std::env::args_os().skip(1))
        .env(cuda_entry::PATH_VARIABLE, &link)
        .env(SIMULATED_VARIABLE, "1")
        .env("LD_LIBRARY_PATH", library_path)
        .status();
    let _ = std::fs::remove_dir_all(&dir);
    match status {
        Ok(s) if s.success() => ExitCode::SUCCESS,
        _ => ExitCode::FAILURE,
    }
}

#[cfg(unix)]
fn symlink(target: &std::path::Path, link: &std::path::Path) -> std::io::Result<()> {
    let _ = std::fs::remove_file(link);
    std::os::unix::fs::symlink(target, link)
}

#[cfg(not(unix))]
fn symlink(target: &std::path::Path, link: &std::path::Path) -> std::io::Result<()> {
    std::fs::copy(target, link).map(drop)
}

/// The library path cuda-entry opens: the override, or the platform's default name.
pub(crate) fn driver_path() -> PathBuf {
    match std::env::var_os(cuda_entry::PATH_VARIABLE) {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ if cfg!(windows) => PathBuf::from("nvcuda.dll"),
        _ => PathBuf::from("libcuda.so.1"),
    }
}

/// The comparison: `cuGetProcAddress_v2` through libloading, and the two functions' pointers from
/// one raw call each.
#[derive(Debug)]
pub(crate) struct Raw {
    /// Kept open for the life of the process (the same handle the entries' driver holds).
    _library: Library,
    pub(crate) get_proc_address: GetProcAddressV2,
    pub(crate) driver_get_version: DriverGetVersion,
    pub(crate) ctx_get_current: CtxGetCurrent,
    /// The address of the library's `cuDriverGetVersion` export (dlsym), to tell whether another
    /// loader (cudarc) opened the same library.
    pub(crate) export_address: usize,
}

impl Raw {
    pub(crate) fn open(info: &DriverInfo) -> Result<Raw, String> {
        // SAFETY: the library cuda-entry already opened (the loader hands out the same handle).
        let library = unsafe { Library::new(&info.path) }.map_err(|e| e.to_string())?;
        // SAFETY: cuGetProcAddress_v2's signature is fixed by its name (CUDA 12.0+).
        let get_proc_address = *unsafe { library.get::<GetProcAddressV2>(c"cuGetProcAddress_v2") }
            .map_err(|e| e.to_string())?;
        let query = |symbol: &CStr, version| {
            raw_query(get_proc_address, symbol, version, 1)
                .ok_or_else(|| format!("cuGetProcAddress_v2({symbol:?}, {version}) failed"))
        };
        let dgv = query(c"cuDriverGetVersion", 2020)?;
        // SAFETY: only the address is read.
        let export = *unsafe { library.get::<*mut c_void>(c"cuDriverGetVersion") }
            .map_err(|e| e.to_string())?;
        let cgc = query(c"cuCtxGetCurrent", 4000)?;
        Ok(Raw {
            _library: library,
            get_proc_address,
            // SAFETY: the driver's pointer for PFN_cuDriverGetVersion_v2020, this signature.
            driver_get_version: unsafe {
                std::mem::transmute::<*mut c_void, DriverGetVersion>(dgv)
            },
            // SAFETY: the driver's pointer for PFN_cuCtxGetCurrent_v4000, this signature.
            ctx_get_current: unsafe { std::mem::transmute::<*mut c_void, CtxGetCurrent>(cgc) },
            export_address: export as usize,
        })
    }
}

/// One `cuGetProcAddress_v2` call: the pointer when the call returns 0 with status 0 and a
/// non-NULL pointer, as the entry requires.
#[inline]
pub(crate) fn raw_query(
    gpa: GetProcAddressV2,
    symbol: &CStr,
    version: u32,
    flags: u64,
) -> Option<*mut c_void> {
    let mut pfn: *mut c_void = ptr::null_mut();
    let mut status: c_int = -1;
    // SAFETY: a NUL-terminated symbol; pfn and status point at locals.
    let code = unsafe {
        gpa(
            symbol.as_ptr(),
            &raw mut pfn,
            version as c_int,
            flags,
            &raw mut status,
        )
    };
    (code == 0 && status == 0 && !pfn.is_null()).then_some(pfn)
}
