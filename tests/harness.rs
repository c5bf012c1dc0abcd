//! The scenario harness of tests/support, run as a process: libtest's options do what libtest
//! does (`--test-threads`, `--nocapture`, `--show-output`, `--skip`, `--exact`, `--list`,
//! `--quiet`) or are refused with exit status 101, and are never read as name filters.
//!
//! This binary is two things. With `CUDA_ENTRY_HARNESS_UNDER_TEST` set it is the harness under
//! test, running the toy scenarios below; without it, its scenarios are the checks, each running
//! the harness under test with some options and reading what it did.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use cuda_entry_support::{Driver, SCENARIO_VARIABLE, Scenario, run_scenarios, target_command};

/// Set in the harness under test and its children.
const UNDER_TEST: &str = "CUDA_ENTRY_HARNESS_UNDER_TEST";
/// A folder: every toy scenario that runs appends its name to `<folder>/ran`.
const RECORD: &str = "HARNESS_RECORD";
/// With it set, every toy scenario holds `<RECORD>/running` for a moment and fails if another
/// one holds it: two scenarios running at once fail.
const ONE_AT_A_TIME: &str = "HARNESS_ONE_AT_A_TIME";
/// Seconds the two rendezvous scenarios wait for each other (they meet only when run at once).
const RENDEZVOUS: &str = "HARNESS_RENDEZVOUS_SECONDS";
/// With it set, `fails_when_asked` fails.
const FAIL: &str = "HARNESS_FAIL";

const fn toy(name: &'static str, run: fn()) -> Scenario {
    Scenario {
        name,
        driver: Driver::Default,
        env: &[],
        run,
    }
}

const TOYS: &[Scenario] = &[
    toy("alpha", || record("alpha")),
    toy("beta", || record("beta")),
    toy("beta_extra", || record("beta_extra")),
    toy("gamma_prints", || {
        record("gamma_prints");
        println!("gamma says hello on stdout");
        eprintln!("gamma says hello on stderr");
    }),
    toy("rendezvous_left", || rendezvous("left", "right")),
    toy("rendezvous_right", || rendezvous("right", "left")),
    toy("fails_when_asked", || {
        record("fails_when_asked");
        assert!(std::env::var_os(FAIL).is_none(), "failing as asked");
    }),
];

fn record_folder() -> Option<PathBuf> {
    std::env::var_os(RECORD).map(PathBuf::from)
}

fn record(name: &str) {
    let Some(folder) = record_folder() else {
        return;
    };
    let held = folder.join("running");
    if std::env::var_os(ONE_AT_A_TIME).is_some() {
        std::fs::File::create_new(&held)
            .unwrap_or_else(|e| panic!("{name}: another scenario is running ({e})"));
        std::thread::sleep(Duration::from_millis(100));
    }
    // A file per scenario: appending to one shared file from processes running at once is not
    // atomic under Wine (one name overwrote part of another).
    let ran = folder.join("ran");
    std::fs::create_dir_all(&ran).expect("the record's folder");
    std::fs::write(ran.join(name), b"").expect("the record");
    if std::env::var_os(ONE_AT_A_TIME).is_some() {
        std::fs::remove_file(&held).expect("release");
    }
}

/// Marks `me` as started, then waits for `partner` to start too.
fn rendezvous(me: &str, partner: &str) {
    record(&format!("rendezvous_{me}"));
    let (Some(folder), Some(seconds)) = (record_folder(), std::env::var_os(RENDEZVOUS)) else {
        return;
    };
    let seconds: u64 = seconds
        .to_str()
        .and_then(|s| s.parse().ok())
        .expect("seconds");
    let mark = folder.join(me);
    std::fs::write(&mark, "").expect("mark");
    let start = Instant::now();
    while !folder.join(partner).exists() {
        if start.elapsed() > Duration::from_secs(seconds) {
            // Gone, so that a partner started after this one ends waits in vain too.
            std::fs::remove_file(&mark).expect("unmark");
            panic!("{me}: {partner} did not start within {seconds} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// What one run of the harness under test did.
#[derive(Debug)]
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    /// The toy scenarios that ran, in no particular order.
    ran: BTreeSet<String>,
}

/// Runs the harness under test with `args` and `env`, in a fresh record folder named `case`.
fn harness(case: &str, args: &[&str], env: &[(&str, &str)]) -> Run {
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("harness")
        .join(case);
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).expect("record folder");
    let out = target_command(std::env::current_exe().expect("this test executable"))
        .args(args)
        .env_remove(SCENARIO_VARIABLE)
        .env_remove("RUST_TEST_THREADS")
        .env_remove("RUST_TEST_NOCAPTURE")
        .env(UNDER_TEST, "1")
        .env(RECORD, &folder)
        .envs(env.iter().copied())
        .output()
        .expect("run the harness under test");
    let ran = std::fs::read_dir(folder.join("ran"))
        .map(|entries| {
            entries
                .map(|e| {
                    e.expect("a record")
                        .file_name()
                        .to_string_lossy()
                        .into_owned()
                })
                .collect()
        })
        .unwrap_or_default();
    let run = Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        ran,
    };
    println!("---- {case}: {args:?} {env:?}\n{run:#?}");
    run
}

fn names(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

fn all_toys() -> BTreeSet<String> {
    TOYS.iter().map(|t| t.name.to_owned()).collect()
}

fn test_threads_is_an_option_not_a_filter() {
    for (case, args) in [
        ("threads-1", &["--test-threads", "1"][..]),
        ("threads-eq-1", &["--test-threads=1"]),
    ] {
        let run = harness(case, args, &[(ONE_AT_A_TIME, "1")]);
        assert_eq!(run.code, Some(0), "{run:?}");
        assert_eq!(run.ran, all_toys());
        assert!(run.stdout.contains("7 passed; 0 failed"), "{}", run.stdout);
    }
}

fn test_threads_bounds_how_many_run_at_once() {
    // The two rendezvous scenarios pass only when they run at the same time.
    let run = harness(
        "threads-2",
        &["--test-threads", "2", "rendezvous"],
        &[(RENDEZVOUS, "60")],
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(run.ran, names(&["rendezvous_left", "rendezvous_right"]));
    let run = harness(
        "threads-1-apart",
        &["--test-threads", "1", "rendezvous"],
        &[(RENDEZVOUS, "1")],
    );
    assert_ne!(run.code, Some(0), "{run:?}");
    assert!(run.stdout.contains("0 passed; 2 failed"), "{}", run.stdout);
}

fn skip_leaves_out_and_exact_matches_whole_names() {
    let everything_but = |left_out: &[&str]| {
        let mut set = all_toys();
        for name in left_out {
            set.remove(*name);
        }
        set
    };
    for (case, args, expected, filtered) in [
        (
            "skip",
            &["--skip", "beta"][..],
            everything_but(&["beta", "beta_extra"]),
            2,
        ),
        (
            "skip-eq",
            &["--skip=beta"],
            everything_but(&["beta", "beta_extra"]),
            2,
        ),
        (
            "skip-exact",
            &["--skip", "beta", "--exact"],
            everything_but(&["beta"]),
            1,
        ),
        (
            "skip-two",
            &["--skip", "beta", "--skip", "rendezvous"],
            everything_but(&["beta", "beta_extra", "rendezvous_left", "rendezvous_right"]),
            4,
        ),
        ("filter", &["beta"], names(&["beta", "beta_extra"]), 5),
        ("filter-exact", &["--exact", "beta"], names(&["beta"]), 6),
        (
            "filters",
            &["alpha", "gamma"],
            names(&["alpha", "gamma_prints"]),
            5,
        ),
        (
            "filter-and-skip",
            &["beta", "--skip", "extra"],
            names(&["beta"]),
            6,
        ),
    ] {
        let run = harness(case, args, &[]);
        assert_eq!(run.code, Some(0), "{run:?}");
        assert_eq!(run.ran, expected, "{args:?}");
        let summary = format!(
            "{} passed; 0 failed; 0 ignored; 0 measured; {filtered} filtered out",
            expected.len()
        );
        assert!(run.stdout.contains(&summary), "{args:?}: {}", run.stdout);
    }
}

fn list_names_the_selected_scenarios_and_runs_none() {
    let run = harness("list", &["--list"], &[]);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.ran.is_empty(), "--list ran {:?}", run.ran);
    let expected: String = TOYS.iter().map(|t| format!("{}: test\n", t.name)).collect();
    assert_eq!(run.stdout, format!("{expected}\n7 tests, 0 benchmarks\n"));
    let run = harness("list-terse", &["--list", "--format", "terse", "beta"], &[]);
    assert_eq!(run.stdout, "beta: test\nbeta_extra: test\n");
    let run = harness("list-ignored", &["--list", "--ignored"], &[]);
    assert_eq!(run.stdout, "\n0 tests, 0 benchmarks\n");
}

fn nocapture_and_show_output_let_the_output_through() {
    let hello = "gamma says hello on stdout";
    let run = harness("captured", &["gamma"], &[]);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(!run.stdout.contains(hello), "{}", run.stdout);
    for (case, args) in [
        ("nocapture", &["gamma", "--nocapture"][..]),
        ("no-capture", &["gamma", "--no-capture"]),
    ] {
        let run = harness(case, args, &[]);
        assert_eq!(run.code, Some(0), "{run:?}");
        assert!(run.stdout.contains(hello), "{args:?}: {}", run.stdout);
        assert!(
            run.stderr.contains("gamma says hello on stderr"),
            "{}",
            run.stderr
        );
    }
    let run = harness("show-output", &["gamma", "--show-output"], &[]);
    assert!(run.stdout.contains("successes:"), "{}", run.stdout);
    assert!(run.stdout.contains(hello), "{}", run.stdout);
}

fn quiet_prints_one_mark_per_scenario() {
    for (case, args) in [("quiet", &["-q"][..]), ("terse", &["--format=terse"])] {
        let run = harness(case, args, &[(FAIL, "1")]);
        assert_eq!(run.code, Some(1), "{run:?}");
        let marks = run
            .stdout
            .lines()
            .find(|l| !l.is_empty() && l.chars().all(|c| c == '.' || c == 'F'))
            .unwrap_or_else(|| panic!("no line of marks in {}", run.stdout));
        assert_eq!((marks.len(), marks.matches('F').count()), (7, 1), "{marks}");
    }
}

fn a_failing_scenario_fails_the_run_and_shows_why() {
    let run = harness("fail", &[], &[(FAIL, "1")]);
    assert_eq!(run.code, Some(1), "{run:?}");
    assert_eq!(run.ran, all_toys());
    for needle in [
        "test fails_when_asked ... FAILED",
        "---- fails_when_asked ----",
        "failing as asked",
        "test result: FAILED. 6 passed; 1 failed",
    ] {
        assert!(run.stdout.contains(needle), "`{needle}` in {}", run.stdout);
    }
}

fn options_it_does_not_implement_are_refused() {
    for (args, env, message) in [
        (&["--bogus"][..], &[][..], "unrecognized option `--bogus`"),
        (&["--color", "always"], &[], "unrecognized option `--color`"),
        (&["-Z", "unstable-options"], &[], "unrecognized option `-Z`"),
        (
            &["--format", "json"],
            &[],
            "`--format json` is not implemented",
        ),
        (&["--test-threads", "0"], &[], "--test-threads is `0`"),
        (&["--skip"], &[], "option `--skip` needs a value"),
        (&["--list=yes"], &[], "option `--list` takes no value"),
        (
            &[],
            &[("RUST_TEST_THREADS", "many")],
            "RUST_TEST_THREADS is `many`",
        ),
    ] {
        let run = harness("refused", args, env);
        assert_eq!(run.code, Some(101), "{args:?} {env:?}: {run:?}");
        assert!(
            run.stderr.contains(&format!("error: {message}")) || run.stderr.contains(message),
            "{args:?}: {}",
            run.stderr
        );
        assert!(run.ran.is_empty(), "{args:?} ran {:?}", run.ran);
    }
    let run = harness("help", &["--help"], &[]);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stdout.contains("--test-threads N"), "{}", run.stdout);
    assert!(run.ran.is_empty());
}

const fn check(name: &'static str, run: fn()) -> Scenario {
    Scenario {
        name,
        driver: Driver::Default,
        env: &[],
        run,
    }
}

fn main() -> ExitCode {
    if std::env::var_os(UNDER_TEST).is_some() {
        return run_scenarios(TOYS);
    }
    run_scenarios(&[
        check(
            "test_threads_is_an_option_not_a_filter",
            test_threads_is_an_option_not_a_filter,
        ),
        check(
            "test_threads_bounds_how_many_run_at_once",
            test_threads_bounds_how_many_run_at_once,
        ),
        check(
            "skip_leaves_out_and_exact_matches_whole_names",
            skip_leaves_out_and_exact_matches_whole_names,
        ),
        check(
            "list_names_the_selected_scenarios_and_runs_none",
            list_names_the_selected_scenarios_and_runs_none,
        ),
        check(
            "nocapture_and_show_output_let_the_output_through",
            nocapture_and_show_output_let_the_output_through,
        ),
        check(
            "quiet_prints_one_mark_per_scenario",
            quiet_prints_one_mark_per_scenario,
        ),
        check(
            "a_failing_scenario_fails_the_run_and_shows_why",
            a_failing_scenario_fails_the_run_and_shows_why,
        ),
        check(
            "options_it_does_not_implement_are_refused",
            options_it_does_not_implement_are_refused,
        ),
    ])
}
