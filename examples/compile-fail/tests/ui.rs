//! The declarations this crate must reject, one mistake per file under tests/ui/ with the
//! compiler's output beside it (`.stderr`, written by `TRYBUILD=overwrite cargo test` and
//! reviewed), and the forms it accepts under tests/pass/.

#[test]
fn declarations() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
    cases.pass("tests/pass/*.rs");
}
