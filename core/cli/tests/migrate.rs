//! `cuda-entry migrate`, run as a process on the fixtures (tests/fixtures/migrate/): what each
//! export is, what disagrees, what `--write` and `--dry-run` do to a file, and the mapping held
//! against the real driver's answers (tests/ground-truth).

mod common;

use std::path::Path;

use common::{cuda_entry, fixtures, json, run, scratch};
use serde_json::Value;

/// `migrate ARGS` in the fixtures folder.
fn migrate(args: &[&str]) -> common::Output {
    let mut command = cuda_entry();
    command.current_dir(fixtures());
    let mut all = vec!["migrate"];
    all.extend_from_slice(args);
    run(command, &all)
}

/// The binding called `name` in a `--json` document.
fn binding<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["bindings"]
        .as_array()
        .expect("bindings")
        .iter()
        .find(|b| b["name"] == name)
        .unwrap_or_else(|| panic!("{name} missing from {doc}"))
}

fn kinds(b: &Value) -> Vec<&str> {
    b["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .map(|n| n["kind"].as_str().expect("a kind"))
        .collect()
}

/// A bindings crate's declarations are optional (they state what a driver may have, not what the
/// program needs); `--required` writes them required, for an application's own extern block.
#[test]
fn declarations_are_optional_unless_required() {
    for (args, optional) in [
        (&["--json", "migrate/mixed.rs"][..], true),
        (&["--json", "--required", "migrate/mixed.rs"][..], false),
    ] {
        let doc = json(&migrate(args));
        let declaration = binding(&doc, "cuInit")["declaration"]
            .as_str()
            .expect("a declaration")
            .to_owned();
        let attribute = declaration.lines().next().unwrap_or_default();
        assert_eq!(
            attribute.ends_with(", optional)]"),
            optional,
            "{args:?}: {declaration}"
        );
        assert!(attribute.starts_with("#[cuda_entry(symbol = \"cuInit\", version = 2000"));
    }
}

#[test]
fn each_export_is_its_typedef() {
    let out = migrate(&["--json", "migrate/mixed.rs"]);
    assert_eq!(out.status, 1, "{out:?}");
    let doc = json(&out);
    let ready = |name: &str, symbol: &str, version: u32, stream: &str| {
        let b = binding(&doc, name);
        assert_eq!(b["status"], "ready", "{b}");
        assert_eq!(
            (&b["symbol"], &b["version"], &b["stream"]),
            (
                &Value::from(symbol),
                &Value::from(version),
                &Value::from(stream)
            ),
            "{b}"
        );
    };
    ready("cuInit", "cuInit", 2000, "legacy");
    ready("cuCtxSynchronize_v2", "cuCtxSynchronize", 13000, "legacy");
    ready(
        "cuGraphicsMapResources_ptsz",
        "cuGraphicsMapResources",
        7000,
        "per_thread",
    );
    let alloc = binding(&doc, "cuMemAlloc_v2");
    assert_eq!(alloc["status"], "disagrees");
    assert_eq!(
        (&alloc["symbol"], &alloc["version"]),
        (&"cuMemAlloc".into(), &3020.into())
    );
    assert_eq!(kinds(alloc), ["layout_mismatch"]);
    let create = binding(&doc, "cuCtxCreate_v4");
    assert_eq!(
        (&create["symbol"], &create["version"]),
        (&"cuCtxCreate".into(), &12050.into())
    );
    assert_eq!(kinds(create), ["wrong_arity"]);
    // The macro's own words.
    assert!(
        create["notes"][0]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("`PFN_cuCtxCreate_v12050` takes 4 parameters")),
        "{create}"
    );
    let unknown = binding(&doc, "cuFrobnicate_v9");
    assert_eq!(unknown["status"], "unknown_export");
    assert_eq!(unknown["symbol"], Value::Null);
    assert_eq!(kinds(unknown), ["unknown_export"]);
    // `strlen` is no driver function: not a binding.
    assert_eq!(doc["bindings"].as_array().map(Vec::len), Some(6));
    assert_eq!(doc["totals"]["ready"], 3);
    assert_eq!(doc["totals"]["disagree"], 2);
    assert_eq!(doc["totals"]["unknown"], 1);
    // The user's own parameter names and types, and the per-thread stream said.
    assert_eq!(
        binding(&doc, "cuGraphicsMapResources_ptsz")["declaration"],
        "#[cuda_entry(symbol = \"cuGraphicsMapResources\", version = 7000, stream = \"per_thread\", optional)]\n\
         pub unsafe extern \"system\" fn cuGraphicsMapResources_ptsz(count: c_uint, resources: \
         *mut *mut std::ffi::c_void, hStream: *mut std::ffi::c_void) -> \
         ::cuda_entry::types::CUresult;"
    );

    let text = migrate(&["migrate/mixed.rs"]);
    assert_eq!(text.status, 1);
    assert!(
        text.stdout.contains(
            "migrate/mixed.rs:15:12: `cuMemAlloc_v2` in an `extern` block is cuMemAlloc at 3020 \
             (PFN_cuMemAlloc_v3020), but its signature disagrees with that typedef (not \
             migrated):\n    layout_mismatch: parameter 2 `bytesize` of `PFN_cuMemAlloc_v3020` \
             is `size_t bytesize` (8 bytes, align 8), but `u32` is 4 bytes, align 4"
        ),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.ends_with(
            "6 bindings in 1 file: 3 ready, 2 disagree with the typedef, 1 unknown; --write \
             rewrites 1 file (--dry-run shows the diff)\n"
        ),
        "{}",
        text.stdout
    );
}

#[test]
fn the_mapping_of_the_issue() {
    let dir = scratch("migrate-mapping");
    std::fs::write(
        dir.join("lib.rs"),
        "extern \"C\" {\n    fn cuMemAlloc_v2();\n    fn cuCtxCreate_v4();\n    \
         fn cuStreamSynchronize_ptsz();\n    fn cuInit();\n}\n",
    )
    .expect("write");
    let mut command = cuda_entry();
    command.current_dir(&dir);
    let doc = json(&run(command, &["migrate", "--json", "lib.rs"]));
    for (name, symbol, version, stream) in [
        ("cuMemAlloc_v2", "cuMemAlloc", 3020, "legacy"),
        ("cuCtxCreate_v4", "cuCtxCreate", 12050, "legacy"),
        (
            "cuStreamSynchronize_ptsz",
            "cuStreamSynchronize",
            7000,
            "per_thread",
        ),
        ("cuInit", "cuInit", 2000, "legacy"),
    ] {
        let b = binding(&doc, name);
        assert_eq!(b["symbol"], symbol, "{b}");
        assert_eq!(b["version"], version, "{b}");
        assert_eq!(b["stream"], stream, "{b}");
        // Declared without parameters or return type: each disagrees, by the macro's arity
        // rule (cuInit takes one) and its return rule (each returns `CUresult`).
        assert_eq!(kinds(b), ["wrong_arity", "missing_return"], "{b}");
    }
}

/// Whether `diff`'s hunks take `before` to `after`: each hunk's old side (context and `-`) is
/// `before`'s lines at its position, its new side (context and `+`) `after`'s.
fn diff_holds(diff: &str, before: &str, after: &str) -> usize {
    let before: Vec<&str> = before.lines().collect();
    let after: Vec<&str> = after.lines().collect();
    let mut hunks = 0;
    let mut lines = diff.lines().skip(2).peekable();
    while let Some(header) = lines.next() {
        let ranges = header
            .strip_prefix("@@ -")
            .and_then(|h| h.strip_suffix(" @@"))
            .unwrap_or_else(|| panic!("not a hunk header: {header}"));
        let (old, new) = ranges.split_once(" +").expect("two ranges");
        let start = |r: &str| -> usize {
            r.split(',')
                .next()
                .and_then(|s| s.parse().ok())
                .expect("a start")
        };
        let (mut o, mut n) = (start(old).saturating_sub(1), start(new).saturating_sub(1));
        while let Some(line) = lines.next_if(|l| !l.starts_with("@@")) {
            let (sign, text) = line.split_at(1);
            if sign != "+" {
                assert_eq!(before[o], text, "old line {}", o + 1);
                o += 1;
            }
            if sign != "-" {
                assert_eq!(after[n], text, "new line {}", n + 1);
                n += 1;
            }
        }
        hunks += 1;
    }
    hunks
}

#[test]
fn write_rewrites_the_extern_items_and_nothing_else() {
    let dir = scratch("migrate-write");
    let original = std::fs::read_to_string(fixtures().join("migrate/mixed.rs")).expect("read");
    let file = dir.join("mixed.rs");
    std::fs::write(&file, &original).expect("write");
    let path = file.to_str().expect("UTF-8");

    let dry = run(cuda_entry(), &["migrate", "--dry-run", path]);
    assert_eq!(dry.status, 1, "{dry:?}");
    assert_eq!(
        std::fs::read_to_string(&file).expect("read"),
        original,
        "--dry-run wrote"
    );
    let wrote = run(
        cuda_entry(),
        &["migrate", "--write", "--allow-no-vcs", path],
    );
    assert_eq!(wrote.status, 1, "{wrote:?}");
    assert!(
        wrote.stdout.ends_with("; rewrote 1 file\n"),
        "{}",
        wrote.stdout
    );
    let migrated = std::fs::read_to_string(&file).expect("read");
    // The diff shown, the same for both, is what was written.
    let diff = |out: &str| {
        let start = out.find("\n--- ").expect("a diff") + 1;
        // Then what changed, file by file, and the totals.
        let end = out
            .find(&format!("\n{path}: declares"))
            .expect("the changes")
            + 1;
        out[start..end].to_owned()
    };
    let shown = diff(&wrote.stdout);
    assert_eq!(diff(&dry.stdout), shown);
    assert!(
        shown.starts_with(&format!("--- {path}\n+++ {path}\n@@ ")),
        "{shown}"
    );
    assert!(diff_holds(&shown, &original, &migrated) >= 1);

    // What was not migrated is as it was, `#[link]` included, and the rest of the file too.
    let block_end = original.find("\n}\n").expect("the block's end") + 2;
    let kept = |migrated: &str| {
        for line in [
            "#[link(name = \"cuda\")]",
            "    // cuMemAlloc_v2 takes a size_t: a u32 here is the wrong width.",
            "    pub fn cuMemAlloc_v2(dptr: *mut CUdeviceptr, bytesize: u32) -> CUresult;",
            "    pub fn cuFrobnicate_v9(handle: u64) -> CUresult;",
            "    pub fn strlen(s: *const u8) -> usize;",
        ] {
            assert!(
                migrated.contains(&format!("{line}\n")),
                "{line} is gone:\n{migrated}"
            );
        }
    };
    kept(&migrated);
    assert!(migrated.starts_with(&original[..original.find("extern \"C\" {").expect("block")]));
    assert!(!migrated.contains("    pub fn cuInit(flags: c_uint) -> CUresult;\n"));
    assert!(migrated.contains(
        "#[::cuda_entry::cuda_entry]\nunsafe extern \"C\" {\n    /// `cuInit` at version 2000 \
         (`PFN_cuInit_v2000`), for `cuInit`.\n    #[allow(non_snake_case)]\n    \
         #[cuda_entry(symbol = \"cuInit\", version = 2000, optional)]\n    pub fn cuInit_entry(flags: c_uint) -> ::cuda_entry::types::CUresult;\n"
    ));
    assert!(migrated.contains("pub unsafe extern \"C\" fn cuInit(flags: c_uint) -> CUresult {\n"));
    // The nested block had only driver functions: it is replaced, indented as it was.
    assert!(
        migrated.contains("\n    #[::cuda_entry::cuda_entry]\n    unsafe extern \"system\" {\n")
    );
    assert!(!migrated.contains("    extern \"system\" {"));
    let _ = block_end;

    // Again: nothing is ready any more, the file stays as it is.
    let again = run(
        cuda_entry(),
        &["migrate", "--write", "--allow-no-vcs", "--json", path],
    );
    assert_eq!(again.status, 1, "{again:?}");
    let doc = json(&again);
    assert_eq!(doc["totals"]["ready"], 0, "{doc}");
    assert_eq!(doc["totals"]["changed_files"], 0, "{doc}");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), migrated);
}

#[test]
fn an_unknown_export_alone_is_status_3_and_nothing_is_status_0() {
    let dir = scratch("migrate-statuses");
    std::fs::write(
        dir.join("unknown.rs"),
        "extern \"C\" { fn cuFrobnicate(); }\n",
    )
    .expect("w");
    std::fs::write(
        dir.join("none.rs"),
        "extern \"C\" { fn strlen(s: *const u8) -> usize; }\n",
    )
    .expect("w");
    let at = |name: &str| dir.join(name).to_str().expect("UTF-8").to_owned();
    let out = run(cuda_entry(), &["migrate", &at("unknown.rs")]);
    assert_eq!(out.status, 3, "{out:?}");
    let out = run(cuda_entry(), &["migrate", &at("none.rs")]);
    assert_eq!(out.status, 0, "{out:?}");
    assert!(
        out.stdout.starts_with("0 bindings in 1 file"),
        "{}",
        out.stdout
    );
}

#[test]
fn bad_input_is_status_2() {
    let dir = scratch("migrate-bad");
    let missing = dir.join("missing.rs");
    let out = run(cuda_entry(), &["migrate", missing.to_str().expect("UTF-8")]);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(
        out.stderr.contains("missing.rs: no such file or directory"),
        "{}",
        out.stderr
    );
    let broken = dir.join("broken.rs");
    std::fs::write(&broken, "extern \"C\" { fn cuInit(\n").expect("write");
    let out = run(cuda_entry(), &["migrate", broken.to_str().expect("UTF-8")]);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(out.stderr.contains("not valid Rust"), "{}", out.stderr);
    let binary = dir.join("app");
    std::fs::write(&binary, b"\x7fELF\x02\x01\x01\0").expect("write");
    let out = run(cuda_entry(), &["migrate", binary.to_str().expect("UTF-8")]);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(out.stderr.contains("a built binary"), "{}", out.stderr);
    let out = run(cuda_entry(), &["migrate", "--write", "-"]);
    assert_eq!(out.status, 2, "{out:?}");
    assert!(
        out.stderr.contains("standard input cannot be rewritten"),
        "{}",
        out.stderr
    );
    let out = run(cuda_entry(), &["migrate", "--write", "--dry-run", "x.rs"]);
    assert_eq!(out.status, 2, "{out:?}");
}

#[test]
fn calls_through_cudarc_get_their_declarations() {
    let out = migrate(&["--json", "migrate/cudarc.rs"]);
    assert_eq!(out.status, 1, "{out:?}");
    let doc = json(&out);
    for (path, symbol, version, stream) in [
        ("sys::cuInit", "cuInit", 2000, "legacy"),
        ("cu::cuDeviceGet", "cuDeviceGet", 2000, "legacy"),
        (
            "cudarc::driver::sys::cuCtxCreate_v4",
            "cuCtxCreate",
            12050,
            "legacy",
        ),
        ("sys::cuMemAlloc_v2", "cuMemAlloc", 3020, "legacy"),
        (
            "drv::sys::cuStreamSynchronize",
            "cuStreamSynchronize",
            2000,
            "legacy",
        ),
        ("cuCtxSynchronize", "cuCtxSynchronize", 2000, "legacy"),
        ("free", "cuMemFree", 3020, "legacy"),
    ] {
        let b = binding(&doc, path);
        assert_eq!(b["origin"], "cudarc", "{b}");
        assert_eq!(
            (&b["symbol"], &b["version"], &b["stream"], &b["status"]),
            (
                &symbol.into(),
                &version.into(),
                &stream.into(),
                &"ready".into()
            ),
            "{b}"
        );
    }
    // Its types are named through the path the program reaches `sys` by.
    assert_eq!(
        binding(&doc, "sys::cuMemAlloc_v2")["declaration"],
        "#[cuda_entry(symbol = \"cuMemAlloc\", version = 3020, optional)]\npub unsafe extern \"C\" fn \
         mem_alloc(dptr: *mut sys::CUdeviceptr_v2, bytesize: usize) -> \
         ::cuda_entry::types::CUresult;"
    );
    assert_eq!(
        binding(&doc, "cu::cuDeviceGet")["declaration"],
        "#[cuda_entry(symbol = \"cuDeviceGet\", version = 2000, optional)]\npub unsafe extern \"C\" fn \
         device_get(device: *mut cu::CUdevice_v1, ordinal: ::std::ffi::c_int) -> ::cuda_entry::types::CUresult;"
    );
    let short = binding(&doc, "sys::cuMemcpyHtoD_v2");
    assert_eq!(short["status"], "disagrees");
    assert_eq!(
        short["notes"][0]["message"],
        "the call passes 2 arguments, `PFN_cuMemcpyHtoD_v3020` takes 3"
    );
    assert_eq!(
        binding(&doc, "sys::cuFrobnicate")["status"],
        "unknown_export"
    );
    assert_eq!(doc["bindings"].as_array().map(Vec::len), Some(9));
    // Calls are not rewritten.
    assert_eq!(doc["totals"]["changed_files"], 0);
}

/// What `cuGetProcAddress_v2(symbol, version, flags)` hands out, as far as the real driver's
/// answers tell: an answer at a version `asked` at or above `version` with no typedef of the
/// flavour in between is the answer at `version` (the driver returns the newest variant at or
/// below the version asked). `None` when no such answer was read.
fn handed_out(tsv: &str, symbol: &str, version: u32, flags: u32) -> Option<Option<String>> {
    let per_thread = flags == 2;
    let nearest = tsv
        .lines()
        .filter_map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            let asked: u32 = cols.get(1)?.parse().ok()?;
            (cols.len() == 7
                && cols[0] == symbol
                && cols[2] == flags.to_string()
                && asked >= version)
                .then(|| (asked, (cols[6] != "-").then(|| cols[6].to_owned())))
        })
        .min_by_key(|(asked, _)| *asked)?;
    let between = cuda_entry_table::flavour(symbol, per_thread)
        .any(|t| t.version > version && t.version <= nearest.0);
    (!between).then_some(nearest.1)
}

#[test]
fn every_export_migrates_to_what_the_real_driver_hands_out() {
    let truth = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/ground-truth");
    let exports = std::fs::read_to_string(truth.join("driver-13000-exports.txt")).expect("exports");
    let tsv = std::fs::read_to_string(truth.join("driver-13000-getprocaddress.tsv")).expect("tsv");
    // Every function driver 580.159.04 exports, declared as a link-time binding.
    let mut source = String::from("extern \"C\" {\n");
    for name in exports.lines().filter(|l| !l.is_empty()) {
        source.push_str(&format!("    fn {name}();\n"));
    }
    source.push_str("}\n");
    let dir = scratch("migrate-ground-truth");
    std::fs::write(dir.join("driver.rs"), &source).expect("write");
    let mut command = cuda_entry();
    command.current_dir(&dir);
    let doc = json(&run(command, &["migrate", "--json", "driver.rs"]));
    let (mut checked, mut unasked, mut unknown) = (0, 0, 0);
    for b in doc["bindings"].as_array().expect("bindings") {
        let name = b["export"].as_str().expect("an export");
        let Some(symbol) = b["symbol"].as_str() else {
            assert_eq!(b["status"], "unknown_export", "{b}");
            assert!(cuda_entry_table::export(name).is_none(), "{name} is known");
            unknown += 1;
            continue;
        };
        let version = u32::try_from(b["version"].as_u64().expect("a version")).expect("u32");
        let flags = if b["stream"] == "per_thread" { 2 } else { 1 };
        match handed_out(&tsv, symbol, version, flags) {
            // Resolving the migrated declaration hands out the very export it was linked to.
            Some(handed) => {
                assert_eq!(
                    handed.as_deref(),
                    Some(name),
                    "{symbol}@{version} flags {flags}"
                );
                checked += 1;
            }
            // The GL, EGL, VDPAU and profiler functions: not asked when the answers were read.
            None => unasked += 1,
        }
    }
    assert!(
        checked > 600,
        "{checked} checked, {unasked} not asked, {unknown} unknown"
    );
    assert!(unasked < 80, "{checked} checked, {unasked} not asked");
    assert!(unknown < 10, "{unknown} unknown");
}

#[test]
fn standard_input_is_read_not_rewritten() {
    use std::io::Write;
    let mut child = cuda_entry()
        .args(["migrate", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("cuda-entry runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"extern \"C\" { fn cuCtxCreate_v4(); }\n")
        .expect("write stdin");
    let out = child.wait_with_output().expect("exits");
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.starts_with(
            "<stdin>:1:17: `cuCtxCreate_v4` in an `extern` block is cuCtxCreate at 12050"
        ),
        "{stdout}"
    );
    assert!(!stdout.contains("--write"), "{stdout}");
}
