//! What the `const` assertion blocks of an expansion name, shared by the declaration's
//! assertions (`expand`) and its callbacks' (`callback`): the identifier their paths start with,
//! and the C classes a declared type passed by value must have.

use cuda_entry_table::{ByteClass, Passing};
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// The classes C passes a type of `passing` in, any one of which a declared type may have: a
/// constant of `cuda_entry::__private::c_classes`, or `&[..]` of `cuda_entry::Classes` built at
/// compile time.
pub(crate) fn passing_classes(p: &Ident, passing: Passing) -> TokenStream {
    // The common ones are constants of the crate: a path costs the compiler less than a list
    // built at each parameter.
    let constant = match passing {
        Passing::Integer(1) => Some("INTEGER_1"),
        Passing::Integer(2) => Some("INTEGER_2"),
        Passing::Integer(4) => Some("INTEGER_4"),
        Passing::Integer(8) => Some("INTEGER_8"),
        Passing::Pointer => Some("POINTER"),
        Passing::Handle => Some("HANDLE"),
        Passing::Float(8) => Some("F64"),
        Passing::Float(4) => Some("F32"),
        _ => None,
    };
    if let Some(name) = constant {
        let name = Ident::new(name, Span::call_site());
        return quote!(#p::c_classes::#name);
    }
    let classes = quote!(#p::Classes);
    let each = match passing {
        Passing::Integer(size) => {
            let size = size as usize;
            vec![quote!(#classes::integer(#size))]
        }
        Passing::Pointer => vec![quote!(#classes::POINTER)],
        // An opaque handle: a pointer, or an integer of its size.
        Passing::Handle => vec![
            quote!(#classes::POINTER),
            quote!(#classes::integer(::core::mem::size_of::<*const ()>())),
        ],
        Passing::Float(8) => vec![quote!(#classes::F64)],
        Passing::Float(_) => vec![quote!(#classes::F32)],
        Passing::Record(size, bytes) => {
            let size = size as usize;
            let runs = bytes.iter().map(|(offset, count, class)| {
                let (offset, count) = (*offset as usize, *count as usize);
                let byte = match class {
                    ByteClass::Integer => quote!(Integer),
                    ByteClass::Pointer => quote!(Pointer),
                    ByteClass::Float32 => quote!(Float32),
                    ByteClass::Float64 => quote!(Float64),
                };
                quote!(.bytes(#offset, #count, #p::Byte::#byte))
            });
            vec![quote!(#classes::record(#size) #(#runs)*)]
        }
    };
    quote!(&[#(#each),*])
}

/// `__cuda_entry`, the crate's `__private` as the assertion blocks import it, at `span`: each
/// check's path is made at its declared type, so that a failure points there.
pub(crate) fn private_at(span: Span) -> Ident {
    Ident::new("__cuda_entry", span)
}
