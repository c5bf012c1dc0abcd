//! `migrate --write` replaces a crate's files all or nothing: a write that fails midway (a
//! file-size limit, as a full disk or a quota would) or a run interrupted by a signal leaves every
//! file whole, each its old version or (only once every file is ready) its new one, and nothing
//! beside them.
#![cfg(unix)]

mod common;

use std::collections::BTreeMap;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Instant;

use common::{cuda_entry, fixtures, run, scratch};

/// Every file under `dir`, by path relative to it, with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).expect("list") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let relative = path.strip_prefix(root).expect("under root").to_owned();
                out.insert(relative, std::fs::read(&path).expect("read"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Writes `files` (relative paths) under `dir`.
fn restore(dir: &Path, files: &BTreeMap<PathBuf, Vec<u8>>) {
    let _ = std::fs::remove_dir_all(dir);
    for (path, bytes) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("create");
        std::fs::write(path, bytes).expect("write");
    }
}

/// The fixture crate's files, its manifest grown by `padding` bytes of comment.
fn fixture(padding: usize) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = snapshot(&fixtures().join("migrate/crate"));
    let manifest = files.get_mut(Path::new("Cargo.toml")).expect("Cargo.toml");
    for _ in 0..padding / 64 {
        manifest.extend_from_slice(format!("# {}\n", "-".repeat(61)).as_bytes());
    }
    files
}

/// The crate's files before and after an uninterrupted `--write`.
fn before_and_after(
    name: &str,
    padding: usize,
) -> (BTreeMap<PathBuf, Vec<u8>>, BTreeMap<PathBuf, Vec<u8>>) {
    let before = fixture(padding);
    let dir = scratch(name).join("gpu-sys");
    restore(&dir, &before);
    let out = write_outside_git(&dir);
    assert_eq!(out.status, 0, "{out:?}");
    let after = snapshot(&dir);
    assert_ne!(before, after, "the fixture has something to migrate");
    (before, after)
}

#[test]
fn a_file_size_limit_midway_changes_nothing() {
    // The manifest, replaced after the sources, is the one file larger than the limit: before
    // the replacement was all or nothing, src/lib.rs was rewritten and Cargo.toml cut at the
    // limit, its [package] table lost.
    let padding = 32 * 1024;
    let (before, after) = before_and_after("write-limit-reference", padding);
    let largest_source = after
        .iter()
        .filter(|(p, _)| *p != Path::new("Cargo.toml"))
        .map(|(_, bytes)| bytes.len())
        .max()
        .expect("files");
    let manifest = after[Path::new("Cargo.toml")].len();
    assert!(
        manifest > largest_source + 4096,
        "{manifest} {largest_source}"
    );
    let limit = (largest_source + 1024) as libc::rlim_t;

    let dir = scratch("write-limit").join("gpu-sys");
    restore(&dir, &before);
    let mut command = cuda_entry();
    command.args([
        "migrate",
        "--write",
        "--allow-no-vcs",
        dir.to_str().expect("UTF-8"),
    ]);
    // SAFETY: `setrlimit` is async-signal-safe; it only lowers this child's own limit.
    unsafe {
        command.pre_exec(move || {
            let rlimit = libc::rlimit {
                rlim_cur: limit,
                rlim_max: limit,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &rlimit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = command.output().expect("run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "not killed by SIGXFSZ: {out:?}");
    assert!(
        stderr.contains("Cargo.toml: cannot write beside it"),
        "{stderr}"
    );
    assert!(stderr.contains("nothing was changed"), "{stderr}");
    // The report comes after the write: it does not claim what did not happen.
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains("rewrote"),
        "{out:?}"
    );
    assert_eq!(
        snapshot(&dir),
        before,
        "every file as it was, nothing left beside them"
    );
}

#[test]
fn a_signal_at_any_moment_leaves_the_old_crate_or_the_new_one() {
    let (before, after) = before_and_after("write-signal-reference", 0);
    let dir = scratch("write-signal").join("gpu-sys");
    // How long one whole run takes here, to spread the signals over it.
    restore(&dir, &before);
    let began = Instant::now();
    let out = write_outside_git(&dir);
    assert_eq!(out.status, 0, "{out:?}");
    let whole = began.elapsed();
    let (mut old, mut new) = (0u32, 0u32);
    const RUNS: u32 = 24;
    for i in 0..RUNS {
        restore(&dir, &before);
        let mut child = cuda_entry()
            .args([
                "migrate",
                "--write",
                "--allow-no-vcs",
                dir.to_str().expect("UTF-8"),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn");
        std::thread::sleep(whole.mul_f64(f64::from(i) / f64::from(RUNS) * 1.2));
        let signal = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP][i as usize % 3];
        // SAFETY: signals the child this test spawned (it may have exited: then ESRCH or a
        // zombie's pid, which is still ours until waited for).
        unsafe { libc::kill(child.id() as libc::pid_t, signal) };
        child.wait().expect("wait");
        let now = snapshot(&dir);
        if now == before {
            old += 1;
        } else if now == after {
            new += 1;
        } else {
            let differing: Vec<_> = now
                .iter()
                .filter(|(p, b)| before.get(*p) != Some(b) && after.get(*p) != Some(b))
                .map(|(p, _)| p.display().to_string())
                .collect();
            panic!(
                "run {i}: a mixture of old and new, or a file neither: {differing:?}; files {:?}",
                now.keys().collect::<Vec<_>>()
            );
        }
    }
    assert_eq!(old + new, RUNS);
}

/// Runs git in `dir`, which must succeed.
fn git(dir: &Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=cuda-entry",
            "-c",
            "user.email=test@cuda-entry",
        ])
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .output()
        .expect("git is installed");
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

/// The fixture crate in a git repository of its own, everything committed.
fn committed_crate(name: &str) -> (PathBuf, BTreeMap<PathBuf, Vec<u8>>) {
    let dir = scratch(name).join("gpu-sys");
    restore(&dir, &fixture(0));
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "the crate"]);
    let files = snapshot(&dir);
    (dir, files)
}

/// `snapshot` without git's own folder.
fn sources(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = snapshot(dir);
    files.retain(|p, _| !p.starts_with(".git"));
    files
}

#[test]
fn files_outside_git_are_written_only_with_allow_no_vcs() {
    // The scratch folder is under the workspace's ignored target/, or in no repository at all.
    let before = fixture(0);
    let dir = scratch("write-no-vcs").join("gpu-sys");
    restore(&dir, &before);
    let path = dir.to_str().expect("UTF-8");
    let out = run(cuda_entry(), &["migrate", "--write", path]);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(
        out.stderr.contains("not under version control"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("pass --allow-no-vcs"), "{}", out.stderr);
    assert!(
        out.stderr.contains("src/lib.rs ("),
        "each file named: {}",
        out.stderr
    );
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    assert_eq!(snapshot(&dir), before);
    // --dry-run writes nothing, so needs nothing.
    let out = run(cuda_entry(), &["migrate", "--dry-run", path]);
    assert_eq!(out.status, 0, "{out:?}");
    let out = run(
        cuda_entry(),
        &["migrate", "--write", "--allow-no-vcs", path],
    );
    assert_eq!(out.status, 0, "{out:?}");
    assert_ne!(snapshot(&dir), before);
}

#[test]
fn uncommitted_changes_are_refused_unless_allowed() {
    let (dir, committed) = committed_crate("write-dirty");
    let path = dir.to_str().expect("UTF-8");
    // A change of the user's, not committed, in a file the command would rewrite.
    let lib = dir.join("src/lib.rs");
    let mut edited = std::fs::read_to_string(&lib).expect("read");
    edited.push_str("// work in progress\n");
    std::fs::write(&lib, &edited).expect("edit");
    // And a file of the crate's that git does not track.
    git(&dir, &["rm", "-q", "--cached", "build.rs"]);
    git(&dir, &["commit", "-q", "-m", "build.rs untracked"]);
    let before = sources(&dir);
    let out = run(cuda_entry(), &["migrate", "--write", path]);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(out.stderr.contains("pass --allow-dirty"), "{}", out.stderr);
    assert!(
        out.stderr.contains("src/lib.rs (modified, not staged)"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("build.rs (untracked)"),
        "{}",
        out.stderr
    );
    assert!(
        !out.stderr.contains("Cargo.toml ("),
        "committed files are not named: {}",
        out.stderr
    );
    assert_eq!(sources(&dir), before, "nothing written");
    let out = run(cuda_entry(), &["migrate", "--write", "--allow-dirty", path]);
    assert_eq!(out.status, 0, "{out:?}");
    let lib = std::fs::read_to_string(&lib).expect("read");
    assert!(lib.contains("// work in progress") && lib.contains("#[::cuda_entry::cuda_entry]"));
    // A clean checkout needs no flag.
    let (dir, committed_again) = committed_crate("write-clean");
    assert_eq!(committed.len(), committed_again.len());
    let out = run(
        cuda_entry(),
        &["migrate", "--write", dir.to_str().expect("UTF-8")],
    );
    assert_eq!(out.status, 0, "{out:?}");
}

/// `migrate --write --allow-no-vcs DIR`.
fn write_outside_git(dir: &Path) -> common::Output {
    run(
        cuda_entry(),
        &[
            "migrate",
            "--write",
            "--allow-no-vcs",
            dir.to_str().expect("UTF-8"),
        ],
    )
}

#[test]
fn nothing_is_written_through_a_symbolic_link() {
    // Another project, which a link in the crate points into.
    let other = scratch("write-link-other");
    std::fs::create_dir_all(other.join("src")).expect("create");
    let theirs = fixture(0);
    let manifest = theirs[Path::new("Cargo.toml")].clone();
    std::fs::write(other.join("Cargo.toml"), &manifest).expect("manifest");
    std::fs::write(other.join("src/lib.rs"), &theirs[Path::new("src/lib.rs")]).expect("lib");

    // A linked Cargo.toml.
    let dir = scratch("write-link-manifest").join("gpu-sys");
    restore(&dir, &fixture(0));
    std::fs::remove_file(dir.join("Cargo.toml")).expect("remove");
    std::os::unix::fs::symlink(other.join("Cargo.toml"), dir.join("Cargo.toml")).expect("link");
    let before = snapshot(&dir);
    let out = write_outside_git(&dir);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(
        out.stderr.contains("Cargo.toml: a symbolic link to"),
        "{}",
        out.stderr
    );
    assert_eq!(
        std::fs::read(other.join("Cargo.toml")).expect("theirs"),
        manifest
    );
    assert_eq!(snapshot(&dir), before);

    // A linked folder: src/lib.rs lies in the other project.
    let dir = scratch("write-link-folder").join("gpu-sys");
    restore(&dir, &fixture(0));
    std::fs::remove_dir_all(dir.join("src")).expect("remove");
    std::os::unix::fs::symlink(other.join("src"), dir.join("src")).expect("link");
    let out = write_outside_git(&dir);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(
        out.stderr
            .contains("src: a symbolic link to a folder, not followed"),
        "{}",
        out.stderr
    );
    assert_eq!(
        std::fs::read(other.join("src/lib.rs")).expect("theirs"),
        theirs[Path::new("src/lib.rs")]
    );

    // A linked .cargo folder: its config.toml, read directly, lies in the other project.
    let config = theirs[Path::new(".cargo/config.toml")].clone();
    std::fs::create_dir_all(other.join(".cargo")).expect("create");
    std::fs::write(other.join(".cargo/config.toml"), &config).expect("config");
    let dir = scratch("write-link-config").join("gpu-sys");
    restore(&dir, &fixture(0));
    std::fs::remove_dir_all(dir.join(".cargo")).expect("remove");
    std::os::unix::fs::symlink(other.join(".cargo"), dir.join(".cargo")).expect("link");
    let before = snapshot(&dir);
    let out = write_outside_git(&dir);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(
        out.stderr.contains("config.toml: is ") && out.stderr.contains("outside what was given"),
        "{}",
        out.stderr
    );
    assert_eq!(
        std::fs::read(other.join(".cargo/config.toml")).expect("theirs"),
        config
    );
    assert_eq!(
        snapshot(&dir),
        before,
        "nothing written in the crate either"
    );
}

#[test]
fn a_dry_run_into_a_pipe_is_a_patch_of_the_files_own_bytes() {
    // An escape sequence in a comment next to the block that changes: in the diff's context.
    let source = "use std::ffi::c_uint;\npub type CUresult = i32;\n\n\
                  // Red: \u{1b}[31m, reset: \u{1b}[0m.\n#[link(name = \"cuda\")]\n\
                  unsafe extern \"C\" {\n    pub fn cuInit(Flags: c_uint) -> CUresult;\n}\n";
    let dir = scratch("dry-run-patch");
    std::fs::write(dir.join("ffi.rs"), source).expect("write");
    let out = cuda_entry()
        .current_dir(&dir)
        .args(["migrate", "--dry-run", "ffi.rs"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let diff = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(
        diff.contains(" // Red: \u{1b}[31m, reset: \u{1b}[0m."),
        "{diff}"
    );
    assert!(
        !diff.contains("\\u{1b}"),
        "escaped although not a terminal: {diff}"
    );

    let written = scratch("dry-run-patch-written");
    std::fs::write(written.join("ffi.rs"), source).expect("write");
    let out = cuda_entry()
        .current_dir(&written)
        .args(["migrate", "--write", "--allow-no-vcs", "ffi.rs"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let expected = std::fs::read(written.join("ffi.rs")).expect("read");
    match std::process::Command::new("patch")
        .current_dir(&dir)
        .args(["-p0", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(mut patch) => {
            use std::io::Write;
            let mut stdin = patch.stdin.take().expect("stdin");
            stdin.write_all(diff.as_bytes()).expect("feed the diff");
            drop(stdin);
            let out = patch.wait_with_output().expect("patch");
            assert!(out.status.success(), "patch -p0: {out:?}");
            assert_eq!(std::fs::read(dir.join("ffi.rs")).expect("read"), expected);
        }
        Err(e) => eprintln!("SKIPPED applying the diff with patch -p0: {e}"),
    }
}

#[test]
fn a_nested_crate_is_left_and_said() {
    // cargo-fuzz's layout: `fuzz/` is a crate with a `[workspace]` of its own. Before, its
    // sources were rewritten and the dependency went into the outer manifest: the nested crate no
    // longer built, and the command said nothing.
    let mut files = fixture(0);
    let source = files[Path::new("src/lib.rs")].clone();
    files.insert(PathBuf::from("fuzz/fuzz_targets/bindings.rs"), source);
    files.insert(
        PathBuf::from("fuzz/Cargo.toml"),
        b"[package]\nname = \"gpu-sys-fuzz\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n[workspace]\nmembers = [\".\"]\n"
            .to_vec(),
    );
    let dir = scratch("write-nested").join("gpu-sys");
    restore(&dir, &files);
    let out = write_outside_git(&dir);
    assert_eq!(out.status, 0, "{out:?}");
    let after = snapshot(&dir);
    for nested in ["fuzz/fuzz_targets/bindings.rs", "fuzz/Cargo.toml"] {
        assert!(
            after[Path::new(nested)] == files[Path::new(nested)],
            "{nested} is the nested crate's, left as it was:\n{}",
            String::from_utf8_lossy(&after[Path::new(nested)])
        );
    }
    assert_ne!(
        after[Path::new("src/lib.rs")],
        files[Path::new("src/lib.rs")]
    );
    let manifest = String::from_utf8_lossy(&after[Path::new("Cargo.toml")]).into_owned();
    assert!(manifest.contains("cuda-entry"), "{manifest}");
    assert!(
        out.stderr.contains("fuzz is a crate of its own") && out.stderr.contains("not migrated"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_workspace_migrates_each_member_that_binds_the_driver() {
    // A virtual manifest with members by glob: before, the root was refused ("no [package]") and
    // naming it migrated nothing; a member had to be named, one run each.
    let crate_files = fixture(0);
    let mut files = BTreeMap::new();
    for (path, bytes) in &crate_files {
        let bytes = if path == Path::new("Cargo.toml") {
            // A member: the workspace is the root's.
            String::from_utf8_lossy(bytes)
                .replace("\n[workspace]\n", "\n")
                .into_bytes()
        } else {
            bytes.clone()
        };
        files.insert(Path::new("crates/gpu-sys").join(path), bytes);
    }
    files.insert(
        PathBuf::from("crates/app/Cargo.toml"),
        b"[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n".to_vec(),
    );
    files.insert(
        PathBuf::from("crates/app/src/lib.rs"),
        b"pub fn answer() -> u32 {\n    42\n}\n".to_vec(),
    );
    let root = b"[workspace]\nmembers = [\"crates/*\"]\nresolver = \"2\"\n".to_vec();
    files.insert(PathBuf::from("Cargo.toml"), root);
    let dir = scratch("write-workspace").join("ws");
    restore(&dir, &files);
    let out = write_outside_git(&dir);
    assert_eq!(out.status, 0, "{out:?}");
    let after = snapshot(&dir);
    let text = |path: &str| String::from_utf8_lossy(&after[Path::new(path)]).into_owned();
    // The member that binds the driver: its sources and its own manifest.
    assert!(text("crates/gpu-sys/src/lib.rs").contains("#[cuda_entry("));
    assert!(text("crates/gpu-sys/Cargo.toml").contains("cuda-entry"));
    // The member without bindings and the root: as they were.
    for same in [
        "crates/app/Cargo.toml",
        "crates/app/src/lib.rs",
        "Cargo.toml",
    ] {
        assert!(
            after[Path::new(same)] == files[Path::new(same)],
            "{same} changed:\n{}",
            text(same)
        );
    }
    assert!(!out.stderr.contains("crate of its own"), "{}", out.stderr);
}

#[test]
fn a_dependent_named_with_the_bindings_is_migrated_in_the_same_run() {
    // RustaCUDA's shape: a crate using the bindings that links libcuda itself (its build script)
    // and whose own lockfile holds quote 1.0.9. Named with the bindings, it loses its link in the
    // same set of writes, and its lockfile's update is named.
    let mut files = BTreeMap::new();
    for (path, bytes) in fixture(0) {
        files.insert(Path::new("gpu-sys").join(path), bytes);
    }
    let app = [
        (
            "app/Cargo.toml",
            "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [dependencies]\ngpu-sys = { path = \"../gpu-sys\" }\n\n[workspace]\n",
        ),
        (
            "app/build.rs",
            "fn main() {\n    println!(\"cargo:rustc-link-lib=dylib=cuda\");\n}\n",
        ),
        ("app/src/lib.rs", "pub fn answer() -> u32 {\n    42\n}\n"),
        (
            "app/Cargo.lock",
            "version = 3\n\n[[package]]\nname = \"quote\"\nversion = \"1.0.9\"\n",
        ),
    ];
    for (path, text) in app {
        files.insert(PathBuf::from(path), text.as_bytes().to_vec());
    }
    let dir = scratch("write-dependent");
    restore(&dir, &files);
    let (sys, app) = (dir.join("gpu-sys"), dir.join("app"));
    let out = run(
        cuda_entry(),
        &[
            "migrate",
            "--write",
            "--allow-no-vcs",
            sys.to_str().expect("UTF-8"),
            app.to_str().expect("UTF-8"),
        ],
    );
    assert_eq!(out.status, 0, "{out:?}");
    let after = snapshot(&dir);
    let text = |path: &str| String::from_utf8_lossy(&after[Path::new(path)]).into_owned();
    assert!(text("gpu-sys/src/lib.rs").contains("#[cuda_entry("));
    assert_eq!(text("app/build.rs"), "fn main() {\n}\n");
    assert!(
        out.stdout.contains("app/Cargo.lock") && out.stdout.contains("cargo update -p quote"),
        "{}",
        out.stdout
    );
}
