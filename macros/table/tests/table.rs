//! Checks of the generated table that need no headers.

use cuda_entry_table::{Flavour, TOOLKITS, TYPEDEFS, Typedef, find, lookup, symbols};

fn versions(symbol: &str, per_thread: bool) -> Vec<u32> {
    lookup(symbol)
        .iter()
        .filter(|t| t.stream.is_per_thread() == per_thread)
        .map(|t| t.version)
        .collect()
}

fn key(t: &Typedef) -> (&str, Flavour, u32) {
    (t.symbol, t.stream, t.version)
}

#[test]
fn sorted_without_duplicates() {
    for w in TYPEDEFS.windows(2) {
        assert!(
            key(&w[0]) < key(&w[1]),
            "{} then {}",
            w[0].typedef_name(),
            w[1].typedef_name()
        );
    }
    let syms: Vec<&str> = symbols().collect();
    assert!(syms.windows(2).all(|w| w[0] < w[1]));
    assert!(syms.len() > 500, "{} symbols", syms.len());
}

#[test]
fn toolkits_ascending_and_used() {
    assert!(TOOLKITS.windows(2).all(|w| w[0] < w[1]), "{TOOLKITS:?}");
    assert!(TOOLKITS.contains(&13050), "{TOOLKITS:?}");
    for &tk in TOOLKITS {
        assert_eq!(tk % 10, 0);
        assert!(
            TYPEDEFS
                .iter()
                .any(|t| t.first_toolkit <= tk && tk <= t.last_toolkit)
        );
    }
}

#[test]
fn cu_ctx_create_has_its_abis() {
    let v = versions("cuCtxCreate", false);
    for want in [3020, 11040, 12050] {
        assert!(v.contains(&want), "{v:?}");
    }
    assert!(versions("cuCtxCreate", true).is_empty());
    let v4 = find("cuCtxCreate", 12050, false).expect("cuCtxCreate 12050");
    let spellings: Vec<&str> = v4.params.iter().map(|p| p.ty.spelling).collect();
    assert_eq!(
        spellings,
        [
            "CUcontext *",
            "CUctxCreateParams *",
            "unsigned int",
            "CUdevice"
        ]
    );
    assert_eq!(v4.typedef_name(), "PFN_cuCtxCreate_v12050");
    assert_eq!(v4.header, "cudaTypedefs.h");
    assert_eq!(
        find("cuCtxCreate", 3020, false).map(|t| t.params.len()),
        Some(3)
    );
    assert_eq!(
        find("cuCtxCreate", 11040, false).map(|t| t.params.len()),
        Some(5)
    );
}

#[test]
fn per_thread_lookups() {
    let ptsz = find("cuLaunchKernel", 7000, true).expect("cuLaunchKernel 7000 per thread");
    assert_eq!(ptsz.stream, Flavour::Ptsz);
    assert_eq!(ptsz.typedef_name(), "PFN_cuLaunchKernel_v7000_ptsz");
    assert_eq!(
        find("cuLaunchKernel", 4000, false).map(|t| t.stream),
        Some(Flavour::Legacy)
    );
    assert!(find("cuLaunchKernel", 4000, true).is_none());
    assert!(find("cuLaunchKernel", 7000, false).is_none());
    assert_eq!(
        find("cuMemcpy", 7000, true).map(|t| t.stream),
        Some(Flavour::Ptds)
    );
    assert!(lookup("cuNoSuchThing").is_empty());
    assert!(lookup("").is_empty());
    assert!(lookup("cuLaunchKernel_ptsz").is_empty());
}

#[test]
fn abi_facts_of_old_and_new_variants() {
    // PFN_cuMemAlloc_v2000: (CUdeviceptr_v1 *dptr, unsigned int bytesize); _v3020: size_t.
    let old = find("cuMemAlloc", 2000, false).expect("cuMemAlloc 2000");
    let new = find("cuMemAlloc", 3020, false).expect("cuMemAlloc 3020");
    assert_eq!(
        (
            old.params[1].name,
            old.params[1].ty.spelling,
            old.params[1].ty.size
        ),
        ("bytesize", "unsigned int", 4)
    );
    assert_eq!(
        (
            new.params[1].ty.spelling,
            new.params[1].ty.size,
            new.params[1].ty.align
        ),
        ("size_t", 8, 8)
    );
    assert!(old.params[0].ty.pointer && new.params[0].ty.pointer);
    let free = find("cuMemFree", 2000, false).expect("cuMemFree 2000");
    assert_eq!(
        (free.params[0].ty.spelling, free.params[0].ty.size),
        ("CUdeviceptr_v1", 4)
    );
    let free = find("cuMemFree", 3020, false).expect("cuMemFree 3020");
    assert_eq!(free.params[0].ty.size, 8);
    // A by-value struct: CUipcMemHandle is 64 bytes of char.
    let open = find("cuIpcOpenMemHandle", 11000, false).expect("cuIpcOpenMemHandle 11000");
    assert_eq!(
        (
            open.params[1].ty.size,
            open.params[1].ty.align,
            open.params[1].ty.pointer
        ),
        (64, 1, false)
    );
    // `(void)` has no parameters; `unsigned long long` is 8 bytes.
    assert!(find("cuProfilerStart", 4000, false).is_some_and(|t| t.params.is_empty()));
    let flags =
        find("cuGraphInstantiateWithFlags", 11040, false).expect("cuGraphInstantiateWithFlags");
    assert_eq!(
        (flags.params[2].ty.spelling, flags.params[2].ty.size),
        ("unsigned long long", 8)
    );
}

#[test]
fn every_entry_is_consistent() {
    for t in TYPEDEFS {
        let name = t.typedef_name();
        assert!(t.symbol.starts_with("cu"), "{name}");
        assert!(
            !t.symbol.ends_with("_ptsz") && !t.symbol.ends_with("_ptds"),
            "{name}"
        );
        assert!(t.version >= 2000 && t.version % 10 == 0, "{name}");
        assert!(
            TOOLKITS.contains(&t.first_toolkit) && TOOLKITS.contains(&t.last_toolkit),
            "{name}"
        );
        assert!(t.first_toolkit <= t.last_toolkit, "{name}");
        assert_eq!(
            (t.ret.spelling, t.ret.size, t.ret.align),
            ("CUresult", 4, 4),
            "{name}"
        );
        assert!(
            t.header.starts_with("cuda") && t.header.ends_with("Typedefs.h"),
            "{name}"
        );
        for (i, p) in t.params.iter().enumerate() {
            assert!(!p.name.is_empty(), "{name}");
            assert!(
                t.params[..i].iter().all(|q| q.name != p.name),
                "{name}: two parameters named {}",
                p.name
            );
            assert_eq!(
                p.ty.pointer,
                p.ty.spelling.contains('*'),
                "{name}: {}",
                p.ty.spelling
            );
            assert_ne!(p.ty.spelling, "void", "{name}");
            assert!(
                p.ty.size > 0 && p.ty.align > 0 && p.ty.size % p.ty.align == 0,
                "{name}: {:?}",
                p.ty
            );
            if p.ty.pointer {
                assert_eq!((p.ty.size, p.ty.align), (8, 8), "{name}: {:?}", p.ty);
            }
        }
    }
}

#[test]
fn cuda_13_5_cuda_typedefs_h_is_all_there() {
    let in_13_5 = TYPEDEFS
        .iter()
        .filter(|t| {
            t.header == "cudaTypedefs.h" && t.first_toolkit <= 13050 && 13050 <= t.last_toolkit
        })
        .count();
    assert!(
        in_13_5 >= 685,
        "{in_13_5} typedefs of CUDA 13.5's cudaTypedefs.h"
    );
    for h in [
        "cudaProfilerTypedefs.h",
        "cudaGLTypedefs.h",
        "cudaEGLTypedefs.h",
        "cudaVDPAUTypedefs.h",
    ] {
        assert!(TYPEDEFS.iter().any(|t| t.header == h), "nothing from {h}");
    }
}
