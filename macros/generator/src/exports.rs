//! Which typedef each driver export implements: `cuMemAlloc` -> (`cuMemAlloc`, 2000),
//! `cuMemAlloc_v2` -> (`cuMemAlloc`, 3020), `cuStreamSynchronize_ptsz` -> (`cuStreamSynchronize`,
//! 7000, per-thread).
//!
//! The exports are the `cu` functions the preprocessed headers declare, plain and with
//! `__CUDA_API_VERSION_INTERNAL` (which applies the `_ptds`/`_ptsz` `#define`s and declares the
//! old exports). An export's base symbol is its name without `_ptsz`/`_ptds` and then without a
//! `_v<K>` the typedef table does not have; its flavour is that suffix. Its typedef is found by:
//! 1. the compiler: the typedefs of the base symbol and flavour whose function type is
//!    compatible with the export's prototype (`__builtin_types_compatible_p`);
//! 2. the typedef headers' `#define PFN_<export> ...` (12.x: `PFN_cuEventElapsedTime_v2` ->
//!    `PFN_cuEventElapsedTime_v12080`), where there is one;
//! 3. order: exports of one base symbol and flavour implement strictly newer typedefs as `_v<K>`
//!    grows (`cuCtxCreate`, `_v2`, `_v3`, `_v4`: 2000, 3020, 11040, 12050). An export takes the
//!    one typedef left when the others are placed as low and as high as they can go; if that
//!    does not pin it, it stays unexplained (a note), never guessed.

use std::collections::{BTreeMap, BTreeSet};

use crate::cpp::Declared;
use crate::parse::{Flavour, ParsedTypedef};
use crate::probe::{Compiler, INTERNAL, Line};

/// What one toolkit's headers say about one export.
#[derive(Clone, Debug)]
pub(crate) struct Seen {
    pub(crate) base: String,
    pub(crate) flavour: Flavour,
    /// The `K` of `_v<K>` (1 without).
    pub(crate) k: u32,
    /// Versions of (base, flavour) typedefs whose type is compatible with the prototype.
    pub(crate) compatible: Vec<u32>,
}

/// One resolved export.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Export {
    pub(crate) name: String,
    pub(crate) symbol: String,
    pub(crate) version: u32,
    pub(crate) flavour: Flavour,
}

/// `cuMemcpyHtoD_v2_ptds` -> (`cuMemcpyHtoD`, 2, Ptds) when `symbols` has `cuMemcpyHtoD`.
pub(crate) fn split_export(name: &str, symbols: &BTreeSet<&str>) -> Option<(String, u32, Flavour)> {
    let (rest, flavour) = if let Some(r) = name.strip_suffix("_ptsz") {
        (r, Flavour::Ptsz)
    } else if let Some(r) = name.strip_suffix("_ptds") {
        (r, Flavour::Ptds)
    } else {
        (name, Flavour::Legacy)
    };
    if symbols.contains(rest) {
        return Some((rest.to_string(), 1, flavour));
    }
    let (base, digits) = rest.rsplit_once("_v")?;
    let k = digits
        .parse::<u32>()
        .ok()
        .filter(|_| digits.bytes().all(|b| b.is_ascii_digit()))?;
    symbols
        .contains(base)
        .then(|| (base.to_string(), k, flavour))
}

/// The exports one toolkit declares, with the typedefs the compiler finds compatible. `plain`
/// and `internal` are the declarations of the two preprocessed configurations; `typedefs` the
/// toolkit's `PFN_` typedefs. Names with no typedef'd base symbol go to `unexplained`.
pub(crate) fn seen(
    compiler: &Compiler<'_>,
    plain: &Declared,
    internal: &Declared,
    typedefs: &[&ParsedTypedef],
    unexplained: &mut BTreeSet<String>,
) -> Result<BTreeMap<String, Seen>, String> {
    let symbols: BTreeSet<&str> = typedefs.iter().map(|t| t.symbol.as_str()).collect();
    let mut protos = internal.functions.clone();
    protos.extend(plain.functions.clone());
    let mut out = BTreeMap::new();
    let mut lines = Vec::new();
    let mut asked = Vec::new();
    for (name, proto) in protos {
        let Some((base, k, flavour)) = split_export(&name, &symbols) else {
            unexplained.insert(name);
            continue;
        };
        for td in typedefs
            .iter()
            .filter(|t| t.symbol == base && t.flavour == flavour)
        {
            let pfn = if td.unversioned {
                format!("PFN_{}", td.symbol)
            } else {
                td.name()
            };
            lines.push(Line {
                item: lines.len(),
                setup: format!("typedef {} e({});", proto.ret, proto.params),
                format: "%d",
                args: format!("__builtin_types_compatible_p(e *, {pfn})"),
            });
            asked.push((name.clone(), td.version));
        }
        out.insert(
            name,
            Seen {
                base,
                flavour,
                k,
                compatible: Vec::new(),
            },
        );
    }
    let key: Vec<usize> = (0..lines.len()).collect();
    let answers = compiler.staged(&[INTERNAL], lines.len(), &key, &lines)?;
    for ((name, version), v) in asked.iter().zip(&answers.values) {
        if v.as_deref() == Some(&[1])
            && let Some(s) = out.get_mut(name)
        {
            s.compatible.push(*version);
        }
    }
    for s in out.values_mut() {
        s.compatible.sort_unstable();
    }
    Ok(out)
}

/// `#define PFN_<export> PFN_<symbol>_v<N>` and `#define PFN_<export>
/// __API_TYPEDEF_PTSZ(PFN_<symbol>, <legacy>, <per-thread>)` of a typedef header: export name ->
/// (symbol, version, flavour). Only names with a `_v<K>` the symbol lacks (`PFN_cuMemAlloc`
/// names the newest ABI, not the export `cuMemAlloc`).
pub(crate) fn header_evidence(text: &str) -> Vec<(String, (String, u32, Flavour))> {
    let mut out = Vec::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let ["#define", alias, target @ ..] = &words[..] else {
            continue;
        };
        let Some(export) = alias.strip_prefix("PFN_") else {
            continue;
        };
        let target = target.concat();
        if let Some(args) = target
            .strip_prefix("__API_TYPEDEF_PTSZ(")
            .map(|a| (a, Flavour::Ptsz))
            .or_else(|| {
                target
                    .strip_prefix("__API_TYPEDEF_PTDS(")
                    .map(|a| (a, Flavour::Ptds))
            })
        {
            let (args, flavour) = args;
            let parts: Vec<&str> = args.trim_end_matches(')').split(',').collect();
            if let [pfn, legacy, per_thread] = parts[..]
                && let Some(symbol) = pfn.strip_prefix("PFN_")
                && names_a_variant(export, symbol)
                && let (Ok(legacy), Ok(per_thread)) = (legacy.parse(), per_thread.parse())
            {
                out.push((
                    export.to_string(),
                    (symbol.to_string(), legacy, Flavour::Legacy),
                ));
                out.push((
                    format!("{export}{}", flavour.suffix()),
                    (symbol.to_string(), per_thread, flavour),
                ));
            }
        } else if let Some(t) = target.strip_prefix("PFN_")
            && let Ok((symbol, version, flavour)) = crate::parse::split_name(&format!("PFN_{t}"))
            && names_a_variant(export, &symbol)
        {
            out.push((export.to_string(), (symbol, version, flavour)));
        }
    }
    out
}

/// Whether `export` is `symbol` with a `_v<K>` suffix (`cuStreamGetCtx_v2` of `cuStreamGetCtx`).
fn names_a_variant(export: &str, symbol: &str) -> bool {
    export
        .strip_prefix(symbol)
        .and_then(|r| r.strip_prefix("_v"))
        .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
}

/// Resolves every export (`seen`: the newest toolkit's view of each) with the headers'
/// `evidence`. Returns the exports and notes for what stays unexplained.
pub(crate) fn resolve(
    seen: &BTreeMap<String, Seen>,
    evidence: &BTreeMap<String, (String, u32, Flavour)>,
) -> (Vec<Export>, Vec<String>) {
    let mut notes = Vec::new();
    // (base, flavour) -> (K, export, candidate versions).
    type Group<'a> = Vec<(u32, &'a str, Vec<u32>)>;
    let mut groups: BTreeMap<(&str, Flavour), Group<'_>> = BTreeMap::new();
    for (name, s) in seen {
        let mut candidates = s.compatible.clone();
        if let Some((symbol, version, flavour)) = evidence.get(name) {
            if (symbol.as_str(), *flavour) == (s.base.as_str(), s.flavour)
                && candidates.contains(version)
            {
                candidates = vec![*version];
            } else {
                notes.push(format!(
                    "export {name}: the typedef headers' #define says PFN_{symbol}_v{version}{}, \
                     the compiler finds {:?} of {} compatible; kept the compiler's",
                    flavour.suffix(),
                    s.compatible,
                    s.base
                ));
            }
        }
        groups
            .entry((&s.base, s.flavour))
            .or_default()
            .push((s.k, name, candidates));
    }
    let mut out = Vec::new();
    for ((base, flavour), mut exports) in groups {
        exports.sort();
        if let Some(w) = exports.windows(2).find(|w| w[0].0 == w[1].0) {
            notes.push(format!(
                "exports {} and {} of {base} have the same _v suffix; both unexplained",
                w[0].1, w[1].1
            ));
            continue;
        }
        let sets: Vec<&[u32]> = exports.iter().map(|e| e.2.as_slice()).collect();
        let (low, high) = (lowest(&sets), highest(&sets));
        for (i, (_, name, candidates)) in exports.iter().enumerate() {
            match (low.get(i).copied().flatten(), high.get(i).copied().flatten()) {
                (Some(l), Some(h)) if l == h => out.push(Export {
                    name: name.to_string(),
                    symbol: base.to_string(),
                    version: l,
                    flavour,
                }),
                (l, h) => notes.push(format!(
                    "export {name} is unexplained: compatible with {base}{} versions {candidates:?}, \
                     placed in order at {l:?}..{h:?}",
                    flavour.suffix()
                )),
            }
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    (out, notes)
}

/// Each set's smallest member above the previous set's pick (`None` from the first that has none).
fn lowest(sets: &[&[u32]]) -> Vec<Option<u32>> {
    let mut prev: Option<u32> = None;
    let mut out = Vec::new();
    for s in sets {
        let pick = s.iter().copied().find(|&v| prev.is_none_or(|p| v > p));
        out.push(pick);
        prev = match pick {
            Some(p) => Some(p),
            None => Some(u32::MAX),
        };
    }
    out
}

/// Each set's largest member below the next set's pick, from the last set down.
fn highest(sets: &[&[u32]]) -> Vec<Option<u32>> {
    let mut next: Option<u32> = None;
    let mut out = vec![None; sets.len()];
    for (i, s) in sets.iter().enumerate().rev() {
        let pick = s
            .iter()
            .rev()
            .copied()
            .find(|&v| next.is_none_or(|n| v < n));
        out[i] = pick;
        next = Some(pick.unwrap_or(0));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(base: &str, k: u32, flavour: Flavour, compatible: &[u32]) -> Seen {
        Seen {
            base: base.into(),
            flavour,
            k,
            compatible: compatible.to_vec(),
        }
    }

    #[test]
    fn names_split_into_base_k_and_flavour() {
        let symbols: BTreeSet<&str> = ["cuMemcpyHtoD", "cuStreamGetCtx", "cuInit"].into();
        assert_eq!(
            split_export("cuMemcpyHtoD_v2_ptds", &symbols),
            Some(("cuMemcpyHtoD".into(), 2, Flavour::Ptds))
        );
        assert_eq!(
            split_export("cuStreamGetCtx_v2_ptsz", &symbols),
            Some(("cuStreamGetCtx".into(), 2, Flavour::Ptsz))
        );
        assert_eq!(
            split_export("cuInit", &symbols),
            Some(("cuInit".into(), 1, Flavour::Legacy))
        );
        assert_eq!(split_export("cuMemGetAttribute_v2", &symbols), None);
        assert_eq!(split_export("cuInit_vx", &symbols), None);
    }

    #[test]
    fn order_pins_exports_with_the_same_prototype() {
        let l = Flavour::Legacy;
        let s: BTreeMap<String, Seen> = [
            ("cuCtxCreate", seen("cuCtxCreate", 1, l, &[2000, 3020])),
            ("cuCtxCreate_v2", seen("cuCtxCreate", 2, l, &[2000, 3020])),
            ("cuCtxCreate_v3", seen("cuCtxCreate", 3, l, &[11040])),
            (
                "cuEventElapsedTime",
                seen("cuEventElapsedTime", 1, l, &[2000, 12080]),
            ),
            (
                "cuEventElapsedTime_v2",
                seen("cuEventElapsedTime", 2, l, &[2000, 12080]),
            ),
            ("cuFoo", seen("cuFoo", 1, l, &[1000, 2000, 3000])),
            ("cuFoo_v2", seen("cuFoo", 2, l, &[1000, 2000, 3000])),
            ("cuBar", seen("cuBar", 1, l, &[])),
        ]
        .into_iter()
        .map(|(n, s)| (n.to_string(), s))
        .collect();
        let evidence: BTreeMap<String, (String, u32, Flavour)> = [(
            "cuEventElapsedTime_v2".to_string(),
            ("cuEventElapsedTime".to_string(), 12080, l),
        )]
        .into();
        let (exports, notes) = resolve(&s, &evidence);
        let got: Vec<(&str, u32)> = exports
            .iter()
            .map(|e| (e.name.as_str(), e.version))
            .collect();
        assert_eq!(
            got,
            vec![
                ("cuCtxCreate", 2000),
                ("cuCtxCreate_v2", 3020),
                ("cuCtxCreate_v3", 11040),
                ("cuEventElapsedTime", 2000),
                ("cuEventElapsedTime_v2", 12080),
            ]
        );
        // cuFoo could be 1000 or 2000, cuFoo_v2 2000 or 3000: not pinned; cuBar has nothing.
        assert_eq!(notes.len(), 3, "{notes:#?}");
        assert!(
            notes
                .iter()
                .any(|n| n.contains("export cuFoo_v2 is unexplained"))
        );
        assert!(
            notes
                .iter()
                .any(|n| n.contains("export cuBar is unexplained"))
        );
    }

    #[test]
    fn evidence_is_read_from_defines() {
        let text = "#define PFN_cuEventElapsedTime_v2  PFN_cuEventElapsedTime_v12080\n\
            #define PFN_cuMemAlloc  PFN_cuMemAlloc_v3020\n\
            #define PFN_cuStreamGetCtx_v2  __API_TYPEDEF_PTSZ(PFN_cuStreamGetCtx, 12050, 12050)\n\
            #define PFN_cuMemcpyHtoD  __API_TYPEDEF_PTDS(PFN_cuMemcpyHtoD, 3020, 7000)\n\
            #define PFN_cuGraphInstantiate PFN_cuGraphInstantiateWithFlags_v11040\n";
        let got = header_evidence(text);
        let want = vec![
            (
                "cuEventElapsedTime_v2".to_string(),
                ("cuEventElapsedTime".to_string(), 12080, Flavour::Legacy),
            ),
            (
                "cuStreamGetCtx_v2".to_string(),
                ("cuStreamGetCtx".to_string(), 12050, Flavour::Legacy),
            ),
            (
                "cuStreamGetCtx_v2_ptsz".to_string(),
                ("cuStreamGetCtx".to_string(), 12050, Flavour::Ptsz),
            ),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn the_compiler_matches_prototypes_to_typedefs() {
        let cuda_h = "typedef enum cudaError_enum { CUDA_SUCCESS = 0 } CUresult;\n\
            typedef unsigned int CUdeviceptr_v1;\ntypedef unsigned long long CUdeviceptr;\n\
            typedef int CUdevice_v1;\ntypedef CUdevice_v1 CUdevice;\n\
            typedef struct CUstream_st *CUstream;\n\
            CUresult cuMemAlloc(CUdeviceptr_v1 *dptr, unsigned int bytesize);\n\
            CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize);\n\
            CUresult cuDeviceGet(CUdevice *device, int ordinal);\n\
            CUresult cuStreamSynchronize(CUstream hStream);\n\
            CUresult cuStreamSynchronize_ptsz(CUstream hStream);\n\
            CUresult cuMemGetAttribute(int *value);\n\
            typedef CUresult (*PFN_cuMemAlloc_v2000)(CUdeviceptr_v1 *dptr, unsigned int bytesize);\n\
            typedef CUresult (*PFN_cuMemAlloc_v3020)(CUdeviceptr *dptr, size_t bytesize);\n\
            typedef CUresult (*PFN_cuDeviceGet_v2000)(CUdevice_v1 *device, int ordinal);\n\
            typedef CUresult (*PFN_cuStreamSynchronize_v2000)(CUstream hStream);\n\
            typedef CUresult (*PFN_cuStreamSynchronize_v7000_ptsz)(CUstream hStream);\n";
        let dir = crate::probe::testing::fake_toolkit("exports", cuda_h);
        let includes = [dir.clone()];
        let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
        let compiler = Compiler {
            cc: &cc,
            includes: &includes,
            work: &dir,
        };
        let parsed = crate::parse::parse_header("cuda.h", cuda_h).unwrap_or_else(|e| panic!("{e}"));
        let typedefs: Vec<&ParsedTypedef> = parsed.iter().collect();
        let declared = crate::cpp::declarations("cuda.h", cuda_h).unwrap_or_else(|e| panic!("{e}"));
        let mut unexplained = BTreeSet::new();
        let seen = super::seen(
            &compiler,
            &declared,
            &Declared::default(),
            &typedefs,
            &mut unexplained,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(
            unexplained,
            BTreeSet::from(["cuMemGetAttribute".to_string()])
        );
        let compatible: Vec<(&str, &[u32])> = seen
            .iter()
            .map(|(n, s)| (n.as_str(), s.compatible.as_slice()))
            .collect();
        assert_eq!(
            compatible,
            [
                ("cuDeviceGet", &[2000][..]),
                ("cuMemAlloc", &[2000]),
                ("cuMemAlloc_v2", &[3020]),
                ("cuStreamSynchronize", &[2000]),
                ("cuStreamSynchronize_ptsz", &[7000]),
            ]
        );
        let (exports, notes) = resolve(&seen, &BTreeMap::new());
        assert!(notes.is_empty(), "{notes:?}");
        let ptsz = exports
            .iter()
            .find(|e| e.name == "cuStreamSynchronize_ptsz");
        assert_eq!(
            ptsz.map(|e| (e.symbol.as_str(), e.version, e.flavour)),
            Some(("cuStreamSynchronize", 7000, Flavour::Ptsz))
        );
    }
}
