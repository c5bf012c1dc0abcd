//! Expansion: each declaration becomes a function returning `Result` and a module of the same
//! name holding its entry `static`, typed pointer, availability query, metadata, registration and
//! manifest record, beside the const assertions of its ABI. A rejected declaration becomes a stub
//! of the same shape with nothing registered (thiserror's fallback). Every path starts with the
//! crate's path as the declaring crate names it ([`Paths`]), or with `__cuda_entry`, its
//! `__private` imported from that path once per module and per assertion block. The module's items
//! are written as text ([`Text`]): no span of theirs matters.

use cuda_entry_table::rules::{
    Argument, Assertion, Checked, ClassRule, Declaration, DefaultStream, Expected, Resolver,
    is_c_type,
};
use cuda_entry_table::{manifest, registration};
use proc_macro2::{Group, Ident, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::Type;

use crate::crate_path::Paths;
use crate::probes::{passing_classes, private_at};
use crate::shape::{At, Docs, Shape, Status, signature_text};
use crate::text::Text;

/// The expansion of a declaration the rules accept.
pub(crate) fn declaration(checked: &Checked<'_>, paths: &Paths) -> TokenStream {
    let decl = checked.declaration;
    let types: Vec<&Type> = decl.params.iter().map(|p| &p.ty).collect();
    let docs = docs(checked, paths);
    let Shape {
        function,
        signature,
        module_items,
        cfgs,
        inner_vis,
    } = Shape::new(
        decl,
        (&types, None),
        &decl.ret,
        &decl.abi,
        Some(docs),
        checked.returns_status().then_some(Status::Checked),
        paths,
    );
    let (name, vis) = (&decl.ident, &decl.vis);
    let symbol = checked.symbol;
    let version = checked.version.get();
    let typedef_name = checked.typedef_name();
    let optional = checked.optional;
    let unverified = checked.typedef.is_none();
    // The declaring package, as cargo tells the compiler of the crate being expanded.
    let package = std::env::var("CARGO_PKG_NAME").unwrap_or_default();
    // The manifest record's bytes, known here: a byte string in the expansion, no constant
    // evaluation per declaration (the same `cuda_entry_table::manifest` writes them). A
    // declaration with a per-thread twin has two, chosen where the facade's feature is known;
    // they differ only in the version and the stream code, so have one length.
    let record = |version: u32, stream: DefaultStream| {
        manifest::to_bytes(&manifest::Record {
            symbol,
            version,
            stream,
            resolver: checked.resolver,
            unverified,
            optional,
            package: &package,
        })
    };
    let legacy = record(version, DefaultStream::per_thread(checked.per_thread()));
    let checks = abi_assertions(checked);
    let callbacks = crate::callback::assertions(checked);
    let lint = crate::lint::signature(decl);
    let private = paths.private();
    let mod_doc = format!(
        " The driver entry behind `{name}()`: `{symbol}` at version {version} \
         (`{typedef_name}`){}.",
        if optional {
            ", optional: the program runs without it"
        } else {
            ""
        }
    );
    let pointer_doc = format!(
        " The {} of the resolution (cached).",
        paths.doc_link(true, "Error")
    );

    // The module's items, as text but for the paths and visibility given with spans of their
    // own. Using any of the constants uses the declared function (for `dead_code`: the block
    // names `Signature::LINK`); `ENTRY` cannot count, the registration uses it.
    let mut body = module_items;
    // The crate's `__private`, imported once: the items' paths are then text, whatever spans the
    // crate's path has (a `crate = ...` written in a `macro_rules!` may start with `$crate`).
    body.code("use ")
        .path(&paths.inner_private_path())
        .code(" as __cuda_entry;\n");
    let p = "__cuda_entry";
    let item = |body: &mut Text, doc: &str| {
        body.code("#[doc = r\"")
            .code(doc)
            .code("\"]\n")
            .path(&inner_vis);
    };
    let link = " = { let () = <() as Signature>::LINK; ";
    item(&mut body, " The symbol passed to `cuGetProcAddress`.");
    body.code(" const SYMBOL: &str")
        .code(link)
        .str(symbol)
        .code(" };\n");
    item(
        &mut body,
        " The typedef version passed to `cuGetProcAddress`.",
    );
    body.code(" const VERSION: u32").code(link);
    // A declaration that names no stream and has a per-thread twin resolves one or the other by
    // the facade's `per-thread-default-stream` feature, decided where that feature is known.
    match checked.twin {
        Some(twin) => body
            .code(p)
            .code("::default_stream_version(")
            .display(version)
            .code("u32, ")
            .display(twin.version)
            .code("u32)"),
        None => body.display(version).code("u32"),
    };
    body.code(" };\n");
    item(
        &mut body,
        " The default-stream flavour, which selects the flag passed to `cuGetProcAddress`.",
    );
    body.code(" const STREAM: ")
        .code(p)
        .code("::Stream")
        .code(link);
    match checked.twin {
        Some(twin) => body
            .code(p)
            .code("::default_stream(")
            .display(twin.version)
            .code("u32)"),
        None => stream_path(&mut body, p, checked.per_thread()),
    };
    body.code(" };\n");
    item(&mut body, " The typedef the signature was checked against.");
    body.code(" const TYPEDEF: &str").code(link);
    match checked.twin {
        Some(twin) => body
            .code("if ")
            .code(p)
            .code("::PER_THREAD_DEFAULT { ")
            .str(&twin.typedef_name())
            .code(" } else { ")
            .str(&typedef_name)
            .code(" }"),
        None => body.str(&typedef_name),
    };
    body.code(" };\n");
    item(
        &mut body,
        " The entry: resolved on first use, cached for the life of the process.",
    );
    body.code(" static ENTRY: ")
        .code(p)
        .code("::Entry = ")
        .code(p);
    match checked.twin {
        Some(twin) => body
            .code("::default_stream_entry(")
            .c_str(symbol)
            .code(", ")
            .display(version)
            .code("u32, ")
            .display(twin.version)
            .code("u32)"),
        None => {
            body.code("::Entry::new(")
                .c_str(symbol)
                .code(", ")
                .display(version)
                .code("u32, ");
            stream_path(&mut body, p, checked.per_thread()).code(")")
        }
    };
    if checked.resolver == Resolver::Runtime {
        body.code(".through(").code(p).code("::Resolver::Runtime)");
    }
    if optional {
        body.code(".optional()");
    }
    body.code(";\n");
    body.code(concat!(
        "#[doc = r\" The typed function pointer, for hot loops.\"]\n",
        "#[doc = r\"\"]\n#[doc = r\" # Errors\"]\n#[doc = r\"\"]\n#[doc = "
    ));
    body.str(&pointer_doc)
        .code("]\n#[inline]\n")
        .path(&inner_vis);
    body.code(" fn pointer() -> ")
        .code(p)
        .code("::Result<Pfn, ")
        .code(p);
    // SAFETY (of the generated block): `Pfn` is the signature checked against the typedef this
    // entry names. Generic, but instantiated only where `pointer()` is called: it is inline.
    body.code(
        "::Error> {\n let () = <() as Signature>::LINK; unsafe { ENTRY.resolve_as::<Pfn>() } }\n",
    );
    // Inline: compiled where it is called, not once per declaration in every build.
    body.code(
        "#[doc = r\" Whether the driver can serve this entry; resolves it (once) but never calls it.\"]\n",
    );
    body.code("#[inline]\n#[must_use]\n").path(&inner_vis);
    body.code(
        " fn is_available() -> bool { let () = <() as Signature>::LINK; ENTRY.is_available() }\n",
    );
    // The registration (`cuda_entry::entries()`): a word in the section the runtime reads.
    body.code("#[used]\n");
    link_sections(
        &mut body,
        [
            registration::SEGMENT_MACHO,
            registration::SECTION_MACHO,
            registration::SECTION_PE,
            registration::SECTION_ELF,
        ],
    );
    body.code("static REGISTERED: ")
        .code(p)
        .code("::Registered = ")
        .code(p)
        .code("::Registered::Some(&ENTRY);\n");
    body.code(
        "#[doc = r\" The manifest record that `cuda-entry check BINARY` reads.\"]\n#[used]\n",
    );
    link_sections(
        &mut body,
        [
            manifest::SEGMENT_MACHO,
            manifest::SECTION_MACHO,
            manifest::SECTION_PE,
            manifest::SECTION_ELF,
        ],
    );
    body.code("static MANIFEST_RECORD: [u8; ")
        .display(legacy.len())
        .code("usize] = ");
    match checked.twin {
        Some(twin) => body
            .code("if ")
            .code(p)
            .code("::PER_THREAD_DEFAULT { *")
            .bytes(&record(twin.version, DefaultStream::PerThread))
            .code(" } else { *")
            .bytes(&legacy)
            .code(" }"),
        None => body.code("*").bytes(&legacy),
    };
    body.code(";\n");
    gnu_pe_retention(&mut body, p);

    let body = body.finish();
    // One constant per declaration for every check, callbacks and the lint block included:
    // each constant is a body the compiler builds, checks and evaluates, and one costs less
    // than one per parameter (docs/performance.md). On every target: the layouts inside are
    // kept to 64-bit pointers (`assertion`).
    let typedefs = (!checks.is_empty() || !callbacks.is_empty()).then(|| {
        let typedefs = checked.typedefs_lines();
        quote! {
            // For the probes' answers where no inherent constant applies: one glob import of
            // the fallback traits (one item, where naming the four made four more).
            #[allow(unused_imports)]
            use #private::fallbacks::*;
            // The checks' paths start with this one identifier, made at each declared type.
            #[allow(unused_imports)]
            use #private as __cuda_entry;
            // The lines that end every message: the symbol's typedefs (a local, not a
            // constant: no body of its own; unused where only the 64-bit layouts use it).
            #[allow(unused_variables)]
            let __cuda_entry_typedefs: &str = #typedefs;
        }
    });
    quote! {
        #function

        #signature

        #(#cfgs)*
        const _: () = {
            #lint
            #typedefs
            #checks
            #callbacks
        };

        #(#cfgs)*
        #[doc = #mod_doc]
        #[allow(non_snake_case, clippy::module_name_repetitions)]
        #vis mod #name {
            #body
        }
    }
}

/// The stub of a rejected declaration: the function and the module items call sites name, with
/// the declared signature so they produce no follow-on errors. Nothing is registered or
/// recorded, and no constant states what the rules could not read.
pub(crate) fn stub(decl: &Declaration, paths: &Paths) -> TokenStream {
    let unit: Type = syn::parse_quote!(());
    // A type that cannot cross a C call is already reported; `()` keeps the stub well-formed.
    // Named lifetimes are elided: the generics that declared them are reported, and the stub has
    // none.
    let c_type = |ty: &Type| {
        if is_c_type(ty) {
            syn::parse2(elide_lifetimes(ty.to_token_stream())).unwrap_or_else(|_| unit.clone())
        } else {
            unit.clone()
        }
    };
    let types: Vec<Type> = decl.params.iter().map(|p| c_type(&p.ty)).collect();
    let ret = c_type(&decl.ret);
    let types: Vec<&Type> = types.iter().collect();
    // The function takes whatever a call passes where the type was not a C one.
    let anything: Type = syn::parse_quote!(impl ::core::marker::Sized);
    let params: Option<Vec<&Type>> = decl.params.iter().any(|p| !is_c_type(&p.ty)).then(|| {
        decl.params
            .iter()
            .zip(&types)
            .map(|(p, ty)| if is_c_type(&p.ty) { *ty } else { &anything })
            .collect()
    });
    let abi = syn::parse_quote!(extern "C");
    let Shape {
        function,
        signature,
        module_items,
        cfgs,
        inner_vis,
    } = Shape::new(
        decl,
        (&types, params.as_deref()),
        &ret,
        &abi,
        None,
        decl.returns_status_by_name().then_some(Status::Stub),
        paths,
    );
    let module_items = module_items.finish();
    let (name, vis) = (&decl.ident, &decl.vis);
    let p = paths.inner_private();
    let args = &decl.args;
    let symbol = args
        .symbol
        .value()
        .map(|symbol| quote!(#inner_vis const SYMBOL: &str = #symbol;));
    let version = args.version.value().map(|version| {
        let version = version.get();
        quote!(#inner_vis const VERSION: u32 = #version;)
    });
    let stream = match args.stream {
        Argument::Absent => Some(DefaultStream::Legacy),
        Argument::Given(_, stream) => Some(stream),
        Argument::Invalid => None,
    }
    .map(|stream| {
        let stream = match stream {
            DefaultStream::Legacy => quote!(Legacy),
            DefaultStream::PerThread => quote!(PerThread),
        };
        quote!(#inner_vis const STREAM: #p::Stream = #p::Stream::#stream;)
    });
    quote! {
        #function

        #signature

        #(#cfgs)*
        #[allow(dead_code, non_snake_case, missing_docs, unreachable_pub)]
        #vis mod #name {
            #module_items
            #symbol
            #version
            #stream
            #inner_vis fn pointer() -> #p::Result<Pfn, #p::Error> {
                #p::never()
            }
            #inner_vis fn is_available() -> bool {
                #p::never()
            }
        }
    }
}

/// `tokens` with every lifetime but `'static` written `'_`.
fn elide_lifetimes(tokens: TokenStream) -> TokenStream {
    let mut out = TokenStream::new();
    let mut after_quote = false;
    for token in tokens {
        let token = match token {
            proc_macro2::TokenTree::Group(g) => {
                let mut group = Group::new(g.delimiter(), elide_lifetimes(g.stream()));
                group.set_span(g.span());
                proc_macro2::TokenTree::Group(group)
            }
            proc_macro2::TokenTree::Ident(i) if after_quote && i != "static" => {
                proc_macro2::TokenTree::Ident(proc_macro2::Ident::new("_", i.span()))
            }
            other => other,
        };
        after_quote = matches!(&token, proc_macro2::TokenTree::Punct(p) if p.as_char() == '\'');
        out.extend([token]);
    }
    out
}

/// The function's `# Errors` and `# Safety` (after the user's docs), and the pointer type's.
fn docs(checked: &Checked<'_>, paths: &Paths) -> Docs {
    let (symbol, version) = (checked.symbol, checked.version.get());
    let typedef_name = checked.typedef_name();
    let status = if checked.returns_status() {
        " The same error, of kind `DriverStatus`, when the driver function returns a status other \
         than `CUDA_SUCCESS` (`Error::driver_status` gives the code)."
    } else {
        ""
    };
    let function = format!(
        " # Errors\n\n The driver entry's {} when `{symbol}` at version {version} cannot be \
         resolved (resolved once, then cached).{status}\n\n # Safety\n\n The contract of the \
         driver function `{symbol}` (`{typedef_name}`): valid pointers and handles, as the CUDA \
         driver API documentation states.",
        paths.doc_link(false, "Error")
    );
    let decl = checked.declaration;
    let pfn = format!(
        " The function pointer type, the signature of `{typedef_name}`:\n\n ```text\n {}\n ```",
        signature_text(&decl.abi, decl)
    );
    Docs { function, pfn }
}

/// The path of the default-stream flavour.
fn stream_path<'a>(text: &'a mut Text, private: &str, per_thread: bool) -> &'a mut Text {
    text.code(private)
        .code(match DefaultStream::per_thread(per_thread) {
            DefaultStream::Legacy => "::Stream::Legacy",
            DefaultStream::PerThread => "::Stream::PerThread",
        })
}

/// The attributes that put a static in the section `[segment, section]` on Mach-O, `pe` on PE and
/// `elf` on ELF: the names' one definition is the table's (`manifest`, `registration`).
fn link_sections(text: &mut Text, [segment, macho, pe, elf]: [&str; 4]) {
    text.code("#[cfg_attr(target_vendor = \"apple\", unsafe(link_section = ")
        .str(&format!("{segment},{macho}"));
    text.code("))]\n#[cfg_attr(windows, unsafe(link_section = ")
        .str(pe);
    text.code(
        "))]\n#[cfg_attr(not(any(windows, target_vendor = \"apple\")), unsafe(link_section = ",
    );
    text.str(elf).code("))]\n");
}

/// What keeps the registration and the manifest record in a windows-gnu program.
///
/// `#[used]` keeps them everywhere else: on ELF the sections are marked `SHF_GNU_RETAIN`, on
/// Mach-O `no_dead_strip`, and MSVC's and LLVM's COFF linkers collect only COMDAT sections, which
/// these are not. GNU ld on PE (the windows-gnu targets) reads no retain mark and, with rustc's
/// `--gc-sections`, drops every section nothing refers to: the program's own declarations went,
/// and a dependency's survived only while something else in its codegen unit's `.data` was used.
/// That linker never collects a section whose name starts with `.vectors` (nor what it refers
/// to), so this static, in one, refers to both.
fn gnu_pe_retention(text: &mut Text, private: &str) {
    // The name only needs the prefix; the rest keeps the output section apart from others.
    text.code("#[cfg(all(windows, target_env = \"gnu\"))]\n#[used]\n");
    text.code("#[unsafe(link_section = \".vectors_cuentry\")]\nstatic RETAINED: (&");
    text.code(private)
        .code("::Registered, &[u8]) = (&REGISTERED, &MANIFEST_RECORD);\n");
}

/// `const` assertions of what the tokens of the declared types leave open (the rules'
/// [`Assertion`]s), each at the declared type, on every target: sizes, alignments and classes
/// only where pointers have 64 bits (the table's figures), the rest (a pointer, what the driver
/// may write, the status) everywhere. A failure is the rules' message at the type, with
/// no frame of `cuda_entry` (the checks are `#[track_caller]`).
fn abi_assertions(checked: &Checked<'_>) -> TokenStream {
    checked.assertions().iter().map(assertion).collect()
}

fn assertion(a: &Assertion<'_>) -> TokenStream {
    let ty = a.ty;
    let at = At::of(ty);
    // Every path at the type, so that a failure points at it.
    let p = private_at(at.first);
    // Whether the pointer is raw (`CPointer::RAW`): said by its syntax where it is written out
    // (`*mut T` and `&T` cannot be shadowed), asked of the compiler otherwise (`NonNull<T>`, an
    // alias); a constant costs the compiler less than a projection.
    let raw = || {
        raw_by_syntax(ty).map_or_else(
            || quote_spanned!(at.first=> <#ty as #p::CPointer>::RAW),
            |raw| quote!(#raw),
        )
    };
    let raw_slot = || {
        pointee_type(ty).and_then(raw_by_syntax).map_or_else(
            || quote_spanned!(at.first=> <<#ty as #p::CPointer>::Pointee as #p::CPointerSlot>::RAW),
            |raw| quote!(#raw),
        )
    };
    // What depends on the width of a pointer (layouts and classes), and what does not.
    let mut layouts = TokenStream::new();
    let mut body = TokenStream::new();
    if let Some(expected) = &a.layout {
        let expect = expect(&p, expected);
        match &a.class {
            Some(ClassRule {
                passing,
                before,
                after,
            }) => {
                let c = passing_classes(&p, *passing);
                let class = quote_spanned!(at.first=> (#p::Passed::<#ty>::CLASSES, #c));
                let args = quote!(#expect, #class, #before, #after, __cuda_entry_typedefs);
                layouts.extend(at.call(quote_spanned!(at.first=> #p::value::<#ty>), args));
            }
            // No class to prove (a status, whose own check proves more): the layout alone.
            None => {
                let args = quote!(false, #expect, __cuda_entry_typedefs);
                layouts.extend(at.call(quote_spanned!(at.first=> #p::layout::<#ty>), args));
            }
        }
    }
    if a.pointee.is_some() || a.second.is_some() {
        // `c_void` at either level leaves what is below it unchecked.
        let pointee = quote_spanned!(at.first=> <#ty as #p::CPointer>::Pointee);
        let void = quote_spanned!(at.first=> #p::Probe::<#pointee>::VOID);
        // Either level may be an array of elements of the C type's layout (`POINTEE`).
        if let Some(expected) = &a.pointee {
            let expect = expect(&p, expected);
            let shape = quote_spanned!(at.first=> #p::Probe::<#pointee>::POINTEE);
            if raw_by_syntax(ty) == Some(true) {
                // A raw pointer written out: the common case, the shorter check.
                let args = quote!(#shape, #expect, __cuda_entry_typedefs);
                let check = quote_spanned!(at.first=> #p::raw_pointee::<#pointee>);
                layouts.extend(at.call(check, args));
            } else {
                let raw_pointer = raw();
                let args = quote!((#shape, #raw_pointer, false), #expect, __cuda_entry_typedefs);
                let check = quote_spanned!(at.first=> #p::pointee::<#pointee>);
                layouts.extend(at.call(check, args));
            }
        }
        if let Some(expected) = &a.second {
            let second = quote_spanned!(at.first=> <#pointee as #p::CPointerSlot>::Pointee);
            let raw_second = raw_slot();
            let shape = quote_spanned!(at.first=>
                (#p::Probe::<#second>::POINTEE, #raw_second, #void));
            let expect = expect(&p, expected);
            let args = quote!(#shape, #expect, __cuda_entry_typedefs);
            layouts.extend(at.call(quote_spanned!(at.first=> #p::pointee::<#second>), args));
        }
    } else if a.pointer {
        body.extend(quote!(#p::pointer::<#ty>();));
    }
    if a.slot {
        let pointee = quote_spanned!(at.first=> <#ty as #p::CPointer>::Pointee);
        body.extend(quote_spanned!(at.first=> #p::slot::<#pointee>();));
    }
    if let Some(message) = &a.writable {
        let read_only = quote_spanned!(at.first=> #p::AccessProbe::<#ty>::READ_ONLY);
        body.extend(at.call(
            quote_spanned!(at.first=> #p::writable),
            quote!(#read_only, #message),
        ));
    }
    if let Some(message) = &a.second_writable {
        // The pointer it points to, unless that is `c_void` (the second level left unchecked).
        let pointee = quote_spanned!(at.first=> <#ty as #p::CPointer>::Pointee);
        let read_only = quote_spanned!(at.first=>
            !#p::Probe::<#pointee>::VOID && #p::AccessProbe::<#pointee>::READ_ONLY);
        body.extend(at.call(
            quote_spanned!(at.first=> #p::writable),
            quote!(#read_only, #message),
        ));
    }
    if let Some((before, after)) = &a.valid {
        // What the driver writes through a pointer, or an unverified declaration's return value.
        let value = if a.pointer {
            quote_spanned!(at.first=> <#ty as #p::CPointer>::Pointee)
        } else {
            quote!(#ty)
        };
        // Proven to hold every value the driver may store (`c_void`: left unchecked).
        let proven = quote_spanned!(at.first=>
            (#p::Proven::<#value>::FROM_DRIVER, #p::ValueProbe::<#value>::INVALID));
        let args = quote!(#proven, #before, #after, __cuda_entry_typedefs);
        body.extend(at.call(quote_spanned!(at.first=> #p::valid), args));
    }
    if let Some((before, after)) = &a.second_valid {
        // What the second level holds (`c_void` at either level: left unchecked, as `c_void`'s
        // slot is `c_void`).
        let pointee = quote_spanned!(at.first=> <#ty as #p::CPointer>::Pointee);
        let second = quote_spanned!(at.first=> <#pointee as #p::CPointerSlot>::Pointee);
        let raw_second = raw_slot();
        let proven = quote_spanned!(at.first=> #p::second_level(
            #raw_second,
            #p::Probe::<#second>::VOID,
            (#p::Proven::<#second>::FROM_DRIVER, #p::ValueProbe::<#second>::INVALID),
        ));
        let args = quote!(#proven, #before, #after, __cuda_entry_typedefs);
        body.extend(at.call(quote_spanned!(at.first=> #p::valid), args));
    }
    if let Some((bytes, before, after)) = &a.extent {
        let pointee = quote_spanned!(at.first=> <#ty as #p::CPointer>::Pointee);
        let bytes = *bytes as usize;
        let raw = raw();
        let args = quote!(#raw, #bytes, #before, #after, __cuda_entry_typedefs);
        body.extend(at.call(quote_spanned!(at.first=> #p::extent::<#pointee>), args));
    }
    if let Some((before, after)) = &a.status {
        let found = quote_spanned!(at.first=> (#p::ClassProbe::<#ty>::CLASS, #p::ValueProbe::<#ty>::INVALID));
        let args = quote!(#found, #before, #after, __cuda_entry_typedefs);
        body.extend(at.call(quote_spanned!(at.first=> #p::status), args));
    }
    // The layouts first, as the rules judge them: a wrong size is the first thing to fix.
    let layouts = (!layouts.is_empty()).then(|| {
        quote_spanned! {at.first=>
            // The table's figures hold where pointers have 64 bits.
            #[cfg(target_pointer_width = "64")]
            {
                #layouts
            }
        }
    });
    // A block of the declaration's one constant: a failure stops its evaluation, so the
    // declaration's first failing check is the one reported.
    quote_spanned! {at.first=>
        {
            #layouts
            #body
        }
    }
}

/// `Some(true)` for a raw pointer written out (`*mut T`, `*const T`), `Some(false)` for a
/// reference (`&T`, `&mut T`), `None` where only the compiler can tell.
fn raw_by_syntax(ty: &Type) -> Option<bool> {
    match ty {
        Type::Paren(p) => raw_by_syntax(&p.elem),
        Type::Group(g) => raw_by_syntax(&g.elem),
        Type::Ptr(_) => Some(true),
        Type::Reference(_) => Some(false),
        _ => None,
    }
}

/// What a pointer written out points to (`T` of `*mut T` or `&T`).
fn pointee_type(ty: &Type) -> Option<&Type> {
    match ty {
        Type::Paren(p) => pointee_type(&p.elem),
        Type::Group(g) => pointee_type(&g.elem),
        Type::Ptr(p) => Some(&p.elem),
        Type::Reference(r) => Some(&r.elem),
        _ => None,
    }
}

/// The `Expect` of an expected layout.
fn expect(p: &Ident, expected: &Expected) -> TokenStream {
    let (size, align) = (expected.size as usize, expected.align as usize);
    let (before, after) = (&expected.before, &expected.after);
    // A shared empty slice where there is none, rather than a promoted constant per call.
    let others = if expected.others.is_empty() {
        quote!(#p::NO_OTHERS)
    } else {
        let others = expected.others.iter().map(|(size, align, words)| {
            let (size, align) = (*size as usize, *align as usize);
            quote!((#size, #align, #words))
        });
        quote!(&[#(#others),*])
    };
    let also = if expected.also.is_empty() {
        quote!(#p::NO_LAYOUTS)
    } else {
        let also = expected.also.iter().map(|(size, align)| {
            let (size, align) = (*size as usize, *align as usize);
            quote!((#size, #align))
        });
        quote!(&[#(#also),*])
    };
    quote! {
        #p::Expect {
            size: #size,
            align: #align,
            also: #also,
            before: #before,
            after: #after,
            others: #others,
        }
    }
}
