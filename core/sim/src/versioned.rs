//! A simulated driver of version V is a driver of version V: the copy of the driver's shared
//! object whose exports are the ones a real driver of that version has.
//!
//! The simulator itself exports every function of the 13.0 driver whatever version it reports;
//! code that looks functions up by name (`dlsym`, as cudarc's `dynamic-loading` does) would find
//! `cuCtxCreate_v4` on a "12.2" driver. So the kit loads a copy in which every export newer than
//! the version is hidden from `dlsym` ([`crate::elf`]): `<folder of the build>/cuda-entry-sim/
//! <crate>-<version>/libcuda.so.1`, with `libcuda.so` beside it, a folder a child process finds
//! through its library search path.
//!
//! An export's first version is the oldest typedef version of the variants naming it in the
//! simulator's table (`cuda_entry_simdriver_core::table::SYMBOLS`). The real driver's other
//! exports (the ones `cuGetProcAddress` does not hand out) have no known first version and stay,
//! as do the kit's instrumentation exports.

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::Error;
use crate::elf;

/// The name the copy has: the real driver's file name, as a program loading it by name asks.
pub(crate) const LIBRARY_NAME: &str = "libcuda.so.1";
/// Its second name: the development link, which cudarc asks for first.
pub(crate) const LINK_NAME: &str = "libcuda.so";
/// The folder beside the builds that holds the copies.
const FOLDER: &str = "cuda-entry-sim";
/// The variable of the dynamic linker's search path, on the ELF platforms.
pub(crate) const SEARCH_PATH_VARIABLE: &str = "LD_LIBRARY_PATH";

/// Every export the table names, with the first version at which a driver has it.
pub(crate) fn first_versions() -> &'static HashMap<&'static str, i32> {
    static FIRST: OnceLock<HashMap<&'static str, i32>> = OnceLock::new();
    FIRST.get_or_init(|| {
        let mut first: HashMap<&'static str, i32> = HashMap::new();
        for symbol in cuda_entry_simdriver_core::table::SYMBOLS {
            for variant in symbol.variants {
                first
                    .entry(variant.export)
                    .and_modify(|v| *v = (*v).min(variant.version))
                    .or_insert(variant.version);
            }
        }
        first
    })
}

/// Whether a driver of `version` lacks the export `name` (false for a name of unknown age).
pub(crate) fn newer_than(name: &str, version: i32) -> bool {
    first_versions()
        .get(name)
        .is_some_and(|first| *first > version)
}

/// The simulated driver a process loads for one version: the library and the folder to put on
/// the search path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Prepared {
    /// The copy (`.../libcuda.so.1`), or the build itself where it is no ELF file.
    pub(crate) path: PathBuf,
    /// The copy's folder (`None` where the build is used as it is).
    pub(crate) folder: Option<PathBuf>,
}

/// The bytes of the build at `original` with the exports newer than `version` hidden; `None`
/// when it is no ELF file (the build is then used as it is).
pub(crate) fn patched(original: &Path, version: i32) -> Result<Option<Vec<u8>>, Error> {
    let failed = |message: String| Error::Copy {
        path: original.to_path_buf(),
        message,
    };
    let mut bytes = std::fs::read(original).map_err(|e| failed(format!("cannot read it: {e}")))?;
    if !elf::is_elf(&bytes) {
        return Ok(None);
    }
    elf::hide_exports(&mut bytes, |name| newer_than(name, version)).map_err(failed)?;
    Ok(Some(bytes))
}

/// The folder of the copy of the build at `original` (crate `stem`) for `version`.
pub(crate) fn folder(original: &Path, stem: &str, version: i32) -> PathBuf {
    original
        .parent()
        .unwrap_or(Path::new(""))
        .join(FOLDER)
        .join(format!("{stem}-{version}"))
}

/// Makes sure the copy of the build at `original` (crate `stem`) for `version` is written and
/// up to date, and returns it. Several processes may do this at once: a changed copy is written
/// to a file of its own in the folder and renamed over the old one, and an up-to-date one (the
/// same bytes) is left alone.
pub(crate) fn prepare(original: &Path, stem: &str, version: i32) -> Result<Prepared, Error> {
    let Some(bytes) = patched(original, version)? else {
        return Ok(Prepared {
            path: original.to_path_buf(),
            folder: None,
        });
    };
    let folder = folder(original, stem, version);
    let path = folder.join(LIBRARY_NAME);
    let failed = |message: String| Error::Copy {
        path: path.clone(),
        message,
    };
    if std::fs::read(&path).ok().as_deref() != Some(bytes.as_slice()) {
        std::fs::create_dir_all(&folder)
            .map_err(|e| failed(format!("cannot create its folder: {e}")))?;
        let temporary = temporary(&folder, LIBRARY_NAME);
        let written = write_file(&temporary, &bytes, original)
            .and_then(|()| std::fs::rename(&temporary, &path));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&temporary);
            return Err(failed(format!("cannot write it: {e}")));
        }
    }
    link(&folder).map_err(|e| failed(format!("cannot link {LINK_NAME} to it: {e}")))?;
    Ok(Prepared {
        path,
        folder: Some(folder),
    })
}

/// A name in `folder` no other writer uses.
fn temporary(folder: &Path, name: &str) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    folder.join(format!(".{name}.{}-{n}.tmp", std::process::id()))
}

/// Writes `bytes` to the new file `path`, with the permissions of `original`.
fn write_file(path: &Path, bytes: &[u8], original: &Path) -> std::io::Result<()> {
    let mut file = std::fs::File::create(path)?;
    file.write_all(bytes)?;
    if let Ok(metadata) = std::fs::metadata(original) {
        file.set_permissions(metadata.permissions())?;
    }
    Ok(())
}

/// Makes `libcuda.so` in `folder` name `libcuda.so.1` (a symbolic link, as the toolkit has it).
fn link(folder: &Path) -> std::io::Result<()> {
    let link = folder.join(LINK_NAME);
    #[cfg(unix)]
    {
        if std::fs::read_link(&link).is_ok_and(|target| target == Path::new(LIBRARY_NAME)) {
            return Ok(());
        }
        let temporary = temporary(folder, LINK_NAME);
        std::os::unix::fs::symlink(LIBRARY_NAME, &temporary)?;
        std::fs::rename(&temporary, &link).inspect_err(|_| {
            let _ = std::fs::remove_file(&temporary);
        })
    }
    #[cfg(not(unix))]
    {
        // An ELF build outside Unix: a copy of the copy.
        let temporary = temporary(folder, LINK_NAME);
        std::fs::copy(folder.join(LIBRARY_NAME), &temporary)?;
        std::fs::rename(&temporary, &link)
    }
}

/// `folder` in front of the search path `current` (`None` or empty: unset).
pub(crate) fn search_path(folder: &Path, current: Option<&std::ffi::OsStr>) -> OsString {
    let mut value = folder.as_os_str().to_owned();
    if let Some(current) = current.filter(|c| !c.is_empty()) {
        value.push(":");
        value.push(current);
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elf::DynamicSymbol;

    #[test]
    fn the_first_version_of_an_export_is_its_oldest_variant() {
        let first = first_versions();
        assert_eq!(first.get("cuCtxCreate_v4"), Some(&12050));
        assert_eq!(first.get("cuCtxCreate_v3"), Some(&11040));
        assert_eq!(first.get("cuGetProcAddress"), Some(&11030));
        assert_eq!(first.get("cuGetProcAddress_v2"), Some(&12000));
        assert_eq!(first.get("cuMemAlloc_v2"), Some(&3020));
        assert!(newer_than("cuCtxCreate_v4", 12040));
        assert!(!newer_than("cuCtxCreate_v4", 12050));
        // Names the table does not know are kept.
        assert!(!newer_than("cuda_entry_sim_calls", 1));
    }

    /// The main driver's build, beside this test binary.
    fn built_driver() -> PathBuf {
        crate::Driver::Current
            .path()
            .expect("the main driver is built")
    }

    #[test]
    fn the_copy_differs_from_the_build_only_in_the_hidden_symbols_binding_and_visibility() {
        let original = std::fs::read(built_driver()).expect("the build");
        let symbols = elf::dynamic_symbols(&original).expect("an ELF file the kit reads");
        for version in [12020, 11080, 11020, 13000, 2000] {
            let copy = patched(&built_driver(), version)
                .expect("patched")
                .expect("an ELF file");
            assert_eq!(copy.len(), original.len());
            // Hidden: exactly the exports the table makes newer than the version.
            let expected: Vec<&DynamicSymbol> = symbols
                .iter()
                .filter(|s| s.exported && newer_than(&s.name, version))
                .collect();
            let mut allowed = std::collections::HashSet::new();
            for symbol in &expected {
                let at = symbol.info_offset;
                // STB_LOCAL, the type kept (STT_FUNC); STV_HIDDEN, the other bits kept.
                assert_eq!(copy[at], original[at] & 0x0f, "{}", symbol.name);
                assert_eq!(original[at] & 0x0f, 2, "{} is a function", symbol.name);
                assert_eq!(copy[at + 1], (original[at + 1] & !3) | 2, "{}", symbol.name);
                allowed.extend([at, at + 1]);
            }
            let changed: Vec<usize> = (0..copy.len())
                .filter(|i| copy[*i] != original[*i])
                .collect();
            assert!(
                changed.iter().all(|i| allowed.contains(i)),
                "{version}: bytes changed outside the hidden symbols' st_info and st_other"
            );
            let hidden = elf::dynamic_symbols(&copy).expect("still an ELF file");
            let now_exported: Vec<&str> = hidden
                .iter()
                .filter(|s| s.exported)
                .map(|s| s.name.as_str())
                .collect();
            for symbol in &symbols {
                let kept = symbol.exported && !newer_than(&symbol.name, version);
                assert_eq!(
                    now_exported.contains(&symbol.name.as_str()),
                    kept,
                    "{version}: {}",
                    symbol.name
                );
            }
            let names: Vec<&str> = expected.iter().map(|s| s.name.as_str()).collect();
            match version {
                12020 => {
                    assert!(names.contains(&"cuCtxCreate_v4"), "{names:?}");
                    assert!(!names.contains(&"cuCtxCreate_v3"), "{names:?}");
                    assert!(!names.contains(&"cuGetProcAddress_v2"), "{names:?}");
                }
                11080 => {
                    assert!(names.contains(&"cuGetProcAddress_v2"), "{names:?}");
                    assert!(!names.contains(&"cuGetProcAddress"), "{names:?}");
                }
                11020 => {
                    assert!(names.contains(&"cuGetProcAddress"), "{names:?}");
                    assert!(names.contains(&"cuGetProcAddress_v2"), "{names:?}");
                }
                // The table's newest exports are 13.0's.
                13000 => assert_eq!(names, Vec::<&str>::new()),
                // Only what CUDA 2.0 had stays, and the instrumentation.
                _ => {
                    assert!(!names.contains(&"cuInit"), "{names:?}");
                    assert!(names.contains(&"cuMemAlloc_v2"), "{names:?}");
                    assert!(now_exported.contains(&"cuda_entry_sim_calls"));
                }
            }
        }
    }

    #[test]
    fn a_file_that_is_no_elf_file_is_used_as_it_is() {
        let dir = std::env::temp_dir().join(format!("cuda-entry-sim-noelf-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let file = dir.join("cuda_entry_simdriver.dll");
        std::fs::write(&file, b"MZ\x90\x00 a PE file").expect("a stand-in");
        let prepared = prepare(&file, "cuda_entry_simdriver", 12020).expect("prepared");
        assert_eq!(
            prepared,
            Prepared {
                path: file.clone(),
                folder: None
            }
        );
        assert!(!dir.join(FOLDER).exists());
        // A truncated ELF file is an error, naming the file.
        std::fs::write(&file, b"\x7fELF\x02\x01\x01").expect("a stand-in");
        let error = prepare(&file, "cuda_entry_simdriver", 12020).expect_err("truncated");
        assert!(matches!(error, Error::Copy { .. }), "{error:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_copy_is_written_once_and_reused() {
        // A build of its own in a folder of its own, so that no other test's copy is touched.
        let dir = std::env::temp_dir().join(format!("cuda-entry-sim-copy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let build = dir.join("libcuda_entry_simdriver.so");
        std::fs::copy(built_driver(), &build).expect("a copy of the build");
        let prepared = prepare(&build, "cuda_entry_simdriver", 12020).expect("written");
        let folder = dir
            .join("cuda-entry-sim")
            .join("cuda_entry_simdriver-12020");
        assert_eq!(prepared.folder.as_deref(), Some(folder.as_path()));
        assert_eq!(prepared.path, folder.join("libcuda.so.1"));
        #[cfg(unix)]
        assert_eq!(
            std::fs::read_link(folder.join("libcuda.so")).expect("a link"),
            Path::new("libcuda.so.1")
        );
        let written = std::fs::metadata(&prepared.path).expect("the copy");
        // Again: the same file is kept (no rename), no temporary file is left.
        assert_eq!(
            prepare(&build, "cuda_entry_simdriver", 12020).ok(),
            Some(prepared.clone())
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            let again = std::fs::metadata(&prepared.path).expect("the copy");
            assert_eq!(again.ino(), written.ino());
        }
        let _ = written;
        let entries: Vec<_> = std::fs::read_dir(&folder)
            .expect("the folder")
            .map(|e| e.expect("an entry").file_name())
            .collect();
        assert_eq!(entries.len(), 2, "{entries:?}");
        // A copy that is not what the build gives now is replaced.
        std::fs::write(&prepared.path, b"stale").expect("a stale copy");
        prepare(&build, "cuda_entry_simdriver", 12020).expect("rewritten");
        assert_eq!(
            std::fs::read(&prepared.path).ok(),
            patched(&build, 12020).expect("patched")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_folder_goes_in_front_of_the_search_path() {
        let folder = Path::new("/t/deps/cuda-entry-sim/cuda_entry_simdriver-12020");
        assert_eq!(search_path(folder, None), folder.as_os_str());
        assert_eq!(
            search_path(folder, Some(std::ffi::OsStr::new(""))),
            folder.as_os_str()
        );
        assert_eq!(
            search_path(folder, Some(std::ffi::OsStr::new("/a:/b"))),
            "/t/deps/cuda-entry-sim/cuda_entry_simdriver-12020:/a:/b"
        );
    }
}
