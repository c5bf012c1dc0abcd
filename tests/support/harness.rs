//! The scenario harness of the `harness = false` tests: each scenario runs in a child process of
//! its own (the driver is loaded once per process), and the parent reports like libtest. It takes
//! libtest's options and does what libtest does with them; an option it does not implement is
//! refused with a message and exit status 101, never read as a name filter.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{ExitCode, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use crate::target_command;

/// The environment variable through which a scenario's child process learns which scenario to
/// run. A test that runs a harness binary from inside a scenario removes it from that child.
pub const SCENARIO_VARIABLE: &str = "CUDA_ENTRY_TEST_SCENARIO";

/// libtest's exit status for a command line it cannot use.
const USAGE_ERROR: u8 = 101;

const USAGE: &str = "\
Usage: <test binary> [OPTIONS] [FILTERS...]

Runs every scenario whose name contains one of FILTERS (all without FILTERS), each in a process
of its own. The libtest options this harness implements:

    --test-threads N    run at most N scenarios at once (default: RUST_TEST_THREADS, else the
                        number of CPUs)
    --nocapture         let the scenarios' output through as they run (also --no-capture,
                        RUST_TEST_NOCAPTURE)
    --show-output       print the output of passing scenarios too
    --skip PATTERN      leave out the scenarios whose name contains PATTERN (repeatable)
    --exact             filters and --skip patterns match whole names
    --list              list the selected scenarios instead of running them
    --format pretty|terse, -q, --quiet
                        one line per scenario (pretty) or one character (terse)
    --ignored           run only ignored scenarios (there are none)
    --include-ignored   run ignored scenarios too (there are none)
    -h, --help          this text

Any other option is refused (exit status 101).
";

/// One test scenario: a driver configuration and the test body run under it.
#[derive(Debug)]
pub struct Scenario {
    /// The test's name.
    pub name: &'static str,
    /// The driver library: a simulator, or an explicit path (`None`: no override at all).
    pub driver: Driver,
    /// Further environment for the child (`CUDA_ENTRY_SIM_VERSION`, `CUDA_ENTRY_SIM_MODE`).
    pub env: &'static [(&'static str, &'static str)],
    /// The body; it panics on failure.
    pub run: fn(),
}

/// Which driver library a scenario's process loads.
#[derive(Clone, Copy, Debug)]
pub enum Driver {
    /// A simulated driver.
    Sim(cuda_entry_sim::Driver),
    /// A simulated runtime library (through `CUDA_ENTRY_RUNTIME_PATH`); no driver override.
    Runtime(cuda_entry_sim::Runtime),
    /// This exact path, through the override (a missing file, a non-library...).
    Path(&'static str),
    /// Whatever the platform's default is (no override).
    Default,
}

/// What the command line asked for: the part of libtest's options this harness implements.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Options {
    filters: Vec<String>,
    skip: Vec<String>,
    exact: bool,
    list: bool,
    ignored_only: bool,
    threads: usize,
    nocapture: bool,
    show_output: bool,
    terse: bool,
}

impl Options {
    /// libtest's selection: any filter matches (or there is none), no `--skip` matches, and
    /// `--ignored` selects nothing because no scenario is ignored.
    fn selects(&self, name: &str) -> bool {
        let matches = |pattern: &String| {
            if self.exact {
                name == pattern
            } else {
                name.contains(pattern.as_str())
            }
        };
        !self.ignored_only
            && (self.filters.is_empty() || self.filters.iter().any(matches))
            && !self.skip.iter().any(matches)
    }
}

/// A positive thread count, as libtest reads `--test-threads` and `RUST_TEST_THREADS`.
fn thread_count(value: &str, source: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "{source} is `{value}`: expected a positive integer"
        )),
    }
}

/// Reads libtest's options; `Ok(None)` for `--help`. `env` looks up an environment variable.
fn parse_options(
    args: &[String],
    env: impl Fn(&str) -> Option<String>,
) -> Result<Option<Options>, String> {
    let mut options = Options {
        filters: Vec::new(),
        skip: Vec::new(),
        exact: false,
        list: false,
        ignored_only: false,
        threads: 0,
        nocapture: env("RUST_TEST_NOCAPTURE").is_some_and(|v| v != "0"),
        show_output: false,
        terse: false,
    };
    let mut threads = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if arg == "--" {
            options.filters.extend(rest.by_ref().cloned());
            break;
        }
        if !arg.starts_with('-') {
            options.filters.push(arg.clone());
            continue;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value.to_owned())),
            _ => (arg.as_str(), None),
        };
        let takes_value = matches!(name, "--test-threads" | "--skip" | "--format");
        if inline.is_some() && !takes_value {
            return Err(format!("option `{name}` takes no value (got `{arg}`)"));
        }
        let value = if takes_value {
            match inline.or_else(|| rest.next().cloned()) {
                Some(value) => value,
                None => return Err(format!("option `{name}` needs a value")),
            }
        } else {
            String::new()
        };
        match name {
            "--test-threads" => threads = Some(thread_count(&value, "--test-threads")?),
            "--skip" => options.skip.push(value),
            "--format" => match value.as_str() {
                "pretty" => options.terse = false,
                "terse" => options.terse = true,
                other => {
                    return Err(format!(
                        "`--format {other}` is not implemented by this harness: `pretty` or \
                         `terse`"
                    ));
                }
            },
            "-q" | "--quiet" => options.terse = true,
            "--exact" => options.exact = true,
            "--list" => options.list = true,
            "--nocapture" | "--no-capture" => options.nocapture = true,
            "--show-output" => options.show_output = true,
            "--ignored" => options.ignored_only = true,
            "--include-ignored" => {}
            "-h" | "--help" => return Ok(None),
            _ => {
                return Err(format!(
                    "unrecognized option `{arg}`: this harness runs each scenario in a process \
                     of its own and implements only some of libtest's options (see --help)"
                ));
            }
        }
    }
    options.threads = match threads {
        Some(n) => n,
        None => match env("RUST_TEST_THREADS") {
            Some(value) => thread_count(&value, "RUST_TEST_THREADS")?,
            None => std::thread::available_parallelism().map_or(1, usize::from),
        },
    };
    Ok(Some(options))
}

/// How one scenario's process ended.
#[derive(Debug)]
struct Outcome {
    passed: bool,
    /// The child's stdout and stderr (empty with `--nocapture`: they went through as it ran).
    output: String,
}

/// Runs every scenario in a child process of its own and reports like libtest; in a child,
/// runs the one scenario asked for. Call it from a `harness = false` test's `main`.
///
/// It takes libtest's options (`--help` lists them): filters, `--skip`, `--exact`, `--list`,
/// `--test-threads`, `--nocapture`, `--show-output`, `--format`/`--quiet`, `--ignored`,
/// `--include-ignored`. Anything else is refused with exit status 101.
pub fn run_scenarios(scenarios: &[Scenario]) -> ExitCode {
    if let Some(name) = std::env::var_os(SCENARIO_VARIABLE) {
        return match scenarios.iter().find(|s| *s.name == *name) {
            Some(s) => {
                (s.run)();
                ExitCode::SUCCESS
            }
            None => {
                eprintln!("no scenario named {}", name.to_string_lossy());
                ExitCode::FAILURE
            }
        };
    }
    let args: Result<Vec<String>, _> = std::env::args_os()
        .skip(1)
        .map(|a| a.into_string())
        .collect();
    let parsed = match args {
        Ok(args) => parse_options(&args, |name| std::env::var(name).ok()),
        Err(bad) => Err(format!("argument {bad:?} is not UTF-8")),
    };
    let options = match parsed {
        Ok(Some(options)) => options,
        Ok(None) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(USAGE_ERROR);
        }
    };
    let selected: Vec<&Scenario> = scenarios
        .iter()
        .filter(|s| options.selects(s.name))
        .collect();
    if options.list {
        for s in &selected {
            println!("{}: test", s.name);
        }
        if !options.terse {
            println!("\n{} tests, 0 benchmarks", selected.len());
        }
        return ExitCode::SUCCESS;
    }
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => {
            eprintln!("error: cannot find this test executable to re-run it: {e}");
            return ExitCode::FAILURE;
        }
    };
    let start = Instant::now();
    println!("\nrunning {} tests", selected.len());
    let outcomes = run_all(&selected, &exe, &options);
    if options.terse {
        println!();
    }
    let failed: Vec<(&Scenario, &Outcome)> = selected
        .iter()
        .copied()
        .zip(&outcomes)
        .filter(|(_, o)| !o.passed)
        .collect();
    if options.show_output {
        let passed = selected.iter().zip(&outcomes).filter(|(_, o)| o.passed);
        println!("\nsuccesses:");
        for (s, outcome) in passed {
            println!("\n---- {} stdout ----\n{}", s.name, outcome.output);
        }
    }
    if !failed.is_empty() {
        println!("\nfailures:");
        for (s, outcome) in &failed {
            println!("\n---- {} ----\n{}", s.name, outcome.output);
        }
        println!("\nfailures:");
        for (s, _) in &failed {
            println!("    {}", s.name);
        }
    }
    println!(
        "\ntest result: {}. {} passed; {} failed; 0 ignored; 0 measured; {} filtered out; \
         finished in {:.2}s\n",
        if failed.is_empty() { "ok" } else { "FAILED" },
        selected.len() - failed.len(),
        failed.len(),
        scenarios.len() - selected.len(),
        start.elapsed().as_secs_f64()
    );
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Runs `selected` on at most `options.threads` at once, printing each result as it comes in;
/// returns the outcomes in the order of `selected`.
fn run_all(selected: &[&Scenario], exe: &Path, options: &Options) -> Vec<Outcome> {
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    let mut outcomes: Vec<Option<Outcome>> = selected.iter().map(|_| None).collect();
    std::thread::scope(|scope| {
        for _ in 0..options.threads.min(selected.len()) {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move || {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(s) = selected.get(index) else {
                        break;
                    };
                    if sender
                        .send((index, run_one(s, exe, options.nocapture)))
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for (index, outcome) in receiver {
            let name = selected[index].name;
            let mut stdout = std::io::stdout().lock();
            let _ = match (options.terse, outcome.passed) {
                (true, true) => write!(stdout, "."),
                (true, false) => write!(stdout, "F"),
                (false, true) => writeln!(stdout, "test {name} ... ok"),
                (false, false) => writeln!(stdout, "test {name} ... FAILED"),
            };
            let _ = stdout.flush();
            outcomes[index] = Some(outcome);
        }
    });
    outcomes
        .into_iter()
        .map(|o| {
            o.unwrap_or(Outcome {
                passed: false,
                output: "the scenario's runner thread stopped before it reported".to_owned(),
            })
        })
        .collect()
}

/// Runs one scenario in a child process of `exe`, with its driver and environment.
fn run_one(s: &Scenario, exe: &Path, nocapture: bool) -> Outcome {
    let mut child = target_command(exe);
    child.env(SCENARIO_VARIABLE, s.name);
    child.env_remove("CUDA_ENTRY_DRIVER_PATH");
    child.env_remove("CUDA_ENTRY_RUNTIME_PATH");
    let overridden = match s.driver {
        Driver::Sim(sim) => Some((
            "CUDA_ENTRY_DRIVER_PATH",
            sim.path().map_err(|e| e.to_string()),
        )),
        Driver::Runtime(sim) => Some((
            "CUDA_ENTRY_RUNTIME_PATH",
            sim.path().map_err(|e| e.to_string()),
        )),
        Driver::Path(path) => Some(("CUDA_ENTRY_DRIVER_PATH", Ok(PathBuf::from(path)))),
        Driver::Default => None,
    };
    match overridden {
        Some((variable, Ok(path))) => {
            child.env(variable, path);
        }
        Some((_, Err(e))) => {
            return Outcome {
                passed: false,
                output: e,
            };
        }
        None => {}
    }
    child.envs(s.env.iter().copied());
    if nocapture {
        child.stdout(Stdio::inherit()).stderr(Stdio::inherit());
        return match spawned(|| child.status()) {
            Ok(status) => Outcome {
                passed: status.success(),
                output: if status.success() {
                    String::new()
                } else {
                    format!("{status} (its output is above: --nocapture)")
                },
            },
            Err(e) => Outcome {
                passed: false,
                output: format!("spawn: {e}"),
            },
        };
    }
    match spawned(|| child.output()) {
        Ok(out) => Outcome {
            passed: out.status.success(),
            output: format!(
                "{}{}{}",
                if out.status.success() {
                    String::new()
                } else {
                    format!("{}\n", out.status)
                },
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ),
        },
        Err(e) => Outcome {
            passed: false,
            output: format!("spawn: {e}"),
        },
    }
}

/// Starts the scenario's process with `start`, again (up to three more times) where Windows
/// fails to create it for a reason of its own: Wine answers `ERROR_INTERNAL_ERROR` (1359) now
/// and then when many processes start at once, which is no fault of the scenario.
fn spawned<T>(mut start: impl FnMut() -> std::io::Result<T>) -> std::io::Result<T> {
    const ERROR_INTERNAL_ERROR: i32 = 1359;
    let mut tries = 0;
    loop {
        match start() {
            Err(e)
                if cfg!(windows) && tries < 3 && e.raw_os_error() == Some(ERROR_INTERNAL_ERROR) =>
            {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(100 << tries));
            }
            result => return result,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Option<Options>, String> {
        let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        parse_options(&args, |_| None)
    }

    fn options(args: &[&str]) -> Options {
        parse(args)
            .unwrap_or_else(|e| panic!("{args:?}: {e}"))
            .expect("not --help")
    }

    #[test]
    fn options_with_values_are_never_filters() {
        for args in [
            &["--test-threads", "1"][..],
            &["--test-threads=1"],
            &["--skip", "beta"],
            &["--skip=beta"],
            &["--format", "terse"],
            &["--nocapture", "--exact", "--show-output", "-q"],
        ] {
            assert_eq!(options(args).filters, Vec::<String>::new(), "{args:?}");
        }
        let o = options(&[
            "alpha",
            "--skip",
            "beta",
            "--test-threads",
            "3",
            "--",
            "--odd",
        ]);
        assert_eq!(o.filters, ["alpha", "--odd"]);
        assert_eq!(o.skip, ["beta"]);
        assert_eq!(o.threads, 3);
    }

    #[test]
    fn selection_follows_libtest() {
        let o = options(&["beta"]);
        assert!(o.selects("beta") && o.selects("beta_extra") && !o.selects("alpha"));
        let o = options(&["--exact", "beta"]);
        assert!(o.selects("beta") && !o.selects("beta_extra"));
        let o = options(&["--skip", "beta"]);
        assert!(o.selects("alpha") && !o.selects("beta") && !o.selects("beta_extra"));
        let o = options(&["--skip", "beta", "--exact"]);
        assert!(o.selects("beta_extra") && !o.selects("beta"));
        assert!(!options(&["--ignored"]).selects("alpha"));
        assert!(options(&["--include-ignored"]).selects("alpha"));
    }

    #[test]
    fn the_environment_sets_threads_and_capture() {
        let env = |name: &str| match name {
            "RUST_TEST_THREADS" => Some("4".to_owned()),
            "RUST_TEST_NOCAPTURE" => Some("1".to_owned()),
            _ => None,
        };
        let o = parse_options(&[], env).expect("valid").expect("not --help");
        assert_eq!((o.threads, o.nocapture), (4, true));
        let bad = parse_options(&[], |n| (n == "RUST_TEST_THREADS").then(|| "x".to_owned()));
        assert_eq!(
            bad,
            Err("RUST_TEST_THREADS is `x`: expected a positive integer".to_owned())
        );
    }

    #[test]
    fn what_is_not_implemented_is_refused() {
        for (args, message) in [
            (&["--bogus"][..], "unrecognized option `--bogus`"),
            (&["-Z", "unstable-options"], "unrecognized option `-Z`"),
            (&["--color", "always"], "unrecognized option `--color`"),
            (&["--test-threads", "0"], "--test-threads is `0`"),
            (&["--test-threads", "two"], "--test-threads is `two`"),
            (&["--test-threads"], "option `--test-threads` needs a value"),
            (&["--skip"], "option `--skip` needs a value"),
            (&["--format", "json"], "`--format json` is not implemented"),
            (&["--exact=yes"], "option `--exact` takes no value"),
        ] {
            match parse(args) {
                Err(e) => assert!(e.contains(message), "{args:?}: {e}"),
                Ok(o) => panic!("{args:?} accepted: {o:?}"),
            }
        }
        assert_eq!(parse(&["--help"]), Ok(None));
    }
}
