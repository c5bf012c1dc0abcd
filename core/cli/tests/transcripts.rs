//! The command-line transcripts of the workspace's README.md and of core/cli/README.md, run as a
//! reader would run them (from the workspace root, against the simulated driver) and compared
//! with what they show, by trycmd.
//!
//! Each ```` ```console ```` block is a sequence of `$ command` lines, each followed by `? N` when
//! its exit status is not 0 and then by its output (stdout and stderr together). `[..]` in an
//! expected line stands for any text (the build's paths), a line `...` for any number of lines.
//! Blocks marked ```` ```text ```` are not run. When the command's output changes, this test
//! fails until the READMEs say what it prints now; `TRYCMD=overwrite cargo test -p
//! cuda-entry-cli --test transcripts` rewrites the blocks from the output (docs/testing.md).

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Every variable that changes which driver the command loads or how the simulator answers: the
/// transcripts set what they need on their command lines.
const DRIVER_VARIABLES: &[&str] = &[
    "CUDA_ENTRY_DRIVER_PATH",
    "CUDA_ENTRY_RUNTIME_PATH",
    "CUDA_ENTRY_SIM_VERSION",
    "CUDA_ENTRY_SIM_MODE",
    "CUDA_ENTRY_CLI_SIMULATED",
];

/// Where a transcript reads a built program: the workspace's quickstart example in the default
/// target folder's dev profile, as `cargo test --workspace` builds it.
const BUILT_EXAMPLE: &str = "target/debug/examples/quickstart";

fn workspace_root() -> PathBuf {
    let cli = Path::new(env!("CARGO_MANIFEST_DIR"));
    cli.ancestors()
        .nth(2)
        .expect("core/cli is two levels down")
        .to_path_buf()
}

#[test]
fn the_readmes_transcripts_are_what_the_command_prints() {
    let root = workspace_root();
    for variable in DRIVER_VARIABLES {
        // SAFETY: this executable's only test, on which no other thread of the process reads or
        // writes the environment (trycmd's runs start below).
        unsafe { std::env::remove_var(variable) };
    }
    // The transcripts' paths are relative to the workspace root.
    std::env::set_current_dir(&root).expect("the workspace root");

    let exe = Path::new(env!("CARGO_BIN_EXE_cuda-entry"));
    let built = exe.parent() == Some(root.join("target/debug").as_path())
        && root.join(BUILT_EXAMPLE).is_file();
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("transcripts");
    let mut pages = Vec::new();
    for page in ["README.md", "core/cli/README.md"] {
        let path = root.join(page);
        if built {
            pages.push(path);
            continue;
        }
        // Without the built example, its transcripts are left out of a copy of the page (only
        // this run reads the copy; TRYCMD=overwrite rewrites the pages themselves only when
        // everything runs).
        let text = std::fs::read_to_string(&path).expect("the page");
        let (copy, left_out) = without_built_example(&text);
        if left_out > 0 {
            // Past libtest's capture, so that the run shows it (docs/testing.md).
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED {left_out} transcript(s) of {page} reading {BUILT_EXAMPLE}: not built \
                 here; `cargo test --workspace` builds it"
            );
        }
        std::fs::create_dir_all(&scratch).expect("the scratch folder");
        let copy_path = scratch.join(page.replace('/', "-"));
        std::fs::write(&copy_path, copy).expect("the copy");
        pages.push(copy_path);
    }

    let cases = trycmd::TestCases::new();
    cases.register_bin("cuda-entry", exe);
    for page in &pages {
        cases.case(page);
    }
    cases.run();
}

/// The page with every console block that reads the built example marked `ignore`, and how many.
fn without_built_example(text: &str) -> (String, usize) {
    let mut out = String::new();
    let mut left_out = 0;
    let mut lines = text.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        if line.trim_end() != "```console" {
            out.push_str(line);
            continue;
        }
        let mut block = vec![line];
        for line in lines.by_ref() {
            block.push(line);
            if line.trim_end() == "```" {
                break;
            }
        }
        if block
            .iter()
            .any(|l| l.starts_with("$ ") && l.contains(BUILT_EXAMPLE))
        {
            left_out += 1;
            block[0] = "```console,ignore\n";
        }
        out.extend(block);
    }
    (out, left_out)
}
