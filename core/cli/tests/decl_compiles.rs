//! What `cuda-entry decl` prints compiles through `#[cuda_entry]`, which checks each parameter's
//! size and alignment against the C type's: the five declarations of the README, and one
//! declaration of every typedef of the table.

mod common;

use std::fmt::Write;
use std::path::Path;

use common::{cuda_entry, run, scratch};

/// The output of `cuda-entry decl ARGS`, wrapped in a module of its own.
fn module(name: &str, args: &[&str]) -> String {
    let mut all = vec!["decl"];
    all.extend_from_slice(args);
    let out = run(cuda_entry(), &all);
    assert_eq!(out.status, 0, "decl {args:?}: {out:?}");
    let mut text = format!("#[allow(dead_code)]\nmod {name} {{\n");
    for line in out.stdout.lines() {
        let _ = writeln!(text, "    {line}");
    }
    text.push_str("}\n\n");
    text
}

fn program(modules: &str) -> String {
    format!("{modules}fn main() {{}}\n")
}

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write a generated test file");
    path
}

#[test]
fn printed_declarations_compile() {
    let dir = scratch("decl-compiles");
    let mut readme = String::new();
    for (name, args) in [
        ("mem_alloc", &["cuMemAlloc@3020"][..]),
        ("ctx_create", &["cuCtxCreate@12050"][..]),
        (
            "launch_kernel",
            &["cuLaunchKernel@7000", "--stream", "per_thread"][..],
        ),
        ("memcpy_htod", &["cuMemcpyHtoD@latest"][..]),
        ("device_get_uuid", &["cuDeviceGetUuid@11040"][..]),
    ] {
        readme.push_str(&module(name, args));
    }
    let mut every = String::new();
    for (i, t) in cuda_entry_table::TYPEDEFS.iter().enumerate() {
        let spec = format!("{}@{}", t.symbol, t.version);
        let stream = if t.stream.is_per_thread() {
            "per_thread"
        } else {
            "legacy"
        };
        every.push_str(&module(&format!("t{i}"), &[&spec, "--stream", stream]));
    }
    let cases = trybuild::TestCases::new();
    cases.pass(write(&dir, "readme_declarations.rs", &program(&readme)));
    cases.pass(write(&dir, "every_typedef.rs", &program(&every)));
}
