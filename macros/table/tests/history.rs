//! What the table keeps from every toolkit read: each layout a type had, with the toolkits that
//! had it, and the signature of what each function pointer type points to.

use cuda_entry_table::{CType, Class, Layout, TYPEDEFS, find};

fn param(symbol: &str, version: u32, index: usize) -> CType {
    let t = find(symbol, version, false).unwrap_or_else(|| panic!("{symbol} {version}"));
    t.params[index].ty
}

fn layouts(c: &CType) -> Vec<(u32, u32, u32, u32)> {
    c.layouts
        .iter()
        .map(|l| (l.size, l.align, l.first_toolkit, l.last_toolkit))
        .collect()
}

#[test]
fn a_struct_keeps_every_layout_with_its_toolkits() {
    let resource = param("cuCtxGetDevResource", 12040, 1);
    let pointee = resource.pointee.expect("CUdevResource");
    assert_eq!(pointee.spelling, "CUdevResource");
    assert_eq!(
        layouts(pointee),
        [(144, 4, 12040, 13000), (144, 8, 13010, 13050)]
    );
    // The newest stays the type's size and alignment.
    assert_eq!((pointee.size, pointee.align), (144, 8));
    // A typedef of CUDA 12.4 to 13.5 may have been written against either header.
    assert!(pointee.has_layout_within((144, 4), 12040, 13050));
    assert!(pointee.has_layout_within((144, 8), 12040, 13050));
    assert!(!pointee.has_layout_within((144, 4), 13010, 13050));
    assert!(!pointee.has_layout_within((144, 16), 12040, 13050));
    let tensor_map = param("cuTensorMapEncodeTiled", 12000, 0);
    assert_eq!(
        layouts(tensor_map.pointee.expect("CUtensorMap")),
        [(128, 64, 12000, 12090), (128, 128, 13000, 13050)]
    );
}

#[test]
fn every_type_has_a_layout_over_its_toolkits() {
    let mut changed = std::collections::BTreeSet::new();
    for t in TYPEDEFS {
        for c in std::iter::once(&t.ret).chain(t.params.iter().map(|p| &p.ty)) {
            let mut level = Some(c);
            while let Some(c) = level {
                let Some(newest) = c.layouts.last() else {
                    panic!("`{}` has no layouts", c.spelling);
                };
                assert_eq!(
                    (newest.size, newest.align),
                    (c.size, c.align),
                    "{}",
                    c.spelling
                );
                assert!(
                    c.layouts
                        .windows(2)
                        .all(|w| w[0].last_toolkit < w[1].first_toolkit),
                    "{}",
                    c.spelling
                );
                // Every toolkit of a typedef has a layout of each of its types.
                assert!(c.layouts_within(t.first_toolkit, t.last_toolkit).count() > 0);
                if c.layouts.len() > 1 {
                    changed.insert(c.spelling);
                }
                level = c.pointee;
            }
        }
    }
    assert_eq!(
        changed.into_iter().collect::<Vec<_>>(),
        [
            "CUdevResource",
            "CUkernelNodeAttrValue_v1",
            "CUstreamAttrValue_v1",
            "CUtensorMap",
            "const CUdevResource",
            "const CUkernelNodeAttrValue_v1",
            "const CUstreamAttrValue_v1",
        ]
    );
    let l = Layout {
        size: 8,
        align: 8,
        first_toolkit: 11070,
        last_toolkit: 13050,
    };
    assert_eq!(param("cuMemAlloc", 3020, 0).layouts, [l]);
}

#[test]
fn every_function_pointer_has_its_signature() {
    let host_fn = param("cuLaunchHostFunc", 10000, 1);
    assert_eq!(host_fn.spelling, "CUhostFn");
    let callback = host_fn.callback.expect("a signature");
    assert_eq!(callback.spelling, "void (*)(void *userData)");
    assert_eq!(callback.ret.class, Class::Void);
    assert_eq!(callback.params.len(), 1);
    assert_eq!(callback.params[0].name, "userData");
    assert_eq!(callback.params[0].ty.class, Class::Pointer);
    let stream = param("cuStreamAddCallback", 5000, 1);
    let callback = stream.callback.expect("a signature");
    let params: Vec<(&str, Class, u32)> = callback
        .params
        .iter()
        .map(|p| (p.name, p.ty.class, p.ty.size))
        .collect();
    assert_eq!(
        params,
        [
            ("hStream", Class::Pointer, 8),
            ("status", Class::Enum, 4),
            ("userData", Class::Pointer, 8)
        ]
    );
    let occupancy = param("cuOccupancyMaxPotentialBlockSize", 6050, 3);
    let callback = occupancy.callback.expect("a signature");
    assert_eq!(callback.spelling, "size_t (*)(int blockSize)");
    assert_eq!((callback.ret.class, callback.ret.size), (Class::Integer, 8));
    let mut callbacks = 0;
    for t in TYPEDEFS {
        for c in std::iter::once(&t.ret).chain(t.params.iter().map(|p| &p.ty)) {
            assert_eq!(
                c.callback.is_some(),
                c.class == Class::FunctionPointer,
                "{}",
                c.spelling
            );
            callbacks += usize::from(c.callback.is_some());
        }
    }
    assert!(callbacks >= 10, "{callbacks}");
}
