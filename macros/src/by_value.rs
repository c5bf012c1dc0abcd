//! `#[derive(ByValue)]`: how the C calling convention passes a type of the user's, computed from
//! its fields. A `#[repr(C)]` struct is its fields' classes at their offsets, a union its fields'
//! overlaid, a `#[repr(transparent)]` struct its field's, a field-less enum with a C or integer
//! `#[repr]` an integer of its size. Each field's type must be `ByValue` itself, asserted at the
//! field so that an unproven one fails the build there.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Member};

use crate::crate_path;
use crate::from_driver::crate_argument;

/// The helper attribute naming the crate through a re-export: `#[by_value(crate = "path")]`.
const HELPER: &str = "by_value";

/// The expansion of `#[derive(ByValue)]` on `input`: the impl, or the compile errors.
pub(crate) fn derive(input: TokenStream) -> TokenStream {
    match syn::parse2::<DeriveInput>(input).and_then(|input| expand(&input)) {
        Ok(tokens) => tokens,
        Err(error) => error.into_compile_error(),
    }
}

/// What `#[repr(...)]` says of the type.
#[derive(Default)]
struct Repr {
    c: bool,
    transparent: bool,
    packed: bool,
    integer: bool,
}

fn repr(input: &DeriveInput) -> syn::Result<Repr> {
    let mut repr = Repr::default();
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("repr")) {
        attr.parse_nested_meta(|meta| {
            let path = &meta.path;
            if path.is_ident("C") {
                repr.c = true;
            } else if path.is_ident("transparent") {
                repr.transparent = true;
            } else if path.is_ident("packed") {
                repr.packed = true;
            } else if [
                "u8", "i8", "u16", "i16", "u32", "i32", "u64", "i64", "usize", "isize",
            ]
            .iter()
            .any(|t| path.is_ident(t))
            {
                repr.integer = true;
            }
            // `align(N)`, `packed(N)`: their arguments.
            if meta.input.peek(syn::token::Paren) {
                let _ = meta.input.parse::<proc_macro2::Group>();
            }
            Ok(())
        })?;
    }
    Ok(repr)
}

fn expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    let repr = repr(input)?;
    let name = &input.ident;
    if repr.packed {
        return Err(syn::Error::new(
            name.span(),
            format!(
                "`{name}` is packed: x86-64 passes a record with a field out of its alignment in \
                 memory, not in registers as C passes its type; declare it without `packed` (and \
                 with the C type's fields), or pass a pointer to it"
            ),
        ));
    }
    let given = crate_argument(input, HELPER)?;
    let paths = crate_path::locate(given.as_ref())
        .map_err(|message| syn::Error::new(name.span(), message))?;
    let path = &paths.outer;
    let classes_of = |ty: &syn::Type| quote_spanned!(ty.span()=> <#ty as #path::ByValue>::CLASSES);
    let (classes, fields): (TokenStream, Vec<&syn::Type>) = match &input.data {
        Data::Enum(e) => {
            if let Some(v) = e
                .variants
                .iter()
                .find(|v| !matches!(v.fields, Fields::Unit))
            {
                return Err(syn::Error::new(
                    v.ident.span(),
                    format!(
                        "`{name}::{}` has fields: only an enum without fields is a C enum, passed \
                         as an integer; declare the C type's struct or union instead",
                        v.ident
                    ),
                ));
            }
            if !repr.c && !repr.integer {
                return Err(syn::Error::new(
                    name.span(),
                    format!(
                        "`{name}` has Rust's layout, whose size the compiler chooses: add \
                         `#[repr(C)]` (a C enum, an `int`) or the C type's integer, \
                         `#[repr(u32)]`, to derive `ByValue`"
                    ),
                ));
            }
            let classes = quote!(#path::Classes::integer(::core::mem::size_of::<Self>()));
            (classes, Vec::new())
        }
        Data::Struct(s) if repr.transparent => {
            let fields: Vec<&syn::Type> = s.fields.iter().map(|f| &f.ty).collect();
            let each = fields.iter().map(|ty| classes_of(ty));
            let classes = quote!(#path::Classes::transparent(&[#(#each),*]));
            (classes, fields)
        }
        Data::Struct(s) if repr.c => {
            let fields: Vec<&syn::Type> = s.fields.iter().map(|f| &f.ty).collect();
            let each = s.fields.iter().zip(s.fields.members()).map(|(f, member)| {
                let classes = classes_of(&f.ty);
                let member = match member {
                    Member::Named(ident) => quote!(#ident),
                    Member::Unnamed(index) => quote!(#index),
                };
                quote!(.field(::core::mem::offset_of!(Self, #member), #classes))
            });
            let classes = quote! {
                #path::Classes::record(::core::mem::size_of::<Self>()) #(#each)*
            };
            (classes, fields)
        }
        Data::Union(u) if repr.c => {
            let fields: Vec<&syn::Type> = u.fields.named.iter().map(|f| &f.ty).collect();
            let each = fields.iter().map(|ty| {
                let classes = classes_of(ty);
                quote!(.field(0, #classes))
            });
            let classes = quote! {
                #path::Classes::record(::core::mem::size_of::<Self>()) #(#each)*
            };
            (classes, fields)
        }
        _ => {
            return Err(syn::Error::new(
                name.span(),
                format!(
                    "`{name}` has Rust's layout, which C's is not: add `#[repr(C)]` (or \
                     `#[repr(transparent)]` for a newtype) to derive `ByValue`"
                ),
            ));
        }
    };
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let mut predicates: Vec<TokenStream> = where_clause
        .map(|w| w.predicates.iter().map(|p| quote!(#p)).collect())
        .unwrap_or_default();
    // A generic type's fields are bounds of the impl (proven where it is used); a concrete
    // type's are named in the constant, each at its field, so that one not proven fails the
    // build there.
    if !input.generics.params.is_empty() {
        predicates.extend(
            fields
                .iter()
                .map(|ty| quote_spanned!(ty.span()=> #ty: #path::ByValue)),
        );
    }
    let safety = format!(
        " SAFETY: `{name}` has a C layout (its `repr`), and its classes are its fields' at their \
         offsets, each `ByValue`."
    );
    Ok(quote! {
        #[doc = #safety]
        #[automatically_derived]
        unsafe impl #impl_generics #path::ByValue for #name #ty_generics
        where
            #(#predicates,)*
        {
            const CLASSES: #path::Classes = #classes;
        }
    })
}
