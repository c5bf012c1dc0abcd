//! `nearest`: the "did you mean" of the table, as the macro and the `cuda-entry` command use it.

use cuda_entry_table::{lookup, nearest, symbols};

#[test]
fn a_known_symbol_is_its_own_nearest() {
    for symbol in symbols() {
        assert_eq!(nearest(symbol), Some(symbol));
    }
}

#[test]
fn misspellings_find_the_symbol_meant() {
    assert_eq!(nearest("cuMemAloc"), Some("cuMemAlloc"));
    assert_eq!(nearest("cumemalloc"), Some("cuMemAlloc"));
    assert_eq!(nearest("CUmemAlloc"), Some("cuMemAlloc"));
    assert_eq!(nearest("cuMemAllco"), Some("cuMemAlloc"));
    assert_eq!(nearest("cuCtxCreat"), Some("cuCtxCreate"));
    assert_eq!(nearest("cuLaunchKernal"), Some("cuLaunchKernel"));
    assert_eq!(nearest("cuDeviceGetUUID"), Some("cuDeviceGetUuid"));
}

#[test]
fn variant_suffixes_give_the_base_name() {
    assert_eq!(nearest("cuMemAlloc_v2"), Some("cuMemAlloc"));
    assert_eq!(nearest("cuLaunchKernel_ptsz"), Some("cuLaunchKernel"));
    assert_eq!(nearest("cuMemcpyHtoD_v2_ptds"), Some("cuMemcpyHtoD"));
    assert_eq!(nearest("cuCtxCreate_v4"), Some("cuCtxCreate"));
}

#[test]
fn unrelated_names_have_none() {
    assert_eq!(nearest("somethingElseEntirely"), None);
    assert_eq!(nearest(""), None);
    assert_eq!(nearest("x"), None);
    assert_eq!(nearest("cuTotallyUnknownFunctionName"), None);
}

#[test]
fn the_answer_is_always_a_table_symbol() {
    for probe in [
        "cuMemAloc",
        "cuCtxCreat",
        "cuMemcpy_v2_ptds",
        "cuGraphLaunc",
    ] {
        let near = nearest(probe).expect("a suggestion");
        assert!(!lookup(near).is_empty(), "{probe} -> {near}");
    }
}
