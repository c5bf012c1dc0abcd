//! `cuda-entry probe`: which typedef versions this machine's driver serves, symbol by symbol.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use cuda_entry::{Bootstrap, DriverInfo, Error, ErrorKind, Resolver};
use cuda_entry_table::{Cuda, Typedef};
use serde_json::{Value, json};

use cuda_entry_table::rules::{Reader, oldest_first as flavour, release, unknown_symbol};

use crate::common::{CliError, entry, simulated, static_symbol};
use crate::exit;
use crate::output;
use crate::shown::shown;

/// What the driver answered for one flavour group (legacy or per-thread) of one symbol.
#[derive(Debug)]
enum Answer {
    /// The newest version it serves; `newer` lists the table's versions above the driver, which
    /// were not asked.
    Served { version: u32, newer: Vec<u32> },
    /// Every version at or below the driver was asked and refused; the error is the answer for
    /// the oldest version asked (or the first definitive one).
    Refused { error: Error, newer: Vec<u32> },
    /// Every typedef of the group is newer than the driver: nothing was asked.
    NewerThanDriver { oldest: u32 },
}

/// One symbol's answers; `None` where the table has no typedef of that flavour.
#[derive(Debug)]
struct Row {
    symbol: &'static str,
    legacy: Option<Answer>,
    per_thread: Option<Answer>,
}

/// How a symbol counts in the totals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Served,
    NotServed,
    NewerThanDriver,
}

impl Row {
    fn verdict(&self) -> Verdict {
        let answers = [&self.legacy, &self.per_thread];
        let answers = answers.iter().filter_map(|a| a.as_ref());
        let mut all_newer = true;
        for answer in answers {
            match answer {
                Answer::Served { .. } => return Verdict::Served,
                Answer::Refused { .. } => all_newer = false,
                Answer::NewerThanDriver { .. } => {}
            }
        }
        if all_newer {
            Verdict::NewerThanDriver
        } else {
            Verdict::NotServed
        }
    }
}

/// Options of `probe`.
#[derive(Debug)]
pub(crate) struct Options {
    pub(crate) symbols: Vec<String>,
    pub(crate) json: bool,
}

pub(crate) fn run(options: &Options) -> Result<ExitCode, CliError> {
    let symbols = selected(&options.symbols)?;
    let info = cuda_entry::driver_info().map_err(|e| {
        if crate::common::simulated() {
            CliError::Failed(format!("{e} (the simulated driver, as --simulated asked)"))
        } else {
            CliError::Failed(format!(
                "{e}\nto see what this command reports without a GPU, add --simulated"
            ))
        }
    })?;
    let progress = std::io::stdout().is_terminal();
    let mut rows = Vec::with_capacity(symbols.len());
    for (i, symbol) in symbols.iter().enumerate() {
        if progress {
            draw_progress(i, symbols.len(), symbol);
        }
        rows.push(probe_symbol(symbol, info.version)?);
    }
    if progress {
        clear_progress();
    }
    let out = if options.json {
        output::json(&json(&info, &rows))
    } else {
        text(&info, &rows)
    };
    output::print(&out)?;
    Ok(exit::code(exit::SUCCESS))
}

/// The symbols asked for, in table order, or every table symbol.
fn selected(asked: &[String]) -> Result<Vec<&'static str>, CliError> {
    if asked.is_empty() {
        return Ok(cuda_entry_table::symbols().collect());
    }
    let mut unknown = Vec::new();
    let mut out = Vec::new();
    for name in asked {
        match cuda_entry_table::lookup(name).first() {
            Some(t) if !out.contains(&t.symbol) => out.push(t.symbol),
            Some(_) => {}
            None => unknown.push(unknown_symbol(name, Reader::Command)),
        }
    }
    if !unknown.is_empty() {
        return Err(CliError::BadInput(unknown.join("\n")));
    }
    Ok(out)
}

fn probe_symbol(symbol: &'static str, driver: u32) -> Result<Row, CliError> {
    let c_symbol = static_symbol(symbol).map_err(CliError::Failed)?;
    let group = |per_thread: bool| {
        let typedefs = flavour(symbol, per_thread);
        (!typedefs.is_empty()).then(|| probe_group(c_symbol, &typedefs, per_thread, driver))
    };
    Ok(Row {
        symbol,
        legacy: group(false),
        per_thread: group(true),
    })
}

/// Asks for the group's versions newest first, skipping those above the driver, and stops at the
/// first success (or at a definitive "the driver does not know this symbol").
fn probe_group(
    symbol: &'static std::ffi::CStr,
    typedefs: &[&Typedef],
    per_thread: bool,
    driver: u32,
) -> Answer {
    let newer: Vec<u32> = typedefs
        .iter()
        .map(|t| t.version)
        .filter(|&v| v > driver)
        .collect();
    let mut last_error = None;
    for t in typedefs.iter().rev().filter(|t| t.version <= driver) {
        // A fresh entry each time: an entry caches its first answer for the life of the process.
        match entry(symbol, t.version, per_thread, Resolver::Driver).resolve() {
            Ok(_) => {
                return Answer::Served {
                    version: t.version,
                    newer,
                };
            }
            Err(error) => {
                let definitive = error.kind() == &ErrorKind::SymbolNotFound;
                last_error = Some(error);
                if definitive {
                    break;
                }
            }
        }
    }
    match last_error {
        Some(error) => Answer::Refused { error, newer },
        None => Answer::NewerThanDriver {
            oldest: typedefs.first().map_or(0, |t| t.version),
        },
    }
}

fn bootstrap_name(bootstrap: Bootstrap) -> &'static str {
    match bootstrap {
        Bootstrap::GetProcAddressV2 => "cuGetProcAddress_v2",
        Bootstrap::GetProcAddress => "cuGetProcAddress",
        Bootstrap::ExportName => "export names",
        _ => "unknown",
    }
}

fn bootstrap_note(bootstrap: Bootstrap) -> &'static str {
    match bootstrap {
        Bootstrap::GetProcAddressV2 => " (CUDA 12.0+: answers say why a request is refused)",
        Bootstrap::GetProcAddress => {
            " (CUDA 11.3-11.8: an unknown symbol and a too-low version both answer NOT_FOUND)"
        }
        Bootstrap::ExportName => {
            " (before CUDA 11.3, no cuGetProcAddress: each typedef is the export the headers name \
             for it)"
        }
        _ => "",
    }
}

/// A table cell: the served version, or why not.
fn cell(answer: Option<&Answer>) -> String {
    match answer {
        None => "-".to_owned(),
        Some(Answer::Served { version, .. }) => version.to_string(),
        Some(Answer::Refused { error, .. }) => match error.kind() {
            ErrorKind::VersionNotSufficient => "not sufficient".to_owned(),
            ErrorKind::NotFoundByLegacyQuery => "not found".to_owned(),
            _ => error.kind().name().replace('_', " "),
        },
        Some(Answer::NewerThanDriver { oldest }) => format!("needs {}", Cuda(*oldest)),
    }
}

/// The versions not asked because they are newer than the driver, for the note column.
fn newer_note(row: &Row) -> String {
    let mut parts = Vec::new();
    for (label, answer) in [("legacy", &row.legacy), ("per-thread", &row.per_thread)] {
        let newer = match answer {
            Some(Answer::Served { newer, .. } | Answer::Refused { newer, .. }) => newer,
            _ => continue,
        };
        if !newer.is_empty() {
            let list: Vec<String> = newer.iter().map(u32::to_string).collect();
            parts.push(format!("{label} {} newer than the driver", list.join(", ")));
        }
    }
    parts.join("; ")
}

fn totals(rows: &[Row]) -> (usize, usize, usize) {
    let count = |v: Verdict| rows.iter().filter(|r| r.verdict() == v).count();
    (
        count(Verdict::Served),
        count(Verdict::NotServed),
        count(Verdict::NewerThanDriver),
    )
}

fn text(info: &DriverInfo, rows: &[Row]) -> String {
    let mut out = String::new();
    let kind = if simulated() { "  (SIMULATED)" } else { "" };
    out.push_str(&format!("driver     {}{kind}\n", shown(&info.path)));
    out.push_str(&format!(
        "version    {} ({})\n",
        info.version,
        Cuda(info.version)
    ));
    out.push_str(&format!(
        "bootstrap  {}{}\n\n",
        bootstrap_name(info.bootstrap),
        bootstrap_note(info.bootstrap)
    ));
    let cells: Vec<(String, String, String)> = rows
        .iter()
        .map(|r| {
            (
                cell(r.legacy.as_ref()),
                cell(r.per_thread.as_ref()),
                newer_note(r),
            )
        })
        .collect();
    let width = |header: &str, f: &dyn Fn(usize) -> usize| {
        (0..rows.len()).map(f).max().unwrap_or(0).max(header.len())
    };
    let w_symbol = width("symbol", &|i| rows[i].symbol.len());
    let w_legacy = width("legacy", &|i| cells[i].0.len());
    let w_thread = width("per-thread", &|i| cells[i].1.len());
    let line = |a: &str, b: &str, c: &str, d: &str| {
        format!("{a:<w_symbol$}  {b:<w_legacy$}  {c:<w_thread$}  {d}")
            .trim_end()
            .to_owned()
            + "\n"
    };
    out.push_str(&line("symbol", "legacy", "per-thread", "note"));
    for (row, (legacy, thread, note)) in rows.iter().zip(&cells) {
        out.push_str(&line(row.symbol, legacy, thread, note));
    }
    let (served, not_served, newer) = totals(rows);
    out.push_str(&format!(
        "\n{} symbols: {served} served, {not_served} not served, {newer} newer than the driver \
         ({})\n",
        rows.len(),
        Cuda(info.version)
    ));
    out
}

fn answer_json(answer: Option<&Answer>, typedefs: Vec<&Typedef>) -> Value {
    let Some(answer) = answer else {
        return Value::Null;
    };
    let (status, version, newer, message) = match answer {
        Answer::Served { version, newer } => ("served", Some(*version), newer.clone(), None),
        Answer::Refused { error, newer } => (
            error.kind().name(),
            None,
            newer.clone(),
            Some(error.reason()),
        ),
        Answer::NewerThanDriver { .. } => (
            "newer_than_driver",
            None,
            typedefs.iter().map(|t| t.version).collect(),
            None,
        ),
    };
    let typedefs: Vec<u32> = typedefs.iter().map(|t| t.version).collect();
    json!({
        "status": status,
        "version": version,
        "typedefs": typedefs,
        "newer_than_driver": newer,
        "message": message,
    })
}

fn json(info: &DriverInfo, rows: &[Row]) -> Value {
    let (served, not_served, newer) = totals(rows);
    let symbols: Vec<Value> = rows
        .iter()
        .map(|r| {
            json!({
                "symbol": r.symbol,
                "status": match r.verdict() {
                    Verdict::Served => "served",
                    Verdict::NotServed => "not_served",
                    Verdict::NewerThanDriver => "newer_than_driver",
                },
                "legacy": answer_json(r.legacy.as_ref(), flavour(r.symbol, false)),
                "per_thread": answer_json(r.per_thread.as_ref(), flavour(r.symbol, true)),
            })
        })
        .collect();
    json!({
        "driver": {
            "path": info.path,
            "version": info.version,
            "cuda": release(info.version),
            "bootstrap": bootstrap_name(info.bootstrap),
            "simulated": simulated(),
        },
        "symbols": symbols,
        "totals": {
            "symbols": rows.len(),
            "served": served,
            "not_served": not_served,
            "newer_than_driver": newer,
        },
    })
}

/// `[=========>          ]  312/724  cuMemAlloc`, redrawn in place on stderr.
fn draw_progress(done: usize, total: usize, symbol: &str) {
    const WIDTH: usize = 30;
    let filled = (done * WIDTH).checked_div(total).unwrap_or(0);
    let bar: String = (0..WIDTH)
        .map(|i| match i.cmp(&filled) {
            std::cmp::Ordering::Less => '=',
            std::cmp::Ordering::Equal => '>',
            std::cmp::Ordering::Greater => ' ',
        })
        .collect();
    let mut err = std::io::stderr().lock();
    let _ = write!(err, "\r[{bar}] {done:>4}/{total}  {symbol:<48}");
    let _ = err.flush();
}

fn clear_progress() {
    let mut err = std::io::stderr().lock();
    let _ = write!(err, "\r{:<100}\r", "");
    let _ = err.flush();
}
