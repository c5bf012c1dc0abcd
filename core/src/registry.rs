//! What a program needs, known before it runs: every `#[cuda_entry]` declaration of the program
//! and of all its dependencies registers itself at link time (no constructor runs, nothing is
//! allocated), and also leaves a plain-data record in a section of the binary that
//! `cuda-entry check BINARY` reads without running it.

use std::fmt;

use crate::entry::{Entry, Resolver, Stream, preload};
use crate::error::{PreloadError, Request};

/// Every entry declared with `#[cuda_entry]` in the program, filled by the linker.
#[doc(hidden)]
#[linkme::distributed_slice]
pub static ENTRIES: [&'static Entry];

/// Every entry declared with `#[cuda_entry]` anywhere in the program, dependencies included,
/// in no particular order.
pub fn entries() -> &'static [&'static Entry] {
    &ENTRIES
}

/// Resolves every declared entry now and reports every failure at once: for services that
/// prefer to fail at start-up rather than at their first driver call.
///
/// # Errors
/// A [`PreloadError`] listing each entry that cannot be resolved.
pub fn preload_all() -> Result<(), PreloadError> {
    preload(entries())
}

/// The driver a program needs: the minimum version of each entry and of the whole program.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Requirements {
    /// Every declared entry, newest requirement first. An entry needs a driver at least as new as
    /// its typedef version.
    pub entries: Vec<Request>,
    /// The driver version the whole program needs (0 when it declares no entry).
    pub minimum_driver: u32,
    /// The entries that set [`Requirements::minimum_driver`].
    pub set_by: Vec<Request>,
}

/// What the program's declared entries need of the driver. Asks nothing.
pub fn requirements() -> Requirements {
    let mut entries: Vec<Request> = entries().iter().map(|e| e.request()).collect();
    entries.sort_by(|a, b| {
        b.version
            .cmp(&a.version)
            .then_with(|| a.symbol.cmp(b.symbol))
    });
    entries.dedup();
    let minimum_driver = entries.first().map_or(0, |r| r.version);
    let set_by = entries
        .iter()
        .filter(|r| r.version == minimum_driver)
        .copied()
        .collect();
    Requirements {
        entries,
        minimum_driver,
        set_by,
    }
}

impl fmt::Display for Requirements {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.entries.is_empty() {
            return f.write_str("no CUDA driver entries are declared");
        }
        write!(
            f,
            "{} CUDA driver entries; the program needs a driver of CUDA {}.{} or newer, because of ",
            self.entries.len(),
            self.minimum_driver / 1000,
            self.minimum_driver % 1000 / 10
        )?;
        for (i, r) in self.set_by.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(f, "{sep}{} {}", r.symbol, r.version)?;
        }
        Ok(())
    }
}

/// One record of the manifest section: what a declaration asks for, as the binary states it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ManifestRecord {
    /// The symbol.
    pub symbol: String,
    /// The typedef version the entry resolves at.
    pub version: u32,
    /// The stream flavour it resolves in.
    pub stream: Stream,
    /// Who it asks.
    pub resolver: Resolver,
    /// Whether it was declared `unverified` (not checked against the typedef table).
    pub unverified: bool,
    /// The package that declared it.
    pub package: String,
}

/// The name of the manifest section on this target's object format.
pub const MANIFEST_SECTION: &str = if cfg!(target_vendor = "apple") {
    "__cuda_entry"
} else if cfg!(windows) {
    ".cuentry"
} else {
    "cuda_entry"
};

/// The magic that starts every record.
pub(crate) const MAGIC: [u8; 4] = *b"CUEN";
/// The record layout's version.
pub(crate) const FORMAT: u8 = 1;
/// The fixed part of a record: magic, format, stream, resolver, flags, version, two lengths.
pub(crate) const HEADER: usize = 16;

/// Reads the records of a manifest section's bytes (as `object` or any ELF/PE/Mach-O reader
/// returns them). Padding a linker put between records is skipped.
///
/// # Errors
/// A description of the first malformed record, with its offset.
pub fn parse_manifest(mut bytes: &[u8]) -> Result<Vec<ManifestRecord>, String> {
    let mut records = Vec::new();
    let total = bytes.len();
    loop {
        while let [0, rest @ ..] = bytes {
            bytes = rest;
        }
        if bytes.is_empty() {
            return Ok(records);
        }
        let at = total - bytes.len();
        let header = bytes
            .get(..HEADER)
            .ok_or_else(|| format!("truncated record at offset {at}"))?;
        if header[..4] != MAGIC || header[4] != FORMAT {
            return Err(format!("no cuda-entry record at offset {at}"));
        }
        let stream = match header[5] {
            1 => Stream::Legacy,
            2 => Stream::PerThread,
            other => return Err(format!("unknown stream {other} at offset {at}")),
        };
        let resolver = match header[6] {
            1 => Resolver::Driver,
            2 => Resolver::Runtime,
            other => return Err(format!("unknown resolver {other} at offset {at}")),
        };
        let version = u32::from_le_bytes([header[8], header[9], header[10], header[11]]);
        let symbol_len = usize::from(u16::from_le_bytes([header[12], header[13]]));
        let package_len = usize::from(u16::from_le_bytes([header[14], header[15]]));
        let end = HEADER + symbol_len + package_len;
        let body = bytes
            .get(HEADER..end)
            .ok_or_else(|| format!("truncated record at offset {at}"))?;
        let text = |b: &[u8]| {
            String::from_utf8(b.to_vec()).map_err(|_| format!("non-UTF-8 text at offset {at}"))
        };
        records.push(ManifestRecord {
            symbol: text(&body[..symbol_len])?,
            version,
            stream,
            resolver,
            unverified: header[7] & 1 != 0,
            package: text(&body[symbol_len..])?,
        });
        bytes = &bytes[end..];
    }
}
