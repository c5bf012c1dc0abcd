//! `cuda-entry check`: finds every `#[cuda_entry(...)]` declaration in Rust sources (parsed with
//! syn), or in a built binary's manifest section (read with `object`, for any target), and says
//! which would fail against a driver, and why.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cuda_entry::{Error, Resolver};
use syn::visit::{self, Visit};
use syn::{Attribute, ForeignItem, Ident, Item, ItemFn, ItemForeignMod, LitInt, LitStr, Meta};

use crate::common::{
    CliError, cuda, entry, error_kind, error_reason, flavour, simulated, static_symbol,
    typedef_list, unknown_symbol,
};
use crate::json::Json;

/// Options of `check`.
#[derive(Debug)]
pub(crate) struct Options {
    pub(crate) paths: Vec<PathBuf>,
    /// Judge from the table against this driver version, loading no driver.
    pub(crate) driver_version: Option<u32>,
    pub(crate) json: bool,
}

/// The arguments of one `#[cuda_entry(...)]`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Args {
    symbol: String,
    version: u32,
    per_thread: bool,
    runtime: bool,
    unverified: bool,
}

/// One declaration found in a file.
#[derive(Debug)]
struct Declaration {
    file: PathBuf,
    line: usize,
    function: String,
    /// The arguments, or why the macro rejects them.
    args: Result<Args, String>,
    /// Something about the declaration's form the macro rejects (a body...).
    form_error: Option<String>,
}

/// What would happen to a declaration.
#[derive(Debug)]
struct Verdict {
    /// `None`: it would work. `Some((kind, why))`: it would fail.
    failure: Option<(&'static str, String)>,
    notes: Vec<String>,
}

/// Where the answers come from.
#[derive(Debug)]
enum Driver {
    /// A loaded driver (or the error that loading it gave).
    Loaded(Result<cuda_entry::DriverInfo, Error>),
    /// `--driver-version N`: the table only.
    Assumed(u32),
}

pub(crate) fn run(options: &Options) -> Result<ExitCode, CliError> {
    let (files, mut bad) = collect(&options.paths);
    let mut declarations = Vec::new();
    for file in &files {
        let found = if is_binary(file) {
            declarations_in_binary(file)
        } else {
            declarations_in(file)
        };
        match found {
            Ok(found) => declarations.extend(found),
            Err(message) => bad.push(message),
        }
    }
    if !bad.is_empty() {
        return Err(CliError::BadInput(bad.join("\n")));
    }
    let driver = match options.driver_version {
        Some(version) => Driver::Assumed(version),
        None => Driver::Loaded(cuda_entry::driver_info()),
    };
    let verdicts: Vec<Verdict> = declarations.iter().map(|d| judge(d, &driver)).collect();
    let failed = verdicts.iter().filter(|v| v.failure.is_some()).count();
    if options.json {
        println!("{}", json(&files, &declarations, &verdicts, &driver));
    } else {
        print!("{}", text(&files, &declarations, &verdicts, &driver));
    }
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The `.rs` files under `paths`, sorted, each path as given or joined under it, and a message
/// for each path that cannot be used. A file named explicitly is checked whatever its extension.
fn collect(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<String>) {
    let mut files = Vec::new();
    let mut bad = Vec::new();
    for path in paths {
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                if let Err(e) = walk(path, &mut files) {
                    bad.push(e);
                }
            }
            Ok(_) => files.push(path.clone()),
            Err(e) => bad.push(format!("{}: {}", path.display(), io_message(&e))),
        }
    }
    (files, bad)
}

fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => e.to_string(),
    }
}

/// Recursively adds the `.rs` files of `dir`, skipping `target/` and hidden folders. Symbolic
/// links to folders are not followed (no cycles).
fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = fs::read_dir(dir)
        .map_err(|e| format!("{}: cannot list: {}", dir.display(), io_message(&e)))?;
    let mut paths: Vec<(PathBuf, fs::FileType)> = Vec::new();
    for entry in entries {
        let entry =
            entry.map_err(|e| format!("{}: cannot list: {}", dir.display(), io_message(&e)))?;
        let file_type = entry
            .file_type()
            .map_err(|e| format!("{}: {}", entry.path().display(), io_message(&e)))?;
        paths.push((entry.path(), file_type));
    }
    paths.sort_by(|a, b| a.0.cmp(&b.0));
    for (path, file_type) in paths {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let name = name.unwrap_or_default();
        if file_type.is_dir() {
            if name.starts_with('.') || name == "target" {
                continue;
            }
            walk(&path, files)?;
        } else if path.extension().is_some_and(|e| e == "rs")
            && (file_type.is_file() || path.is_file())
        {
            files.push(path);
        }
    }
    Ok(())
}

/// Whether `file` starts like an executable or library (ELF, PE, Mach-O).
fn is_binary(file: &Path) -> bool {
    let mut head = [0u8; 16];
    let Ok(mut f) = fs::File::open(file) else {
        return false;
    };
    let n = std::io::Read::read(&mut f, &mut head).unwrap_or(0);
    head[..n].starts_with(b"\x7fELF")
        || head[..n].starts_with(b"MZ")
        || matches!(
            head[..n.min(4)],
            [0xfe, 0xed, 0xfa, 0xce | 0xcf]
                | [0xce | 0xcf, 0xfa, 0xed, 0xfe]
                | [0xca, 0xfe, 0xba, 0xbe]
        )
}

/// The declarations a built binary states in its manifest section (one record each, written by
/// `#[cuda_entry]`), whatever machine it was built for.
fn declarations_in_binary(file: &Path) -> Result<Vec<Declaration>, String> {
    use object::{Object, ObjectSection};
    let data = fs::read(file)
        .map_err(|e| format!("{}: cannot read: {}", file.display(), io_message(&e)))?;
    let binary = object::File::parse(&*data).map_err(|e| {
        format!(
            "{}: not a binary this command can read: {e}",
            file.display()
        )
    })?;
    let section_name = match binary.format() {
        object::BinaryFormat::Pe | object::BinaryFormat::Coff => ".cuentry",
        object::BinaryFormat::MachO => "__cuda_entry",
        _ => "cuda_entry",
    };
    let Some(section) = binary.section_by_name(section_name) else {
        return Ok(Vec::new()); // no #[cuda_entry] declaration was linked into it
    };
    let bytes = section.data().map_err(|e| {
        format!(
            "{}: cannot read section {section_name}: {e}",
            file.display()
        )
    })?;
    let records = cuda_entry::manifest::parse(bytes)
        .map_err(|e| format!("{}: malformed {section_name} section: {e}", file.display()))?;
    Ok(records
        .into_iter()
        .map(|r| Declaration {
            file: file.to_path_buf(),
            line: 0,
            function: format!("in {}", r.package),
            args: Ok(Args {
                symbol: r.symbol,
                version: r.version,
                per_thread: r.stream == cuda_entry::manifest::StreamCode::PerThread,
                runtime: r.resolver == cuda_entry::manifest::ResolverCode::Runtime,
                unverified: r.unverified,
            }),
            form_error: None,
        })
        .collect())
}

/// Reads and parses one file and returns its declarations, or a message naming the file.
fn declarations_in(file: &Path) -> Result<Vec<Declaration>, String> {
    let source = fs::read_to_string(file).map_err(|e| {
        format!(
            "{}: cannot read: {}",
            file.display(),
            match e.kind() {
                std::io::ErrorKind::InvalidData => "not UTF-8 text".to_owned(),
                _ => io_message(&e),
            }
        )
    })?;
    let ast = syn::parse_file(&source).map_err(|e| {
        let at = e.span().start();
        format!(
            "{}:{}:{}: not valid Rust, cannot look for declarations: {e}",
            file.display(),
            at.line,
            at.column + 1
        )
    })?;
    let mut finder = Finder {
        file,
        found: Vec::new(),
    };
    finder.visit_file(&ast);
    Ok(finder.found)
}

fn is_cuda_entry(attr: &Attribute) -> bool {
    attr.path()
        .segments
        .last()
        .is_some_and(|s| s.ident == "cuda_entry")
}

/// Walks a file's items, nested modules and function bodies included.
struct Finder<'a> {
    file: &'a Path,
    found: Vec<Declaration>,
}

impl Finder<'_> {
    /// Records each `#[cuda_entry...]` among `attrs` (more than one is itself a mistake).
    fn record(&mut self, attrs: &[Attribute], ident: &Ident, form_error: Option<String>) {
        let entries: Vec<&Attribute> = attrs.iter().filter(|a| is_cuda_entry(a)).collect();
        for (i, attr) in entries.iter().enumerate() {
            let form_error = if i > 0 {
                Some("duplicate `#[cuda_entry(...)]`: give it once".to_owned())
            } else {
                form_error.clone()
            };
            self.found.push(Declaration {
                file: self.file.to_path_buf(),
                line: attr.pound_token.spans[0].start().line,
                function: ident.to_string(),
                args: parse_args(attr),
                form_error,
            });
        }
    }
}

impl<'ast> Visit<'ast> for Finder<'_> {
    fn visit_item(&mut self, item: &'ast Item) {
        // `unsafe extern "C" fn f(...) -> R;` is not an item Rust has, so syn keeps it verbatim:
        // it is the attribute's single-declaration form.
        if let Item::Verbatim(tokens) = item
            && let Ok(f) = syn::parse2::<syn::ForeignItemFn>(tokens.clone())
        {
            self.record(&f.attrs, &f.sig.ident, None);
        }
        visit::visit_item(self, item);
    }

    fn visit_item_fn(&mut self, f: &'ast ItemFn) {
        self.record(
            &f.attrs,
            &f.sig.ident,
            Some(
                "the macro rejects a body: a declaration ends with `;`, the driver provides the \
                 function"
                    .to_owned(),
            ),
        );
        visit::visit_item_fn(self, f);
    }

    fn visit_item_foreign_mod(&mut self, block: &'ast ItemForeignMod) {
        let expanded = block.attrs.iter().any(is_cuda_entry);
        for item in &block.items {
            if let ForeignItem::Fn(f) = item {
                let form_error = (!expanded).then(|| {
                    "the `extern` block has no `#[cuda_entry]`: without it the declarations are \
                     linked against libcuda instead of resolved"
                        .to_owned()
                });
                self.record(&f.attrs, &f.sig.ident, form_error);
            }
        }
        visit::visit_item_foreign_mod(self, block);
    }
}

/// The arguments of `#[cuda_entry(...)]`, or the reason the macro rejects them.
fn parse_args(attr: &Attribute) -> Result<Args, String> {
    if !matches!(attr.meta, Meta::List(_)) {
        return Err(
            "`#[cuda_entry]` without arguments: write `#[cuda_entry(symbol = \"cuName\", version \
             = N)]` on the declaration"
                .to_owned(),
        );
    }
    let mut symbol = None;
    let mut version = None;
    let mut per_thread = false;
    let mut runtime = false;
    let mut unverified = false;
    attr.parse_nested_meta(|meta| {
        let name = meta
            .path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        match name.as_str() {
            "symbol" => symbol = Some(meta.value()?.parse::<LitStr>()?.value()),
            "version" => {
                let lit = meta.value()?.parse::<LitInt>()?;
                if !lit.suffix().is_empty() {
                    return Err(meta.error("the version must be a plain integer literal"));
                }
                let v = lit.base10_parse::<u32>()?;
                if !((1000..=99_990).contains(&v) && v % 10 == 0) {
                    return Err(meta.error(format!(
                        "`{v}` is not a CUDA version (1000 * major + 10 * minor)"
                    )));
                }
                version = Some(v);
            }
            "stream" => match meta.value()?.parse::<LitStr>()?.value().as_str() {
                "legacy" => per_thread = false,
                "per_thread" => per_thread = true,
                other => {
                    return Err(meta.error(format!(
                        "unknown stream `{other}`: `legacy` or `per_thread`"
                    )));
                }
            },
            "resolver" => match meta.value()?.parse::<LitStr>()?.value().as_str() {
                "driver" => runtime = false,
                "runtime" => runtime = true,
                other => {
                    return Err(
                        meta.error(format!("unknown resolver `{other}`: `driver` or `runtime`"))
                    );
                }
            },
            "unverified" => unverified = true,
            other => return Err(meta.error(format!("unknown argument `{other}`"))),
        }
        Ok(())
    })
    .map_err(|e| format!("the macro rejects the arguments: {e}"))?;
    let symbol = symbol.ok_or("the macro rejects it: no `symbol = \"cuName\"`")?;
    let version = version.ok_or("the macro rejects it: no `version = N`")?;
    Ok(Args {
        symbol,
        version,
        per_thread,
        runtime,
        unverified,
    })
}

/// What would happen to `d` against `driver`.
fn judge(d: &Declaration, driver: &Driver) -> Verdict {
    let mut verdict = Verdict {
        failure: None,
        notes: Vec::new(),
    };
    let fail = |kind, why: String| Verdict {
        failure: Some((kind, why)),
        notes: Vec::new(),
    };
    if let Some(why) = &d.form_error {
        return fail("macro_rejects", why.clone());
    }
    let args = match &d.args {
        Ok(args) => args,
        Err(why) => return fail("macro_rejects", why.clone()),
    };
    let known = !cuda_entry_table::lookup(&args.symbol).is_empty();
    match (known, args.unverified) {
        (false, false) => {
            return fail(
                "unknown_symbol",
                format!("the macro rejects it: {}", unknown_symbol(&args.symbol)),
            );
        }
        (true, true) => {
            let group = flavour(&args.symbol, args.per_thread);
            if group.iter().any(|t| t.version >= args.version) {
                return fail(
                    "macro_rejects",
                    format!(
                        "the macro rejects it: remove `unverified`, the typedef table knows `{}` \
                         at this version or a newer one",
                        args.symbol
                    ),
                );
            }
            verdict.notes.push(
                "unverified: a version newer than the typedef table, the signature is not checked"
                    .to_owned(),
            );
        }
        (true, false) => {
            let group = flavour(&args.symbol, args.per_thread);
            if !group.iter().any(|t| t.version == args.version) {
                let valid = if group.is_empty() {
                    format!(
                        "`{}` has no {} typedef",
                        args.symbol,
                        if args.per_thread {
                            "per-thread"
                        } else {
                            "legacy"
                        }
                    )
                } else {
                    format!("valid: {}", typedef_list(&group))
                };
                return fail(
                    "not_a_typedef",
                    format!(
                        "the macro rejects it: no {}typedef of `{}` has version {} ({valid})",
                        if args.per_thread { "per-thread " } else { "" },
                        args.symbol,
                        args.version
                    ),
                );
            }
            if let Some(newest) = group.last()
                && newest.version > args.version
            {
                let newer: Vec<String> = group
                    .iter()
                    .filter(|t| t.version > args.version)
                    .map(|t| t.version.to_string())
                    .collect();
                verdict.notes.push(format!(
                    "not the newest typedef: `{}` also has {} (fine when this is the signature \
                     written; newer ABIs exist)",
                    args.symbol,
                    newer.join(", ")
                ));
            }
        }
        (false, true) => verdict
            .notes
            .push("unverified: not in the typedef table, the signature is not checked".to_owned()),
    }
    match driver {
        Driver::Assumed(driver_version) => {
            if *driver_version < args.version {
                let first = cuda_entry_table::lookup(&args.symbol)
                    .iter()
                    .map(|t| t.version)
                    .min();
                let since = match first {
                    Some(first) if first > *driver_version => format!(
                        "; `{}` itself first appeared in {}",
                        args.symbol,
                        cuda(first)
                    ),
                    _ => String::new(),
                };
                verdict.failure = Some((
                    "driver_too_old",
                    format!(
                        "the driver ({}) is older than this ABI ({}): update the driver to >= \
                         {}{since}",
                        cuda(*driver_version),
                        cuda(args.version),
                        cuda(args.version)
                    ),
                ));
            } else if !known {
                verdict.notes.push(
                    "only the version was compared: run against a driver to know whether it \
                     serves the symbol"
                        .to_owned(),
                );
            }
        }
        Driver::Loaded(Err(error)) => {
            verdict.failure = Some((
                error_kind(error),
                "no usable CUDA driver on this machine (the driver line says why)".to_owned(),
            ));
        }
        Driver::Loaded(Ok(_)) => {
            let symbol = match static_symbol(&args.symbol) {
                Ok(symbol) => symbol,
                Err(why) => return fail("macro_rejects", why),
            };
            let resolver = if args.runtime {
                Resolver::Runtime
            } else {
                Resolver::Driver
            };
            if let Err(error) = entry(symbol, args.version, args.per_thread, resolver).resolve() {
                verdict.failure = Some((error_kind(&error), error_reason(&error)));
            }
        }
    }
    verdict
}

fn request(args: &Result<Args, String>) -> String {
    match args {
        Ok(a) => format!(
            "{}@{}{}{}{}",
            a.symbol,
            a.version,
            if a.per_thread { " per_thread" } else { "" },
            if a.runtime { " via runtime" } else { "" },
            if a.unverified { " unverified" } else { "" }
        ),
        Err(_) => "?".to_owned(),
    }
}

fn driver_line(driver: &Driver) -> String {
    match driver {
        Driver::Assumed(v) => format!(
            "driver: assumed {v} ({}), from --driver-version; none loaded, answers from the \
             typedef table",
            cuda(*v)
        ),
        Driver::Loaded(Ok(info)) => format!(
            "driver: {}{} reports {} ({})",
            info.path,
            if simulated() { " (SIMULATED)" } else { "" },
            info.version,
            cuda(info.version)
        ),
        Driver::Loaded(Err(e)) => format!(
            "driver: none usable: {e}\n(to check against a given version without a driver, pass \
             --driver-version N; to try the simulated driver, --simulated)"
        ),
    }
}

fn text(
    files: &[PathBuf],
    declarations: &[Declaration],
    verdicts: &[Verdict],
    driver: &Driver,
) -> String {
    let mut out = driver_line(driver);
    out.push('\n');
    for (d, v) in declarations.iter().zip(verdicts) {
        let at = if d.line == 0 {
            d.file.display().to_string()
        } else {
            format!("{}:{}", d.file.display(), d.line)
        };
        let head = format!(
            "{at}: {} `{}` {}",
            if v.failure.is_some() { "FAIL" } else { "ok  " },
            d.function,
            request(&d.args)
        );
        let mut parts = Vec::new();
        if let Some((_, why)) = &v.failure {
            parts.push(why.clone());
        }
        parts.extend(v.notes.iter().map(|n| format!("note: {n}")));
        if parts.is_empty() {
            out.push_str(&head);
        } else {
            out.push_str(&format!("{head}: {}", parts.join("; ")));
        }
        out.push('\n');
    }
    if let Some(line) = minimum_driver_line(declarations) {
        out.push_str(&line);
        out.push('\n');
    }
    let failed = verdicts.iter().filter(|v| v.failure.is_some()).count();
    let noted = verdicts.iter().filter(|v| !v.notes.is_empty()).count();
    out.push_str(&format!(
        "{} declaration{} in {} file{}: {} ok, {failed} would fail, {noted} with notes\n",
        declarations.len(),
        if declarations.len() == 1 { "" } else { "s" },
        files.len(),
        if files.len() == 1 { "" } else { "s" },
        declarations.len() - failed,
    ));
    out
}

/// The driver every declaration together needs, and the declarations that set it.
fn minimum_driver_line(declarations: &[Declaration]) -> Option<String> {
    let versions = declarations.iter().filter_map(|d| d.args.as_ref().ok());
    let minimum = versions.clone().map(|a| a.version).max()?;
    let mut set_by: Vec<String> = versions
        .filter(|a| a.version == minimum)
        .map(|a| a.symbol.clone())
        .collect();
    set_by.sort();
    set_by.dedup();
    Some(format!(
        "minimum driver: {minimum} ({}), set by {}",
        cuda(minimum),
        set_by.join(", ")
    ))
}

fn json(
    files: &[PathBuf],
    declarations: &[Declaration],
    verdicts: &[Verdict],
    driver: &Driver,
) -> Json {
    let driver_json = match driver {
        Driver::Assumed(v) => Json::object([
            ("source", Json::str("driver_version_option")),
            ("path", Json::Null),
            ("version", Json::Number((*v).into())),
            ("simulated", Json::Bool(false)),
            ("error", Json::Null),
        ]),
        Driver::Loaded(Ok(info)) => Json::object([
            ("source", Json::str("loaded")),
            ("path", Json::str(info.path.clone())),
            ("version", Json::Number(info.version.into())),
            ("simulated", Json::Bool(simulated())),
            ("error", Json::Null),
        ]),
        Driver::Loaded(Err(e)) => Json::object([
            ("source", Json::str("loaded")),
            ("path", Json::Null),
            ("version", Json::Null),
            ("simulated", Json::Bool(simulated())),
            ("error", Json::str(e.to_string())),
        ]),
    };
    let items = declarations
        .iter()
        .zip(verdicts)
        .map(|(d, v)| {
            let args = d.args.as_ref().ok();
            Json::object([
                ("file", Json::str(d.file.display().to_string())),
                ("line", Json::Number(d.line as u64)),
                ("function", Json::str(d.function.clone())),
                ("symbol", Json::opt_str(args.map(|a| a.symbol.clone()))),
                ("version", Json::opt_number(args.map(|a| a.version))),
                (
                    "stream",
                    Json::opt_str(args.map(|a| if a.per_thread { "per_thread" } else { "legacy" })),
                ),
                (
                    "resolver",
                    Json::opt_str(args.map(|a| if a.runtime { "runtime" } else { "driver" })),
                ),
                ("unverified", Json::Bool(args.is_some_and(|a| a.unverified))),
                (
                    "status",
                    Json::str(if v.failure.is_some() { "fail" } else { "ok" }),
                ),
                ("kind", Json::opt_str(v.failure.as_ref().map(|f| f.0))),
                (
                    "message",
                    Json::opt_str(v.failure.as_ref().map(|f| f.1.clone())),
                ),
                (
                    "notes",
                    Json::Array(v.notes.iter().map(|n| Json::str(n.clone())).collect()),
                ),
            ])
        })
        .collect();
    let failed = verdicts.iter().filter(|v| v.failure.is_some()).count();
    let minimum = declarations
        .iter()
        .filter_map(|d| d.args.as_ref().ok().map(|a| a.version))
        .max();
    Json::object([
        ("driver", driver_json),
        ("declarations", Json::Array(items)),
        (
            "minimum_driver",
            minimum.map_or(Json::Null, |v| Json::Number(v.into())),
        ),
        (
            "totals",
            Json::object([
                ("files", Json::Number(files.len() as u64)),
                ("declarations", Json::Number(declarations.len() as u64)),
                ("ok", Json::Number((declarations.len() - failed) as u64)),
                ("fail", Json::Number(failed as u64)),
                (
                    "with_notes",
                    Json::Number(verdicts.iter().filter(|v| !v.notes.is_empty()).count() as u64),
                ),
            ]),
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(source: &str) -> Vec<Declaration> {
        let ast = syn::parse_file(source).expect("parses");
        let mut finder = Finder {
            file: Path::new("x.rs"),
            found: Vec::new(),
        };
        finder.visit_file(&ast);
        finder.found
    }

    #[test]
    fn finds_both_forms_in_nested_modules() {
        let found = find(
            r#"
use cuda_entry::cuda_entry;
#[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
pub unsafe extern "C" fn mem_alloc(dptr: *mut u64, bytesize: usize) -> CUresult;

mod inner {
    #[cuda_entry::cuda_entry]
    unsafe extern "C" {
        #[cuda_entry(symbol = "cuLaunchKernel", version = 7000, stream = "per_thread")]
        fn launch(f: CUfunction) -> CUresult;
        fn unrelated();
    }
    fn body() {
        #[cuda_entry(symbol = "cuFuture", version = 14000, unverified, resolver = "runtime")]
        unsafe extern "C" fn future() -> CUresult;
    }
}
"#,
        );
        let lines: Vec<(usize, &str)> = found
            .iter()
            .map(|d| (d.line, d.function.as_str()))
            .collect();
        assert_eq!(lines, [(3, "mem_alloc"), (9, "launch"), (14, "future")]);
        assert_eq!(
            found[1].args,
            Ok(Args {
                symbol: "cuLaunchKernel".into(),
                version: 7000,
                per_thread: true,
                runtime: false,
                unverified: false,
            })
        );
        assert!(
            found[2]
                .args
                .as_ref()
                .is_ok_and(|a| a.unverified && a.runtime)
        );
        assert!(found.iter().all(|d| d.form_error.is_none()));
    }

    #[test]
    fn rejected_arguments_are_reported() {
        let found = find(
            r#"
#[cuda_entry(symbol = "cuMemAlloc", version = VERSION)]
unsafe extern "C" fn a() -> CUresult;
#[cuda_entry(symbol = "cuMemAlloc")]
unsafe extern "C" fn b() -> CUresult;
#[cuda_entry(symbol = "cuMemAlloc", version = 3021)]
unsafe extern "C" fn c() -> CUresult;
#[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
unsafe extern "C" fn d() -> CUresult { CUresult(0) }
"#,
        );
        assert_eq!(found.len(), 4);
        assert!(found[0].args.is_err());
        assert!(found[1].args.as_ref().is_err_and(|e| e.contains("version")));
        assert!(found[2].args.as_ref().is_err_and(|e| e.contains("3021")));
        assert!(found[3].form_error.is_some());
    }

    #[test]
    fn the_table_judges_without_a_driver() {
        let found = find(
            r#"
#[cuda_entry(symbol = "cuCtxCreate", version = 12050)]
unsafe extern "C" fn new(a: *mut CUcontext) -> CUresult;
#[cuda_entry(symbol = "cuCtxCreate", version = 3020)]
unsafe extern "C" fn old(a: *mut CUcontext) -> CUresult;
#[cuda_entry(symbol = "cuMemAloc", version = 3020)]
unsafe extern "C" fn typo() -> CUresult;
"#,
        );
        let at = |v| {
            found
                .iter()
                .map(|d| judge(d, &Driver::Assumed(v)))
                .collect::<Vec<_>>()
        };
        let old_driver = at(12040);
        assert_eq!(
            old_driver[0].failure.as_ref().map(|f| f.0),
            Some("driver_too_old")
        );
        assert!(old_driver[1].failure.is_none());
        assert_eq!(old_driver[1].notes.len(), 1);
        assert_eq!(
            old_driver[2].failure.as_ref().map(|f| f.0),
            Some("unknown_symbol")
        );
        assert!(
            old_driver[2]
                .failure
                .as_ref()
                .is_some_and(|f| f.1.contains("cuMemAlloc"))
        );
        assert!(at(13000)[0].failure.is_none());
    }
}
