//! The compile-time assertions of callback parameters ([`Checked::callbacks`]): each declared
//! type, whatever it is called, must be a function pointer the driver can call with the C
//! signature. `cuda_entry::__private::callback` asks [`CFn`] of the type and fails the build with
//! the rules' words, at the type.
//!
//! [`CFn`]: https://docs.rs/cuda-entry (`__private::CFn`, not a public API)

use cuda_entry_table::rules::{CallbackAssertion, Checked, Value};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use crate::probes::{passing_classes, private_at};
use crate::shape::At;

/// The assertions of every callback parameter, in one `const` block of their own; empty when
/// the declaration has none.
pub(crate) fn assertions(checked: &Checked<'_>) -> TokenStream {
    checked.callbacks().iter().map(assertion).collect()
}

fn assertion(c: &CallbackAssertion<'_>) -> TokenStream {
    let ty = c.ty;
    let at = At::of(ty);
    let p = private_at(at.first);
    let params = c.params.iter().map(|v| value(&p, v));
    let ret = match &c.ret {
        Some(v) => {
            let v = value(&p, v);
            quote!(::core::option::Option::Some(#v))
        }
        None => quote!(::core::option::Option::None),
    };
    let classes = (0..c.params.len()).map(|i| {
        let a = format_ident!("A{i}");
        quote_spanned!(at.first=> #p::Passed::<<#ty as #p::CFn>::#a>::CLASSES)
    });
    let (before, after) = (&c.before, &c.after);
    let expect = quote! {
        #p::CCallback {
            params: &[#(#params),*],
            ret: #ret,
            before: #before,
            after: #after,
        }
    };
    // The driver passes the parameters: each must be proven to hold any value it may pass.
    let proven = (0..c.params.len()).map(|i| {
        let a = format_ident!("A{i}");
        quote_spanned!(at.first=> #p::Proven::<<#ty as #p::CFn>::#a>::FROM_DRIVER)
    });
    let classes = quote_spanned! {at.first=>
        (&[#(#classes),*], &[#(#proven),*]),
        #p::Passed::<<#ty as #p::CFn>::Ret>::CLASSES
    };
    let args = quote!(#expect, #classes, __cuda_entry_typedefs);
    let call = at.call(quote_spanned!(at.first=> #p::callback::<#ty>), args);
    // Elsewhere the ABI, the arity and what the driver passes, without the table's layouts.
    let proven = (0..c.params.len()).map(|i| {
        let a = format_ident!("A{i}");
        quote_spanned!(at.first=> #p::Proven::<<#ty as #p::CFn>::#a>::FROM_DRIVER)
    });
    let args = quote!(#expect, &[#(#proven),*], __cuda_entry_typedefs);
    let portable = at.call(
        quote_spanned!(at.first=> #p::callback_portable::<#ty>),
        args,
    );
    quote_spanned! {at.first=>
        {
            #[cfg(target_pointer_width = "64")]
            {
                #call
            }
            #[cfg(not(target_pointer_width = "64"))]
            {
                #portable
            }
        }
    }
}

fn value(p: &Ident, v: &Value) -> TokenStream {
    let (size, align, words) = (v.size as usize, v.align as usize, &v.words);
    let classes = passing_classes(p, v.passing);
    let also = v.also.iter().map(|(size, align)| {
        let (size, align) = (*size as usize, *align as usize);
        quote!((#size, #align))
    });
    quote! {
        #p::CValue {
            size: #size,
            align: #align,
            also: &[#(#also),*],
            classes: #classes,
            words: #words,
        }
    }
}
