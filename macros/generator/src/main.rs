//! `cuda-entry-generator`: reads the `PFN_` typedefs of CUDA toolkit headers and writes the
//! typedef table of `cuda-entry-table` (`generated.rs`) and `docs/table.md`.
//!
//! Usage: `cuda-entry-generator [--rs OUT.rs] [--md OUT.md] [--cc CC] TOOLKIT_DIR...` where each
//! `TOOLKIT_DIR` is an include folder with `cuda.h`, or a folder holding unpacked wheels
//! (`nvidia/*/include`). See `macros/generator/README.md`; normally run by `regenerate.sh`.

mod emit;
mod parse;
mod probe;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use parse::{Flavour, ParsedTypedef};
use probe::Layout;

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
    /// Layouts of the return type then each parameter, from that newest toolkit.
    layouts: Vec<Layout>,
    /// The toolkits whose headers have it, ascending.
    seen: Vec<u32>,
}

type Key = (String, Flavour, u32);

/// The merged table plus what was odd in the headers.
#[derive(Debug, Default)]
struct Table {
    toolkits: Vec<u32>,
    entries: BTreeMap<Key, Entry>,
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
    let mut md = None;
    let mut cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let mut dirs = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rs" => rs = Some(PathBuf::from(args.next().ok_or("--rs needs a path")?)),
            "--md" => md = Some(PathBuf::from(args.next().ok_or("--md needs a path")?)),
            "--cc" => cc = args.next().ok_or("--cc needs a compiler")?,
            "-h" | "--help" => {
                println!(
                    "usage: cuda-entry-generator [--rs OUT.rs] [--md OUT.md] [--cc CC] TOOLKIT_DIR..."
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
    for n in &table.notes {
        eprintln!("note: {n}");
    }
    if let Some(p) = rs {
        std::fs::write(&p, emit::rust(&table)).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    if let Some(p) = md {
        std::fs::write(&p, emit::markdown(&table)).map_err(|e| format!("{}: {e}", p.display()))?;
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
    let mut table = Table::default();
    let mut aliases: BTreeMap<(&str, String, String), Vec<u32>> = BTreeMap::new();
    for tk in toolkits {
        let name = emit::toolkit_name(tk.version);
        let mut read: Vec<(&'static str, ParsedTypedef)> = Vec::new();
        let mut keys: BTreeMap<Key, usize> = BTreeMap::new();
        for &header in HEADERS {
            let path = tk.header_dir.join(header);
            let text = match std::fs::read_to_string(&path) {
                Ok(t) => t,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    table.notes.push(format!("CUDA {name} has no {header}"));
                    continue;
                }
                Err(e) => return Err(format!("{}: {e}", path.display())),
            };
            let file = path.display().to_string();
            let tds = parse::parse_header(&file, &text).map_err(|e| e.to_string())?;
            for (alias, target) in
                parse::cross_symbol_aliases(&file, &text).map_err(|e| e.to_string())?
            {
                aliases
                    .entry((header, alias, target))
                    .or_default()
                    .push(tk.version);
            }
            for td in tds {
                let key = (td.symbol.clone(), td.flavour, td.version);
                if let Some(&prev) = keys.get(&key) {
                    let (ph, p) = &read[prev];
                    let same = signature(p) == signature(&td);
                    table.notes.push(format!(
                        "CUDA {name}: {} declared twice ({ph}:{} and {header}:{}), {}; kept the first",
                        td.name(),
                        p.line,
                        td.line,
                        if same { "same signature" } else { "DIFFERENT signatures" }
                    ));
                    continue;
                }
                if td.unversioned {
                    table.notes.push(format!(
                        "CUDA {name}: {header}:{}: typedef `PFN_{}` has no version suffix; took {} from its #define",
                        td.line,
                        td.symbol,
                        td.name()
                    ));
                }
                if td.version % 10 != 0 {
                    table.notes.push(format!(
                        "CUDA {name}: {header}:{}: {} has an odd version",
                        td.line,
                        td.name()
                    ));
                }
                keys.insert(key, read.len());
                read.push((header, td));
            }
        }
        let types: BTreeSet<String> = read
            .iter()
            .flat_map(|(_, td)| std::iter::once(&td.ret).chain(td.params.iter().map(|p| &p.ty)))
            .map(|t| t.spelling.clone())
            .collect();
        let measured = probe::measure(cc, &tk.includes, &types, work)
            .map_err(|e| format!("CUDA {name}: {e}"))?;
        let mut by_stage: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (ty, stage) in &measured.stage_of {
            if *stage != "plain" && *stage != "none" {
                by_stage.entry(stage).or_default().push(ty);
            }
        }
        for (stage, tys) in by_stage {
            table.notes.push(format!(
                "CUDA {name}: measured with {stage}: {}",
                tys.join(", ")
            ));
        }
        for (header, td) in read {
            let layouts = std::iter::once(&td.ret)
                .chain(td.params.iter().map(|p| &p.ty))
                .map(|t| {
                    measured
                        .layouts
                        .get(&t.spelling)
                        .copied()
                        .ok_or_else(|| format!("`{}` not measured", t.spelling))
                })
                .collect::<Result<Vec<_>, _>>()?;
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
                    } else if e.layouts != layouts {
                        table.notes.push(format!(
                            "{}: type sizes changed from CUDA {old} to {name} ({:?} -> {:?}); kept the newest",
                            td.name(),
                            e.layouts,
                            layouts
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
                    e.layouts = layouts;
                    e.seen.push(tk.version);
                }
                None => {
                    table.entries.insert(
                        key,
                        Entry {
                            td,
                            header,
                            layouts,
                            seen: vec![tk.version],
                        },
                    );
                }
            }
        }
        table.toolkits.push(tk.version);
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
    Ok(table)
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
