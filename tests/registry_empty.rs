//! A program that declares no entry still links and reads an empty registry: the runtime's own
//! zero elements make the registration section (and its bounds) exist, and are skipped.

#[test]
fn a_program_without_declarations_lists_no_entries() {
    assert!(
        cuda_entry::entries().is_empty(),
        "{:?}",
        cuda_entry::entries()
    );
    let requirements = cuda_entry::requirements();
    assert!(requirements.entries.is_empty() && requirements.optional.is_empty());
    assert_eq!(requirements.minimum_driver, 0);
    assert!(cuda_entry::preload_all().is_ok());
}
