// A name is what it resolves to, not how it is spelled: with `u32` shadowed by an alias of `u64`,
// `bytesize: u32` is a `size_t` (the macro refused it as "`u32` is 4 bytes"; issue 37, case 11),
// and with `bool` an alias of `u8`, `*mut bool` is where the driver may write any byte. The
// compiler judges each type as it resolves; the macro judges no shadowable name.
#![allow(non_camel_case_types)]

mod shadowed {
    use cuda_entry::cuda_entry;
    use cuda_entry::types::{CUdeviceptr, CUresult};

    pub type u32 = u64;
    pub type bool = u8;

    #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
    pub unsafe extern "C" fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: u32) -> CUresult;

    #[cuda_entry(symbol = "cuDeviceGetLuid", version = 10000)]
    pub unsafe extern "C" fn device_luid(
        luid: *mut bool,
        mask: *mut ::core::primitive::u32,
        dev: i32,
    ) -> CUresult;
}

fn main() {
    let _ = shadowed::mem_alloc::pointer;
    let _ = shadowed::device_luid::pointer;
}
