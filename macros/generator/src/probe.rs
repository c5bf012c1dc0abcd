//! Asks the C compiler about a toolkit's headers: writes a C probe of one `printf` line per
//! question, compiles it against the headers with `cc`, runs it, and reads the answers back.
//!
//! A line that does not compile has no answer (its question does not apply: `sizeof` of an
//! incomplete type); the probe is compiled again without it. An item (a type, an export) whose
//! key line does not compile is retried in the next stage: with `__CUDA_API_VERSION_INTERNAL`
//! defined (the old `_v1` types of the `_v2000` typedefs), then with the Windows-only `HGPUNV`
//! declared as `wglext.h` does (`DECLARE_HANDLE(HGPUNV)`).

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A way to compile the headers: extra defines and a prelude after the includes.
#[derive(Debug)]
pub(crate) struct Stage {
    pub(crate) name: &'static str,
    pub(crate) defines: &'static [&'static str],
    pub(crate) prelude: &'static str,
}

/// The plain headers.
pub(crate) const PLAIN: Stage = Stage {
    name: "plain",
    defines: &[],
    prelude: "",
};

/// The headers with their `__CUDA_API_VERSION_INTERNAL` sections: the old ABIs.
pub(crate) const INTERNAL: Stage = Stage {
    name: "__CUDA_API_VERSION_INTERNAL",
    defines: &["-D__CUDA_API_VERSION_INTERNAL"],
    prelude: "",
};

/// The stages types are measured in, in order.
pub(crate) const STAGES: &[Stage] = &[
    PLAIN,
    INTERNAL,
    Stage {
        name: "HGPUNV shim",
        defines: &[],
        prelude: "#ifndef _WIN32\nstruct HGPUNV__ { int unused; };\ntypedef struct HGPUNV__ *HGPUNV;\n#endif\n",
    },
];

/// The headers the probe includes (GL/gl.h first: cudaGL.h needs it).
pub(crate) const PROBE_INCLUDES: &[&str] = &[
    "stdio.h",
    "GL/gl.h",
    "cuda.h",
    "cudaProfiler.h",
    "cudaTypedefs.h",
    "cudaProfilerTypedefs.h",
    "cudaGLTypedefs.h",
    "cudaEGLTypedefs.h",
    "cudaVDPAUTypedefs.h",
];

/// One question: `{ setup printf("<n> format\n", args); }` on one line of `main`.
#[derive(Clone, Debug)]
pub(crate) struct Line {
    /// The item (type, export) the line asks about.
    pub(crate) item: usize,
    /// Block-scope declarations before the `printf` (`typedef __typeof__(T) t;`).
    pub(crate) setup: String,
    /// The `printf` format of the answer: integers only (`"%zu %zu"`, `"%d"`).
    pub(crate) format: &'static str,
    /// The `printf` arguments.
    pub(crate) args: String,
}

/// The answers of a staged probe.
#[derive(Debug)]
pub(crate) struct Answers {
    /// Per line: the integers it printed, or `None` when it did not compile in its item's stage.
    pub(crate) values: Vec<Option<Vec<i64>>>,
    /// Per item: the stage whose headers know it (its key line compiled), or `None`.
    pub(crate) stage: Vec<Option<&'static str>>,
    /// The compiler's output of the last failed compile, for error messages.
    pub(crate) last_errors: String,
}

/// Where the probe's files go and which compiler and headers it uses.
#[derive(Debug)]
pub(crate) struct Compiler<'a> {
    pub(crate) cc: &'a str,
    pub(crate) includes: &'a [PathBuf],
    pub(crate) work: &'a Path,
}

impl Compiler<'_> {
    /// Answers `lines` in `stages` order: an item settles in the first stage where its key line
    /// (`key[item]`, an index into `lines`) compiles; its other lines are answered in that stage.
    pub(crate) fn staged(
        &self,
        stages: &[Stage],
        items: usize,
        key: &[usize],
        lines: &[Line],
    ) -> Result<Answers, String> {
        let mut answers = Answers {
            values: vec![None; lines.len()],
            stage: vec![None; items],
            last_errors: String::new(),
        };
        for stage in stages {
            let mut pending: Vec<usize> = (0..lines.len())
                .filter(|&l| answers.stage[lines[l].item].is_none())
                .collect();
            while !pending.is_empty() {
                let asked: Vec<&Line> = pending.iter().map(|&l| &lines[l]).collect();
                match self.compile_and_run(stage, &asked)? {
                    Ok(values) => {
                        for (&l, v) in pending.iter().zip(values) {
                            answers.values[l] = v;
                        }
                        for (item, &k) in key.iter().enumerate() {
                            if answers.stage[item].is_none() && answers.values[k].is_some() {
                                answers.stage[item] = Some(stage.name);
                            }
                        }
                        break;
                    }
                    // The headers themselves do not compile in this stage: try the next one.
                    Err((bad, errors)) if bad.is_empty() => {
                        answers.last_errors = errors;
                        break;
                    }
                    // Without its key line an item has no answers in this stage: drop all its
                    // lines (GCC names an undeclared type once per function, so its other
                    // lines would fail one compile at a time).
                    Err((bad, errors)) => {
                        answers.last_errors = errors;
                        let unknown: BTreeSet<usize> = bad
                            .iter()
                            .map(|&i| pending[i])
                            .filter(|&l| key[lines[l].item] == l)
                            .map(|l| lines[l].item)
                            .collect();
                        pending = pending
                            .into_iter()
                            .enumerate()
                            .filter(|&(i, l)| {
                                !bad.contains(&i) && !unknown.contains(&lines[l].item)
                            })
                            .map(|(_, l)| l)
                            .collect();
                    }
                }
            }
            // Answers of items that did not settle are not theirs: ask again in the next stage.
            for (l, line) in lines.iter().enumerate() {
                if answers.stage[line.item].is_none() {
                    answers.values[l] = None;
                }
            }
            if answers.stage.iter().all(Option::is_some) {
                break;
            }
        }
        Ok(answers)
    }

    /// `Ok(Ok(answers))` in `lines` order (`None` for a line that printed nothing), or
    /// `Ok(Err(..))` with the lines that did not compile.
    fn compile_and_run(&self, stage: &Stage, lines: &[&Line]) -> Result<Outcome, String> {
        let mut src = String::new();
        for inc in PROBE_INCLUDES {
            let _ = writeln!(src, "#include <{inc}>");
        }
        src.push_str(stage.prelude);
        src.push_str("int main(void) {\n");
        let first_line = src.lines().count() + 1;
        for (i, l) in lines.iter().enumerate() {
            let _ = writeln!(
                src,
                "    {{ {} printf(\"{i} {}\\n\", {}); }}",
                l.setup, l.format, l.args
            );
        }
        src.push_str("    return 0;\n}\n");
        let c_file = self.work.join("probe.c");
        let exe = self.work.join("probe");
        std::fs::write(&c_file, &src).map_err(|e| format!("{}: {e}", c_file.display()))?;
        let mut cmd = Command::new(self.cc);
        cmd.arg("-std=c11").arg("-w").args(stage.defines);
        for inc in self.includes {
            cmd.arg("-I").arg(inc);
        }
        cmd.arg("-o").arg(&exe).arg(&c_file);
        let out = cmd
            .output()
            .map_err(|e| format!("cannot run `{}`: {e}", self.cc))?;
        if !out.status.success() {
            let errors = String::from_utf8_lossy(&out.stderr).into_owned();
            let prefix = format!("{}:", c_file.display());
            let mut bad = BTreeSet::new();
            for l in errors.lines().filter(|l| l.contains("error")) {
                let Some(rest) = l.strip_prefix(&prefix) else {
                    continue;
                };
                let Some(n) = rest.split(':').next().and_then(|n| n.parse::<usize>().ok()) else {
                    continue;
                };
                if let Some(i) = n.checked_sub(first_line).filter(|i| *i < lines.len()) {
                    bad.insert(i);
                }
            }
            return Ok(Err((bad, errors)));
        }
        let run = Command::new(&exe)
            .output()
            .map_err(|e| format!("cannot run the probe {}: {e}", exe.display()))?;
        if !run.status.success() {
            return Err(format!(
                "the probe {} failed: {}",
                exe.display(),
                run.status
            ));
        }
        let stdout = String::from_utf8_lossy(&run.stdout);
        let mut values = vec![None; lines.len()];
        for l in stdout.lines() {
            let mut f = l.split_whitespace().map(str::parse::<i64>);
            if let Some(Ok(i)) = f.next()
                && let Some(slot) = usize::try_from(i).ok().and_then(|i| values.get_mut(i))
            {
                *slot = Some(
                    f.collect::<Result<Vec<_>, _>>()
                        .map_err(|e| format!("the probe {} printed `{l}`: {e}", exe.display()))?,
                );
            }
        }
        Ok(Ok(values))
    }

    /// The headers after the preprocessor (`cc -E -P`) in `stage`: what the compiler sees.
    pub(crate) fn preprocess(&self, stage: &Stage) -> Result<String, String> {
        let mut src = String::new();
        for inc in PROBE_INCLUDES {
            let _ = writeln!(src, "#include <{inc}>");
        }
        src.push_str(stage.prelude);
        let c_file = self.work.join("headers.c");
        std::fs::write(&c_file, &src).map_err(|e| format!("{}: {e}", c_file.display()))?;
        let mut cmd = Command::new(self.cc);
        cmd.arg("-E").arg("-P").arg("-std=c11").args(stage.defines);
        for inc in self.includes {
            cmd.arg("-I").arg(inc);
        }
        cmd.arg(&c_file);
        let out = cmd
            .output()
            .map_err(|e| format!("cannot run `{}`: {e}", self.cc))?;
        if !out.status.success() {
            return Err(format!(
                "`{} -E` of the headers ({}) failed:\n{}",
                self.cc,
                stage.name,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        String::from_utf8(out.stdout).map_err(|e| format!("`{} -E` output: {e}", self.cc))
    }
}

/// Indices of the lines that did not compile, and the compiler's output.
type CompileErrors = (BTreeSet<usize>, String);

/// What one compile and run gives: per line its answer, or the lines that did not compile.
type Outcome = Result<Vec<Option<Vec<i64>>>, CompileErrors>;

/// A fake toolkit for tests that run the compiler.
#[cfg(test)]
pub(crate) mod testing {
    use std::path::PathBuf;

    use super::PROBE_INCLUDES;

    /// A fresh folder with `cuda_h` as cuda.h and every other probe header empty.
    pub(crate) fn fake_toolkit(name: &str, cuda_h: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "cuda-entry-generator-test-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("GL")).expect("temp dir");
        for h in PROBE_INCLUDES.iter().filter(|h| **h != "stdio.h") {
            std::fs::write(dir.join(h), "").expect("header");
        }
        std::fs::write(dir.join("cuda.h"), cuda_h).expect("cuda.h");
        dir
    }
}
