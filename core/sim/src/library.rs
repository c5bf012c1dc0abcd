//! The simulated libraries: where Cargo built them, and a handle on a loaded one that sets its
//! configuration and reads its call records through its `cuda_entry_sim*` exports.

use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::path::{Path, PathBuf};

use crate::Error;

/// Which simulated driver: each is a shared object of its own, because a missing export cannot be
/// switched off by configuration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Driver {
    /// A CUDA 12.0+ driver with `cuGetProcAddress_v2` (and the 4-argument `cuGetProcAddress`),
    /// reporting 13000 unless told otherwise: `libcuda_entry_simdriver.so`, always built.
    #[default]
    Current,
    /// A CUDA 11.3-11.8 driver: the 4-argument `cuGetProcAddress` only, reporting 11080.
    /// Needs the feature `simdriver-11x`.
    Cuda11x,
    /// A driver before CUDA 11.3: no `cuGetProcAddress` at all, reporting 11020. Needs the
    /// feature `simdriver-old`.
    BeforeCuda113,
}

impl Driver {
    /// The version this build reports when neither the configuration nor
    /// `CUDA_ENTRY_SIM_VERSION` names one (each build's `default_version`).
    pub(crate) fn default_version(self) -> i32 {
        match self {
            Driver::Current => 13000,
            Driver::Cuda11x => 11080,
            Driver::BeforeCuda113 => 11020,
        }
    }
}

/// Which simulated runtime (`libcudart` look-alike), for entries declared with
/// `resolver = "runtime"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Runtime {
    /// A CUDA 12.5+ runtime with `cudaGetDriverEntryPointByVersion`, reporting 13000. Needs the
    /// feature `simruntime`.
    Current,
    /// A CUDA 12.0-12.4 runtime without it, reporting 12040. Needs the feature `simruntime-old`.
    BeforeCuda125,
}

/// One of the simulated libraries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Library {
    Driver(Driver),
    Runtime(Runtime),
}

impl Library {
    /// The crate that builds it, and the feature of this kit that depends on that crate.
    fn crate_and_feature(self) -> (&'static str, Option<&'static str>) {
        match self {
            Library::Driver(Driver::Current) => ("cuda_entry_simdriver", None),
            Library::Driver(Driver::Cuda11x) => ("cuda_entry_simdriver_11x", Some("simdriver-11x")),
            Library::Driver(Driver::BeforeCuda113) => {
                ("cuda_entry_simdriver_old", Some("simdriver-old"))
            }
            Library::Runtime(Runtime::Current) => ("cuda_entry_simruntime", Some("simruntime")),
            Library::Runtime(Runtime::BeforeCuda125) => {
                ("cuda_entry_simruntime_old", Some("simruntime-old"))
            }
        }
    }
}

impl Library {
    /// The crate that builds it, with underscores (`cuda_entry_simdriver`): its file's stem.
    pub(crate) fn stem(self) -> &'static str {
        self.crate_and_feature().0
    }
}

/// Where Cargo left the library: the cdylib of a dependency lands in `target/<profile>/deps/`,
/// beside test binaries (`deps/<test>-<hash>`); examples run from `examples/`, binaries from
/// `target/<profile>/`.
pub(crate) fn path(library: Library) -> Result<PathBuf, Error> {
    find(library, std::env::current_exe().ok().as_deref())
}

impl Driver {
    /// Where Cargo built this driver's shared object, beside the running test binary (for a tool
    /// of your own that takes a library path). The build exports every function of the 13.0
    /// driver; the library a configuration loads, with the exports of its version, is
    /// [`Config::driver_path`](crate::Config::driver_path).
    ///
    /// # Errors
    /// [`Error::NotBuilt`], naming the feature to turn on.
    pub fn path(self) -> Result<PathBuf, Error> {
        path(Library::Driver(self))
    }
}

impl Runtime {
    /// Where Cargo built this runtime's shared object, as [`Driver::path`].
    ///
    /// # Errors
    /// [`Error::NotBuilt`], naming the feature to turn on.
    pub fn path(self) -> Result<PathBuf, Error> {
        path(Library::Runtime(self))
    }
}

/// [`path`] for the executable `exe`.
fn find(library: Library, exe: Option<&Path>) -> Result<PathBuf, Error> {
    let (stem, feature) = library.crate_and_feature();
    let file = format!(
        "{}{stem}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    let mut dir = exe
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_default();
    if dir.ends_with("deps") || dir.ends_with("examples") {
        dir.pop();
    }
    let looked_in = vec![dir.join("deps"), dir];
    match looked_in
        .iter()
        .map(|d| d.join(&file))
        .find(|p| p.is_file())
    {
        Some(path) => Ok(path),
        None => Err(Error::NotBuilt {
            file,
            looked_in,
            feature,
        }),
    }
}

type LastCall = unsafe extern "C" fn() -> *const c_char;
type Calls = unsafe extern "C" fn(*const c_char) -> u64;
type Reset = unsafe extern "C" fn();
type Visitor = unsafe extern "C" fn(*mut c_void, *const c_char, u64);
type EachCall = unsafe extern "C" fn(Option<Visitor>, *mut c_void);
type Implements = unsafe extern "C" fn(*const c_char) -> c_int;
type Configure = unsafe extern "C" fn(c_int, *const c_char) -> *const c_char;
type ConfigureCalls = unsafe extern "C" fn(*const c_char, c_int) -> *const c_char;

/// One export called since the last [`Simulator::reset`], and how often.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Call {
    /// The export's name: the ABI variant reached (`cuMemAlloc_v2`), never the symbol asked for.
    pub name: String,
    /// How many times it was called.
    pub count: u64,
    /// Whether the simulator implements it; `false` for the real driver's functions that it only
    /// stubs (they return 801, `CUDA_ERROR_NOT_SUPPORTED`).
    pub implemented: bool,
}

/// A loaded simulated library: the same one cuda-entry loads (a second `dlopen` of a path returns
/// the library already loaded), so its records are the calls the code under test made.
///
/// # Thread-safety
/// The records are per process, shared by every thread: tests that count calls while other tests
/// of the same binary call the driver should each run in a child process
/// ([`in_child`](crate::in_child)).
#[derive(Debug)]
pub struct Simulator {
    path: PathBuf,
    last_call: LastCall,
    calls: Calls,
    reset: Reset,
    each_call: EachCall,
    implements: Implements,
    configure: Configure,
    /// The (embedded) driver's injected statuses and pending queries.
    configure_calls: ConfigureCalls,
    /// For the runtimes: their own configuration (the embedded driver's is `configure`).
    configure_runtime: Option<Configure>,
    /// Kept open as long as the handle: the function pointers above live in it.
    library: libloading::Library,
}

impl Simulator {
    /// Opens the simulated library at `path`, driver or runtime (for a harness of your own: a
    /// child process started with [`Config::apply_to`](crate::Config::apply_to) opens the path in
    /// `CUDA_ENTRY_DRIVER_PATH`). Opening the library cuda-entry loaded gives the same library,
    /// with the same records: the one of [`Config::driver_path`](crate::Config::driver_path), not
    /// the build of [`Driver::path`], a library of its own. [`install`](crate::install) opens the ones it installs itself.
    ///
    /// # Errors
    /// [`Error::Open`] when it does not open, [`Error::NotASimulator`] when it lacks the
    /// instrumentation exports.
    pub fn open(path: impl Into<PathBuf>) -> Result<Simulator, Error> {
        let path = path.into();
        // SAFETY: the simulators' initialisers only register their build in a static.
        let library = unsafe { libloading::Library::new(&path) }.map_err(|e| Error::Open {
            path: path.clone(),
            message: e.to_string(),
        })?;
        /// The export `name` as a `T`, copied out of the library (which outlives it).
        ///
        /// # Safety
        /// `T` must be the export's C type.
        unsafe fn get<T: Copy>(
            library: &libloading::Library,
            path: &Path,
            name: &'static CStr,
        ) -> Result<T, Error> {
            // SAFETY: the caller names the export's type.
            match unsafe { library.get::<T>(name.to_bytes_with_nul()) } {
                Ok(symbol) => Ok(*symbol),
                Err(_) => Err(Error::NotASimulator {
                    path: path.to_path_buf(),
                    missing: name.to_string_lossy().into_owned(),
                }),
            }
        }
        // SAFETY: each type is the one the simulators define for that export
        // (cuda-entry-simdriver-core's record.rs and config.rs, cuda-entry-simruntime-core's
        // config.rs).
        unsafe {
            Ok(Simulator {
                last_call: get(&library, &path, c"cuda_entry_sim_last_call")?,
                calls: get(&library, &path, c"cuda_entry_sim_calls")?,
                reset: get(&library, &path, c"cuda_entry_sim_reset")?,
                each_call: get(&library, &path, c"cuda_entry_sim_each_call")?,
                implements: get(&library, &path, c"cuda_entry_sim_implements")?,
                configure: get(&library, &path, c"cuda_entry_sim_configure")?,
                configure_calls: get(&library, &path, c"cuda_entry_sim_configure_calls")?,
                // Only the runtimes have it.
                configure_runtime: get(&library, &path, c"cuda_entry_simrt_configure").ok(),
                path,
                library,
            })
        }
    }

    /// The shared object's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The address of the export `name`, to compare a pointer cuda-entry resolved with
    /// (`None`: no such export).
    pub fn address(&self, name: &str) -> Option<*mut c_void> {
        let name = CString::new(name).ok()?;
        // SAFETY: only the symbol's address is read; nothing is called through this type.
        unsafe { self.library.get::<*mut c_void>(name.as_bytes_with_nul()) }
            .ok()
            .map(|symbol| *symbol)
    }

    /// The name of the export called most recently (`"cuCtxCreate_v4"`), `""` before any.
    pub fn last_call(&self) -> String {
        // SAFETY: the export returns a static NUL-terminated name.
        unsafe { CStr::from_ptr((self.last_call)()) }
            .to_string_lossy()
            .into_owned()
    }

    /// How many times the export `name` (`"cuMemAlloc_v2"`) was called since the last reset.
    pub fn calls(&self, name: &str) -> u64 {
        match CString::new(name) {
            // SAFETY: a NUL-terminated name.
            Ok(name) => unsafe { (self.calls)(name.as_ptr()) },
            // No export has a NUL in its name.
            Err(_) => 0,
        }
    }

    /// Forgets the calls recorded so far (allocations, contexts and configuration are kept).
    pub fn reset(&self) {
        // SAFETY: the export takes no arguments.
        unsafe { (self.reset)() }
    }

    /// Every export called since the last reset, by name.
    pub fn recorded(&self) -> Vec<Call> {
        unsafe extern "C" fn collect(context: *mut c_void, name: *const c_char, count: u64) {
            // SAFETY: `context` is the Vec below, `name` a NUL-terminated string.
            let calls = unsafe { &mut *context.cast::<Vec<(String, u64)>>() };
            // SAFETY: as above.
            let name = unsafe { CStr::from_ptr(name) };
            calls.push((name.to_string_lossy().into_owned(), count));
        }
        let mut calls: Vec<(String, u64)> = Vec::new();
        // SAFETY: `collect` is called with the Vec as its context, as it expects.
        unsafe { (self.each_call)(Some(collect), (&raw mut calls).cast()) };
        calls
            .into_iter()
            .map(|(name, count)| Call {
                implemented: self.implements(&name) != Some(false),
                name,
                count,
            })
            .collect()
    }

    /// The calls of exports the simulator does not implement (each returned 801): what a test
    /// needed that the simulator lacks.
    pub fn unsupported_calls(&self) -> Vec<Call> {
        let mut calls = self.recorded();
        calls.retain(|call| !call.implemented);
        calls
    }

    /// Whether the simulator implements the export `name`: `Some(false)` for the real driver's
    /// functions it only stubs, `None` for a name that is no driver export.
    pub fn implements(&self, name: &str) -> Option<bool> {
        let name = CString::new(name).ok()?;
        // SAFETY: a NUL-terminated name.
        match unsafe { (self.implements)(name.as_ptr()) } {
            1 => Some(true),
            0 => Some(false),
            _ => None,
        }
    }

    /// Sets the (embedded) driver's configuration; `None`s from the environment.
    pub(crate) fn configure(
        &self,
        (version, mode): (Option<u32>, Option<String>),
    ) -> Result<(), Error> {
        self.call_configure(self.configure, version, mode)
    }

    /// Sets the (embedded) driver's injected statuses and pending queries; `None`s from the
    /// environment.
    pub(crate) fn configure_calls(
        &self,
        (statuses, pending): (Option<String>, Option<u32>),
    ) -> Result<(), Error> {
        let refused = |message: String| Error::Configuration {
            path: self.path.clone(),
            message,
        };
        let statuses = statuses
            .map(CString::new)
            .transpose()
            .map_err(|_| refused("an injection with a NUL byte".to_owned()))?;
        let pending = match pending.map(c_int::try_from) {
            None => -1,
            Some(Ok(pending)) => pending,
            Some(Err(_)) => return Err(refused(format!("{pending:?} pending queries: too many"))),
        };
        let statuses_ptr = statuses.as_ref().map_or(std::ptr::null(), |s| s.as_ptr());
        // SAFETY: NULL or a NUL-terminated string; the export returns NULL or a kept message.
        let message = unsafe { (self.configure_calls)(statuses_ptr, pending) };
        if message.is_null() {
            Ok(())
        } else {
            // SAFETY: a kept NUL-terminated message.
            let message = unsafe { CStr::from_ptr(message) };
            Err(refused(message.to_string_lossy().into_owned()))
        }
    }

    /// Sets a runtime's own configuration; `None`s from the environment.
    pub(crate) fn configure_runtime(
        &self,
        (version, mode): (Option<u32>, Option<String>),
    ) -> Result<(), Error> {
        match self.configure_runtime {
            Some(configure) => self.call_configure(configure, version, mode),
            None => Ok(()),
        }
    }

    fn call_configure(
        &self,
        configure: Configure,
        version: Option<u32>,
        mode: Option<String>,
    ) -> Result<(), Error> {
        let refused = |message: String| Error::Configuration {
            path: self.path.clone(),
            message,
        };
        let version = match version.map(c_int::try_from) {
            None => 0,
            Some(Ok(version)) if version > 0 => version,
            Some(_) => {
                return Err(refused(format!(
                    "version {version:?} is not a positive int"
                )));
            }
        };
        let mode = mode
            .map(CString::new)
            .transpose()
            .map_err(|_| refused("a mode with a NUL byte".to_owned()))?;
        let mode_ptr = mode.as_ref().map_or(std::ptr::null(), |m| m.as_ptr());
        // SAFETY: NULL or a NUL-terminated mode; the export returns NULL or a static message.
        let message = unsafe { configure(version, mode_ptr) };
        if message.is_null() {
            Ok(())
        } else {
            // SAFETY: a static NUL-terminated message.
            let message = unsafe { CStr::from_ptr(message) };
            Err(refused(message.to_string_lossy().into_owned()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_library_is_found_in_deps_beside_a_test_binary_or_not_built() {
        let target =
            std::env::temp_dir().join(format!("cuda-entry-sim-find-{}", std::process::id()));
        let deps = target.join("debug").join("deps");
        std::fs::create_dir_all(&deps).expect("a temporary folder");
        let test_binary = deps.join("kit-0123");
        let library = Library::Runtime(Runtime::BeforeCuda125);
        let error = find(library, Some(&test_binary)).expect_err("not built yet");
        let message = error.to_string();
        assert!(
            message.contains("cuda_entry_simruntime_old")
                && message.contains("turn on the feature `simruntime-old` of cuda-entry-sim"),
            "{message}"
        );
        let Error::NotBuilt { looked_in, .. } = error else {
            panic!("{error:?}")
        };
        assert_eq!(looked_in, [deps.clone(), target.join("debug")]);
        let file = deps.join(format!(
            "{}cuda_entry_simruntime_old{}",
            std::env::consts::DLL_PREFIX,
            std::env::consts::DLL_SUFFIX
        ));
        std::fs::write(&file, b"").expect("a stand-in file");
        assert_eq!(find(library, Some(&test_binary)).ok(), Some(file.clone()));
        // An example runs from target/debug/examples and finds it in deps too.
        let example = target.join("debug").join("examples").join("demo");
        assert_eq!(find(library, Some(&example)).ok(), Some(file));
        let _ = std::fs::remove_dir_all(&target);
    }
}
