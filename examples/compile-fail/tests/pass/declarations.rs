// The crate's own declarations compile, and each names the typedef it was written from.
fn main() {
    assert_eq!(compile_fail_example::mem_alloc::TYPEDEF, "PFN_cuMemAlloc_v3020");
    assert_eq!(compile_fail_example::ctx_create::TYPEDEF, "PFN_cuCtxCreate_v3020");
}
