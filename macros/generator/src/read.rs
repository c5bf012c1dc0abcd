//! Reads one toolkit: its `PFN_` typedefs, the measured types, the exports its headers declare
//! and its `CUresult` codes. Toolkits are independent, so they are read in parallel.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::parse::{self, Flavour, ParsedTypedef};
use crate::probe::{self, Compiler, Line};
use crate::{HEADERS, Key, Toolkit, callback, cpp, emit, exports, status, types};

/// What one toolkit's headers hold.
#[derive(Debug)]
pub(crate) struct Read {
    pub(crate) version: u32,
    /// The typedefs, with the header each is in (duplicates dropped, noted).
    pub(crate) typedefs: Vec<(&'static str, ParsedTypedef)>,
    /// `#define PFN_a PFN_b_v<N>` naming another symbol's typedef: (header, alias, target).
    pub(crate) aliases: Vec<(&'static str, String, String)>,
    pub(crate) measured: types::Measured,
    pub(crate) exports: BTreeMap<String, exports::Seen>,
    /// Declared `cu` functions without a typedef'd base symbol.
    pub(crate) unexplained: BTreeSet<String>,
    /// The typedef headers' `#define PFN_<export>` lines.
    pub(crate) evidence: Vec<(String, (String, u32, Flavour))>,
    pub(crate) statuses: Vec<status::Status>,
    pub(crate) notes: Vec<String>,
}

/// Reads every toolkit, `jobs` at a time, each with its own folder under `work`; in `toolkits`
/// order.
pub(crate) fn all(toolkits: &[Toolkit], cc: &str, work: &Path) -> Result<Vec<Read>, String> {
    let jobs = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(1, 8);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut results: Vec<Option<Result<Read, String>>> = Vec::new();
    results.resize_with(toolkits.len(), || None);
    let results = std::sync::Mutex::new(results);
    std::thread::scope(|s| {
        for _ in 0..jobs.min(toolkits.len()) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(tk) = toolkits.get(i) else { break };
                    let dir = work.join(tk.version.to_string());
                    let r = std::fs::create_dir_all(&dir)
                        .map_err(|e| format!("{}: {e}", dir.display()))
                        .and_then(|()| read(tk, cc, &dir));
                    if let Ok(mut all) = results.lock() {
                        all[i] = Some(r);
                    }
                }
            });
        }
    });
    results
        .into_inner()
        .map_err(|_| "a reader thread panicked".to_string())?
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err("a toolkit was not read".into())))
        .collect()
}

/// Reads one toolkit's headers and asks the compiler about them.
fn read(tk: &Toolkit, cc: &str, work: &Path) -> Result<Read, String> {
    let name = emit::toolkit_name(tk.version);
    let mut notes = Vec::new();
    let mut typedefs: Vec<(&'static str, ParsedTypedef)> = Vec::new();
    let mut aliases = Vec::new();
    let mut evidence = Vec::new();
    let mut keys: BTreeMap<Key, usize> = BTreeMap::new();
    for &header in HEADERS {
        let path = tk.header_dir.join(header);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                notes.push(format!("CUDA {name} has no {header}"));
                continue;
            }
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let file = path.display().to_string();
        let tds = parse::parse_header(&file, &text).map_err(|e| e.to_string())?;
        for (alias, target) in
            parse::cross_symbol_aliases(&file, &text).map_err(|e| e.to_string())?
        {
            aliases.push((header, alias, target));
        }
        evidence.extend(exports::header_evidence(&text));
        for td in tds {
            let key = (td.symbol.clone(), td.flavour, td.version);
            if let Some(&prev) = keys.get(&key) {
                let (ph, p) = &typedefs[prev];
                let same = crate::signature(p) == crate::signature(&td);
                notes.push(format!(
                    "CUDA {name}: {} declared twice ({ph}:{} and {header}:{}), {}; kept the first",
                    td.name(),
                    p.line,
                    td.line,
                    if same {
                        "same signature"
                    } else {
                        "DIFFERENT signatures"
                    }
                ));
                continue;
            }
            if td.unversioned {
                notes.push(format!(
                    "CUDA {name}: {header}:{}: typedef `PFN_{}` has no version suffix; took {} from its #define",
                    td.line,
                    td.symbol,
                    td.name()
                ));
            }
            if td.version % 10 != 0 {
                notes.push(format!(
                    "CUDA {name}: {header}:{}: {} has an odd version",
                    td.line,
                    td.name()
                ));
            }
            keys.insert(key, typedefs.len());
            typedefs.push((header, td));
        }
    }

    let compiler = Compiler {
        cc,
        includes: &tk.includes,
        work,
    };
    let in_tk = |e: String| format!("CUDA {name}: {e}");
    let plain =
        cpp::declarations("plain headers", &compiler.preprocess(&probe::PLAIN)?).map_err(in_tk)?;
    let internal = cpp::declarations("internal headers", &compiler.preprocess(&probe::INTERNAL)?)
        .map_err(in_tk)?;
    // Pointer typedefs for the pointees: the headers', and the stage preludes' (HGPUNV).
    let mut c_typedefs = plain.typedefs.clone();
    c_typedefs.extend(internal.typedefs.clone());
    for stage in probe::STAGES {
        let prelude = cpp::declarations(stage.name, stage.prelude).map_err(in_tk)?;
        c_typedefs.extend(prelude.typedefs);
    }

    let spellings: BTreeSet<String> = typedefs
        .iter()
        .flat_map(|(_, td)| std::iter::once(&td.ret).chain(td.params.iter().map(|p| &p.ty)))
        .map(|t| t.spelling.clone())
        .collect();
    let mut measured = types::measure(&compiler, &spellings, &c_typedefs).map_err(in_tk)?;
    // What the function pointers point to: the headers' function typedefs, then the stages'.
    let mut functions = plain.function_types.clone();
    for (name, f) in &internal.function_types {
        functions.entry(name.clone()).or_insert_with(|| f.clone());
    }
    callback::resolve(&compiler, &mut measured, &functions, &c_typedefs).map_err(in_tk)?;
    let mut by_stage: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (ty, stage) in &measured.stage_of {
        if *stage != probe::PLAIN.name {
            by_stage.entry(stage).or_default().push(ty);
        }
    }
    for (stage, tys) in by_stage {
        notes.push(format!(
            "CUDA {name}: measured with {stage}: {}",
            tys.join(", ")
        ));
    }

    let mut unexplained = BTreeSet::new();
    let tds: Vec<&ParsedTypedef> = typedefs.iter().map(|(_, td)| td).collect();
    let exports =
        exports::seen(&compiler, &plain, &internal, &tds, &mut unexplained).map_err(in_tk)?;

    let cuda_h = tk.header_dir.join("cuda.h");
    let text =
        std::fs::read_to_string(&cuda_h).map_err(|e| format!("{}: {e}", cuda_h.display()))?;
    let statuses = status::parse(&cuda_h.display().to_string(), &text)?;
    check_codes(&compiler, &statuses).map_err(in_tk)?;

    Ok(Read {
        version: tk.version,
        typedefs,
        aliases,
        measured,
        exports,
        unexplained,
        evidence,
        statuses,
        notes,
    })
}

/// The compiler's value of every `CUresult` enumerator must be the one read off cuda.h.
fn check_codes(compiler: &Compiler<'_>, statuses: &[status::Status]) -> Result<(), String> {
    let lines: Vec<Line> = statuses
        .iter()
        .enumerate()
        .map(|(item, s)| Line {
            item,
            setup: String::new(),
            format: "%lld",
            args: format!("(long long){}", s.name),
        })
        .collect();
    let key: Vec<usize> = (0..lines.len()).collect();
    let answers = compiler.staged(&[probe::PLAIN], lines.len(), &key, &lines)?;
    for (s, v) in statuses.iter().zip(&answers.values) {
        if v.as_deref() != Some(&[i64::from(s.code)]) {
            return Err(format!(
                "cuda.h:{}: {} = {} but the compiler says {v:?}\n{}",
                s.line, s.name, s.code, answers.last_errors
            ));
        }
    }
    Ok(())
}
