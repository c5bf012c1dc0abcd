//! The `cuda-entry` command, the command-line companion of the cuda-entry crate. This library
//! is the command; its only API is [`main`], which the `cuda-entry` binary calls.
//!
//! - `cuda-entry probe`: which typedef version of every driver function this machine's driver
//!   serves.
//! - `cuda-entry decl SYMBOL@VERSION`: a ready-to-paste `#[cuda_entry]` declaration, from the
//!   typedef table.
//! - `cuda-entry check PATH...`: the `#[cuda_entry]` declarations of a crate's sources or of a
//!   built binary (its manifest section), against a driver.
//! - `cuda-entry migrate PATH...`: the `#[cuda_entry]` declarations to use instead of link-time
//!   `extern` bindings and calls through `cudarc::driver::sys`; `--write` rewrites the `extern`
//!   blocks.
//! - `cuda-entry completions SHELL`: shell completion scripts.
//!
//! Exit status: 0 success, 1 a declaration would fail (or no driver for `probe`, or a binding
//! `migrate` found disagrees with its typedef), 2 bad input, 3 something `check` could not check
//! or `migrate` could not migrate, 4 the `--simulated` re-run crashed, 141 standard output was
//! closed. The crate's README has examples with their real output.
#![deny(missing_docs, unreachable_pub)]
// Everything goes through `output::print`, which turns a closed pipe or a full disk into an exit
// status instead of a panic.
#![deny(clippy::print_stdout)]

mod check;
mod common;
mod decl;
mod exit;
mod migrate;
mod output;
mod probe;
mod rust_type;
mod shown;
mod source;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use clap_complete::Shell;
use cuda_entry_table::Version;

use crate::common::CliError;

const ABOUT: &str = "Probe, declare and check CUDA driver entry points resolved through \
                     cuGetProcAddress at the exact typedef version.";

const LONG_ABOUT: &str = "\
Probe, declare and check CUDA driver entry points resolved through cuGetProcAddress at the
exact typedef version.

Every CUDA driver function has ABI versions, one per C typedef in cudaTypedefs.h:
cuMemAlloc took an `unsigned int` size until CUDA 3.2 (PFN_cuMemAlloc_v2000) and takes a
`size_t` since (PFN_cuMemAlloc_v3020). The number after `_v` is the typedef version: 1000
* major + 10 * minor of the CUDA release that introduced that ABI. cuGetProcAddress
returns the newest variant at or below the version it is given, so a declaration must name
the version of the typedef its signature was copied from, and the driver must be at least
that new.

The driver is libcuda.so.1 (nvcuda.dll on Windows), or the library CUDA_ENTRY_DRIVER_PATH
names. --simulated uses the simulated driver built with this workspace (core/sim/simdriver)
instead.

Exit status: 0 success; 1 a declaration would fail, a binding migrate found disagrees with
its typedef, no driver could be loaded, or the output could not be written; 2 bad input; 3
something check could not check or migrate could not migrate (none would fail); 4 the
--simulated run crashed; 141 standard output was closed (| head).";

/// The command line.
#[derive(Debug, Parser)]
#[command(name = "cuda-entry", version, about = ABOUT, long_about = LONG_ABOUT)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Which typedef versions this machine's driver serves, symbol by symbol.
    #[command(long_about = PROBE_ABOUT)]
    Probe(ProbeArgs),
    /// Print a ready-to-paste #[cuda_entry] declaration for a driver function.
    #[command(long_about = DECL_ABOUT)]
    Decl(DeclArgs),
    /// Find the #[cuda_entry] declarations in Rust sources or built binaries and say which would
    /// fail, and why.
    #[command(long_about = CHECK_ABOUT)]
    Check(CheckArgs),
    /// Print the #[cuda_entry] declarations to use instead of link-time extern bindings and
    /// calls through cudarc::driver::sys; --write rewrites the extern blocks.
    #[command(long_about = MIGRATE_ABOUT)]
    Migrate(MigrateArgs),
    /// Print a shell completion script.
    #[command(long_about = COMPLETIONS_ABOUT)]
    Completions(CompletionsArgs),
}

const PROBE_ABOUT: &str = "\
Which typedef versions this machine's driver serves, symbol by symbol.

Loads the driver, prints its path, the version it reports (cuDriverGetVersion) and which
cuGetProcAddress it is asked through, then, for every symbol of the typedef table (or
those given with --symbol), the newest typedef version the driver serves, for the legacy
and the per-thread default stream. Versions are asked newest first, each through a fresh
cuda_entry::Entry, stopping at the first success; a version above the driver's is never
asked (the driver cannot serve an ABI newer than itself).

A typedef version is the N of PFN_<symbol>_v<N>: cuCtxCreate has 2000, 3020, 11040 and
12050, so a CUDA 12.4 driver (12040) serves cuCtxCreate at 11040 at most.

Example:
  cuda-entry probe --symbol cuCtxCreate --symbol cuLaunchKernel
  cuda-entry probe --simulated --json > probe.json";

const DECL_ABOUT: &str = "\
Print a ready-to-paste #[cuda_entry] declaration for a driver function.

SPEC is SYMBOL, SYMBOL@VERSION or SYMBOL@latest (SYMBOL alone is the newest). The VERSION
is a typedef version, the N of PFN_<symbol>_v<N> in cudaTypedefs.h: PFN_cuMemAlloc_v3020
is cuMemAlloc@3020. The signature is derived from that typedef: parameter names from the
header in snake_case, C types mapped to Rust (pointers keep their depth and const-ness),
the C typedef quoted in a doc comment. Per-thread default stream variants (the _ptsz/_ptds
typedefs) have their own versions: cuLaunchKernel@7000 --stream per_thread.

With --types cuda-entry (the default) the output compiles as printed: types come from
cuda_entry::types where it has them, and any other CUDA type gets a stand-in definition
with its C size and alignment, marked `// TODO: define`. With --types c, the C type names
are kept and listed for you to bring (bindgen, cudarc::driver::sys).

Examples:
  cuda-entry decl cuMemAlloc@3020
  cuda-entry decl cuCtxCreate@latest
  cuda-entry decl cuLaunchKernel@7000 --stream per_thread --types c";

const CHECK_ABOUT: &str = "\
Find the #[cuda_entry] declarations in Rust sources or built binaries and say which would
fail, and why. What it could not read, it never passes.

Each PATH is a Rust source file, a built binary (an executable or library: ELF, PE,
Mach-O or universal Mach-O, whatever the machine running this command), a folder, whose
.rs files and binaries (told by their first bytes) are read recursively (skipping target/
and hidden folders; a folder with neither is bad input), or - for standard input. Only
regular files are read: a FIFO, socket or device is refused (pass - to read a pipe).
Limits, far beyond any real project: a source may have 16 MiB, a binary 2 GiB, a manifest
section 4 MiB, a binary 100,000 declarations, a universal binary 64 slices; a source nested
more than 256 levels deep (brackets, generics, prefix operators, closures) is refused rather
than risk the parser's stack.

A source is parsed (syn) for every #[cuda_entry(...)] declaration: the single-function
form, and the declarations inside #[cuda_entry] unsafe extern \"C\" { ... } blocks, in
nested modules and function bodies too, read by the macro's own rules: an attribute imported
under another name (use cuda_entry::cuda_entry as driver_fn) is recognised by its arguments,
and crate = \"path::to::cuda_entry\" is accepted. A #[cuda_entry] the parse cannot read (in the body of a macro such as
macro_rules! or cfg_if!, behind cfg_attr, in an impl block or a trait) is listed as not
checked, with its file:line. A declaration under a #[cfg] that is always false (cfg(any()))
is judged all the same, with a note. A binary states its declarations in its manifest
section (cuda_entry on ELF, .cuentry on PE, __DATA,__cuda_entry on Mach-O), one record per
declaration linked into it, with the package that declared it; every such section and every
slice of a universal binary is read, once (slices or sections sharing bytes are refused),
and nothing but the headers that locate them. A binary (or slice) without that section is
listed as not checked: nothing in it can be judged.

Each declaration is judged against this machine's driver by resolving it exactly as the
program would (a fresh cuda_entry::Entry); with --simulated, against the simulated driver
built with this workspace; with --driver-version N (12040 or 12.4 for CUDA 12.4), from the
typedef table alone, loading no driver: a driver older than the declared typedef version
cannot serve it. Declarations the macro itself rejects fail too, whatever the driver: the
command runs the macro's own rules, and prints each mistake on a line of its own under the
declaration, at the file:line:column rustc points to, with its kind (unknown_symbol,
not_a_typedef, wrong_arity, duplicate_argument...) and the macro's message. A declaration
whose version is not the symbol's newest typedef gets a note: that is fine when it is the
typedef the signature was copied from (PFN_cuCtxCreate_v3020 is a different ABI from
PFN_cuCtxCreate_v12050). A declaration marked optional (#[cuda_entry(..., optional)], or the
optional flag of a binary's record) is one the program runs without, falling back to another:
when the driver cannot serve it, it is unavailable, optional, not a failure, and it sets no
minimum driver.

Functions of extern \"C\" blocks linked against libcuda (named by a driver export the table
knows, cuMemAlloc_v2) are no declarations: each is noted as an unversioned binding, with the
typedef its export implements and the cuda-entry migrate command that declares it.

Prints the driver, a line per declaration (ok, FAIL, or unavailable, optional; why, notes;
under it, each mistake the macro would report), a line per thing not checked and per
unversioned binding, the minimum driver (the newest typedef version the required declarations
ask for, and the symbols that set it), the optional upgrades (what the optional ones ask for)
and the totals; --json prints the same as one document (status ok, fail or unavailable). Text that came from a file
(paths, names, a binary's strings) is printed with control characters escaped (\\u{1b}).

Exit status: 0 everything was read and none would fail (an optional one unavailable fails
nothing); 1 at least one would fail (without a usable driver, every required one does), --simulated found no simulated driver, or the output could
not be written (a full disk); 2 bad input: a missing path, a FIFO or device, a file over
its limit, an unreadable file, a source that is not valid Rust or nests too deep, a binary
this command cannot read or whose manifest section is malformed, or a --driver-version that
is no CUDA version; 3 none would fail but something was not checked (a declaration the parse
cannot read, a binary without a manifest); 4 the --simulated run crashed (the signal is
named); 141 standard output was closed (| head), without a message.

Examples:
  cuda-entry check src/
  cuda-entry check --driver-version 12040 src/ examples/
  cuda-entry check --simulated --json src/lib.rs
  cuda-entry check --driver-version 12.4 target/release/my-app
  generate-bindings | cuda-entry check --driver-version 12.4 -";

const MIGRATE_ABOUT: &str = "\
Print the #[cuda_entry] declarations to use instead of link-time extern bindings, functions
loaded by name, and calls through cudarc::driver::sys; --write rewrites the bindings, and a
crate folder's manifest and link settings.

Each PATH is a crate folder (one with a Cargo.toml: every .rs file under it, its manifest, its
build script, its .cargo/config.toml, its Cargo.lock), a Rust source file, a folder, whose .rs
files are read recursively (skipping target/ and hidden folders), or - for standard input
(without --write), read as check reads them. Found are:
- the functions of extern \"C\" blocks (not #[cuda_entry] ones) named cu + an uppercase
  letter, or whose #[link_name] is: a binding linked against libcuda, named by the driver's
  export (cuMemAlloc_v2, cuStreamSynchronize_ptsz);
- the fields of a struct of functions loaded by name, as bindgen's --dynamic-loading writes it
  (a libloading::Library field and Result<unsafe extern \"C\" fn(..), libloading::Error> or
  bare function pointer fields, filled by Library::get(b\"cuInit\\0\") in its constructor);
- wrapper functions loading one export lazily by name (a OnceLock around
  Library::get(b\"cuMemAlloc_v2\\0\"), cudarc's driver::sys), extern fallback included;
- calls through cudarc::driver::sys, by that path, an alias of it (use cudarc::driver::sys;
  use ... as cu), its functions imported by name or by a glob.

For each, the typedef its export implements: cuMemAlloc_v2 is cuMemAlloc at version 3020
(PFN_cuMemAlloc_v3020),
cuCtxCreate_v4 cuCtxCreate at 12050, cuStreamSynchronize_ptsz cuStreamSynchronize at 7000
with the per-thread default stream, cuInit cuInit at 2000. Then the declaration to use, with
the parameter names and types of the binding (of the typedef, through cudarc's types, for a
call), and where the signature disagrees with the typedef: the macro's own rules (arity,
pointers) and the sizes of the types whose size a reader can tell (u32, usize, pointers...).
An export the table does not know is reported, never guessed.

With --write, each binding that agrees with its typedef becomes a #[cuda_entry] declaration,
every other byte of the file staying as it was; the diff is printed first (--dry-run prints
only the diff). Every public name and signature stays: an extern function becomes a shim of
the same name and signature that calls the declaration (written as <name>_entry), returning
the driver's CUresult, or CUDA_ERROR_NOT_FOUND (500) when the entry cannot be resolved (no
driver, one too old); a loaded struct's fields are filled with such shims, so its constructors
and methods keep their API; a wrapper keeps its signature and calls the declaration. Calls
through cudarc are not rewritten: their declarations are printed, to add by hand. A block all
of whose functions migrate goes, its #[link] with it; a #[link(name = \"cuda\")] left on a block
with no cu* function goes too.

For a crate folder, --write also adds the dependency to Cargo.toml (kept as written: its
formatting and comments; cuda-entry = \"<this version's major.minor>\", or --dependency), removes
the build script's cargo:rustc-link-lib=cuda statements (any kind, cargo:: too) and the -l cuda
flags of .cargo/config.toml, and says what it changed, file by file; what still links libcuda
is said too. When its Cargo.lock holds a package older than cuda-entry needs, it prints the
cargo update -p to run.

Exit status: 0 every binding found agrees with its typedef (or none was found); 1 one
disagrees (it is reported, and left as it is by --write), or a file could not be written;
2 bad input (a missing path, a binary, a source that is not valid Rust, - with --write, a
workspace's root manifest, a --dependency that is no Cargo dependency, or no crate folder for
it); 3 none disagrees but an export is unknown to the table, or something that links libcuda
could not be removed (each left as it is); 141 standard output was closed.

Examples:
  cuda-entry migrate path/to/crate
  cuda-entry migrate --write --dependency 'path = \"../cuda-entry/core\"' path/to/crate
  cuda-entry migrate --dry-run src/ffi.rs
  cuda-entry migrate --write src/ffi.rs
  cuda-entry migrate --json src/ | jq '.bindings[] | select(.status != \"ready\")'";

const COMPLETIONS_ABOUT: &str = "\
Print a shell completion script.

Examples:
  cuda-entry completions bash > ~/.local/share/bash-completion/completions/cuda-entry
  cuda-entry completions zsh > \"${fpath[1]}/_cuda-entry\"
  cuda-entry completions fish > ~/.config/fish/completions/cuda-entry.fish";

#[derive(Debug, Args)]
struct ProbeArgs {
    /// Probe only this symbol (a base name such as cuMemAlloc); repeatable.
    #[arg(long = "symbol", value_name = "NAME")]
    symbols: Vec<String>,
    /// Print one JSON document (driver, per-symbol answers, totals) instead of a table.
    #[arg(long)]
    json: bool,
    /// Use the simulated driver built with this workspace (or CUDA_ENTRY_DRIVER_PATH).
    #[arg(long)]
    simulated: bool,
}

#[derive(Debug, Args)]
struct DeclArgs {
    /// SYMBOL, SYMBOL@VERSION or SYMBOL@latest, e.g. cuMemAlloc@3020.
    #[arg(value_name = "SPEC")]
    spec: String,
    /// Which default-stream variant: the legacy typedefs, or the per-thread (_ptsz/_ptds) ones.
    #[arg(long, value_enum, default_value_t = StreamArg::Legacy)]
    stream: StreamArg,
    /// How types are written: compiling Rust with cuda_entry::types, or the C names.
    #[arg(long, value_enum, default_value_t = TypesArg::CudaEntry)]
    types: TypesArg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum StreamArg {
    #[value(
        name = "legacy",
        help = "The legacy default stream: the plain PFN_<symbol>_v<N> typedefs"
    )]
    Legacy,
    #[value(
        name = "per_thread",
        alias = "per-thread",
        help = "The per-thread default stream: the PFN_<symbol>_v<N>_ptsz/_ptds typedefs"
    )]
    PerThread,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum TypesArg {
    /// Rust types, cuda_entry::types, and stand-ins marked TODO: compiles as printed.
    #[value(name = "cuda-entry")]
    CudaEntry,
    /// The C type names (std::ffi for C's own), listed for you to define.
    #[value(name = "c")]
    C,
}

#[derive(Debug, Args)]
struct CheckArgs {
    /// Rust source files, built binaries, folders of either, or - for standard input.
    #[arg(value_name = "PATH", required = true)]
    paths: Vec<PathBuf>,
    /// Judge against a driver of this version (12040 or 12.4 for CUDA 12.4) from the typedef
    /// table, loading no driver.
    #[arg(long, value_name = "N", conflicts_with = "simulated")]
    driver_version: Option<Version>,
    /// Judge against the simulated driver built with this workspace (or CUDA_ENTRY_DRIVER_PATH).
    #[arg(long)]
    simulated: bool,
    /// Print one JSON document instead of lines.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
struct MigrateArgs {
    /// Crate folders (with a Cargo.toml), Rust source files, folders of .rs files, or - for
    /// standard input.
    #[arg(value_name = "PATH", required = true)]
    paths: Vec<PathBuf>,
    /// Rewrite the files, all or none: each binding's driver functions become #[cuda_entry]
    /// ones, a crate's manifest gets the dependency and loses its libcuda link. Refuses files
    /// with uncommitted changes or outside git (see --allow-dirty, --allow-no-vcs), and any
    /// reached through a symbolic link.
    #[arg(long, conflicts_with = "dry_run")]
    write: bool,
    /// Print the diff --write would apply, and write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Let --write rewrite files with uncommitted changes (or untracked by git).
    #[arg(long, requires = "write")]
    allow_dirty: bool,
    /// Let --write rewrite files outside any git repository (or ignored by it).
    #[arg(long, requires = "write")]
    allow_no_vcs: bool,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
    /// The cuda-entry dependency a crate folder's Cargo.toml gets, in Cargo's words: a version
    /// (`0.1`) or a dependency's keys (`path = "../cuda-entry/core"`, `git = "URL", rev = "..."`).
    #[arg(long, value_name = "SPEC")]
    dependency: Option<String>,
    /// Write required declarations: without it each is `optional`, since a bindings crate
    /// declares what a driver may have, not what the program needs (requirements() and
    /// preload_all() then judge the program's own declarations). For an application's own extern
    /// block, every function of which it needs.
    #[arg(long)]
    required: bool,
    /// After --write (or alone), build each crate given with `cargo build --all-targets` and
    /// CUDA's variables removed (CUDA_PATH, CUDA_HOME, ...), and read every executable and
    /// shared library it produces: none may need libcuda (nvcuda.dll). Says so per crate; exit
    /// status 3 when one does not build or still needs the driver.
    #[arg(long, conflicts_with = "dry_run")]
    verify: bool,
}

#[derive(Debug, Args)]
struct CompletionsArgs {
    /// The shell to write the script for.
    #[arg(value_enum)]
    shell: Shell,
}

/// Runs the command with the process's arguments and returns its exit status.
///
/// Prints to stdout and stderr; on a command-line mistake, exits the process with status 2 (as
/// clap does), after printing the usage.
pub fn main() -> ExitCode {
    let result = match Cli::try_parse() {
        Ok(cli) => run(cli),
        Err(e) => usage(&e),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // One `error:` per line, so that every file named is its own message.
            let mut err = std::io::stderr().lock();
            for line in e.to_string().lines() {
                let _ = writeln!(err, "error: {}", shown::shown(line));
            }
            e.exit_code()
        }
    }
}

/// What clap says instead of running a subcommand: the help or the version on stdout (status 0),
/// or a command-line mistake on stderr (status 2).
fn usage(e: &clap::Error) -> Result<ExitCode, CliError> {
    match e.print() {
        Ok(()) => Ok(exit::code(
            u8::try_from(e.exit_code()).unwrap_or(exit::BAD_INPUT),
        )),
        // stderr itself is gone: nothing can be said, the status still tells.
        Err(_) if e.use_stderr() => Ok(exit::code(exit::BAD_INPUT)),
        Err(io) => Err(output::written(&io)),
    }
}

fn run(cli: Cli) -> Result<ExitCode, CliError> {
    match cli.command {
        Command::Probe(args) => {
            if args.simulated
                && let Some(code) = common::rerun_simulated()?
            {
                return Ok(code);
            }
            probe::run(&probe::Options {
                symbols: args.symbols,
                json: args.json,
            })
        }
        Command::Decl(args) => decl::run(&decl::Options {
            spec: args.spec,
            per_thread: args.stream == StreamArg::PerThread,
            types: match args.types {
                TypesArg::CudaEntry => rust_type::Types::CudaEntry,
                TypesArg::C => rust_type::Types::C,
            },
        }),
        Command::Check(args) => {
            if args.simulated
                && let Some(code) = common::rerun_simulated()?
            {
                return Ok(code);
            }
            check::run(&check::Options {
                paths: args.paths,
                driver_version: args.driver_version,
                json: args.json,
            })
        }
        Command::Migrate(args) => migrate::run(&migrate::Options {
            paths: args.paths,
            write: args.write,
            dry_run: args.dry_run,
            json: args.json,
            dependency: args.dependency,
            allow: migrate::Allow {
                dirty: args.allow_dirty,
                no_vcs: args.allow_no_vcs,
            },
            verify: args.verify,
            entries: if args.required {
                migrate::Entries::Required
            } else {
                migrate::Entries::Optional
            },
        }),
        Command::Completions(args) => {
            // Written to memory first: clap_complete panics when its writer fails.
            let mut script = Vec::new();
            clap_complete::generate(args.shell, &mut Cli::command(), "cuda-entry", &mut script);
            output::print(&String::from_utf8_lossy(&script))?;
            Ok(exit::code(exit::SUCCESS))
        }
    }
}

/// The command's readers, for the libFuzzer targets in `core/cli/fuzz/`; not an API.
#[doc(hidden)]
pub mod __fuzz {
    /// Reads `bytes` as a built binary's manifest, as `check BINARY` does.
    pub fn binary(bytes: &[u8]) {
        crate::check::fuzz_binary(bytes);
    }

    /// Scans `source` for declarations, as `check FILE.rs` does.
    pub fn source(source: &str) {
        crate::check::fuzz_source(source);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    /// `--driver-version TEXT`, as parsed, or the error clap shows.
    fn driver_version(text: &str) -> Result<Option<u32>, String> {
        let option = format!("--driver-version={text}");
        let cli = Cli::try_parse_from(["cuda-entry", "check", &option, "src"])
            .map_err(|e| e.to_string())?;
        match cli.command {
            Command::Check(args) => Ok(args.driver_version.map(Version::get)),
            other => Err(format!("parsed as {other:?}")),
        }
    }

    #[test]
    fn driver_versions_follow_the_one_version_rule() {
        assert_eq!(driver_version("12040"), Ok(Some(12040)));
        assert_eq!(driver_version("12.4"), Ok(Some(12040)));
        for bad in [
            "12041",
            "0",
            "990",
            "100000",
            "4294967290",
            "12.45",
            "-1",
            "x",
        ] {
            let e = driver_version(bad).expect_err(bad);
            assert!(e.contains("is not a CUDA version"), "{bad}: {e}");
        }
    }
}
