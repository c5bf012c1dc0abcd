//! Compile-time checks of `#[cuda_entry]`: every rejected declaration (tests/ui, one mistake per
//! file, with the reviewed compiler output beside it) and the accepted forms (tests/ui-pass).

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/ui-pass/*.rs");
}
