//! A manifest record as a declaration: what `cuda-entry check BINARY` holds against the rules.
//! The macro wrote the record for a declaration it accepted, so its symbol and version are judged
//! as written there (against this table, which may be newer than the binary's), and the
//! signature of the typedef it names stands in for the one the record does not keep.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Ident, LitInt, LitStr, Type, Visibility};

use super::arguments::Arguments;
use super::declaration::{Declaration, Parameter};
use super::mistake::Found;
use crate::manifest::Record;

impl Declaration {
    /// The declaration `record` was written for: its arguments as the record states them
    /// (`symbol`, `version`, `stream`, `resolver`, `unverified`, `optional`), and a signature with
    /// the arity and `void` return of the typedef it names (none for a typedef the table lacks),
    /// in a type whose tokens tell nothing (`Record`): the layout checks were the compiler's, and
    /// it made them when the binary was built. [`Declaration::validate`] then judges it; mistakes
    /// have no place in a source.
    pub fn from_record(record: &Record<'_>) -> Declaration {
        let span = Span::call_site();
        let mut found = Found::default();
        let args = Arguments::parse(arguments(record), (span, span), &mut found);
        let per_thread = record.stream.is_per_thread();
        let typedef = crate::find(record.symbol, record.version, per_thread);
        let params = typedef.map_or(&[][..], |t| t.params);
        let params = params
            .iter()
            .enumerate()
            .map(|(i, _)| Parameter {
                name: Ident::new(&format!("__cuda_entry_arg{i}"), span),
                ty: syn::parse_quote!(Record),
            })
            .collect();
        let ret: Type = if typedef.is_some_and(|t| t.ret.size == 0) {
            syn::parse_quote!(())
        } else {
            syn::parse_quote!(Record)
        };
        Declaration {
            attrs: Vec::new(),
            vis: Visibility::Inherited,
            abi: syn::parse_quote!(extern "C"),
            ident: Ident::new("record", span),
            params,
            ret,
            args,
            parens: span,
            found,
        }
    }
}

/// The attribute arguments `record` states, as the macro would have read them.
fn arguments(record: &Record<'_>) -> TokenStream {
    let span = Span::call_site();
    let symbol = LitStr::new(record.symbol, span);
    let version = LitInt::new(&record.version.to_string(), span);
    let (stream, resolver) = (record.stream.argument(), record.resolver.argument());
    let unverified = record.unverified.then(|| quote!(, unverified));
    let optional = record.optional.then(|| quote!(, optional));
    quote!(symbol = #symbol, version = #version, stream = #stream, resolver = #resolver
        #unverified #optional)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(
        symbol: &str,
        version: u32,
        stream: crate::DefaultStream,
        flags: (bool, bool),
    ) -> Record<'_> {
        Record {
            symbol,
            version,
            stream,
            resolver: crate::Resolver::Driver,
            unverified: flags.0,
            optional: flags.1,
            package: "app",
        }
    }

    fn kinds(record: &Record<'_>) -> Vec<&'static str> {
        match Declaration::from_record(record).validate() {
            Ok(_) => Vec::new(),
            Err(mistakes) => mistakes.iter().map(|m| m.kind().name()).collect(),
        }
    }

    #[test]
    fn a_record_states_what_its_declaration_did() {
        let legacy = crate::DefaultStream::Legacy;
        let per_thread = crate::DefaultStream::PerThread;
        let optional = record("cuCtxCreate", 12050, legacy, (false, true));
        let decl = Declaration::from_record(&optional);
        let checked = decl.validate().expect("accepted");
        assert!(checked.optional && !checked.per_thread());
        assert_eq!(checked.typedef_name(), "PFN_cuCtxCreate_v12050");
        // A per-thread typedef, and a symbol newer than the table.
        assert_eq!(
            kinds(&record("cuLaunchKernel", 7000, per_thread, (false, false))),
            [""; 0]
        );
        assert_eq!(
            kinds(&record("cuFuture", 14000, legacy, (true, true))),
            [""; 0]
        );
        assert_eq!(
            kinds(&record("cuMemAloc", 3020, legacy, (false, false))),
            ["unknown_symbol"]
        );
        assert_eq!(
            kinds(&record("cuMemAlloc", 3010, legacy, (false, false))),
            ["not_a_typedef"]
        );
        assert_eq!(
            kinds(&record("cuMemAlloc", 3020, legacy, (true, false))),
            ["needless_unverified"]
        );
        assert_eq!(
            kinds(&record("cuMemAlloc\u{1b}[2K", 3020, legacy, (false, false))),
            ["symbol_not_an_identifier"]
        );
        assert_eq!(
            kinds(&record("cuMemAlloc", 3025, legacy, (false, false))),
            ["not_a_version"]
        );
    }
}
