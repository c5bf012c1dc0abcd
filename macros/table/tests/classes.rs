//! The C class of every type and the pointee chains of pointers, as the compiler measured them.

use cuda_entry_table::{CType, Class, TYPEDEFS, find};

fn param(symbol: &str, version: u32, index: usize) -> CType {
    let t = find(symbol, version, false).unwrap_or_else(|| panic!("{symbol} {version}"));
    t.params[index].ty
}

/// The pointee chain as (spelling, class, size, align).
fn chain(ty: &CType) -> Vec<(&'static str, Class, u32, u32)> {
    let mut out = Vec::new();
    let mut p = ty.pointee;
    while let Some(q) = p {
        out.push((q.spelling, q.class, q.size, q.align));
        p = q.pointee;
    }
    out
}

#[test]
fn handles_point_to_incomplete_structs() {
    let pctx = param("cuCtxCreate", 12050, 0);
    assert_eq!((pctx.spelling, pctx.class), ("CUcontext *", Class::Pointer));
    assert_eq!(
        chain(&pctx),
        [
            ("CUcontext", Class::Pointer, 8, 8),
            ("struct CUctx_st", Class::Record, 0, 0)
        ]
    );
    let ctx = pctx.pointee.copied();
    assert_eq!(ctx.map(|c| c.pointer), Some(false));
    assert!(!ctx.and_then(|c| c.pointee).is_some_and(|s| s.is_complete()));
    assert_eq!(param("cuCtxCreate", 12050, 3).class, Class::Integer); // CUdevice
}

#[test]
fn pointers_to_data_one_and_two_levels() {
    let dptr = param("cuMemAlloc", 3020, 0);
    assert_eq!(chain(&dptr), [("CUdeviceptr_v2", Class::Integer, 8, 8)]);
    let old = param("cuMemAlloc", 2000, 0);
    assert_eq!(chain(&old), [("CUdeviceptr_v1", Class::Integer, 4, 4)]);
    let pstr = param("cuGetErrorString", 6000, 1);
    assert_eq!(pstr.spelling, "const char **");
    assert_eq!(
        chain(&pstr),
        [
            ("const char *", Class::Pointer, 8, 8),
            ("const char", Class::Integer, 1, 1)
        ]
    );
    let host = param("cuMemAllocHost", 3020, 0);
    assert_eq!(host.spelling, "void **");
    assert_eq!(
        chain(&host),
        [
            ("void *", Class::Pointer, 8, 8),
            ("void", Class::Void, 0, 0)
        ]
    );
    let uuid = param("cuDeviceGetUuid", 11040, 0);
    assert_eq!(chain(&uuid), [("CUuuid", Class::Record, 16, 1)]);
    let ms = param("cuEventElapsedTime", 2000, 0);
    assert_eq!(chain(&ms), [("float", Class::Floating, 4, 4)]);
}

#[test]
fn enums_function_pointers_and_void() {
    let launch = find("cuLaunchHostFunc", 10000, false).expect("cuLaunchHostFunc 10000");
    assert_eq!(launch.ret.class, Class::Enum); // CUresult
    assert_eq!(
        (launch.params[1].ty.spelling, launch.params[1].ty.class),
        ("CUhostFn", Class::FunctionPointer)
    );
    assert_eq!(launch.params[1].ty.pointee, None);
    let attr = param("cuDeviceGetAttribute", 2000, 1);
    assert_eq!(
        (attr.spelling, attr.class),
        ("CUdevice_attribute", Class::Enum)
    );
    let profiler = find("cuProfilerStart", 4000, false).expect("cuProfilerStart");
    assert_eq!(profiler.ret.class, Class::Enum);
    // A pointer to a function type: a `*` in the spelling, and still no pointee.
    let vdpau = param("cuVDPAUGetDevice", 3010, 2);
    assert_eq!(
        (vdpau.spelling, vdpau.class, vdpau.pointee),
        ("VdpGetProcAddress *", Class::FunctionPointer, None)
    );
}

#[test]
fn every_type_is_consistent() {
    let mut seen = 0;
    for t in TYPEDEFS {
        for ty in std::iter::once(t.ret).chain(t.params.iter().map(|p| p.ty)) {
            let mut level = Some(&ty);
            let mut depth = 0;
            while let Some(c) = level {
                seen += 1;
                let name = t.typedef_name();
                assert_eq!(c.pointer, c.spelling.contains('*'), "{name}: {c:?}");
                assert_eq!(
                    c.pointee.is_some(),
                    c.class == Class::Pointer,
                    "{name}: {c:?}"
                );
                match c.class {
                    Class::Pointer | Class::FunctionPointer => {
                        assert_eq!((c.size, c.align), (8, 8), "{name}: {c:?}")
                    }
                    Class::Void => assert_eq!((c.size, c.align), (0, 0), "{name}: {c:?}"),
                    Class::Enum => assert_eq!(c.size, 4, "{name}: {c:?}"),
                    Class::Integer | Class::Floating => {
                        assert!(c.is_complete() && c.size == c.align, "{name}: {c:?}")
                    }
                    Class::Record => assert!(c.align <= c.size, "{name}: {c:?}"),
                }
                // A parameter or return is complete or void; only a pointee may be incomplete.
                if depth == 0 && c.class != Class::Void {
                    assert!(c.is_complete(), "{name}: {c:?}");
                }
                level = c.pointee;
                depth += 1;
                // `const CUgraphNode **` -> `const CUgraphNode *` -> `const CUgraphNode` ->
                // `struct CUgraphNode_st` is the deepest.
                assert!(depth <= 4, "{name}: {ty:?}");
            }
        }
    }
    assert!(seen > 4000, "{seen}");
}
