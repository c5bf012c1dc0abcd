//! Arbitrary attribute arguments on a valid declaration.
#![no_main]

include!("modules.rs");
#[path = "harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(args) = std::str::from_utf8(data) {
        harness::check(
            args,
            "pub unsafe extern \"C\" fn mem_alloc(dptr: *mut u64, bytesize: usize) -> i32;",
        );
    }
});
