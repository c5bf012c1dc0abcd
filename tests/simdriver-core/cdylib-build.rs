//! The build script of the five simulator cdylibs (each Cargo.toml names this one file).
//!
//! A build registers itself in linkme's distributed slices, and on ELF the linker exports the
//! bounds of their sections (`__start_linkme_BUILDS`, ...) from a shared object. A simulated
//! libcuda must export exactly its CUDA functions and the `cuda_entry_sim_*` instrumentation, as
//! before this crate was shared, so the bounds are made hidden. Linkers without the option (GNU ld
//! before 2.37) warn, ignore it and export them: harmless, nothing looks them up.

fn main() {
    println!("cargo::rerun-if-changed=../simdriver-core/cdylib-build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo::rustc-cdylib-link-arg=-Wl,-z,start-stop-visibility=hidden");
    }
}
