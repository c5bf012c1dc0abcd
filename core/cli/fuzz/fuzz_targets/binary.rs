//! Arbitrary bytes as a built binary, read as `cuda-entry check BINARY` reads one: the object
//! formats (ELF, PE, Mach-O, universal Mach-O), the manifest section, its records. Whatever the
//! bytes: an answer (declarations, not checked, or a message), never a panic, a hang or an
//! allocation beyond the file's size.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    cuda_entry_cli::__fuzz::binary(data);
});
