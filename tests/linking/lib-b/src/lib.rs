//! A Rust staticlib for C: `libb_call` reaches its own `cuInit` and the dependency's
//! `cuCtxCreate`; its `cuDeviceGetCount` and the dependency's `cuMemGetInfo` are reached by nothing.
//! `libb_entries` prints what `cuda_entry::entries()` lists.

use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

#[cuda_entry(symbol = "cuInit", version = 2000)]
pub unsafe extern "C" fn reached(flags: u32) -> CUresult;

#[cuda_entry(symbol = "cuDeviceGetCount", version = 2000)]
pub unsafe extern "C" fn unreached(count: *mut i32) -> CUresult;

/// Calls the declarations it reaches when `really` (never in the tests: no driver is loaded).
#[unsafe(no_mangle)]
pub extern "C" fn libb_call(really: i32) -> i32 {
    if really == 0 {
        return 0;
    }
    let _ = linking_dep::create_if(true);
    i32::from(unsafe { reached(0) }.is_ok())
}

/// Prints `libb: SYMBOL@VERSION` for each entry listed, sorted, and the minimum driver.
#[unsafe(no_mangle)]
pub extern "C" fn libb_entries() -> usize {
    let mut listed: Vec<String> = cuda_entry::entries()
        .iter()
        .map(|e| format!("{}@{}", e.symbol().to_string_lossy(), e.version()))
        .collect();
    listed.sort();
    println!("libb: [{}] minimum {}", listed.join(", "), cuda_entry::requirements().minimum_driver);
    listed.len()
}
