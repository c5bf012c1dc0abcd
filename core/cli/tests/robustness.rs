//! What an attacker or an unlucky user can hand the command: standard input, FIFOs, devices,
//! huge or deeply nested files, a closed or full output, a `--simulated` run that crashes. Each
//! ends with a message and a documented status, never a hang, a panic or a stack overflow.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{cuda_entry, fixtures, run, scratch};

/// A command that loads no driver (the override names nothing loadable).
fn driverless() -> Command {
    let mut command = cuda_entry();
    command.env("CUDA_ENTRY_DRIVER_PATH", "/nonexistent/libcuda.so.1");
    command
}

/// A declaration a CUDA 12.4 driver cannot serve.
const TOO_NEW: &str = "// The first line is longer than the sixteen bytes a sniff would take.\n\
                       #[cuda_entry(symbol = \"cuCtxCreate\", version = 12050)]\n\
                       pub unsafe extern \"C\" fn ctx_create() -> CUresult;\n";

/// Waits for `child` at most `limit`, killing it past that; its output and status.
fn finish(mut child: Child, limit: Duration) -> common::Output {
    let start = Instant::now();
    while child.try_wait().expect("try_wait").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().expect("wait");
            panic!(
                "still running after {limit:?}; stderr: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("wait");
    common::Output {
        status: out.status.code().expect("exited, not killed"),
        stdout: String::from_utf8(out.stdout).expect("UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("UTF-8"),
    }
}

/// `check --driver-version 12040 ARGS` with `stdin` written to its standard input.
fn check_with_stdin(args: &[&str], stdin: &str) -> common::Output {
    let mut child = driverless()
        .args(["check", "--driver-version", "12040"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut input = child.stdin.take().expect("stdin");
    // The command may refuse before reading: a closed pipe is fine then.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    finish(child, Duration::from_secs(60))
}

#[test]
fn a_dash_reads_standard_input_whole() {
    let out = check_with_stdin(&["-"], TOO_NEW);
    assert_eq!(out.status, 1, "{out:?}");
    assert!(
        out.stdout
            .contains("<stdin>:2: FAIL `ctx_create` cuCtxCreate@12050"),
        "{}",
        out.stdout
    );
    let out = check_with_stdin(&["-", "-"], TOO_NEW);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(out.stderr.contains("read once only"), "{}", out.stderr);
}

#[cfg(target_os = "linux")]
#[test]
fn a_pipe_named_by_path_is_refused_not_read_truncated() {
    let out = check_with_stdin(&["/dev/stdin"], TOO_NEW);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(
        out.stderr.contains(
            "/dev/stdin: not a regular file (a FIFO, socket or device): check reads files and \
             folders; to read standard input, pass `-`"
        ),
        "{}",
        out.stderr
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_or_a_device_is_refused_at_once() {
    let dir = scratch("robust-fifo");
    let fifo = dir.join("lib.rs");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    // A FIFO in a folder is reported too: it may be a module the crate compiles.
    for path in [fifo.as_path(), dir.as_path(), Path::new("/dev/zero")] {
        let child = driverless()
            .args(["check", "--driver-version", "12040"])
            .arg(path)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        let out = finish(child, Duration::from_secs(30));
        assert_eq!(out.status, 2, "{}: {out:?}", path.display());
        assert!(
            out.stderr.contains("not a regular file"),
            "{}: {}",
            path.display(),
            out.stderr
        );
    }
}

#[test]
fn files_over_the_limits_are_refused_without_reading_them() {
    let dir = scratch("robust-sparse");
    let source = dir.join("huge.rs");
    // Sparse: a gigabyte on paper, nothing on disk.
    std::fs::File::create(&source)
        .and_then(|f| f.set_len(1 << 30))
        .expect("sparse source");
    let binary = dir.join("huge.bin");
    let mut header = std::fs::File::create(&binary).expect("create");
    header.write_all(b"\x7fELF\x02\x01\x01").expect("write");
    header.set_len((2 << 30) + 1).expect("sparse binary");
    let start = Instant::now();
    for (file, said) in [
        (
            &source,
            "1073741824 bytes, more than a source may have (16 MiB): refused",
        ),
        (
            &binary,
            "2147483649 bytes, more than a binary may have (2 GiB): refused",
        ),
    ] {
        let out = run(
            driverless(),
            &[
                "check",
                "--driver-version",
                "12040",
                file.to_str().expect("UTF-8"),
            ],
        );
        assert_eq!(out.status, 2, "{out:?}");
        assert!(out.stderr.contains(said), "{}", out.stderr);
    }
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn deep_nesting_is_refused_not_a_stack_overflow() {
    let dir = scratch("robust-nesting");
    let mods = dir.join("mods.rs");
    std::fs::write(
        &mods,
        format!("{}{}", "mod a {".repeat(300), "}".repeat(300)),
    )
    .expect("w");
    let parens = dir.join("parens.rs");
    std::fs::write(
        &parens,
        format!("const X: i32 = {}1{};", "(".repeat(1000), ")".repeat(1000)),
    )
    .expect("write");
    let negations = dir.join("negations.rs");
    std::fs::write(
        &negations,
        format!("const X: i32 = {}1;", "- ".repeat(100_000)),
    )
    .expect("w");
    for (file, at) in [(&mods, "1:1799"), (&parens, "1:271"), (&negations, "1:526")] {
        let out = run(
            driverless(),
            &[
                "check",
                "--driver-version",
                "12040",
                file.to_str().expect("UTF-8"),
            ],
        );
        assert_eq!(out.status, 2, "{out:?}");
        assert!(
            out.stderr.contains(&format!(
                "{}:{at}: nested more than 256 levels deep",
                file.display()
            )),
            "{}",
            out.stderr
        );
    }
    // Just under the limit, the parse (on its own large stack) goes through.
    let deep = dir.join("deep.rs");
    std::fs::write(
        &deep,
        format!("type X = {}i32{};", "V<".repeat(250), ">".repeat(250)),
    )
    .expect("write");
    let out = run(
        driverless(),
        &[
            "check",
            "--driver-version",
            "12040",
            deep.to_str().expect("UTF-8"),
        ],
    );
    assert_eq!(out.status, 0, "{out:?}");
}

/// Runs the command with its standard output writing into a pipe whose reader is closed.
fn into_closed_pipe(args: &[&str]) -> common::Output {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let mut command = driverless();
    command.current_dir(fixtures());
    let child = command
        .args(args)
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    finish(child, Duration::from_secs(60))
}

#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    for args in [
        &["check", "--driver-version", "12040", "project"][..],
        &["check", "--driver-version", "12040", "--json", "project"],
        &["decl", "cuCtxCreate"],
        &["completions", "bash"],
        &["--help"],
    ] {
        let out = into_closed_pipe(args);
        assert_eq!(out.status, 141, "{args:?}: {out:?}");
        assert_eq!(out.stderr, "", "{args:?}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_an_error_not_a_panic() {
    for args in [
        &["check", "--driver-version", "12040", "project"][..],
        &["decl", "cuCtxCreate"],
        &["completions", "bash"],
        &["--help"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let mut command = driverless();
        command.current_dir(fixtures());
        let child = command
            .args(args)
            .stdout(full)
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        let out = finish(child, Duration::from_secs(60));
        assert_eq!(out.status, 1, "{args:?}: {out:?}");
        assert!(
            out.stderr
                .starts_with("error: cannot write the output: No space left on device"),
            "{args:?}: {}",
            out.stderr
        );
        assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    }
}

/// The processes whose parent is `parent`, from /proc.
#[cfg(target_os = "linux")]
fn children(parent: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // `pid (name) state ppid ...`: the name may hold spaces, so read after its `)`.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        if ppid == Some(parent) {
            found.push(pid);
        }
    }
    found
}

#[cfg(target_os = "linux")]
#[test]
fn a_crash_of_the_simulated_run_is_reported_with_its_signal() {
    // The re-run child reads standard input (`-`), which this test keeps open: it waits there
    // until the test kills it.
    let mut parent = cuda_entry()
        .args(["check", "--simulated", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let start = Instant::now();
    let child = loop {
        if let Some(&child) = children(parent.id()).first() {
            break child;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no re-run child appeared"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    // SIGABRT, as a stack overflow or an abort would end it (the Rust runtime catches a
    // SIGSEGV that no fault raised, and goes on).
    let killed = Command::new("kill")
        .args(["-ABRT", &child.to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    drop(parent.stdin.take());
    let out = finish(parent, Duration::from_secs(30));
    assert_eq!(out.status, 4, "{out:?}");
    assert!(
        out.stderr.contains("the --simulated run against ")
            && out.stderr.contains("crashed: killed by signal 6 (SIGABRT)"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_bad_simulated_version_is_bad_input_and_empty_is_unset() {
    for bad in ["abc", "0", "-5", "13.0"] {
        let mut command = cuda_entry();
        command.env("CUDA_ENTRY_SIM_VERSION", bad);
        let out = run(command, &["probe", "--simulated", "--symbol", "cuMemAlloc"]);
        assert_eq!(
            out.status, 2,
            "{bad}: bad input, not a crash of the simulator: {out:?}"
        );
        assert_eq!(
            out.stderr.lines().count(),
            1,
            "{bad}: one line: {}",
            out.stderr
        );
        assert!(
            out.stderr
                .contains(&format!("CUDA_ENTRY_SIM_VERSION={bad:?}"))
                && out.stderr.contains("13000 for CUDA 13.0"),
            "{}",
            out.stderr
        );
    }
    let mut command = cuda_entry();
    command.env("CUDA_ENTRY_SIM_VERSION", "");
    let out = run(command, &["probe", "--simulated", "--symbol", "cuMemAlloc"]);
    assert_eq!(out.status, 0, "empty is unset: {out:?}");
    assert!(out.stdout.contains("13000 (CUDA 13.0)"), "{}", out.stdout);
}

#[test]
fn no_advice_to_add_an_option_already_given() {
    // A version the simulator accepts but no driver reports.
    let mut command = cuda_entry();
    command.env("CUDA_ENTRY_SIM_VERSION", "13005");
    let out = run(command, &["probe", "--simulated", "--symbol", "cuMemAlloc"]);
    assert_eq!(out.status, 1, "{out:?}");
    assert!(out.stderr.contains("13005"), "{}", out.stderr);
    assert!(!out.stderr.contains("add --simulated"), "{}", out.stderr);
    let mut command = cuda_entry();
    command.env("CUDA_ENTRY_SIM_VERSION", "13005");
    let out = run(
        command,
        &["check", "--simulated", "tests/fixtures/optional"],
    );
    assert!(!out.stdout.contains("--simulated)"), "{}", out.stdout);
    assert!(
        out.stdout.contains("the simulated driver is not usable"),
        "{}",
        out.stdout
    );
}
