//! How a `cuda_entry::Error` reads in the command's output: its kind name and its reason. The
//! one place the command looks inside an error; every subcommand goes through these two.

use cuda_entry::Error;

/// A short, stable snake_case name for an error, for JSON, the summary and the probe table.
pub(crate) fn kind_name(error: &Error) -> &'static str {
    match error {
        Error::LibraryNotFound { .. } => "library_not_found",
        Error::StubLibrary { .. } => "stub_library",
        Error::NotADriver { .. } => "not_a_driver",
        Error::DriverVersionUnavailable { .. } => "driver_version_unavailable",
        Error::NoGetProcAddress { .. } => "no_get_proc_address",
        Error::DriverTooOld { .. } => "driver_too_old",
        Error::SymbolNotFound { .. } => "symbol_not_found",
        Error::VersionNotSufficient { .. } => "version_not_sufficient",
        Error::NotFoundByLegacyQuery { .. } => "not_found_by_legacy_query",
        Error::DriverError { .. } => "driver_error",
        Error::NullPointer { .. } => "null_pointer",
        Error::MalformedAnswer { .. } => "malformed_answer",
        Error::RuntimeNotFound { .. } => "runtime_not_found",
        Error::NotARuntime { .. } => "not_a_runtime",
        Error::NoDriverForRuntime { .. } => "no_driver_for_runtime",
        Error::RuntimeWithoutByVersion { .. } => "runtime_without_by_version",
        Error::RuntimeError { .. } => "runtime_error",
        Error::InvalidVersion { .. } => "invalid_version",
        // Every variant of today's `Error` is named above; `#[non_exhaustive]` makes this arm
        // compulsory outside the crate. It goes when this match becomes `error.kind().name()`.
        _ => "error",
    }
}

/// The error's message without the `cannot resolve <request>: ` prefix (the caller shows the
/// request already).
pub(crate) fn reason(error: &Error) -> String {
    let message = error.to_string();
    match error.request() {
        Some(request) => {
            let prefix = format!("cannot resolve {request}: ");
            message
                .strip_prefix(&prefix)
                .map_or_else(|| message.clone(), str::to_owned)
        }
        None => message,
    }
}
