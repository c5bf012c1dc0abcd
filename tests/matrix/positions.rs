//! The positions a table parameter can take, each at a real typedef parameter, with what the
//! driver does there. These are the facts of the driver API's documentation, written here as data
//! (which level the driver reads or writes, what it stores, how many elements): the table knows
//! the C types, not what the driver does with them. Only sizes and alignments are read from the
//! table (and its spellings, to hold these facts to the typedef they come from).

use crate::types::Byte;

/// What the C side has at a position.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum C {
    /// A value passed by the caller: an integer or enum of this size.
    Integer(usize),
    /// A `float` or `double` of this size.
    Float(usize),
    /// An opaque handle (`CUstream`): a pointer spelled without a `*`, which an integer of its
    /// size may carry.
    Handle,
    /// A record passed by value: its size, alignment and the class of each byte.
    Record(usize, usize, Vec<Byte>),
    /// The status a typedef returns (or a callback receives): the driver may set any `int`.
    Status,
    /// A pointer written out (`T *`): whether the driver writes through it, and what it points
    /// to.
    Pointer(Access, Pointee),
    /// A callback (`CUhostFn`): the driver calls it with values it produces.
    Callback(Vec<CallbackParam>, CallbackRet),
    /// The return of an `unverified` declaration whose type is not named `CUresult`: a value the
    /// driver produces, of a C type the table does not know.
    UnknownReturn,
}

/// Whether the driver writes through a pointer, or only reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Access {
    Read,
    Write,
}

/// What a pointer points to, as the driver uses it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Pointee {
    /// `void`: no layout. `written`: the driver stores bytes there (so they must all be values).
    Void { written: bool },
    /// A C type of this layout; `written` as above; `count`: the elements the driver writes or
    /// reads there (documentation: `luid` is 8 bytes), 1 for a single value.
    Data {
        size: usize,
        align: usize,
        written: bool,
        count: usize,
    },
    /// A pointer written out (`void *` in `void **`): the slot holds a pointer.
    Slot(Box<Slot>),
}

/// The slot a `T **` points to: a C pointer, which the driver may store and may read or write
/// through.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Slot {
    /// The driver stores a pointer value in the slot (the caller's value is not kept).
    pub(crate) stored: bool,
    /// What the driver does through the slot's pointer.
    pub(crate) access: Access,
    /// A function's address may be stored there (`cuGetProcAddress`'s `pfn`), or only data's.
    pub(crate) function: bool,
    /// What the slot points to.
    pub(crate) pointee: Pointee,
}

/// A parameter of a callback, which the driver produces.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum CallbackParam {
    /// `void *userData`: the caller's pointer, given back (possibly NULL).
    UserData,
    /// `CUstream hStream`: a handle, possibly NULL.
    Handle,
    /// `CUresult status`: any `int`.
    Status,
    /// `int blockSize`: any `int`.
    Integer(usize),
}

/// A callback's return, which the user's function produces.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum CallbackRet {
    Void,
    Integer(usize),
}

/// Which declaration slot a position varies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Varied {
    Param(usize),
    Return,
}

/// One position: a typedef parameter (or return) and the driver's facts there.
#[derive(Clone, Debug)]
pub(crate) struct Position {
    /// A short id, the cells' names start with it.
    pub(crate) id: &'static str,
    /// Which position of the list (1 to 9).
    pub(crate) group: u8,
    pub(crate) symbol: &'static str,
    pub(crate) version: u32,
    pub(crate) unverified: bool,
    /// The C spelling of the varied parameter as the table has it (`"CUdeviceptr_v2 *"`), held
    /// against the table.
    pub(crate) c_spelling: &'static str,
    /// The parameter's name in the header (or `"return"`).
    pub(crate) c_name: &'static str,
    /// The declaration's parameters, each (name, Rust type); the varied one is written by the
    /// cell.
    pub(crate) params: Vec<(&'static str, &'static str)>,
    /// The declaration's return type (the varied one is written by the cell).
    pub(crate) ret: &'static str,
    pub(crate) varied: Varied,
    pub(crate) c: C,
    /// Where the fact comes from, for the report.
    pub(crate) why: &'static str,
}

impl Position {
    /// Whether the driver writes at this position: what Miri checks.
    pub(crate) fn driver_writes(&self) -> bool {
        match &self.c {
            C::Pointer(Access::Write, _) => true,
            C::Pointer(Access::Read, Pointee::Slot(slot)) => slot.access == Access::Write,
            C::Callback(..) => true,
            _ => false,
        }
    }

    /// `symbol@version param`, for the report.
    pub(crate) fn title(&self) -> String {
        let at = match self.varied {
            Varied::Param(i) => {
                let gap = if self.c_spelling.ends_with('*') {
                    ""
                } else {
                    " "
                };
                format!("param {} `{}{gap}{}`", i + 1, self.c_spelling, self.c_name)
            }
            Varied::Return => format!("return `{}`", self.c_spelling),
        };
        format!(
            "{} (position {}) {}@{}{} {at}",
            self.id,
            self.group,
            self.symbol,
            self.version,
            if self.unverified { " (unverified)" } else { "" }
        )
    }
}

/// The canonical Rust types of the positions' other parameters, written so that no shadowing
/// in a cell's module can change them.
const U64: &str = "::core::primitive::u64";
const USIZE: &str = "::core::primitive::usize";
const I32: &str = "::core::primitive::i32";
const U32: &str = "::core::primitive::u32";
const HANDLE: &str = "*mut ::core::ffi::c_void";
const STATUS: &str = "::cuda_entry::types::CUresult";
const VARIED: &str = "";

fn data(size: usize, align: usize, written: bool, count: usize) -> Pointee {
    Pointee::Data {
        size,
        align,
        written,
        count,
    }
}

fn slot(stored: bool, access: Access, function: bool, pointee: Pointee) -> Pointee {
    Pointee::Slot(Box::new(Slot {
        stored,
        access,
        function,
        pointee,
    }))
}

/// Every position the matrix varies.
pub(crate) fn all() -> Vec<Position> {
    use Access::{Read, Write};
    let p = |id,
             group,
             (symbol, version): (&'static str, u32),
             (c_spelling, c_name): (&'static str, &'static str),
             params: Vec<(&'static str, &'static str)>,
             varied: Varied,
             c: C,
             why: &'static str| Position {
        id,
        group,
        symbol,
        version,
        unverified: false,
        c_spelling,
        c_name,
        params,
        ret: STATUS,
        varied,
        c,
        why,
    };
    vec![
        // 1. By value.
        p(
            "p1_size",
            1,
            ("cuMemAlloc", 3020),
            ("size_t", "bytesize"),
            vec![
                ("dptr", "*mut ::core::primitive::u64"),
                ("bytesize", VARIED),
            ],
            Varied::Param(1),
            C::Integer(8),
            "an integer the caller passes",
        ),
        p(
            "p1_enum",
            1,
            ("cuDeviceGetAttribute", 2000),
            ("CUdevice_attribute", "attrib"),
            vec![
                ("pi", "*mut ::core::primitive::i32"),
                ("attrib", VARIED),
                ("dev", I32),
            ],
            Varied::Param(1),
            C::Integer(4),
            "a C enum the caller passes: an int",
        ),
        p(
            "p1_float",
            1,
            ("cuTexRefSetMipmapLevelBias", 5000),
            ("float", "bias"),
            vec![("hTexRef", HANDLE), ("bias", VARIED)],
            Varied::Param(1),
            C::Float(4),
            "a float the caller passes, in a floating-point register",
        ),
        p(
            "p1_handle",
            1,
            ("cuStreamSynchronize", 2000),
            ("CUstream", "hStream"),
            vec![("hStream", VARIED)],
            Varied::Param(0),
            C::Handle,
            "an opaque handle (a pointer) the caller passes",
        ),
        p(
            "p1_record",
            1,
            ("cuMemAdvise", 12020),
            ("CUmemLocation_v1", "location"),
            vec![
                ("devPtr", U64),
                ("count", USIZE),
                ("advice", I32),
                ("location", VARIED),
            ],
            Varied::Param(3),
            C::Record(8, 4, vec![Byte::Integer; 8]),
            "a record of two ints passed by value (BY_VALUE_RECORDS)",
        ),
        // 2. Behind a pointer the driver only reads.
        p(
            "p2_struct",
            2,
            ("cuMemcpy2D", 3020),
            ("const CUDA_MEMCPY2D_v2 *", "pCopy"),
            vec![("pCopy", VARIED)],
            Varied::Param(0),
            C::Pointer(Read, data(128, 8, false, 1)),
            "the driver reads the copy's description",
        ),
        p(
            "p2_void",
            2,
            ("cuMemcpyHtoD", 3020),
            ("const void *", "srcHost"),
            vec![
                ("dstDevice", U64),
                ("srcHost", VARIED),
                ("ByteCount", USIZE),
            ],
            Varied::Param(1),
            C::Pointer(Read, Pointee::Void { written: false }),
            "the driver reads ByteCount bytes of the caller's",
        ),
        // 3. Behind a pointer the driver writes.
        p(
            "p3_dptr",
            3,
            ("cuMemAlloc", 3020),
            ("CUdeviceptr_v2 *", "dptr"),
            vec![("dptr", VARIED), ("bytesize", USIZE)],
            Varied::Param(0),
            C::Pointer(Write, data(8, 8, true, 1)),
            "the driver stores the device address (an unsigned long long)",
        ),
        p(
            "p3_int",
            3,
            ("cuDeviceGetAttribute", 2000),
            ("int *", "pi"),
            vec![("pi", VARIED), ("attrib", I32), ("dev", I32)],
            Varied::Param(0),
            C::Pointer(Write, data(4, 4, true, 1)),
            "the driver stores the attribute's int",
        ),
        p(
            "p3_handle",
            3,
            ("cuCtxGetCurrent", 4000),
            ("CUcontext *", "pctx"),
            vec![("pctx", VARIED)],
            Varied::Param(0),
            C::Pointer(Write, data(8, 8, true, 1)),
            "the driver stores a handle, NULL when no context is current",
        ),
        p(
            "p3_uuid",
            3,
            ("cuDeviceGetUuid", 9020),
            ("CUuuid *", "uuid"),
            vec![("uuid", VARIED), ("dev", I32)],
            Varied::Param(0),
            C::Pointer(Write, data(16, 1, true, 1)),
            "the driver fills the 16 bytes of the record",
        ),
        p(
            "p3_luid",
            3,
            ("cuDeviceGetLuid", 10000),
            ("char *", "luid"),
            vec![
                ("luid", VARIED),
                ("deviceNodeMask", "*mut ::core::primitive::u32"),
                ("dev", I32),
            ],
            Varied::Param(0),
            C::Pointer(Write, data(1, 1, true, 8)),
            "the driver fills an 8-byte array (documentation: luid is 8 bytes)",
        ),
        p(
            "p3_floats",
            3,
            ("cuTexRefGetBorderColor", 8000),
            ("float *", "pBorderColor"),
            vec![("pBorderColor", VARIED), ("hTexRef", HANDLE)],
            Varied::Param(0),
            C::Pointer(Write, data(4, 4, true, 4)),
            "the driver fills an array of 4 floats (documentation)",
        ),
        p(
            "p3_void",
            3,
            ("cuMemcpyDtoH", 3020),
            ("void *", "dstHost"),
            vec![
                ("dstHost", VARIED),
                ("srcDevice", U64),
                ("ByteCount", USIZE),
            ],
            Varied::Param(0),
            C::Pointer(Write, Pointee::Void { written: true }),
            "the driver stores ByteCount bytes of device memory, any bytes",
        ),
        // 4. `void **`: the driver stores a pointer in the first level, nothing below.
        p(
            "p4_host",
            4,
            ("cuMemAllocHost", 3020),
            ("void **", "pp"),
            vec![("pp", VARIED), ("bytesize", USIZE)],
            Varied::Param(0),
            C::Pointer(
                Write,
                slot(true, Read, true, Pointee::Void { written: false }),
            ),
            "the driver stores the host allocation's address; the memory is the caller's to fill",
        ),
        p(
            "p4_pfn",
            4,
            ("cuGetProcAddress", 12000),
            ("void **", "pfn"),
            vec![
                ("symbol", "*const ::core::ffi::c_char"),
                ("pfn", VARIED),
                ("driverVersion", I32),
                ("flags", U64),
                ("symbolFound", "*mut ::core::primitive::i32"),
            ],
            Varied::Param(1),
            C::Pointer(
                Write,
                slot(true, Read, true, Pointee::Void { written: false }),
            ),
            "the driver stores a function's address, or NULL",
        ),
        // 5. The driver stores a pointer to memory it filled.
        p(
            "p5_string",
            5,
            ("cuGetErrorString", 6000),
            ("const char **", "pStr"),
            vec![("error", STATUS), ("pStr", VARIED)],
            Varied::Param(1),
            C::Pointer(Write, slot(true, Read, false, data(1, 1, true, 1))),
            "the driver stores a pointer to its own string (NULL for an unknown code)",
        ),
        p(
            "p5_cubin",
            5,
            ("cuLinkComplete", 5050),
            ("void **", "cubinOut"),
            vec![
                ("state", HANDLE),
                ("cubinOut", VARIED),
                ("sizeOut", "*mut ::core::primitive::usize"),
            ],
            Varied::Param(1),
            C::Pointer(
                Write,
                slot(true, Read, false, Pointee::Void { written: true }),
            ),
            "the driver stores a pointer to the image it wrote, any bytes",
        ),
        // 6. `void **` written through at the second level, through the caller's pointers.
        p(
            "p6_data",
            6,
            ("cuPointerGetAttributes", 7000),
            ("void **", "data"),
            vec![
                ("numAttributes", U32),
                ("attributes", "*mut ::core::primitive::i32"),
                ("data", VARIED),
                ("ptr", U64),
            ],
            Varied::Param(2),
            C::Pointer(
                Read,
                slot(false, Write, false, Pointee::Void { written: true }),
            ),
            "the driver reads data[i] (the caller's pointers) and stores each attribute's value \
             through it",
        ),
        // 7. `void **` the driver only reads, at both levels.
        p(
            "p7_params",
            7,
            ("cuLaunchKernel", 4000),
            ("void **", "kernelParams"),
            vec![
                ("f", HANDLE),
                ("gridDimX", U32),
                ("gridDimY", U32),
                ("gridDimZ", U32),
                ("blockDimX", U32),
                ("blockDimY", U32),
                ("blockDimZ", U32),
                ("sharedMemBytes", U32),
                ("hStream", HANDLE),
                ("kernelParams", VARIED),
                ("extra", "*mut *mut ::core::ffi::c_void"),
            ],
            Varied::Param(9),
            C::Pointer(
                Read,
                slot(false, Read, false, Pointee::Void { written: false }),
            ),
            "the driver reads the array of argument pointers and the arguments",
        ),
        // 8. Callbacks: what the driver passes to the user's function.
        p(
            "p8_hostfn",
            8,
            ("cuLaunchHostFunc", 10000),
            ("CUhostFn", "fn"),
            // `fn` is a Rust keyword: the parameter is named `f`.
            vec![("hStream", HANDLE), ("f", VARIED), ("userData", HANDLE)],
            Varied::Param(1),
            C::Callback(vec![CallbackParam::UserData], CallbackRet::Void),
            "`void (*)(void *userData)`: the driver passes the caller's userData back",
        ),
        p(
            "p8_streamcb",
            8,
            ("cuStreamAddCallback", 5000),
            ("CUstreamCallback", "callback"),
            vec![
                ("hStream", HANDLE),
                ("callback", VARIED),
                ("userData", HANDLE),
                ("flags", U32),
            ],
            Varied::Param(1),
            C::Callback(
                vec![
                    CallbackParam::Handle,
                    CallbackParam::Status,
                    CallbackParam::UserData,
                ],
                CallbackRet::Void,
            ),
            "`void (*)(CUstream, CUresult status, void *userData)`: the status is any int",
        ),
        p(
            "p8_occupancy",
            8,
            ("cuOccupancyMaxPotentialBlockSize", 6050),
            ("CUoccupancyB2DSize", "blockSizeToDynamicSMemSize"),
            vec![
                ("minGridSize", "*mut ::core::primitive::i32"),
                ("blockSize", "*mut ::core::primitive::i32"),
                ("func", HANDLE),
                ("blockSizeToDynamicSMemSize", VARIED),
                ("dynamicSMemSize", USIZE),
                ("blockSizeLimit", I32),
            ],
            Varied::Param(3),
            C::Callback(vec![CallbackParam::Integer(4)], CallbackRet::Integer(8)),
            "`size_t (*)(int blockSize)`: the driver passes any int, the user returns a size_t",
        ),
        // 9. The function's return.
        Position {
            ret: VARIED,
            ..p(
                "p9_status",
                9,
                ("cuStreamQuery", 2000),
                ("CUresult", "return"),
                vec![("hStream", HANDLE)],
                Varied::Return,
                C::Status,
                "the status: a newer driver returns codes no header lists",
            )
        },
        Position {
            ret: VARIED,
            unverified: true,
            ..p(
                "p9_unverified",
                9,
                ("cuMatrixFutureThing", 14000),
                ("(unknown)", "return"),
                vec![("flags", U32)],
                Varied::Return,
                C::UnknownReturn,
                "an unverified declaration's return: a value the driver produces",
            )
        },
    ]
}
