//! Arbitrary text: the macro's Cargo.toml reader never panics, and on every document the `toml`
//! crate parses it parses too and reads the same dependencies (`toml_reference::check`).
#![no_main]

include!("modules.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(entries) = cargo_toml::parse(text) {
        let _ = cargo_toml::dependencies(&entries, Some(&entries));
        let _ = (cargo_toml::inherits(&entries), cargo_toml::is_workspace_root(&entries));
    }
    toml_reference::check(text);
});
