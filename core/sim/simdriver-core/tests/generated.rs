//! `src/table/symbols.rs` and `src/unsupported/stubs.rs` are what the typedef table and the real
//! driver's exports give: the symbol table `cuGetProcAddress*` answers from, and the stubs for the
//! exports the simulator does not implement (and core/sim/simdriver/EXPORTS.md the same lists, for people), and
//! `src/generated_device.rs`, what the simulated device answers (tests/ground-truth/device-0.tsv).
//! This test writes the files' text from the sources and compares; with
//! `CUDA_ENTRY_SIM_GENERATE=overwrite` it writes the files instead (then review the diff).
//!
//! The sources: every typedef of `cuda-entry-table` up to the driver's version (13000), and
//! tests/ground-truth/driver-13000-exports.txt, the functions driver 580.159.04 exports. The naming
//! rule (the first typedef of a symbol is the bare export, the k-th `_v<k>`, a per-thread one the
//! `_ptsz`/`_ptds` twin of the legacy export at its version) is what every measured answer follows;
//! core/sim/simdriver/tests/ground_truth.rs holds the result against every measured row.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;

use cuda_entry_table::{Flavour, TYPEDEFS, Typedef};

/// The version driver 580.159.04 reports: typedefs newer than it are not its symbols.
const DRIVER_VERSION: u32 = 13000;
/// The variable that makes this test write the file instead of comparing.
const OVERWRITE: &str = "CUDA_ENTRY_SIM_GENERATE";

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The real driver's exports.
fn driver_exports() -> BTreeSet<String> {
    let path = manifest_dir().join("../../../tests/ground-truth/driver-13000-exports.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

/// One variant as the generated table writes it: (per-thread, version, export).
type Variant = (bool, u32, String);

/// A symbol's variants by the naming rule, from its typedefs up to the driver's version.
fn variants(symbol: &str, typedefs: &[&Typedef]) -> Vec<Variant> {
    let mut legacy: Vec<u32> = typedefs
        .iter()
        .filter(|t| t.stream == Flavour::Legacy)
        .map(|t| t.version)
        .collect();
    legacy.sort_unstable();
    let legacy: Vec<(u32, String)> = legacy
        .into_iter()
        .enumerate()
        .map(|(k, version)| {
            let export = if k == 0 {
                symbol.to_owned()
            } else {
                format!("{symbol}_v{}", k + 1)
            };
            (version, export)
        })
        .collect();
    let mut out: Vec<Variant> = legacy
        .iter()
        .map(|(version, export)| (false, *version, export.clone()))
        .collect();
    let mut per_thread: Vec<&&Typedef> = typedefs
        .iter()
        .filter(|t| t.stream.is_per_thread())
        .collect();
    per_thread.sort_by_key(|t| t.version);
    for t in per_thread {
        let base = legacy
            .iter()
            .rev()
            .find(|(version, _)| *version <= t.version)
            .map_or(symbol, |(_, export)| export.as_str());
        out.push((true, t.version, format!("{base}{}", t.stream.suffix())));
    }
    out
}

/// The texts of src/table/symbols.rs, src/unsupported/stubs.rs and core/sim/simdriver/EXPORTS.md
/// (the same lists, for people).
fn generate() -> (String, String, String) {
    let exports = driver_exports();
    let mut by_symbol: std::collections::BTreeMap<&str, Vec<&Typedef>> = Default::default();
    for t in TYPEDEFS.iter().filter(|t| t.version <= DRIVER_VERSION) {
        by_symbol.entry(t.symbol).or_default().push(t);
    }
    let mut table = String::new();
    let mut symbols = 0;
    let mut handed_out = BTreeSet::new();
    for (symbol, typedefs) in &by_symbol {
        let variants = variants(symbol, typedefs);
        let missing: Vec<&str> = variants
            .iter()
            .filter(|(_, _, export)| !exports.contains(export))
            .map(|(_, _, export)| export.as_str())
            .collect();
        if missing.len() == variants.len() {
            // Not a function of this driver (cuWGLGetDevice is Windows-only, cuEventCreateFromEGLSync
            // is not in this build): an unknown symbol, as the driver would say.
            continue;
        }
        assert!(
            missing.is_empty(),
            "{symbol}: the naming rule gives {missing:?}, which the driver does not export; the rule \
             no longer describes this symbol, so write its variants by hand"
        );
        let written: Vec<String> = variants
            .iter()
            .map(|(per_thread, version, export)| {
                handed_out.insert(export.clone());
                let kind = if *per_thread { 'p' } else { 'l' };
                format!("{kind}({version}, \"{export}\")")
            })
            .collect();
        symbols += 1;
        writeln!(
            table,
            "    Symbol {{ name: \"{symbol}\", variants: &[{}] }},",
            written.join(", ")
        )
        .expect("write to a String");
    }
    let implemented: BTreeSet<&str> = cuda_entry_simdriver_core::COMMON_EXPORTS
        .iter()
        .copied()
        .chain(["cuGetProcAddress", "cuGetProcAddress_v2"])
        .collect();
    for name in &implemented {
        assert!(
            exports.contains(*name),
            "{name} is implemented but is no export of the real driver"
        );
    }
    let mut stubs = String::new();
    for name in exports.iter().filter(|n| !implemented.contains(n.as_str())) {
        writeln!(stubs, "    {name}").expect("write to a String");
    }
    let code = |names: &mut dyn Iterator<Item = &str>| {
        names
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let markdown = format!(
        "# Exports

Generated by core/sim/simdriver-core/tests/generated.rs; do not edit.

The simulated driver exports every function that driver 580.159.04 (CUDA 13.0) exports, and its
`cuGetProcAddress` hands out each for the same (symbol, version, flags) as the real one did. It
implements {implemented_count} of them; the other {stub_count} return 801 (`CUDA_ERROR_NOT_SUPPORTED`)
without reading their arguments, and each call is recorded under the function's name
(`cuda_entry_sim::unsupported_calls()`).

## Implemented

{implemented_list}

## Not implemented: each returns 801

{stub_list}
",
        implemented_count = implemented.len(),
        stub_count = exports.len() - implemented.len(),
        implemented_list = code(&mut implemented.iter().copied()),
        stub_list = code(
            &mut exports
                .iter()
                .map(String::as_str)
                .filter(|n| !implemented.contains(n))
        ),
    );
    let header = format!(
        "// Generated by tests/generated.rs from the typedef table (cuda-entry-table, typedefs up to
// {DRIVER_VERSION}) and tests/ground-truth/driver-13000-exports.txt; do not edit. Regenerate with
// `{OVERWRITE}=overwrite cargo test -p cuda-entry-simdriver-core --test generated`.
"
    );
    let symbols = format!(
        "{header}
use super::{{Symbol, l, p}};

/// Every symbol driver 580.159.04 resolves, sorted by name: {symbols} symbols, {variants} variants.
pub static SYMBOLS: &[Symbol] = &[
{table}];
",
        variants = handed_out.len(),
    );
    let stubs = format!(
        "{header}
// The real driver's exports that exports.rs does not implement ({stub_count}): each records its
// call and returns 801 (CUDA_ERROR_NOT_SUPPORTED).
super::unsupported_exports! {{
{stubs}}}
",
        stub_count = exports.len() - implemented.len(),
    );
    (symbols, stubs, markdown)
}

/// The text of src/generated_device.rs: what device 0 answered
/// (tests/ground-truth/device-0.tsv: query TAB argument TAB status TAB value [TAB name]), as
/// constants and tables the simulated device answers from.
fn generate_device() -> String {
    let path = manifest_dir().join("../../../tests/ground-truth/device-0.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let rows: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("query\t"))
        .map(|l| l.split('\t').collect())
        .collect();
    let one = |query: &str| -> &str {
        let found: Vec<&Vec<&str>> = rows.iter().filter(|r| r[0] == query).collect();
        assert_eq!(found.len(), 1, "{query}: one row expected");
        assert_eq!(found[0][2], "0", "{query}: status 0 expected");
        found[0][3]
    };
    // A C string literal: Rust's escapes of a str are valid in one.
    let c = |s: &str| format!("c{s:?}");
    let (major, minor) = one("cuDeviceComputeCapability")
        .split_once('.')
        .expect("MAJOR.MINOR");
    let (least, greatest) = one("cuCtxGetStreamPriorityRange")
        .split_once(' ')
        .expect("LEAST GREATEST");
    let mut attributes = String::new();
    for r in rows.iter().filter(|r| r[0] == "cuDeviceGetAttribute") {
        let name = r.get(4).copied().unwrap_or("-");
        writeln!(attributes, "    ({}, {}, {}), // {name}", r[1], r[2], r[3])
            .expect("write to a String");
    }
    let mut errors = String::new();
    for r in rows.iter().filter(|r| r[0] == "cuGetErrorName") {
        let string = rows
            .iter()
            .find(|s| s[0] == "cuGetErrorString" && s[1] == r[1])
            .unwrap_or_else(|| panic!("no cuGetErrorString row for {}", r[1]));
        assert!(
            r[2] == "0" && string[2] == "0",
            "code {}: status 0 expected",
            r[1]
        );
        writeln!(errors, "    ({}, {}, {}),", r[1], c(r[3]), c(string[3]))
            .expect("write to a String");
    }
    format!(
        "// Generated by tests/generated.rs from tests/ground-truth/device-0.tsv (what the H200 of the
// ground truth answered, driver 580.159.04); do not edit. Regenerate with
// `{OVERWRITE}=overwrite cargo test -p cuda-entry-simdriver-core --test generated`.

use std::ffi::{{CStr, c_int}};

use super::CUresult;

/// `cuDeviceGetName`.
pub const NAME: &CStr = {name};
/// `cuDeviceTotalMem_v2`, bytes.
pub const TOTAL_MEM: usize = {total};
/// `cuDeviceComputeCapability`: (major, minor).
pub const COMPUTE_CAPABILITY: (c_int, c_int) = ({major}, {minor});
/// `cuDeviceGetPCIBusId`.
pub const PCI_BUS_ID: &CStr = {pci};
/// `cuCtxGetStreamPriorityRange`: (least, greatest).
pub const STREAM_PRIORITY_RANGE: (c_int, c_int) = ({least}, {greatest});

/// `cuDeviceGetAttribute`: (attribute, status, value), every attribute asked, sorted.
pub static ATTRIBUTES: &[(c_int, CUresult, c_int)] = &[
{attributes}];

/// `cuGetErrorName` and `cuGetErrorString`: (code, name, string), every code the driver names.
pub static ERRORS: &[(CUresult, &CStr, &CStr)] = &[
{errors}];
",
        name = c(one("cuDeviceGetName")),
        total = one("cuDeviceTotalMem_v2"),
        pci = c(one("cuDeviceGetPCIBusId")),
    )
}

#[test]
fn the_committed_table_is_what_the_typedefs_and_the_driver_exports_give() {
    let (symbols, stubs, markdown) = generate();
    let dir = manifest_dir();
    let files = [
        (dir.join("src/table/symbols.rs"), symbols),
        (dir.join("src/unsupported/stubs.rs"), stubs),
        (dir.join("../simdriver/EXPORTS.md"), markdown),
        (dir.join("src/generated_device.rs"), generate_device()),
    ];
    let overwrite = std::env::var(OVERWRITE).as_deref() == Ok("overwrite");
    for (path, expected) in files {
        if overwrite {
            std::fs::write(&path, &expected).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            println!("wrote {}", path.display());
            continue;
        }
        let committed =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            committed == expected,
            "{} is not what the typedef table and the driver's exports give; run \
             `{OVERWRITE}=overwrite cargo test -p cuda-entry-simdriver-core --test generated` and \
             review the diff",
            path.display()
        );
    }
}

#[test]
fn the_naming_rule_reads_the_measured_variants() {
    let typedefs: Vec<&Typedef> = TYPEDEFS
        .iter()
        .filter(|t| t.symbol == "cuCtxCreate")
        .collect();
    let names: Vec<String> = variants("cuCtxCreate", &typedefs)
        .into_iter()
        .map(|(_, version, export)| format!("{version} {export}"))
        .collect();
    assert_eq!(
        names,
        [
            "2000 cuCtxCreate",
            "3020 cuCtxCreate_v2",
            "11040 cuCtxCreate_v3",
            "12050 cuCtxCreate_v4"
        ]
    );
    let typedefs: Vec<&Typedef> = TYPEDEFS
        .iter()
        .filter(|t| t.symbol == "cuMemcpyHtoD")
        .collect();
    let per_thread: Vec<String> = variants("cuMemcpyHtoD", &typedefs)
        .into_iter()
        .filter(|(per_thread, _, _)| *per_thread)
        .map(|(_, version, export)| format!("{version} {export}"))
        .collect();
    assert_eq!(per_thread, ["7000 cuMemcpyHtoD_v2_ptds"]);
}
