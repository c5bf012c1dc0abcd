//! Arbitrary text as a Rust source, scanned as `cuda-entry check FILE.rs` scans one: the
//! nesting bound, the attribute sweep, the parse and the walk. Whatever the text: an answer
//! (declarations, not checked, or a message), never a panic or a stack overflow.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(source) = std::str::from_utf8(data) {
        cuda_entry_cli::__fuzz::source(source);
    }
});
