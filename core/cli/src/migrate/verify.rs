//! `migrate --verify`: each crate built as a machine without CUDA would build it, and every
//! artifact it produces read for the libraries it loads at start: none may need the driver.
//!
//! The build runs `cargo build --all-targets` with the variables through which build scripts and
//! finder crates find a CUDA installation removed (`CUDA_PATH`, `CUDA_HOME`, ...), so a build
//! script that still needs one fails here as it would there. Each executable and shared library
//! Cargo reports is read as ELF (`DT_NEEDED`) or PE (the import table): `libcuda.so*` or
//! `nvcuda.dll` there means the program still cannot start without the driver installed.

use std::path::{Path, PathBuf};
use std::process::Command;

use object::read::elf::{ElfFile, FileHeader};
use object::read::pe::{ImageNtHeaders, PeFile};

use crate::shown;

/// The variables through which a build finds CUDA, removed for the build.
const CUDA_VARIABLES: &[&str] = &[
    "CUDA_PATH",
    "CUDA_HOME",
    "CUDA_ROOT",
    "CUDA_LIBRARY_PATH",
    "CUDA_TOOLKIT_ROOT_DIR",
    "CUDA_TOOLKIT_ROOT",
    "CUDATOOLKIT_HOME",
];

/// What the build of one crate showed.
#[derive(Debug)]
pub(crate) struct Verified {
    pub(crate) dir: PathBuf,
    /// The artifacts read (executables, tests, shared libraries).
    pub(crate) artifacts: usize,
    /// Each artifact that needs the driver, with the library it names.
    pub(crate) needing: Vec<(PathBuf, String)>,
    /// The build's failure, when it did not build: its last lines.
    pub(crate) failed: Option<String>,
}

impl Verified {
    pub(crate) fn passed(&self) -> bool {
        self.failed.is_none() && self.needing.is_empty()
    }

    /// One line for the summary.
    pub(crate) fn line(&self) -> String {
        let dir = shown::path(&self.dir);
        if let Some(failure) = &self.failed {
            return format!(
                "verify: {dir} does not build without CUDA installed (its CUDA variables removed):\n{failure}"
            );
        }
        if self.needing.is_empty() {
            return format!(
                "verify: {dir} builds without CUDA installed, and none of its {} artifacts needs libcuda",
                self.artifacts
            );
        }
        let mut out =
            format!("verify: {dir} builds, but artifacts still need the driver to start:");
        for (artifact, library) in &self.needing {
            out.push_str(&format!("\n    {} needs {library}", shown::path(artifact)));
        }
        out
    }
}

/// Builds the crate in `dir` without CUDA's variables and reads its artifacts.
pub(crate) fn verify(dir: &Path) -> Result<Verified, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args([
            "build",
            "--all-targets",
            "--message-format=json-render-diagnostics",
        ])
        .arg("--manifest-path")
        .arg(dir.join("Cargo.toml"));
    for variable in CUDA_VARIABLES {
        command.env_remove(variable);
    }
    let output = command
        .output()
        .map_err(|e| format!("--verify: cargo could not run: {e}"))?;
    let mut verified = Verified {
        dir: dir.to_path_buf(),
        artifacts: 0,
        needing: Vec::new(),
        failed: None,
    };
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let lines: Vec<&str> = stderr.lines().collect();
        let tail = lines[lines.len().saturating_sub(12)..].join("\n");
        verified.failed = Some(tail);
        return Ok(verified);
    }
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if message["reason"] != "compiler-artifact" {
            continue;
        }
        for file in artifacts(&message) {
            let data = std::fs::read(&file)
                .map_err(|e| format!("--verify: {}: {e}", shown::path(&file)))?;
            verified.artifacts += 1;
            for library in needed(&data) {
                if is_driver(&library) {
                    verified.needing.push((file.clone(), library));
                }
            }
        }
    }
    Ok(verified)
}

/// The files of one artifact message that the loader starts: the executable, and shared
/// libraries (`.so`, `.dll`), not rlibs or build-script outputs' metadata.
fn artifacts(message: &serde_json::Value) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = Vec::new();
    if let Some(exe) = message["executable"].as_str() {
        files.push(PathBuf::from(exe));
    }
    for file in message["filenames"].as_array().into_iter().flatten() {
        let Some(file) = file.as_str() else { continue };
        let shared = [".so", ".dll", ".dylib"].iter().any(|e| file.ends_with(e));
        if shared && !files.iter().any(|f| f == Path::new(file)) {
            files.push(PathBuf::from(file));
        }
    }
    files
}

/// Whether a needed library is the CUDA driver.
fn is_driver(library: &str) -> bool {
    let name = library.rsplit(['/', '\\']).next().unwrap_or(library);
    name.starts_with("libcuda.so") || name.eq_ignore_ascii_case("nvcuda.dll")
}

/// The libraries a binary names for the loader (ELF `DT_NEEDED`, PE imports); empty for other
/// formats or what cannot be read.
pub(crate) fn needed(data: &[u8]) -> Vec<String> {
    use object::FileKind;
    let found = match FileKind::parse(data) {
        Ok(FileKind::Elf64) => elf_needed::<object::elf::FileHeader64<object::Endianness>>(data),
        Ok(FileKind::Elf32) => elf_needed::<object::elf::FileHeader32<object::Endianness>>(data),
        Ok(FileKind::Pe64) => pe_needed::<object::pe::ImageNtHeaders64>(data),
        Ok(FileKind::Pe32) => pe_needed::<object::pe::ImageNtHeaders32>(data),
        _ => Ok(Vec::new()),
    };
    found.unwrap_or_default()
}

fn elf_needed<Elf: FileHeader<Endian = object::Endianness>>(
    data: &[u8],
) -> object::Result<Vec<String>> {
    let file = ElfFile::<Elf>::parse(data)?;
    let endian = file.endian();
    let table = file.elf_section_table().dynamic_table(endian, data)?;
    let mut out = Vec::new();
    for entry in table.iter() {
        if entry.tag == object::elf::DT_NEEDED {
            out.push(String::from_utf8_lossy(table.string(entry)?).into_owned());
        }
    }
    Ok(out)
}

fn pe_needed<Pe: ImageNtHeaders>(data: &[u8]) -> object::Result<Vec<String>> {
    let file = PeFile::<Pe>::parse(data)?;
    let mut out = Vec::new();
    if let Some(table) = file.import_table()? {
        let mut descriptors = table.descriptors()?;
        while let Some(d) = descriptors.next()? {
            let name = table.name(d.name.get(object::LittleEndian))?;
            out.push(String::from_utf8_lossy(name).into_owned());
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_driver_is_named_as_the_loader_names_it() {
        for name in [
            "libcuda.so.1",
            "libcuda.so",
            "/usr/lib/libcuda.so.1",
            "nvcuda.dll",
            "NVCUDA.DLL",
        ] {
            assert!(is_driver(name), "{name}");
        }
        for name in [
            "libcudart.so.13",
            "libc.so.6",
            "cudart64_13.dll",
            "libcuda_entry_simdriver.so",
        ] {
            assert!(!is_driver(name), "{name}");
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn an_executable_names_what_it_loads() {
        // This test binary: it needs the C library, and not the driver.
        let exe = std::env::current_exe().expect("the test binary");
        let needed = needed(&std::fs::read(exe).expect("readable"));
        assert!(
            needed.iter().any(|l| l.starts_with("libc.so")),
            "{needed:?}"
        );
        assert!(!needed.iter().any(|l| is_driver(l)), "{needed:?}");
        assert!(super::needed(b"not a binary").is_empty());
    }
}
