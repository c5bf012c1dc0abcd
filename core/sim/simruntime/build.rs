//! Hides linkme's section bounds from this cdylib's exports.
//!
//! The crate root registers its build in linkme's distributed slices, and on ELF the linker exports
//! the bounds of their sections (`__start_linkme_BUILDS`, ...) from a shared object. A simulated
//! CUDA library must export exactly its CUDA functions and the `cuda_entry_sim*` instrumentation
//! (tests/exports.rs checks it), so the bounds are made hidden. A linker without the option (GNU
//! ld before 2.37) warns and leaves them exported: harmless, nothing looks them up. The five
//! simulator crates each carry this file: a published package's build script must lie inside it.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo::rustc-cdylib-link-arg=-Wl,-z,start-stop-visibility=hidden");
    }
}
