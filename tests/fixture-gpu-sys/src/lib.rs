//! A company's own crate over cuda-entry ("gpu-sys"): its services depend on it, not on
//! cuda-entry, and name the re-export with `crate = "gpu_sys::cuda_entry"`
//! (tests/fixture-service).

pub use cuda_entry;

/// Declares a driver entry through this crate's cuda-entry, from a list of `fn` signatures with
/// their symbol and typedef version: the `crate` argument names the re-export, so the declaring
/// crate needs no cuda-entry dependency of its own.
#[macro_export]
macro_rules! driver_entries {
    ($(
        $(#[$attr:meta])*
        $vis:vis fn $name:ident($($param:ident: $ty:ty),* $(,)?) -> $ret:ty = $symbol:literal @ $version:literal;
    )*) => {$(
        $(#[$attr])*
        #[$crate::cuda_entry::cuda_entry(symbol = $symbol, version = $version, crate = $crate::cuda_entry)]
        $vis unsafe extern "C" fn $name($($param: $ty),*) -> $ret;
    )*};
}
