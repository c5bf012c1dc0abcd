//! The declaration rules: what a `#[cuda_entry]` declaration may say, in one place for the macro
//! (which reports mistakes as compile errors) and the `cuda-entry` command (which reads source
//! files and reports the same mistakes with the same text and kind names).
//!
//! Two steps. Parsing ([`parse_item`] for the macro, [`EntryItem::from_item`] for a file scanner)
//! reads the attribute's arguments into typed state ([`Argument`]: absent, invalid, or given) and
//! each declaration into a [`Declaration`] that owns what was written, with the mistakes of its
//! shape. Validation ([`Declaration::validate`], [`EntryItem::validate`]) holds it against the
//! typedef table: the symbol's spelling, the version among the symbol's typedefs of the stream
//! flavour, `unverified`, the arity, and each type's ABI as far as its tokens tell (pointer-ness,
//! size and alignment, what a pointer points to, float or integer, the return type), and the
//! per-thread twin ([`twin`]). It returns a [`Checked`] declaration or every [`Mistake`] in source
//! order, each with a [`MistakeKind`] whose [`name`](MistakeKind::name) is stable. What the tokens
//! leave open, [`Checked::assertions`] hands to the compiler. A binary's manifest record is judged
//! by the same rules through [`Declaration::from_record`].
//!
//! A file scanner:
//!
//! ```
//! use cuda_entry_table::rules::EntryItem;
//!
//! let file = syn::parse_file(
//!     r#"
//!     #[cuda_entry(symbol = "cuMemAloc", version = 3020)]
//!     pub unsafe extern "C" fn mem_alloc(dptr: *mut u64, bytesize: usize) -> i32;
//!
//!     #[cuda_entry]
//!     unsafe extern "C" {
//!         #[cuda_entry(symbol = "cuMemFree", version = 3020)]
//!         fn mem_free(dptr: u64) -> i32;
//!     }
//!     "#,
//! )
//! .unwrap();
//! let mut report = Vec::new();
//! // A real scanner walks nested modules and function bodies too (`syn::visit`).
//! for item in &file.items {
//!     let Some(entries) = EntryItem::from_item(item) else { continue };
//!     for mistake in entries.mistakes() {
//!         report.push(format!("{}: {mistake}", mistake.kind().name()));
//!     }
//!     for decl in entries.declarations() {
//!         match decl.validate() {
//!             Ok(checked) => report.push(format!("{}: {}", decl.ident, checked.typedef_name())),
//!             Err(mistakes) => {
//!                 for m in mistakes {
//!                     report.push(format!("{}: {}: {m}", decl.ident, m.kind().name()));
//!                 }
//!             }
//!         }
//!     }
//! }
//! assert!(report[0].starts_with("mem_alloc: unknown_symbol: unknown symbol `cuMemAloc`: did you mean `cuMemAlloc`?"));
//! assert_eq!(report[1], "mem_free: PFN_cuMemFree_v3020");
//! ```

#[cfg(test)]
mod abi_tests;
mod arguments;
mod assertion;
mod attribute;
mod callback;
mod declaration;
mod headers;
mod judge;
mod layout;
mod mistake;
mod names;
mod record;
mod signature;
mod site;
#[cfg(test)]
mod tests;
mod validate;
mod values;
mod words;

pub use crate::{DefaultStream, Resolver};
pub use arguments::{Argument, Arguments, CratePath};
pub use assertion::{Assertion, ClassRule, Expected};
pub use attribute::{is_cuda_entry, is_entry_attribute};
pub use callback::{CallbackAssertion, Value};
pub use declaration::{Declaration, EntryItem, Parameter, is_c_type, parse_item};
pub use layout::tokens_text;
pub use mistake::{Mistake, MistakeKind};
pub use names::judged_by_the_compiler;
pub use validate::{Checked, twin};
pub use words::{
    Miss, Reader, headers_of, oldest_first, release, table_range, typedef_at, typedef_list,
    unknown_symbol,
};
