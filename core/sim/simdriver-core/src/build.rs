//! What makes one simulator build differ from another, declared by its crate root.
//!
//! This crate is compiled once and linked into five cdylibs, so it cannot name their crate roots.
//! Each root invokes [`build!`](crate::build!) instead (defined in `gpa.rs`, beside the
//! `cuGetProcAddress*` it exports), which defines that build's `cuGetProcAddress*` exports and adds a [`Build`] to the distributed slice [`BUILDS`]; the shared
//! code reads it through [`build()`]. A cdylib, or a test binary linking one build's rlib, holds
//! exactly one. The simulated runtimes declare their runtime build the same way
//! (`cuda_entry_simruntime_core::runtime_build!`, through [`register_build!`](crate::register_build!)).

use std::ffi::c_void;

use linkme::distributed_slice;

/// One simulator build: what its crate root declares (with [`build!`](crate::build!) for the
/// driver, `runtime_build!` for the runtime).
#[derive(Debug)]
pub struct Build {
    /// The version the simulator reports when its version variable is unset
    /// (`CUDA_ENTRY_SIM_VERSION` for the driver, `CUDA_ENTRY_SIMRT_VERSION` for the runtime).
    pub default_version: i32,
    /// The exports only some builds have, this one's (`cuGetProcAddress*`,
    /// `cudaGetDriverEntryPointByVersion`).
    pub optional_exports: &'static [Export],
}

/// An export defined by a build's crate root.
#[derive(Debug)]
pub struct Export {
    /// The symbol (`cuGetProcAddress_v2`).
    pub name: &'static str,
    /// Its address (a function, because a `static` cannot hold a raw pointer).
    pub address: fn() -> *mut c_void,
}

impl Build {
    /// The address of the export `name` defined by this build's crate root, if it has it.
    pub fn export_address(&self, name: &str) -> Option<*mut c_void> {
        self.optional_exports
            .iter()
            .find(|export| export.name == name)
            .map(|export| (export.address)())
    }

    /// The names of the exports defined by this build's crate root.
    pub fn export_names(&self) -> impl Iterator<Item = &'static str> + use<> {
        self.optional_exports.iter().map(|export| export.name)
    }

    /// The one build registered in `builds` by invoking `declaration`.
    ///
    /// None or several (two builds' rlibs linked into one binary, which their identical
    /// `#[no_mangle]` exports already forbid) stop the process with a message: there is no answer
    /// to give.
    pub fn only(builds: &'static [Build], declaration: &str) -> &'static Build {
        match builds {
            [build] => build,
            _ => {
                super::say(format_args!(
                    "cuda-entry simulator: {} builds linked into this image; exactly one crate \
                     root must invoke `{declaration}`",
                    builds.len()
                ));
                std::process::abort();
            }
        }
    }
}

/// The driver builds linked into this image: exactly one.
#[distributed_slice]
pub static BUILDS: [Build];

/// The driver build this library is.
pub fn build() -> &'static Build {
    Build::only(&BUILDS, "cuda_entry_simdriver_core::build!")
}

/// Adds a build to a distributed slice: what [`build!`](crate::build!) and `runtime_build!`
/// share. `register_build!(STATIC in SLICE: version, [exports])`.
#[doc(hidden)]
#[macro_export]
macro_rules! register_build {
    ($static:ident in $slice:path: $version:expr, [$($name:ident),*]) => {
        #[$crate::__private::linkme::distributed_slice($slice)]
        #[linkme(crate = $crate::__private::linkme)]
        static $static: $crate::Build = $crate::Build {
            default_version: $version,
            optional_exports: &[$($crate::Export {
                name: ::core::stringify!($name),
                address: || $name as *mut ::std::ffi::c_void,
            }),*],
        };

        // GNU ld on PE drops the registration, which nothing refers to, but never a section
        // named `.vectors*` nor what it refers to (as cuda-entry's expansion keeps its entries).
        #[cfg(all(windows, target_env = "gnu"))]
        const _: () = {
            #[used]
            #[unsafe(link_section = ".vectors_cuentry")]
            static RETAINED: &$crate::Build = &$static;
        };
    };
}
