//! Reading the command's inputs, for `check` and `migrate` alike: [`walk`] lists them, [`read`]
//! reads each once within its limits, [`tokens`] bounds a source's nesting and finds every
//! `#[cuda_entry]` attribute, [`parse`] parses within that bound, [`linked`] finds the driver
//! functions of linked `extern` blocks, and [`text`] maps the parser's positions to byte
//! offsets. It imports neither subcommand.

pub(crate) mod linked;
pub(crate) mod parse;
pub(crate) mod read;
pub(crate) mod text;
pub(crate) mod tokens;
pub(crate) mod walk;
