//! `#[derive(FromDriver)]`: the proof that a struct or union of the user's holds every value the
//! driver may store, made of its fields' proofs. The impl bounds each field's type by
//! `FromDriver`, at the field, so that a field that is not proven fails the build there (with
//! the trait's `on_unimplemented` words); an enum, or a type without a C layout, is refused with
//! a message that says what to write instead.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Meta};

use crate::crate_path;

/// The helper attribute naming the crate through a re-export: `#[from_driver(crate = "path")]`.
const HELPER: &str = "from_driver";

/// The expansion of `#[derive(FromDriver)]` on `input`: the impl, or the compile errors.
pub(crate) fn derive(input: TokenStream) -> TokenStream {
    match syn::parse2::<DeriveInput>(input).and_then(|input| expand(&input)) {
        Ok(tokens) => tokens,
        Err(error) => error.into_compile_error(),
    }
}

fn expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    let fields: Vec<&syn::Type> = match &input.data {
        Data::Enum(e) => {
            return Err(syn::Error::new(
                e.enum_token.span,
                "an enum cannot derive `FromDriver`: only its listed values are valid, and the \
                 driver may store any value of its size (a code newer than your headers); \
                 declare the field or pointee with the enum's integer type (`u32`, `i32`; \
                 bindgen's `--constified-enum`), or `MaybeUninit<_>` and check it before reading",
            ));
        }
        Data::Struct(s) => match &s.fields {
            Fields::Named(f) => f.named.iter().map(|f| &f.ty).collect(),
            Fields::Unnamed(f) => f.unnamed.iter().map(|f| &f.ty).collect(),
            Fields::Unit => Vec::new(),
        },
        Data::Union(u) => u.fields.named.iter().map(|f| &f.ty).collect(),
    };
    c_layout(input)?;
    let given = crate_argument(input, HELPER)?;
    let paths = crate_path::locate(given.as_ref())
        .map_err(|message| syn::Error::new(input.ident.span(), message))?;
    let path = &paths.outer;
    let name = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let mut predicates: Vec<TokenStream> = where_clause
        .map(|w| w.predicates.iter().map(|p| quote!(#p)).collect())
        .unwrap_or_default();
    // Each field's type must be proven. A generic type's fields are bounds of the impl (proven
    // where it is used); a concrete type's are asserted one by one, at the field, so that the
    // error points there.
    let generic = !input.generics.params.is_empty();
    let assertions = if generic {
        predicates.extend(
            fields
                .iter()
                .map(|ty| quote_spanned!(ty.span()=> #ty: #path::FromDriver)),
        );
        TokenStream::new()
    } else {
        let each = fields
            .iter()
            .map(|ty| quote_spanned!(ty.span()=> let _ = __field_is_proven::<#ty>;));
        quote! {
            const _: () = {
                fn __field_is_proven<T: ?::core::marker::Sized + #path::FromDriver>() {}
                #(#each)*
            };
        }
    };
    let safety = format!(
        " SAFETY: every field of `{name}` is `FromDriver` (asserted above, or bounds), and \
         `{name}` has a C layout: its bytes are its fields' and padding, each holding any value."
    );
    Ok(quote! {
        #assertions
        #[doc = #safety]
        #[automatically_derived]
        unsafe impl #impl_generics #path::FromDriver for #name #ty_generics
        where
            #(#predicates,)*
        {}
    })
}

/// Refuses a type without `#[repr(C)]` or `#[repr(transparent)]`: the driver writes the C layout,
/// which Rust's own layout is not.
fn c_layout(input: &DeriveInput) -> syn::Result<()> {
    let mut c = false;
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("repr")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("C") || meta.path.is_ident("transparent") {
                c = true;
            }
            // `packed`, `align(N)`: allowed beside `C`; an integer repr is an enum's.
            if meta.input.peek(syn::token::Paren) {
                let _ = meta.input.parse::<proc_macro2::Group>();
            }
            Ok(())
        })?;
    }
    if c {
        return Ok(());
    }
    Err(syn::Error::new(
        input.ident.span(),
        format!(
            "`{}` has Rust's layout, which the C header's is not: add `#[repr(C)]` (or \
             `#[repr(transparent)]` for a newtype) to derive `FromDriver`",
            input.ident
        ),
    ))
}

/// `#[HELPER(crate = "path")]` or `#[HELPER(crate = path)]`, if given (`helper`: `from_driver`,
/// `by_value`).
pub(crate) fn crate_argument(input: &DeriveInput, helper: &str) -> syn::Result<Option<syn::Path>> {
    let mut found = None;
    for attr in input.attrs.iter().filter(|a| a.path().is_ident(helper)) {
        if !matches!(attr.meta, Meta::List(_)) {
            return Err(syn::Error::new_spanned(
                attr,
                format!("expected `#[{helper}(crate = \"path::to::cuda_entry\")]`"),
            ));
        }
        attr.parse_nested_meta(|meta| {
            if !meta.path.is_ident("crate") {
                return Err(meta.error(format!(
                    "unknown argument: `#[{helper}(...)]` takes `crate = \"path\"` only"
                )));
            }
            let value = meta.value()?;
            let path: syn::Path = if value.peek(syn::LitStr) {
                value.parse::<syn::LitStr>()?.parse()?
            } else {
                value.parse()?
            };
            found = Some(path);
            Ok(())
        })?;
    }
    Ok(found)
}
