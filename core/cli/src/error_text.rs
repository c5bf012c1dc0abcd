//! How a `cuda_entry::Error` reads in the command's output: its kind name and its reason. The
//! one place the command looks inside an error; every subcommand goes through these two.

use cuda_entry::Error;

/// A short, stable snake_case name for an error, for JSON, the summary and the probe table.
pub(crate) fn kind_name(error: &Error) -> &'static str {
    error.kind().name()
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
