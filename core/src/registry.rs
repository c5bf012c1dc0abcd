//! What a program needs, known before it runs: every `#[cuda_entry]` declaration of the program
//! and of all its dependencies registers itself at link time (no constructor runs; the first
//! call of [`entries`] gathers the list, without a lock), and also leaves a plain-data record in
//! a section of the binary that `cuda-entry check BINARY` reads without running it.

use std::fmt;
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};

use cuda_entry_table::{Cuda, manifest};

use crate::entry::Entry;
use crate::preload::{PreloadError, resolve_all};
use crate::request::Request;

/// One element of the registration section: a declaration's entry, or zero (the runtime's own
/// elements, a linker's padding), skipped.
#[doc(hidden)]
pub type Registered = Option<&'static Entry>;

/// Every entry declared with `#[cuda_entry]` in this binary (the executable or shared library
/// whose code calls it), dependencies included, in no particular order.
///
/// One binary, not the process: an executable and each library it loads (a plugin, a C shared
/// library embedding a Rust staticlib) keep their own lists, and a library reads its own
/// whatever else the process loaded (`RTLD_GLOBAL`, `LD_PRELOAD`): this function is inlined
/// where it is called and finds the list and its cache through the calling binary's own section
/// bounds, which no other binary's symbols can stand in for. Under rustc's link every
/// declaration of every crate is listed; a C linker taking a Rust staticlib keeps only the
/// archive members something references, so there a declaration the program cannot reach (no
/// exported function calls it) is not linked, and not listed. `docs/deploying.md` has the
/// shapes.
#[inline(always)]
pub fn entries() -> &'static [&'static Entry] {
    gather(section::elements(), section::cache())
}

/// The entries of the registration `elements`, gathered on the first call for the binary whose
/// `cache` it is (the section may hold zero words between the entries) and published once. No
/// lock: a thread that finds no list gathers one and offers it, and a losing offer is freed.
/// Nothing ever waits on another thread, so a child forked while a thread of its parent was
/// gathering simply gathers again. Whichever binary's copy of this function runs, it reads the
/// caller's elements into the caller's cache.
fn gather(elements: &'static [Registered], cache: &'static Cache) -> &'static [&'static Entry] {
    let published = cache.load(Ordering::Acquire);
    if !published.is_null() {
        // SAFETY: a published list is never freed nor changed.
        return unsafe { *published };
    }
    let list: *mut [&'static Entry] =
        Box::into_raw(elements.iter().flatten().copied().collect::<Box<[_]>>());
    // SAFETY: just allocated, and freed below only if never published (then never read again).
    let gathered: &'static [&'static Entry] = unsafe { &*list };
    let offer = Box::into_raw(Box::new(gathered));
    match cache.compare_exchange(ptr::null_mut(), offer, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => gathered,
        Err(winner) => {
            // SAFETY: `offer` and `list` were never published: this thread owns them. The
            // winner's list is published, never freed.
            unsafe {
                drop(Box::from_raw(offer));
                drop(Box::from_raw(list));
                *winner
            }
        }
    }
}

/// Where a binary's gathered list is published.
type Cache = AtomicPtr<&'static [&'static Entry]>;

/// The registration section's bounds, as the linker of each object format marks them
/// ([`cuda_entry_table::registration`] names the sections; each `#[cuda_entry]` declaration
/// adds a `#[used]` element).
mod section {
    use super::Registered;

    #[cfg(not(any(unix, windows)))]
    compile_error!(
        "cuda-entry registers declarations in a link section of ELF, Mach-O or PE binaries; \
         this target has none of them"
    );

    /// The items of every object format, from the names (attributes take literals only; the
    /// test holds them to the names' one definition).
    macro_rules! bounds {
        (
            elf: $elf:literal, $elf_start:literal, $elf_stop:literal;
            macho: $macho:literal, $macho_start:literal, $macho_stop:literal;
            pe: $pe_start:literal, $pe_stop:literal;
        ) => {
            #[cfg(test)]
            const NAMES: [&str; 8] = [
                $elf,
                $elf_start,
                $elf_stop,
                $macho,
                $macho_start,
                $macho_stop,
                $pe_start,
                $pe_stop,
            ];

            // ELF and Mach-O: the linker's symbols at the section's bounds, and an element of
            // the runtime's own, so that the section (and its bounds) exist in a program that
            // declares nothing.
            #[cfg(unix)]
            unsafe extern "Rust" {
                #[cfg_attr(not(target_vendor = "apple"), link_name = $elf_start)]
                #[cfg_attr(target_vendor = "apple", link_name = $macho_start)]
                static START: [Registered; 0];
                #[cfg_attr(not(target_vendor = "apple"), link_name = $elf_stop)]
                #[cfg_attr(target_vendor = "apple", link_name = $macho_stop)]
                static STOP: [Registered; 0];
            }
            #[cfg(unix)]
            #[used]
            #[cfg_attr(not(target_vendor = "apple"), unsafe(link_section = $elf))]
            #[cfg_attr(target_vendor = "apple", unsafe(link_section = $macho))]
            static NONE: Registered = None;

            // PE: elements of the runtime's own in the sections the linker puts first and last
            // of the group (not zero-sized: a zero-sized static may still take bytes there).
            #[cfg(windows)]
            #[used]
            #[unsafe(link_section = $pe_start)]
            static START: Registered = None;
            #[cfg(windows)]
            #[used]
            #[unsafe(link_section = $pe_stop)]
            static STOP: Registered = None;
        };
    }
    bounds! {
        elf: "set_cuda_entry_registry_0_1", "__start_set_cuda_entry_registry_0_1",
            "__stop_set_cuda_entry_registry_0_1";
        macho: "__DATA,__cuentry_reg01", "\x01section$start$__DATA$__cuentry_reg01",
            "\x01section$end$__DATA$__cuentry_reg01";
        pe: ".cureg01$a", ".cureg01$c";
    }

    /// The calling binary's cache of the gathered list. On ELF the one element of a section of
    /// its own, found through the linker's start symbol, which is the binary's own (protected:
    /// another library's cannot interpose it), where a static's symbol would be the first
    /// loaded library's under `RTLD_GLOBAL`. Elsewhere (Mach-O's two-level namespace, PE's
    /// imports) a static's symbol is already the binary's own.
    #[inline(always)]
    pub(super) fn cache() -> &'static super::Cache {
        #[cfg(all(unix, not(target_vendor = "apple")))]
        {
            #[used]
            #[unsafe(link_section = "set_cuda_entry_cache_0_1")]
            static CACHE: super::Cache = super::Cache::new(core::ptr::null_mut());
            unsafe extern "Rust" {
                #[link_name = "__start_set_cuda_entry_cache_0_1"]
                static CACHE_START: [super::Cache; 0];
            }
            // A reference to the static's own symbol, so that a C linker taking the crate from
            // an archive pulls in the member that holds it (the start symbol, which the linker
            // makes, pulls nothing); its value is not used: another binary's may stand there.
            core::hint::black_box(&raw const CACHE);
            // SAFETY: the section holds `CACHE`, the one element of this binary's copy of the
            // crate (a semver-incompatible copy names another section): the start symbol is its
            // address.
            unsafe { &*(&raw const CACHE_START).cast::<super::Cache>() }
        }
        #[cfg(not(all(unix, not(target_vendor = "apple"))))]
        {
            static CACHE: super::Cache = super::Cache::new(core::ptr::null_mut());
            &CACHE
        }
    }

    /// The section's elements: the calling binary's (inlined, so the bounds are its own).
    #[inline(always)]
    pub(super) fn elements() -> &'static [Registered] {
        // As for the cache: the runtime's own element pulls in the member that makes the section
        // exist where the binary links no declaration.
        #[cfg(unix)]
        core::hint::black_box(&raw const NONE);
        let start = (&raw const START).cast::<Registered>();
        let stop = (&raw const STOP).cast::<Registered>();
        let bytes = (stop as usize).saturating_sub(start as usize);
        // SAFETY: the linker put only `Registered` elements (each `#[used]`, pointer-sized and
        // aligned, written by the attribute or above) between the bounds, or zero padding, which
        // is `None`. On PE the stop element is left out and the start element read (`None`).
        unsafe { core::slice::from_raw_parts(start, bytes / size_of::<Registered>()) }
    }

    #[cfg(test)]
    mod tests {
        use cuda_entry_table::registration as names;

        #[test]
        fn the_bounds_and_sections_are_the_registrations_names() {
            let macho = format!("{},{}", names::SEGMENT_MACHO, names::SECTION_MACHO);
            let expected = [
                names::SECTION_ELF,
                names::START_ELF,
                names::STOP_ELF,
                &macho,
                names::START_MACHO,
                names::STOP_MACHO,
                names::START_PE,
                names::STOP_PE,
            ];
            assert_eq!(super::NAMES, expected);
        }
    }
}

/// Resolves every declared entry now and reports every failure at once: for services that
/// prefer to fail at start-up rather than at their first driver call. Optional entries
/// ([`Entry::is_optional`]) are resolved too, but a driver that cannot serve them fails nothing:
/// the program falls back without them.
///
/// # Errors
/// A [`PreloadError`] listing each entry that cannot be resolved and is not optional.
///
/// # Thread-safety
/// May be called from any thread, at any time, any number of times, while other threads call
/// the declared functions: each entry is still resolved at most once per process. A call that
/// finds an entry another thread is resolving waits for that resolution and takes its outcome; an
/// entry already resolved (or already failed: errors are cached) is not asked again, so a second
/// `preload_all` asks the driver nothing and reports the same failures.
///
/// # Scope
/// This binary's entries ([`entries`]): a library's own when a library calls it.
#[inline(always)]
pub fn preload_all() -> Result<(), PreloadError> {
    preload_these(entries())
}

fn preload_these(entries: &'static [&'static Entry]) -> Result<(), PreloadError> {
    let mut failures = Vec::new();
    resolve_all(entries.iter().copied(), |entry, error| {
        // An optional entry's error is cached all the same: the fallback's `is_available()`
        // then answers at once.
        if !entry.is_optional() {
            failures.push(error);
        }
    });
    PreloadError::unless_empty(failures)
}

/// The driver a program needs: the minimum version of each entry and of the whole program.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Requirements {
    /// Every entry the program cannot run without, newest requirement first. An entry needs a
    /// driver at least as new as its typedef version.
    pub entries: Vec<Request>,
    /// The driver version the whole program needs (0 when it requires no entry).
    pub minimum_driver: u32,
    /// The entries that set [`Requirements::minimum_driver`].
    pub set_by: Vec<Request>,
    /// The optional entries ([`Entry::is_optional`]), newest first: used when the driver serves
    /// them, required by nothing.
    pub optional: Vec<Request>,
}

/// What this binary's declared entries ([`entries`]: the executable's, or a library's own) need
/// of the driver. Asks nothing.
#[inline(always)]
pub fn requirements() -> Requirements {
    requirements_of(entries())
}

fn requirements_of(entries: &[&'static Entry]) -> Requirements {
    let (mut optional, mut required) = (Vec::new(), Vec::new());
    for entry in entries {
        let list = if entry.is_optional() {
            &mut optional
        } else {
            &mut required
        };
        list.push(entry.request());
    }
    let needs = cuda_entry_table::needs(
        required,
        optional,
        |r: &Request| r.version,
        |r| (r.symbol, r.stream, r.resolver),
    );
    Requirements {
        set_by: needs.required[..needs.set_by].to_vec(),
        minimum_driver: needs.minimum.unwrap_or(0),
        entries: needs.required,
        optional: needs.optional,
    }
}

impl fmt::Display for Requirements {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |f: &mut fmt::Formatter<'_>, requests: &[Request]| {
            for (i, r) in requests.iter().enumerate() {
                let sep = if i == 0 { "" } else { ", " };
                write!(f, "{sep}{} {}", r.symbol, r.version)?;
            }
            Ok(())
        };
        match (self.entries.len(), self.optional.len()) {
            (0, 0) => return f.write_str("no CUDA driver entries are declared"),
            (0, _) => f.write_str("no CUDA driver entries are required")?,
            (n, _) => {
                write!(
                    f,
                    "{n} CUDA driver entries; the program needs a driver of {} or newer, because \
                     of ",
                    Cuda(self.minimum_driver),
                )?;
                list(f, &self.set_by)?;
            }
        }
        if !self.optional.is_empty() {
            write!(f, "; {} optional: ", self.optional.len())?;
            list(f, &self.optional)?;
        }
        Ok(())
    }
}

/// The name of the manifest section on this target's object format (the section names of every
/// format are in [`manifest`](crate::manifest), for readers of other targets' binaries).
pub const MANIFEST_SECTION: &str = if cfg!(target_vendor = "apple") {
    manifest::SECTION_MACHO
} else if cfg!(windows) {
    manifest::SECTION_PE
} else {
    manifest::SECTION_ELF
};
