//! Export names map back to the typedef they implement: checked by hand for a few, and against
//! the real driver's answers (tests/ground-truth, an H200 with driver 580.159.04, CUDA 13.0).

use cuda_entry_table::{EXPORTS, Flavour, base_symbol, export, lookup};

const GROUND_TRUTH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/ground-truth/");

fn read(file: &str) -> String {
    let path = format!("{GROUND_TRUTH}{file}");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn known_exports() {
    let cases = [
        ("cuInit", "cuInit", 2000, Flavour::Legacy),
        ("cuMemAlloc", "cuMemAlloc", 2000, Flavour::Legacy),
        ("cuMemAlloc_v2", "cuMemAlloc", 3020, Flavour::Legacy),
        ("cuCtxCreate", "cuCtxCreate", 2000, Flavour::Legacy),
        ("cuCtxCreate_v2", "cuCtxCreate", 3020, Flavour::Legacy),
        ("cuCtxCreate_v3", "cuCtxCreate", 11040, Flavour::Legacy),
        ("cuCtxCreate_v4", "cuCtxCreate", 12050, Flavour::Legacy),
        (
            "cuStreamSynchronize_ptsz",
            "cuStreamSynchronize",
            7000,
            Flavour::Ptsz,
        ),
        ("cuMemcpyHtoD_v2_ptds", "cuMemcpyHtoD", 7000, Flavour::Ptds),
        (
            "cuStreamGetCtx_v2_ptsz",
            "cuStreamGetCtx",
            12050,
            Flavour::Ptsz,
        ),
        (
            "cuEventElapsedTime_v2",
            "cuEventElapsedTime",
            12080,
            Flavour::Legacy,
        ),
        (
            "cuGetProcAddress_v2",
            "cuGetProcAddress",
            12000,
            Flavour::Legacy,
        ),
    ];
    for (name, symbol, version, stream) in cases {
        let e = export(name).unwrap_or_else(|| panic!("{name} not mapped"));
        assert_eq!(
            (e.symbol, e.version, e.stream),
            (symbol, version, stream),
            "{name}"
        );
        let t = e.typedef().unwrap_or_else(|| panic!("{name}: no typedef"));
        assert_eq!((t.symbol, t.version, t.stream), (symbol, version, stream));
    }
    assert_eq!(export("cuMemAlloc_v3"), None);
    assert_eq!(export("cuMemGetAttribute"), None);
    assert_eq!(export(""), None);
}

#[test]
fn sorted_unique_and_each_has_its_typedef() {
    assert!(EXPORTS.windows(2).all(|w| w[0].name < w[1].name));
    assert!(EXPORTS.len() > 700, "{}", EXPORTS.len());
    for e in EXPORTS {
        assert!(e.typedef().is_some(), "{e:?}");
        assert_eq!(base_symbol(e.name), e.symbol, "{e:?}");
        assert_eq!(
            e.name.ends_with("_ptsz"),
            e.stream == Flavour::Ptsz,
            "{e:?}"
        );
        assert_eq!(
            e.name.ends_with("_ptds"),
            e.stream == Flavour::Ptds,
            "{e:?}"
        );
    }
}

/// Every pointer the driver returned (symbol, version, flags) is an export that implements the
/// newest typedef at or below that version, in the flavour the flags select.
#[test]
fn the_driver_returns_the_export_of_the_typedef() {
    let tsv = read("driver-13000-getprocaddress.tsv");
    let mut checked = 0;
    let mut problems = Vec::new();
    for line in tsv.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let [symbol, version, flags, _rc, _status, _pfn, exported] = f[..] else {
            panic!("bad row `{line}`");
        };
        if exported == "-" {
            continue;
        }
        let version: u32 = version.parse().expect("version");
        let typedefs = lookup(symbol);
        // Flags 2 (per-thread) select the per-thread typedefs of a symbol that has some.
        let per_thread = flags == "2" && typedefs.iter().any(|t| t.stream.is_per_thread());
        let want = typedefs
            .iter()
            .filter(|t| t.stream.is_per_thread() == per_thread && t.version <= version)
            .max_by_key(|t| t.version);
        let Some(want) = want else {
            problems.push(format!(
                "{line}: no typedef of {symbol} at or below {version}"
            ));
            continue;
        };
        checked += 1;
        match export(exported) {
            Some(e)
                if (e.symbol, e.version, e.stream) == (want.symbol, want.version, want.stream) => {}
            got => problems.push(format!(
                "{line}: want {}, the table says {got:?}",
                want.typedef_name()
            )),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(checked > 4000, "{checked} rows");
}

/// Every export of libcuda that the table does not map is one no typedef explains: the
/// headers do not declare it (the driver's internal functions), so it is listed, not guessed.
#[test]
fn exports_the_headers_do_not_explain() {
    let names = read("driver-13000-exports.txt");
    let names: Vec<&str> = names
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let unexplained: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| export(n).is_none())
        .collect();
    for n in &unexplained {
        assert!(
            lookup(base_symbol(n)).is_empty(),
            "{n} is unmapped, but the table has typedefs of {}",
            base_symbol(n)
        );
    }
    eprintln!(
        "{} of {} libcuda exports mapped; {} unexplained: {}",
        names.len() - unexplained.len(),
        names.len(),
        unexplained.len(),
        unexplained.join(" ")
    );
    assert!(names.len() - unexplained.len() > 650);
}
