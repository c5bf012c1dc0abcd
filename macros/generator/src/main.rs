//! `cuda-entry-generator`: reads the `PFN_` typedefs of CUDA toolkit headers and writes the
//! typedef table of `cuda-entry-table` (`generated.rs`) and `docs/table.md`.
//!
//! Usage: `cuda-entry-generator [--rs OUT.rs] [--exports OUT.rs] [--statuses OUT.rs] [--md OUT.md]
//! [--cc CC] TOOLKIT_DIR...` where each `TOOLKIT_DIR` is an include folder with `cuda.h`, or a
//! folder holding unpacked wheels (`nvidia/*/include`). See `macros/generator/README.md`;
//! normally run by `regenerate.sh`.

mod callback;
mod cpp;
mod emit;
mod exports;
mod history;
mod markdown;
mod parse;
mod probe;
mod read;
mod status;
mod types;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use parse::{Flavour, ParsedTypedef};
use types::TypeInfo;

/// The typedef headers read from each toolkit.
const HEADERS: &[&str] = &[
    "cudaTypedefs.h",
    "cudaProfilerTypedefs.h",
    "cudaGLTypedefs.h",
    "cudaEGLTypedefs.h",
    "cudaVDPAUTypedefs.h",
];

/// One toolkit's headers.
#[derive(Debug)]
struct Toolkit {
    /// `1000 * major + 10 * minor` (`CUDA_VERSION` of its cuda.h).
    version: u32,
    /// The folder with cuda.h and the typedef headers.
    header_dir: PathBuf,
    /// Every include folder of the toolkit (the runtime's and the profiler API's).
    includes: Vec<PathBuf>,
}

/// A typedef merged over every toolkit that has it.
#[derive(Debug)]
struct Entry {
    /// As read from the newest toolkit that has it.
    td: ParsedTypedef,
    header: &'static str,
    /// The return type then each parameter type, measured in that newest toolkit.
    types: Vec<TypeInfo>,
    /// The toolkits whose headers have it, ascending.
    seen: Vec<u32>,
}

type Key = (String, Flavour, u32);

/// The merged table plus what was odd in the headers.
#[derive(Debug, Default)]
struct Table {
    toolkits: Vec<u32>,
    entries: BTreeMap<Key, Entry>,
    /// Every export the headers declare whose typedef was pinned, sorted by name.
    exports: Vec<exports::Export>,
    /// The `CUresult` codes, sorted by code.
    statuses: Vec<status::Status>,
    /// Every layout of every type, per toolkit.
    history: history::History,
    notes: Vec<String>,
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cuda-entry-generator: error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let mut rs = None;
    let mut exports_rs = None;
    let mut statuses_rs = None;
    let mut md = None;
    let mut cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let mut dirs = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rs" => rs = Some(PathBuf::from(args.next().ok_or("--rs needs a path")?)),
            "--exports" => {
                exports_rs = Some(PathBuf::from(args.next().ok_or("--exports needs a path")?));
            }
            "--statuses" => {
                statuses_rs = Some(PathBuf::from(args.next().ok_or("--statuses needs a path")?));
            }
            "--md" => md = Some(PathBuf::from(args.next().ok_or("--md needs a path")?)),
            "--cc" => cc = args.next().ok_or("--cc needs a compiler")?,
            "-h" | "--help" => {
                println!(
                    "usage: cuda-entry-generator [--rs OUT.rs] [--exports OUT.rs] [--statuses OUT.rs] \
                     [--md OUT.md] [--cc CC] TOOLKIT_DIR..."
                );
                return Ok(());
            }
            s if s.starts_with('-') => return Err(format!("unknown option {s}")),
            _ => dirs.push(PathBuf::from(a)),
        }
    }
    if dirs.is_empty() {
        return Err("no toolkit folders given (try --help)".into());
    }
    let mut toolkits = dirs
        .iter()
        .map(|d| find_toolkit(d))
        .collect::<Result<Vec<_>, _>>()?;
    toolkits.sort_by_key(|t| t.version);
    if let Some(w) = toolkits.windows(2).find(|w| w[0].version == w[1].version) {
        return Err(format!(
            "{} and {} are both toolkit {}",
            w[0].header_dir.display(),
            w[1].header_dir.display(),
            emit::toolkit_name(w[0].version)
        ));
    }
    let work = std::env::temp_dir().join(format!("cuda-entry-generator-{}", std::process::id()));
    std::fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    let table = build(&toolkits, &cc, &work);
    let _ = std::fs::remove_dir_all(&work);
    let table = table?;

    let from_newest = table
        .entries
        .values()
        .filter(|e| e.seen.last() == table.toolkits.last())
        .count();
    eprintln!(
        "cuda-entry-generator: {} typedefs ({} symbols) from {} toolkits; {} in the newest ({})",
        table.entries.len(),
        table
            .entries
            .keys()
            .map(|k| &k.0)
            .collect::<BTreeSet<_>>()
            .len(),
        table.toolkits.len(),
        from_newest,
        emit::toolkit_name(*table.toolkits.last().unwrap_or(&0)),
    );
    eprintln!(
        "cuda-entry-generator: {} exports mapped to their typedef, {} CUresult codes",
        table.exports.len(),
        table.statuses.len()
    );
    for n in &table.notes {
        eprintln!("note: {n}");
    }
    if let Some(p) = rs {
        std::fs::write(&p, emit::rust(&table)).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    if let Some(p) = exports_rs {
        std::fs::write(&p, emit::exports(&table)).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    if let Some(p) = statuses_rs {
        std::fs::write(&p, emit::statuses(&table)).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    if let Some(p) = md {
        std::fs::write(&p, markdown::markdown(&table))
            .map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(())
}

/// Finds cuda.h (in `dir` or `dir/nvidia/*/include`) and reads `CUDA_VERSION`.
fn find_toolkit(dir: &Path) -> Result<Toolkit, String> {
    let mut includes = Vec::new();
    if dir.join("cuda.h").is_file() {
        includes.push(dir.to_path_buf());
    } else {
        let nvidia = dir.join("nvidia");
        let rd = std::fs::read_dir(&nvidia).map_err(|e| {
            format!(
                "{}: no cuda.h, and {}: {e}",
                dir.display(),
                nvidia.display()
            )
        })?;
        for e in rd.flatten() {
            let inc = e.path().join("include");
            if inc.is_dir() {
                includes.push(inc);
            }
        }
        includes.sort();
    }
    let header_dir = includes
        .iter()
        .find(|d| d.join("cuda.h").is_file())
        .cloned()
        .ok_or_else(|| format!("{}: no cuda.h found", dir.display()))?;
    let cuda_h = header_dir.join("cuda.h");
    let text =
        std::fs::read_to_string(&cuda_h).map_err(|e| format!("{}: {e}", cuda_h.display()))?;
    let version = text
        .lines()
        .find_map(|l| {
            let mut w = l.split_whitespace();
            (w.next() == Some("#define") && w.next() == Some("CUDA_VERSION"))
                .then(|| w.next()?.parse::<u32>().ok())?
        })
        .ok_or_else(|| format!("{}: no `#define CUDA_VERSION <number>`", cuda_h.display()))?;
    Ok(Toolkit {
        version,
        header_dir,
        includes,
    })
}

/// Reads, measures and merges every toolkit (ascending).
fn build(toolkits: &[Toolkit], cc: &str, work: &Path) -> Result<Table, String> {
    let reads = read::all(toolkits, cc, work)?;
    let mut table = Table::default();
    let mut aliases: BTreeMap<(&str, String, String), Vec<u32>> = BTreeMap::new();
    let mut seen_exports: BTreeMap<String, (exports::Seen, u32)> = BTreeMap::new();
    let mut evidence = BTreeMap::new();
    let mut unexplained = BTreeSet::new();
    let mut statuses: BTreeMap<String, (status::Status, u32)> = BTreeMap::new();
    for r in reads {
        let name = emit::toolkit_name(r.version);
        table.notes.extend(r.notes);
        for (header, alias, target) in r.aliases {
            aliases
                .entry((header, alias, target))
                .or_default()
                .push(r.version);
        }
        for t in r.measured.types.values() {
            history::record(&mut table.history, r.version, t);
        }
        for (header, td) in r.typedefs {
            let types = std::iter::once(&td.ret)
                .chain(td.params.iter().map(|p| &p.ty))
                .map(|t| {
                    r.measured
                        .types
                        .get(&t.spelling)
                        .cloned()
                        .ok_or_else(|| format!("`{}` not measured", t.spelling))
                })
                .collect::<Result<Vec<_>, _>>()?;
            merge_typedef(&mut table, &name, r.version, header, td, types);
        }
        for (export, s) in r.exports {
            if let Some((old, last)) = seen_exports.get(&export)
                && (old.base != s.base || old.compatible.iter().any(|v| !s.compatible.contains(v)))
            {
                table.notes.push(format!(
                    "export {export}: compatible with {} {:?} in CUDA {}, with {} {:?} in CUDA {name}",
                    old.base,
                    old.compatible,
                    emit::toolkit_name(*last),
                    s.base,
                    s.compatible
                ));
            }
            seen_exports.insert(export, (s, r.version));
        }
        evidence.extend(r.evidence);
        unexplained.extend(r.unexplained);
        for s in r.statuses {
            if let Some((old, _)) = statuses.get(&s.name)
                && old.code != s.code
            {
                table.notes.push(format!(
                    "{} changed from {} to {} in CUDA {name}; kept the newest",
                    s.name, old.code, s.code
                ));
            }
            statuses.insert(s.name.clone(), (s, r.version));
        }
        table.toolkits.push(r.version);
    }
    for ((header, alias, target), tks) in aliases {
        let (f, l) = (
            tks.first().copied().unwrap_or(0),
            tks.last().copied().unwrap_or(0),
        );
        table.notes.push(format!(
            "{header} of CUDA {}-{}: #define {alias} {target} (another symbol's typedef)",
            emit::toolkit_name(f),
            emit::toolkit_name(l)
        ));
    }
    for e in table.entries.values() {
        let first = table
            .toolkits
            .iter()
            .position(|v| Some(v) == e.seen.first());
        let last = table.toolkits.iter().position(|v| Some(v) == e.seen.last());
        if let (Some(f), Some(l)) = (first, last)
            && l + 1 - f != e.seen.len()
        {
            let seen: Vec<String> = e.seen.iter().map(|v| emit::toolkit_name(*v)).collect();
            table.notes.push(format!(
                "{} is missing from some toolkits in between (seen in {})",
                e.td.name(),
                seen.join(", ")
            ));
        }
    }
    let newest: BTreeMap<String, exports::Seen> = seen_exports
        .iter()
        .map(|(name, (s, _))| (name.clone(), s.clone()))
        .collect();
    let (resolved, notes) = exports::resolve(&newest, &evidence);
    table.exports = resolved;
    table.notes.extend(notes);
    for name in &unexplained {
        if !seen_exports.contains_key(name) {
            table.notes.push(format!(
                "export {name}: declared, but no typedef has its base symbol"
            ));
        }
    }
    table.statuses = by_code(statuses, &mut table.notes);
    Ok(table)
}

/// Adds one toolkit's typedef to the table: the newest toolkit's signature and types win.
fn merge_typedef(
    table: &mut Table,
    name: &str,
    version: u32,
    header: &'static str,
    td: ParsedTypedef,
    types: Vec<TypeInfo>,
) {
    let key = (td.symbol.clone(), td.flavour, td.version);
    match table.entries.get_mut(&key) {
        Some(e) => {
            let old = emit::toolkit_name(*e.seen.last().unwrap_or(&0));
            if signature(&e.td) != signature(&td) {
                table.notes.push(format!(
                    "{} changed signature: CUDA {old} ({}) -> CUDA {name} ({}); kept the newest",
                    td.name(),
                    show(&e.td),
                    show(&td)
                ));
            } else if e.types != types {
                let changed: Vec<String> = e
                    .types
                    .iter()
                    .zip(&types)
                    .filter(|(a, b)| a != b)
                    .map(|(a, b)| format!("{} -> {}", types::brief(a), types::brief(b)))
                    .collect();
                table.notes.push(format!(
                    "{}: types changed from CUDA {old} to {name} ({}); kept the newest, and every \
                     layout with its toolkits",
                    td.name(),
                    changed.join("; ")
                ));
            } else if names(&e.td) != names(&td) {
                table.notes.push(format!(
                    "{}: parameter names changed from CUDA {old} to {name} ({} -> {})",
                    td.name(),
                    names(&e.td).join(", "),
                    names(&td).join(", ")
                ));
            }
            if e.header != header {
                table.notes.push(format!(
                    "{} moved from {} to {header} in CUDA {name}",
                    td.name(),
                    e.header
                ));
            }
            e.td = td;
            e.header = header;
            e.types = types;
            e.seen.push(version);
        }
        None => {
            table.entries.insert(
                key,
                Entry {
                    td,
                    header,
                    types,
                    seen: vec![version],
                },
            );
        }
    }
}

/// The newest enumerator of each name, sorted by code; of two names with one code, the one the
/// newer toolkit has (noted).
fn by_code(
    statuses: BTreeMap<String, (status::Status, u32)>,
    notes: &mut Vec<String>,
) -> Vec<status::Status> {
    let mut codes: BTreeMap<i32, (status::Status, u32)> = BTreeMap::new();
    for (s, last) in statuses.into_values() {
        match codes.get(&s.code) {
            Some((kept, kept_last)) if *kept_last >= last => notes.push(format!(
                "CUresult {}: {} (last in CUDA {}) and {} (last in CUDA {}); kept {}",
                s.code,
                kept.name,
                emit::toolkit_name(*kept_last),
                s.name,
                emit::toolkit_name(last),
                kept.name
            )),
            _ => {
                codes.insert(s.code, (s, last));
            }
        }
    }
    codes.into_values().map(|(s, _)| s).collect()
}

/// The ABI-relevant part of a signature: return and parameter type spellings.
fn signature(td: &ParsedTypedef) -> Vec<&parse::CTy> {
    std::iter::once(&td.ret)
        .chain(td.params.iter().map(|p| &p.ty))
        .collect()
}

fn names(td: &ParsedTypedef) -> Vec<&str> {
    td.params.iter().map(|p| p.name.as_str()).collect()
}

fn show(td: &ParsedTypedef) -> String {
    td.params
        .iter()
        .map(|p| format!("{} {}", p.ty.spelling, p.name))
        .collect::<Vec<_>>()
        .join(", ")
}
