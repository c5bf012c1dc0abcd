//! The ratios of this run, from the estimates criterion just wrote (`<dir>/<group>/<id>/new/
//! estimates.json`, the median time per iteration and its 95% confidence interval).
//!
//! A ratio above its target whose confidence intervals still reach the target is reported as
//! `noise` rather than `MISS`.

use std::fmt::Write as _;
use std::path::Path;
use std::time::SystemTime;

use crate::fresh::Load;

/// A criterion median with its confidence interval, in nanoseconds per iteration.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Estimate {
    pub(crate) median: f64,
    lower: f64,
    upper: f64,
}

/// Reads one benchmark's estimate, if this run (started at `since`) wrote it.
pub(crate) fn estimate(dir: &Path, group: &str, id: &str, since: SystemTime) -> Option<Estimate> {
    let file = dir.join(group).join(id).join("new").join("estimates.json");
    let modified = std::fs::metadata(&file).and_then(|m| m.modified()).ok()?;
    if modified < since {
        return None; // left by an earlier run (this one was filtered)
    }
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).ok()?).ok()?;
    let median = &json["median"];
    Some(Estimate {
        median: median["point_estimate"].as_f64()?,
        lower: median["confidence_interval"]["lower_bound"].as_f64()?,
        upper: median["confidence_interval"]["upper_bound"].as_f64()?,
    })
}

/// What the run measured, for the summary.
#[derive(Debug)]
pub(crate) struct Run<'a> {
    pub(crate) dir: &'a Path,
    pub(crate) since: SystemTime,
    pub(crate) driver: String,
    pub(crate) cores: usize,
    pub(crate) threads: usize,
    /// The thread count of the one-thread-per-core measurement, when there is one.
    pub(crate) per_core_threads: Option<usize>,
    pub(crate) preload_entries: usize,
    pub(crate) cudarc: Result<(), String>,
    pub(crate) loads: Vec<(Load, Result<f64, String>)>,
    pub(crate) load_runs: usize,
    /// `/proc/loadavg` when the run started (other work on the machine skews every timing).
    pub(crate) loadavg_before: Option<String>,
}

/// The 1-, 5- and 15-minute load averages, where the system has them.
pub(crate) fn loadavg() -> Option<String> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    Some(
        text.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" "),
    )
}

enum Goal {
    AtMost(f64),
    None,
}

struct Table {
    text: String,
}

impl Table {
    fn row(&mut self, what: &str, ratio: Option<(f64, f64, f64)>, goal: Goal, note: &str) {
        let (value, verdict, target) = match (ratio, &goal) {
            (None, _) => (
                "n/a".to_owned(),
                "not measured".to_owned(),
                goal_text(&goal),
            ),
            (Some((r, lo, _)), Goal::AtMost(t)) => (
                format!("{r:.3}"),
                (if r <= *t {
                    "ok"
                } else if lo <= *t {
                    "noise"
                } else {
                    "MISS"
                })
                .to_owned(),
                goal_text(&goal),
            ),
            (Some((r, _, _)), Goal::None) => (format!("{r:.3}"), String::new(), String::new()),
        };
        let verdict = if note.is_empty() {
            verdict
        } else {
            format!("{verdict} {note}").trim().to_owned()
        };
        let _ = writeln!(self.text, "| {what} | {value} | {target} | {verdict} |");
    }
}

fn goal_text(goal: &Goal) -> String {
    match goal {
        Goal::AtMost(t) => format!("<= {t:.2}"),
        Goal::None => String::new(),
    }
}

/// `a / b` with the pessimistic and optimistic ends of the confidence intervals.
fn ratio(a: Option<Estimate>, b: Option<Estimate>) -> Option<(f64, f64, f64)> {
    let (a, b) = (a?, b?);
    Some((a.median / b.median, a.lower / b.upper, a.upper / b.lower))
}

/// Prints the ratio table and writes it to `<dir>/cuda-entry-ratios.md`.
pub(crate) fn report(run: &Run<'_>) {
    let get = |group: &str, id: &str| estimate(run.dir, group, id, run.since);
    let mut t = Table {
        text: String::new(),
    };
    let _ = writeln!(t.text, "- driver: {}", run.driver);
    let _ = writeln!(
        t.text,
        "- machine: {} cores, {}-{}; {} threads in the concurrency test",
        run.cores,
        std::env::consts::ARCH,
        std::env::consts::OS,
        run.threads
    );
    if let (Some(before), Some(after)) = (&run.loadavg_before, loadavg()) {
        let _ = writeln!(
            t.text,
            "- load average (1, 5, 15 min): {before} at the start, {after} at the end"
        );
    }
    t.text.push('\n');
    t.text
        .push_str("| measure | ratio | target | verdict |\n|---|---|---|---|\n");
    let cudarc_note = match &run.cudarc {
        Ok(()) => "",
        Err(_) => "(cudarc skipped, see below)",
    };
    for function in ["cuDriverGetVersion", "cuCtxGetCurrent"] {
        let group = format!("call-{function}");
        t.row(
            &format!("call {function}: entry / raw pointer"),
            ratio(get(&group, "entry"), get(&group, "raw")),
            Goal::AtMost(1.02),
            "",
        );
        t.row(
            &format!("call {function}: entry / cudarc"),
            ratio(get(&group, "entry"), get(&group, "cudarc")),
            Goal::AtMost(1.0),
            cudarc_note,
        );
    }
    t.row(
        "first resolution: fresh entry / raw cuGetProcAddress_v2",
        ratio(
            get("first-resolution", "entry"),
            get("first-resolution", "raw-getprocaddress"),
        ),
        Goal::AtMost(1.15),
        "",
    );
    t.row(
        &format!(
            "preload of {} entries: cuda_entry::preload / raw loop",
            run.preload_entries
        ),
        ratio(get("preload", "entry-preload"), get("preload", "raw-loop")),
        Goal::AtMost(1.15),
        "",
    );
    // The same two with the memory made equal: what the entry's own work costs, apart from
    // touching lines nobody touched before (main.rs, `first_resolution` and `preload`).
    t.row(
        "first resolution, same memory: fresh entry / raw query storing into a fresh slot",
        ratio(
            get("first-resolution", "entry"),
            get("first-resolution", "raw-cold-slot"),
        ),
        Goal::AtMost(1.15),
        "",
    );
    t.row(
        "first resolution, against a once-cell: fresh entry / raw query in a fresh std OnceLock",
        ratio(
            get("first-resolution", "entry"),
            get("first-resolution", "raw-oncelock"),
        ),
        Goal::AtMost(1.15),
        "",
    );
    t.row(
        "first resolution: raw query in a fresh std OnceLock / raw query (a once-cell's floor)",
        ratio(
            get("first-resolution", "raw-oncelock"),
            get("first-resolution", "raw-getprocaddress"),
        ),
        Goal::None,
        "",
    );
    t.row(
        "first resolution, in cache: fresh entry built in place / raw cuGetProcAddress_v2",
        ratio(
            get("first-resolution", "entry-hot"),
            get("first-resolution", "raw-getprocaddress"),
        ),
        Goal::AtMost(1.15),
        "",
    );
    t.row(
        &format!(
            "preload of {} entries, same memory: cuda_entry::preload / raw loop into fresh slots",
            run.preload_entries
        ),
        ratio(
            get("preload", "entry-preload"),
            get("preload", "raw-loop-cold"),
        ),
        Goal::AtMost(1.15),
        "",
    );
    t.row(
        &format!(
            "preload of {} entries, against once-cells: preload / raw loop in fresh std OnceLocks",
            run.preload_entries
        ),
        ratio(
            get("preload", "entry-preload"),
            get("preload", "raw-loop-oncelock"),
        ),
        Goal::AtMost(1.15),
        "",
    );
    t.row(
        &format!(
            "preload of {} entries: raw loop in fresh std OnceLocks / raw loop (a once-cell's floor)",
            run.preload_entries
        ),
        ratio(
            get("preload", "raw-loop-oncelock"),
            get("preload", "raw-loop"),
        ),
        Goal::None,
        "",
    );
    t.row(
        &format!(
            "preload of {} entries, in cache: preload of entries built in place / raw loop",
            run.preload_entries
        ),
        ratio(
            get("preload", "entry-preload-hot"),
            get("preload", "raw-loop"),
        ),
        Goal::AtMost(1.15),
        "",
    );
    let n = run.threads;
    // Per-thread throughput ratio = time per call on 1 thread / time per call per thread on k.
    let scaling = |what: &str, k: usize| {
        ratio(
            get("threads", &format!("{what}-1")),
            get("threads", &format!("{what}-{k}")),
        )
    };
    // One thread per core, where the machine has fewer cores than `n`: no oversubscription.
    if let Some(k) = run.per_core_threads {
        t.row(
            &format!("{k} threads (one per core): per-thread throughput / 1 thread (entry call)"),
            scaling("entry-call", k),
            Goal::None,
            "",
        );
        t.row(
            &format!("{k} threads (one per core): the same for the raw pointer call"),
            scaling("raw-call", k),
            Goal::None,
            "",
        );
        t.row(
            &format!("{k} threads (one per core): the same for the entry's fast path only"),
            scaling("entry-pointer", k),
            Goal::None,
            "",
        );
    }
    let bound = run.cores.min(n) as f64 / n as f64;
    let literal_note = if run.cores < n {
        format!("(only {} cores: at most {bound:.3} possible)", run.cores)
    } else {
        String::new()
    };
    t.row(
        &format!("{n} threads: per-thread throughput / 1 thread (entry call)"),
        scaling("entry-call", n),
        Goal::None,
        &literal_note,
    );
    let normalised =
        |r: Option<(f64, f64, f64)>| r.map(|(r, lo, hi)| (r / bound, lo / bound, hi / bound));
    if run.cores < n {
        t.row(
            &format!("{n} threads: the same per core (x {n}/{})", run.cores),
            normalised(scaling("entry-call", n)),
            Goal::None,
            "",
        );
        t.row(
            &format!("{n} threads: the same per core for the raw pointer call"),
            normalised(scaling("raw-call", n)),
            Goal::None,
            "",
        );
        t.row(
            &format!("{n} threads: the same per core for the entry's fast path only"),
            normalised(scaling("entry-pointer", n)),
            Goal::None,
            "",
        );
    } else {
        t.row(
            &format!("{n} threads: the same for the raw pointer call"),
            scaling("raw-call", n),
            Goal::None,
            "",
        );
        t.row(
            &format!("{n} threads: the same for the entry's fast path only (pointer(), no call)"),
            scaling("entry-pointer", n),
            Goal::None,
            "",
        );
    }
    // The entry against the raw pointer at the same thread count: the raw call scales no better
    // on a shared machine, so this is what judges the entry's scaling.
    for k in [run.per_core_threads, Some(n)].into_iter().flatten() {
        t.row(
            &format!("{k} threads: entry call / raw pointer call, per call"),
            ratio(
                get("threads", &format!("entry-call-{k}")),
                get("threads", &format!("raw-call-{k}")),
            ),
            Goal::AtMost(1.03),
            "",
        );
    }
    let load = |l: Load| {
        run.loads
            .iter()
            .find(|(k, _)| *k == l)
            .and_then(|(_, r)| r.as_ref().ok().copied())
    };
    let load_ratio = match (load(Load::Entry), load(Load::Raw)) {
        (Some(e), Some(r)) => Some((e / r, e / r, e / r)),
        _ => None,
    };
    t.row(
        &format!(
            "driver load in a fresh process (median of {}): driver_info() / raw libloading",
            run.load_runs
        ),
        load_ratio,
        Goal::None,
        "",
    );

    t.text
        .push_str("\nmedian time per iteration (criterion, 95% CI):\n\n");
    t.text
        .push_str("| benchmark | median | CI |\n|---|---|---|\n");
    let counts: Vec<usize> = [Some(1), run.per_core_threads, Some(n)]
        .into_iter()
        .flatten()
        .collect();
    let threads_ids: Vec<String> = ["entry-call", "raw-call", "entry-pointer"]
        .iter()
        .flat_map(|w| counts.iter().map(move |k| format!("{w}-{k}")))
        .collect();
    let mut all: Vec<(String, String)> = Vec::new();
    for group in ["call-cuDriverGetVersion", "call-cuCtxGetCurrent"] {
        for id in ["raw", "entry", "cudarc"] {
            all.push((group.to_owned(), id.to_owned()));
        }
    }
    for id in [
        "raw-getprocaddress",
        "entry",
        "raw-cold-slot",
        "raw-oncelock",
        "entry-hot",
    ] {
        all.push(("first-resolution".into(), id.into()));
    }
    for id in [
        "raw-loop",
        "entry-preload",
        "raw-loop-cold",
        "entry-preload-hot",
    ] {
        all.push(("preload".into(), id.into()));
    }
    for id in threads_ids {
        all.push(("threads".into(), id));
    }
    for (group, id) in &all {
        let line = match get(group, id) {
            Some(e) => format!(
                "| {group}/{id} | {} | {} .. {} |",
                time(e.median),
                time(e.lower),
                time(e.upper)
            ),
            None => format!("| {group}/{id} | n/a | |"),
        };
        let _ = writeln!(t.text, "{line}");
    }
    t.text
        .push_str("\ndriver load, fresh process (median):\n\n");
    for (l, r) in &run.loads {
        let what = match l {
            Load::Entry => "cuda_entry::driver_info()",
            Load::Raw => "libloading open + cuDriverGetVersion + dlsym cuGetProcAddress_v2",
            Load::Cudarc => "cudarc's first cuDriverGetVersion (search, dlopen, dlsym, call)",
        };
        let value = match r {
            Ok(ns) => time(*ns),
            Err(e) => format!("failed: {e}"),
        };
        let _ = writeln!(t.text, "- {what}: {value}");
    }
    if let Err(e) = &run.cudarc {
        let _ = writeln!(t.text, "\ncudarc comparison skipped: {e}");
    }

    println!("\n================ cuda-entry: ratios of this run ================\n");
    println!("{}", t.text);
    let file = run.dir.join("cuda-entry-ratios.md");
    match std::fs::create_dir_all(run.dir).and_then(|()| std::fs::write(&file, &t.text)) {
        Ok(()) => println!("(written to {})", file.display()),
        Err(e) => println!("(could not write {}: {e})", file.display()),
    }
}

fn time(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.3} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.3} µs", ns / 1e3)
    } else {
        format!("{ns:.2} ns")
    }
}
