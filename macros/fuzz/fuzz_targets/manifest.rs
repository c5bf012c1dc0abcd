//! Arbitrary text as the declaring package's Cargo.toml: the macro's small TOML reader never
//! panics, and what it reads back is consistent.
#![no_main]

include!("modules.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(entries) = cargo_toml::parse(text) {
        let found = cargo_toml::dependencies(&entries, Some(&entries));
        for (name, _) in &found {
            assert!(!name.contains('-'), "a crate name has no `-`: {name}");
        }
        let _ = (cargo_toml::inherits(&entries), cargo_toml::is_workspace_root(&entries));
    }
});
