//! Measures `sizeof`/`_Alignof` of C types by compiling and running a probe against a toolkit's
//! headers.
//!
//! A type that does not compile with the plain headers is retried in the next stage: with
//! `__CUDA_API_VERSION_INTERNAL` defined (the old `_v1` types of the `_v2000` typedefs), then with
//! the Windows-only `HGPUNV` declared as `wglext.h` does (`DECLARE_HANDLE(HGPUNV)`).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `sizeof` and `_Alignof` of a type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Layout {
    pub(crate) size: u32,
    pub(crate) align: u32,
}

struct Stage {
    name: &'static str,
    defines: &'static [&'static str],
    prelude: &'static str,
}

const STAGES: &[Stage] = &[
    Stage {
        name: "plain",
        defines: &[],
        prelude: "",
    },
    Stage {
        name: "__CUDA_API_VERSION_INTERNAL",
        defines: &["-D__CUDA_API_VERSION_INTERNAL"],
        prelude: "",
    },
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

/// What the probe measured: per type, its layout and the stage that compiled it.
pub(crate) struct Measured {
    pub(crate) layouts: BTreeMap<String, Layout>,
    pub(crate) stage_of: BTreeMap<String, &'static str>,
}

/// Measures every type in `types` (spellings; `void` is 0/0) with `cc` against `includes`.
pub(crate) fn measure(
    cc: &str,
    includes: &[PathBuf],
    types: &BTreeSet<String>,
    work: &Path,
) -> Result<Measured, String> {
    let mut layouts = BTreeMap::new();
    let mut stage_of = BTreeMap::new();
    let mut left: Vec<String> = types.iter().filter(|t| *t != "void").cloned().collect();
    if types.contains("void") {
        layouts.insert("void".to_string(), Layout { size: 0, align: 0 });
        stage_of.insert("void".to_string(), "none");
    }
    let mut last_errors = String::new();
    for stage in STAGES {
        let mut pending = left.clone();
        while !pending.is_empty() {
            match compile_and_run(cc, includes, stage, &pending, work)? {
                Ok(sizes) => {
                    for (ty, layout) in pending.iter().zip(sizes) {
                        layouts.insert(ty.clone(), layout);
                        stage_of.insert(ty.clone(), stage.name);
                    }
                    break;
                }
                // The headers themselves do not compile in this stage: try the next one.
                Err((bad, errors)) if bad.is_empty() => {
                    last_errors = errors;
                    break;
                }
                Err((bad, errors)) => {
                    last_errors = errors;
                    pending = pending
                        .into_iter()
                        .enumerate()
                        .filter(|(i, _)| !bad.contains(i))
                        .map(|(_, t)| t)
                        .collect();
                }
            }
        }
        left.retain(|t| !layouts.contains_key(t));
        if left.is_empty() {
            break;
        }
    }
    if !left.is_empty() {
        return Err(format!(
            "no probe stage could measure these types: {}\nlast compiler output:\n{last_errors}",
            left.join(", ")
        ));
    }
    Ok(Measured { layouts, stage_of })
}

/// Indices of the types that did not compile, and the compiler's output.
type CompileErrors = (BTreeSet<usize>, String);

/// `Ok(Ok(layouts))` in `types` order, or `Ok(Err(..))` when the probe does not compile.
fn compile_and_run(
    cc: &str,
    includes: &[PathBuf],
    stage: &Stage,
    types: &[String],
    work: &Path,
) -> Result<Result<Vec<Layout>, CompileErrors>, String> {
    let mut src = String::new();
    for inc in PROBE_INCLUDES {
        let _ = writeln!(src, "#include <{inc}>");
    }
    src.push_str(stage.prelude);
    src.push_str("int main(void) {\n");
    let first_line = src.lines().count() + 1;
    for (i, ty) in types.iter().enumerate() {
        let _ = writeln!(
            src,
            "    printf(\"{i} %zu %zu\\n\", sizeof({ty}), _Alignof({ty}));"
        );
    }
    src.push_str("    return 0;\n}\n");
    let c_file = work.join("probe.c");
    let exe = work.join("probe");
    std::fs::write(&c_file, &src).map_err(|e| format!("{}: {e}", c_file.display()))?;
    let mut cmd = Command::new(cc);
    cmd.arg("-std=c11").arg("-w").args(stage.defines);
    for inc in includes {
        cmd.arg("-I").arg(inc);
    }
    cmd.arg("-o").arg(&exe).arg(&c_file);
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run `{cc}`: {e}"))?;
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
            if let Some(i) = n.checked_sub(first_line).filter(|i| *i < types.len()) {
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
    let mut layouts = vec![None; types.len()];
    for l in stdout.lines() {
        let f: Vec<u32> = l
            .split_whitespace()
            .filter_map(|x| x.parse().ok())
            .collect();
        if let [i, size, align] = f[..]
            && let Some(slot) = layouts.get_mut(i as usize)
        {
            *slot = Some(Layout { size, align });
        }
    }
    layouts
        .into_iter()
        .enumerate()
        .map(|(i, l)| l.ok_or_else(|| format!("the probe printed nothing for `{}`", types[i])))
        .collect::<Result<Vec<_>, _>>()
        .map(Ok)
}
