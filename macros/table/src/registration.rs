//! The registration: each `#[cuda_entry]` declaration leaves a pointer to its entry in a section
//! of the binary, and the runtime reads the section back as `cuda_entry::entries()`. No
//! constructor runs and nothing is allocated at start-up; the linker gathers the pointers. This
//! module is the section names' one definition: the attribute writes the declarations' half, the
//! runtime the bounds (its own literals, tested against these).
//!
//! An element is one pointer-sized word, `Option<&'static Entry>`: a declaration's is `Some`; the
//! runtime's own elements (which make the section exist in a program that declares nothing) and
//! any padding a linker puts between contributions are zero, and the reader skips them.
//!
//! Every name carries the crates' semver-compatible version (`0_1`, `01` for 0.1.x): two
//! incompatible versions of `cuda-entry` in one program have two `Entry` types, and each must
//! read only its own declarations. A release that changes the version must change the names (the
//! test below fails until it does).

/// The section on ELF targets. A C identifier, so that the linker defines `__start_` and
/// `__stop_` symbols at its bounds; the `set_` prefix is what illumos's linker asks for that.
pub const SECTION_ELF: &str = "set_cuda_entry_registry_0_1";
/// The ELF linker's symbol at the section's first byte.
pub const START_ELF: &str = "__start_set_cuda_entry_registry_0_1";
/// The ELF linker's symbol past the section's last byte.
pub const STOP_ELF: &str = "__stop_set_cuda_entry_registry_0_1";

/// The segment of the section on Mach-O targets.
pub const SEGMENT_MACHO: &str = "__DATA";
/// The section on Mach-O targets (at most 16 bytes).
pub const SECTION_MACHO: &str = "__cuentry_reg01";
/// The Mach-O linker's symbol at the section's first byte.
pub const START_MACHO: &str = "\x01section$start$__DATA$__cuentry_reg01";
/// The Mach-O linker's symbol past the section's last byte.
pub const STOP_MACHO: &str = "\x01section$end$__DATA$__cuentry_reg01";

/// The declarations' section on PE targets. The linker orders the sections of one name by what
/// follows the `$` and merges them into `.cureg01`: the runtime's start element in [`START_PE`],
/// the declarations', then its stop element in [`STOP_PE`].
pub const SECTION_PE: &str = ".cureg01$b";
/// The runtime's start element's section on PE targets.
pub const START_PE: &str = ".cureg01$a";
/// The runtime's stop element's section on PE targets.
pub const STOP_PE: &str = ".cureg01$c";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bounds_are_the_linkers_names_of_the_sections() {
        assert_eq!(START_ELF, format!("__start_{SECTION_ELF}"));
        assert_eq!(STOP_ELF, format!("__stop_{SECTION_ELF}"));
        assert!(
            SECTION_ELF
                .bytes()
                .all(|b| b == b'_' || b.is_ascii_alphanumeric())
        );
        assert_eq!(
            START_MACHO,
            format!("\x01section$start${SEGMENT_MACHO}${SECTION_MACHO}")
        );
        assert_eq!(
            STOP_MACHO,
            format!("\x01section$end${SEGMENT_MACHO}${SECTION_MACHO}")
        );
        assert!(SECTION_MACHO.len() <= 16);
        let group = |name: &str| {
            name.split_once('$')
                .map(|(group, order)| (group.to_owned(), order.to_owned()))
        };
        let (start, elements, stop) = (group(START_PE), group(SECTION_PE), group(STOP_PE));
        assert_eq!(
            start.as_ref().map(|g| &g.0),
            elements.as_ref().map(|g| &g.0)
        );
        assert_eq!(stop.as_ref().map(|g| &g.0), elements.as_ref().map(|g| &g.0));
        assert!(start.unwrap().1 < elements.as_ref().unwrap().1);
        assert!(elements.as_ref().unwrap().1 < stop.unwrap().1);
        // Not the manifest's section: the command reads that one whole.
        assert_ne!(elements.unwrap().0, crate::manifest::SECTION_PE);
        assert_ne!(SECTION_ELF, crate::manifest::SECTION_ELF);
        assert_ne!(SECTION_MACHO, crate::manifest::SECTION_MACHO);
    }

    #[test]
    fn every_name_carries_the_crates_semver_compatible_version() {
        let (major, minor) = (
            env!("CARGO_PKG_VERSION_MAJOR"),
            env!("CARGO_PKG_VERSION_MINOR"),
        );
        let (long, short) = if major == "0" {
            (format!("_0_{minor}"), format!("0{minor}"))
        } else {
            (format!("_{major}"), major.to_owned())
        };
        for name in [SECTION_ELF, START_ELF, STOP_ELF] {
            assert!(name.ends_with(&long), "{name} should end with {long}");
        }
        for name in [SECTION_MACHO, START_MACHO, STOP_MACHO] {
            assert!(name.ends_with(&short), "{name:?} should end with {short}");
        }
        for name in [START_PE, SECTION_PE, STOP_PE] {
            let group = name.split_once('$').map_or(name, |(group, _)| group);
            assert!(
                group.ends_with(&short),
                "{name} should be in a group ending with {short}"
            );
            assert!(
                group.len() <= 8,
                "{group}: an image's section names have 8 bytes"
            );
        }
    }
}
