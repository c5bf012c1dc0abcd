//! What makes one simulated driver build differ from another, registered by its crate root.
//!
//! This crate is compiled once and linked into five cdylibs, so it cannot name their crate roots.
//! Each root invokes [`build!`](crate::build!) instead, which defines that build's
//! `cuGetProcAddress*` exports and adds a [`Build`] to the distributed slice [`BUILDS`]; the shared
//! code reads it through [`build()`]. A cdylib, or a test binary linking one build's rlib, holds
//! exactly one.

use std::ffi::c_void;

use linkme::distributed_slice;

/// One simulated driver build.
#[derive(Debug)]
pub struct Build {
    /// The version `cuDriverGetVersion` reports when `CUDA_ENTRY_SIM_VERSION` is unset.
    pub default_version: i32,
    /// The `cuGetProcAddress*` exports this build has (the others are every build's).
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
}

/// The builds linked into this image: exactly one.
#[distributed_slice]
pub static BUILDS: [Build];

/// The build this library is.
///
/// None or several (two builds' rlibs linked into one binary, which their identical `#[no_mangle]`
/// exports already forbid) stops the process with a message: there is no answer to give.
pub fn build() -> &'static Build {
    match &BUILDS[..] {
        [build] => build,
        builds => {
            super::say(format_args!(
                "cuda-entry simulated driver: {} builds linked into this image; exactly one crate \
                 root must invoke `cuda_entry_simdriver_core::build!`",
                builds.len()
            ));
            std::process::abort();
        }
    }
}

/// Declares the crate root's build: the version `cuDriverGetVersion` reports by default and the
/// `cuGetProcAddress*` exports it has, which this defines.
///
/// ```ignore
/// cuda_entry_simdriver_core::build! {
///     default_version: 11080,
///     exports: [cuGetProcAddress],
/// }
/// ```
///
/// `exports` lists any of `cuGetProcAddress_v2` and `cuGetProcAddress` (or none).
#[macro_export]
macro_rules! build {
    (default_version: $version:expr, exports: [$($name:ident),* $(,)?] $(,)?) => {
        $($crate::build!(@export $name);)*

        #[$crate::__private::linkme::distributed_slice($crate::build::BUILDS)]
        #[linkme(crate = $crate::__private::linkme)]
        static BUILD: $crate::Build = $crate::Build {
            default_version: $version,
            optional_exports: &[$($crate::Export {
                name: ::core::stringify!($name),
                address: || $name as *mut ::std::ffi::c_void,
            }),*],
        };
    };
    (@export cuGetProcAddress_v2) => {
        $crate::export! {
            cuGetProcAddress_v2(
                symbol: *const ::std::ffi::c_char,
                pfn: *mut *mut ::std::ffi::c_void,
                cuda_version: ::std::ffi::c_int,
                flags: $crate::Cuuint64,
                symbol_status: *mut $crate::CUdriverProcAddressQueryResult
            ) => $crate::gpa::get_proc_address_v2;
        }
    };
    (@export cuGetProcAddress) => {
        $crate::export! {
            cuGetProcAddress(
                symbol: *const ::std::ffi::c_char,
                pfn: *mut *mut ::std::ffi::c_void,
                cuda_version: ::std::ffi::c_int,
                flags: $crate::Cuuint64
            ) => $crate::gpa::get_proc_address;
        }
    };
}
