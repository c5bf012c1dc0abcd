//! Whether a type's name may be read as the type it usually names. The tokens of `u32` are a
//! name, and a name can be shadowed (`type u32 = u64;`, a `use` renamed, a glob import): only the
//! compiler knows what it resolves to. The macro, whose every declaration is also asserted by the
//! compiler ([`Checked::assertions`](super::Checked::assertions)), reads names as the compiler
//! would not be fooled by: a name is the standard type only when written as a path from the
//! extern prelude (`::core::primitive::u32`, `::core::ffi::c_int`, `::std::ptr::NonNull<T>`);
//! any other name is left to the compiler, so a declaration is never refused for what a name
//! usually means. The command, which has no compiler, reads names as they usually are (and says
//! where a file shadows a primitive).

use std::cell::Cell;

/// How names are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Names {
    /// As they usually are: `u32`, `std::ffi::c_int`, `NonNull<T>` (the command).
    Usual,
    /// Only where no item can shadow them: `::core::...` and `::std::...` (the macro).
    Unshadowable,
}

thread_local! {
    static NAMES: Cell<Names> = const { Cell::new(Names::Usual) };
}

/// Runs `f` with names read only where no item can shadow them: what the macro validates, as
/// the compiler then asserts every type as it resolves. Restored afterwards, even on a panic.
pub fn judged_by_the_compiler<T>(f: impl FnOnce() -> T) -> T {
    struct Restore(Names);
    impl Drop for Restore {
        fn drop(&mut self) {
            NAMES.with(|n| n.set(self.0));
        }
    }
    let _restore = Restore(NAMES.with(|n| n.replace(Names::Unshadowable)));
    f()
}

/// How names are read now.
pub(crate) fn names() -> Names {
    NAMES.with(Cell::get)
}

/// Whether `path`, written where a type goes, may be read as the standard type its last segment
/// names: with [`Names::Usual`], a bare name or a path through `std`, `core` or `libc`; with
/// [`Names::Unshadowable`], only a path from the extern prelude through `core` or `std`.
pub(crate) fn standard(path: &syn::Path) -> bool {
    let first = path.segments.first().map(|s| s.ident.to_string());
    match names() {
        Names::Usual => match path.segments.len() {
            1 => path.leading_colon.is_none(),
            _ => matches!(first.as_deref(), Some("std" | "core" | "libc")),
        },
        Names::Unshadowable => {
            path.leading_colon.is_some() && matches!(first.as_deref(), Some("std" | "core"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(text: &str) -> syn::Path {
        syn::parse_str(text).expect("a path")
    }

    #[test]
    fn the_compiler_judges_every_shadowable_name() {
        let usual = [
            "u32",
            "std::ffi::c_int",
            "core::ptr::NonNull",
            "libc::c_int",
        ];
        let everywhere = ["::core::primitive::u32", "::std::ffi::c_int"];
        for p in usual.iter().chain(&everywhere) {
            assert!(standard(&path(p)), "{p}");
        }
        assert!(!standard(&path("ffi::u64")));
        judged_by_the_compiler(|| {
            for p in usual {
                assert!(!standard(&path(p)), "{p}");
            }
            for p in everywhere {
                assert!(standard(&path(p)), "{p}");
            }
        });
        // Restored.
        assert!(standard(&path("u32")));
    }
}
