//! Arbitrary declarations (single and block form), with arguments from the first line.
#![no_main]

include!("modules.rs");
#[path = "harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let (args, item) = text.split_once('\n').unwrap_or(("", text));
        harness::check(args, item);
    }
});
