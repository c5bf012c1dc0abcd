//! What the driver does through each level of a pointer parameter ([`Access`]): a fact of the
//! parameter, not of its C type. `void **` is written at the first level only by `cuMemAllocHost`
//! (it stores an address), at the second only by `cuPointerGetAttributes` (it stores each value
//! through `data[i]`), and only read by `cuLaunchKernel`. The header's `const` gives the
//! conservative default (a level whose pointee is not `const` may be written); the documented
//! facts of [`DOCUMENTED`] replace it for the parameters whose documentation says otherwise.
//! The macro's rules and `cuda-entry check` ask [`Access::of`], nothing else.

use crate::{CType, Class, Typedef};

/// What the driver does with one level of a pointer parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Use {
    /// Nothing: it passes the pointer on (`void **pfn`'s function, a callback's `userData`), or
    /// the level is not a pointer to data.
    Neither,
    /// It reads what is there, never writes it.
    Read,
    /// It stores values there, through a pointer the caller gave: the caller's pointer must allow
    /// writes, and what it points to must hold every value the driver may store.
    Written,
    /// Second level only: what the pointer the driver stored at the first level points to, memory
    /// the driver filled itself (`const char **pStr`'s text, `void **cubinOut`'s image): what the
    /// caller reads there must hold every value the driver may store; the caller's own pointer
    /// is not written through.
    Filled,
}

/// What the driver does through a parameter: at the first level (what the parameter points to)
/// and at the second (what that points to, for a C `T **`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Access {
    /// What it does with the parameter's pointee.
    pub first: Use,
    /// What it does with what the pointee points to.
    pub second: Use,
}

impl Access {
    /// Neither level: a value, or a pointer passed on.
    pub const NONE: Access = Access {
        first: Use::Neither,
        second: Use::Neither,
    };

    /// Parameter `index` of `typedef`: the documented fact ([`DOCUMENTED`]) where there is one,
    /// else what the header's `const` allows ([`Access::from_header`]).
    pub fn of(typedef: &Typedef, index: usize) -> Access {
        let Some(param) = typedef.params.get(index) else {
            return Access::NONE;
        };
        let header = Access::from_header(&param.ty);
        // Only a `T **` is documented (a test holds it): the others need no search.
        if header.second == Use::Neither {
            return header;
        }
        documented(typedef.symbol, param.name).unwrap_or(header)
    }

    /// The conservative reading of a C type: a pointer to data whose pointee is not `const` may be
    /// written; a `T **` whose `T` is not `const` may be written at both levels (through the
    /// caller's pointers); a `const T **` the driver writes is filled with a pointer to memory of
    /// its own. A handle (`CUcontext *`'s pointee) is opaque: nothing below it.
    pub fn from_header(c: &CType) -> Access {
        if !data_pointer(c) {
            return Access::NONE;
        }
        let Some(pointee) = c.pointee else {
            return Access::NONE;
        };
        let first = if pointee.is_const() {
            Use::Read
        } else {
            Use::Written
        };
        let second = match pointee.pointee {
            Some(below) if data_pointer(pointee) => match (first, below.is_const()) {
                (_, false) => Use::Written,
                (Use::Written, true) => Use::Filled,
                (_, true) => Use::Read,
            },
            _ => Use::Neither,
        };
        Access { first, second }
    }

    /// Whether the driver stores values in what the parameter points to.
    pub const fn writes_first(self) -> bool {
        matches!(self.first, Use::Written)
    }

    /// Whether the driver stores values through the pointers the parameter points to, which the
    /// caller gave: those must allow writes.
    pub const fn writes_through_second(self) -> bool {
        matches!(self.second, Use::Written)
    }

    /// Whether what the second level holds is produced by the driver (stored through the
    /// caller's pointers, or filled by the driver): it must hold every value.
    pub const fn produces_second(self) -> bool {
        matches!(self.second, Use::Written | Use::Filled)
    }
}

/// A written-out `T *` (not a handle typedef, whose pointee is opaque).
fn data_pointer(c: &CType) -> bool {
    c.pointer && c.class == Class::Pointer
}

const fn access(first: Use, second: Use) -> Access {
    Access { first, second }
}

/// The parameters whose documentation says more than the header's `const`: (symbol, parameter
/// name as the headers write it, what the driver does, why). Every `void **` of the table is
/// here (a test holds it): a new one is read in the documentation before it is trusted. Only a
/// `T **` whose second level the header leaves open may be listed (the same test holds it).
pub static DOCUMENTED: &[(&str, &str, Access, &str)] = &[
    (
        "cuGetProcAddress",
        "pfn",
        access(Use::Written, Use::Neither),
        "stores a function's address; nothing is read or written through it",
    ),
    (
        "cuLibraryGetUnifiedFunction",
        "fptr",
        access(Use::Written, Use::Neither),
        "stores a function's address",
    ),
    (
        "cuMemAllocHost",
        "pp",
        access(Use::Written, Use::Neither),
        "stores the address of new page-locked memory, whose contents it does not set",
    ),
    (
        "cuMemHostAlloc",
        "pp",
        access(Use::Written, Use::Neither),
        "stores the address of new page-locked memory, whose contents it does not set",
    ),
    (
        "cuLinkComplete",
        "cubinOut",
        access(Use::Written, Use::Filled),
        "stores the address of the image it linked, memory the link state owns",
    ),
    (
        "cuPointerGetAttributes",
        "data",
        access(Use::Read, Use::Written),
        "reads the caller's array of pointers and stores attribute i's value through data[i]",
    ),
    (
        "cuMemRangeGetAttributes",
        "data",
        access(Use::Read, Use::Written),
        "reads the caller's array of pointers and stores attribute i's value through data[i]",
    ),
    (
        "cuLaunchKernel",
        "kernelParams",
        access(Use::Read, Use::Read),
        "reads each argument through kernelParams[i]",
    ),
    (
        "cuLaunchKernel",
        "extra",
        access(Use::Read, Use::Read),
        "reads the (key, value) list and the buffer it names",
    ),
    (
        "cuLaunchCooperativeKernel",
        "kernelParams",
        access(Use::Read, Use::Read),
        "reads each argument through kernelParams[i]",
    ),
    (
        "cuLaunchKernelEx",
        "kernelParams",
        access(Use::Read, Use::Read),
        "reads each argument through kernelParams[i]",
    ),
    (
        "cuLaunchKernelEx",
        "extra",
        access(Use::Read, Use::Read),
        "reads the (key, value) list and the buffer it names",
    ),
    // The JIT and library option values: some options are outputs stored in the slot itself
    // (CU_JIT_WALL_TIME, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES) and some are buffers the driver
    // writes (CU_JIT_INFO_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER): written at both levels.
    (
        "cuModuleLoadDataEx",
        "optionValues",
        access(Use::Written, Use::Written),
        "JIT options: outputs in the slots, log buffers written through them",
    ),
    (
        "cuLinkCreate",
        "optionValues",
        access(Use::Written, Use::Written),
        "JIT options: outputs in the slots, log buffers written through them",
    ),
    (
        "cuLinkAddData",
        "optionValues",
        access(Use::Written, Use::Written),
        "JIT options: outputs in the slots, log buffers written through them",
    ),
    (
        "cuLinkAddFile",
        "optionValues",
        access(Use::Written, Use::Written),
        "JIT options: outputs in the slots, log buffers written through them",
    ),
    (
        "cuLibraryLoadData",
        "jitOptionsValues",
        access(Use::Written, Use::Written),
        "JIT options: outputs in the slots, log buffers written through them",
    ),
    (
        "cuLibraryLoadFromFile",
        "jitOptionsValues",
        access(Use::Written, Use::Written),
        "JIT options: outputs in the slots, log buffers written through them",
    ),
    (
        "cuLibraryLoadData",
        "libraryOptionValues",
        access(Use::Written, Use::Written),
        "library options, read so far; written at both levels until documented otherwise",
    ),
    (
        "cuLibraryLoadFromFile",
        "libraryOptionValues",
        access(Use::Written, Use::Written),
        "library options, read so far; written at both levels until documented otherwise",
    ),
];

/// The parameters through which the driver reaches a fixed number of elements, whatever the
/// caller passes: (symbol, parameter name, elements, why). A reference there must cover them all
/// (a reference claims only its own bytes); a raw pointer's extent is the caller's to give, as
/// for every pointer whose count is an argument (`cuMemcpyDtoH`'s `ByteCount`).
pub static EXTENTS: &[(&str, &str, u32, &str)] = &[
    (
        "cuDeviceGetLuid",
        "luid",
        8,
        "the LUID is 8 bytes (cuDeviceGetLuid's documentation)",
    ),
    (
        "cuTexRefGetBorderColor",
        "pBorderColor",
        4,
        "a border colour is 4 floats (RGBA)",
    ),
    (
        "cuTexRefSetBorderColor",
        "pBorderColor",
        4,
        "a border colour is 4 floats (RGBA)",
    ),
];

/// How many elements of its pointee the driver reaches through parameter `index` of `typedef`,
/// where the documentation fixes it ([`EXTENTS`]).
pub fn extent(typedef: &Typedef, index: usize) -> Option<u32> {
    let name = typedef.params.get(index)?.name;
    EXTENTS
        .iter()
        .find(|(s, n, ..)| *s == typedef.symbol && *n == name)
        .map(|(_, _, count, _)| *count)
}

fn documented(symbol: &str, name: &str) -> Option<Access> {
    DOCUMENTED
        .iter()
        .find(|(s, n, ..)| *s == symbol && *n == name)
        .map(|(_, _, access, _)| *access)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{TYPEDEFS, find};

    fn of(symbol: &str, version: u32, index: usize) -> Access {
        Access::of(find(symbol, version, false).expect("a typedef"), index)
    }

    #[test]
    fn the_header_gives_the_conservative_default() {
        assert_eq!(
            of("cuMemAlloc", 3020, 0),
            access(Use::Written, Use::Neither)
        );
        assert_eq!(of("cuMemAlloc", 3020, 1), Access::NONE);
        assert_eq!(of("cuMemcpyHtoD", 3020, 1), access(Use::Read, Use::Neither));
        // A handle's pointee is opaque.
        assert_eq!(
            of("cuCtxGetCurrent", 4000, 0),
            access(Use::Written, Use::Neither)
        );
        // `const char **`: the driver stores a pointer to its own text.
        assert_eq!(
            of("cuGetErrorString", 6000, 1),
            access(Use::Written, Use::Filled)
        );
        assert_eq!(
            of("cuStreamGetCaptureInfo", 12030, 4),
            access(Use::Written, Use::Filled)
        );
    }

    #[test]
    fn fixed_extents_are_facts_of_existing_pointers() {
        for (symbol, name, count, _) in EXTENTS {
            let found = TYPEDEFS.iter().any(|t| {
                t.symbol == *symbol
                    && t.params.iter().any(|p| {
                        p.name == *name
                            && data_pointer(&p.ty)
                            && p.ty.pointee.is_some_and(|q| q.is_complete())
                    })
            });
            assert!(found && *count > 1, "{symbol} `{name}`");
        }
        let luid = find("cuDeviceGetLuid", 10000, false).expect("a typedef");
        assert_eq!(extent(luid, 0), Some(8));
        assert_eq!(extent(luid, 1), None);
    }

    #[test]
    fn documented_facts_replace_the_default() {
        assert_eq!(
            of("cuMemAllocHost", 3020, 0),
            access(Use::Written, Use::Neither)
        );
        assert_eq!(
            of("cuGetProcAddress", 12000, 1),
            access(Use::Written, Use::Neither)
        );
        assert_eq!(
            of("cuLinkComplete", 5050, 1),
            access(Use::Written, Use::Filled)
        );
        assert_eq!(
            of("cuPointerGetAttributes", 7000, 2),
            access(Use::Read, Use::Written)
        );
        assert_eq!(of("cuLaunchKernel", 4000, 9), access(Use::Read, Use::Read));
    }

    /// Every `T **` whose `T` is not `const` is documented (the default, written at both levels,
    /// is safe but refuses what users write for an address the driver stores), and every
    /// documented parameter exists with that shape.
    #[test]
    fn every_pointer_to_a_mutable_pointer_is_documented() {
        let mut missing = Vec::new();
        for t in TYPEDEFS {
            for p in t.params {
                let c = &p.ty;
                let mutable_second = data_pointer(c)
                    && c.pointee.is_some_and(|q| {
                        data_pointer(q) && q.pointee.is_some_and(|r| !r.is_const())
                    });
                if mutable_second && documented(t.symbol, p.name).is_none() {
                    missing.push(format!("{} {}", t.typedef_name(), p.name));
                }
            }
        }
        assert!(missing.is_empty(), "not documented: {missing:?}");
        for (symbol, name, ..) in DOCUMENTED {
            let found = TYPEDEFS.iter().any(|t| {
                t.symbol == *symbol
                    && t.params.iter().any(|p| {
                        p.name == *name && Access::from_header(&p.ty).second != Use::Neither
                    })
            });
            // What `Access::of` searches: a `T **` whose second level the header leaves open.
            assert!(found, "{symbol} has no `T **` parameter `{name}`");
        }
    }
}
