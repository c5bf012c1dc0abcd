//! A mistake in a `#[cuda_entry]` declaration: what kind (a stable name), the message that says
//! what to write instead, and where it is.

use std::fmt;

use proc_macro2::{Punct, Spacing, Span, TokenStream};
use quote::{ToTokens, TokenStreamExt};

/// The kind of a [`Mistake`]. [`MistakeKind::name`] is its stable snake_case name: the command
/// prints it, and scripts may match on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MistakeKind {
    /// The item is neither form of declaration.
    NotADeclaration,
    /// A declaration with a body.
    FunctionBody,
    /// No `unsafe` on the declaration or the block.
    MissingUnsafe,
    /// No `extern "C"` on the declaration.
    MissingAbi,
    /// An ABI other than `"C"` or `"system"`, or `extern` without a name.
    WrongAbi,
    /// Arguments on the block's own `#[cuda_entry]`.
    ArgumentsOnBlock,
    /// Attributes on the `extern` block itself.
    AttributesOnBlock,
    /// An item in the block that is not a function.
    NotAFunction,
    /// A function in the block without its `#[cuda_entry(...)]`.
    MissingAttribute,
    /// `#[cuda_entry(...)]` inside an `extern` block that has no `#[cuda_entry]` of its own.
    BlockWithoutAttribute,
    /// `#[cuda_entry(...)]` twice on one declaration.
    DuplicateAttribute,
    /// `#[cfg_attr(..., cuda_entry(...))]` on a declaration inside a block.
    ConditionalAttribute,
    /// `safe fn` in the block.
    SafeFunction,
    /// `const fn`.
    ConstFunction,
    /// `async fn`.
    AsyncFunction,
    /// Generic parameters or a `where` clause.
    Generics,
    /// A `...` parameter.
    Variadic,
    /// A `self` parameter.
    SelfParameter,
    /// `#[cfg]` or `#[cfg_attr]` on a parameter.
    ConditionalParameter,
    /// A type that cannot cross a C call (`impl Trait`, `dyn Trait`, `_`, `!`).
    NotACType,
    /// An argument list that does not parse.
    MalformedArguments,
    /// An argument given twice.
    DuplicateArgument,
    /// An argument this attribute does not have.
    UnknownArgument,
    /// `symbol`, `version`, `stream`, `resolver` or `crate` without `= value`.
    ArgumentWithoutValue,
    /// `unverified = ...`.
    UnverifiedWithValue,
    /// `optional = ...`.
    OptionalWithValue,
    /// A `crate = ...` that is not a path (or a string literal of one).
    WrongCratePath,
    /// No `symbol = "cuName"`.
    MissingSymbol,
    /// A symbol that is not a string literal.
    SymbolNotALiteral,
    /// A symbol that is not a C identifier (empty, with a NUL, with other characters).
    SymbolNotAnIdentifier,
    /// A symbol with a `_v2`, `_ptsz` or `_ptds` suffix.
    SuffixedSymbol,
    /// A symbol the typedef table does not know, without `unverified`.
    UnknownSymbol,
    /// No `version = N`.
    MissingVersion,
    /// A version that is not an integer literal (`CUDA_VERSION`, an expression, a string).
    VersionNotALiteral,
    /// A version literal with a suffix (`3020u32`).
    VersionWithSuffix,
    /// A version that is not `1000 * major + 10 * minor` in range (negative, zero, `3025`).
    NotAVersion,
    /// A stream other than `"legacy"` or `"per_thread"`.
    WrongStream,
    /// A resolver other than `"driver"` or `"runtime"`.
    WrongResolver,
    /// No typedef of the symbol has the version (in the declaration's stream flavour).
    NotATypedef,
    /// The version is a typedef of the other stream flavour.
    WrongStreamFlavour,
    /// `stream = "per_thread"` on a symbol with no per-thread typedef.
    NoPerThreadVariant,
    /// A legacy declaration of a symbol that has per-thread typedefs only.
    PerThreadOnly,
    /// `unverified` on a declaration the table can check.
    NeedlessUnverified,
    /// `unverified` on a known symbol at a version no newer than the headers the table read, where
    /// the table knows which ABI the driver returns (and it is not the version's own typedef).
    UnverifiedWithinTable,
    /// A parameter count other than the typedef's.
    WrongArity,
    /// A parameter that is not a pointer where the C type has a `*`.
    NotAPointer,
    /// A return type where the typedef returns `void`.
    VoidReturn,
    /// No return type where the typedef returns a value (`CUresult`).
    MissingReturn,
    /// A type whose size or alignment is not the C type's.
    LayoutMismatch,
    /// A pointer to a type whose size or alignment is not the C pointee's (or, for a C `T **`,
    /// that of what the pointee points to).
    PointeeMismatch,
    /// A float where C has an integer, enum or pointer, or the other way round: a different
    /// register.
    FloatMismatch,
    /// A pointer that promises no write (`&T`, `*const T`, `Option<&T>`) where the C pointee is
    /// not `const`: the driver writes through it.
    ReadOnlyPointer,
    /// A type with invalid values (`bool`, `char`, `NonZero`, a reference, `NonNull`, a function
    /// pointer, an enum) where the driver produces the value: the status returned, or what it
    /// writes through a pointer.
    InvalidValue,
    /// Where C has a callback (a function pointer), a type that is no function pointer the
    /// driver can call with the C signature: not a function pointer, not `extern "C"`, another
    /// arity, or a parameter or return of another layout or class.
    CallbackMismatch,
}

impl MistakeKind {
    /// The stable snake_case name: `unknown_symbol`, `not_a_typedef`, `not_a_pointer`.
    pub const fn name(self) -> &'static str {
        match self {
            MistakeKind::NotADeclaration => "not_a_declaration",
            MistakeKind::FunctionBody => "function_body",
            MistakeKind::MissingUnsafe => "missing_unsafe",
            MistakeKind::MissingAbi => "missing_abi",
            MistakeKind::WrongAbi => "wrong_abi",
            MistakeKind::ArgumentsOnBlock => "arguments_on_block",
            MistakeKind::AttributesOnBlock => "attributes_on_block",
            MistakeKind::NotAFunction => "not_a_function",
            MistakeKind::MissingAttribute => "missing_attribute",
            MistakeKind::BlockWithoutAttribute => "block_without_attribute",
            MistakeKind::DuplicateAttribute => "duplicate_attribute",
            MistakeKind::ConditionalAttribute => "conditional_attribute",
            MistakeKind::SafeFunction => "safe_function",
            MistakeKind::ConstFunction => "const_function",
            MistakeKind::AsyncFunction => "async_function",
            MistakeKind::Generics => "generics",
            MistakeKind::Variadic => "variadic",
            MistakeKind::SelfParameter => "self_parameter",
            MistakeKind::ConditionalParameter => "conditional_parameter",
            MistakeKind::NotACType => "not_a_c_type",
            MistakeKind::MalformedArguments => "malformed_arguments",
            MistakeKind::DuplicateArgument => "duplicate_argument",
            MistakeKind::UnknownArgument => "unknown_argument",
            MistakeKind::ArgumentWithoutValue => "argument_without_value",
            MistakeKind::UnverifiedWithValue => "unverified_with_value",
            MistakeKind::OptionalWithValue => "optional_with_value",
            MistakeKind::WrongCratePath => "wrong_crate_path",
            MistakeKind::MissingSymbol => "missing_symbol",
            MistakeKind::SymbolNotALiteral => "symbol_not_a_literal",
            MistakeKind::SymbolNotAnIdentifier => "symbol_not_an_identifier",
            MistakeKind::SuffixedSymbol => "suffixed_symbol",
            MistakeKind::UnknownSymbol => "unknown_symbol",
            MistakeKind::MissingVersion => "missing_version",
            MistakeKind::VersionNotALiteral => "version_not_a_literal",
            MistakeKind::VersionWithSuffix => "version_with_suffix",
            MistakeKind::NotAVersion => "not_a_version",
            MistakeKind::WrongStream => "wrong_stream",
            MistakeKind::WrongResolver => "wrong_resolver",
            MistakeKind::NotATypedef => "not_a_typedef",
            MistakeKind::WrongStreamFlavour => "wrong_stream_flavour",
            MistakeKind::NoPerThreadVariant => "no_per_thread_variant",
            MistakeKind::PerThreadOnly => "per_thread_only",
            MistakeKind::NeedlessUnverified => "needless_unverified",
            MistakeKind::UnverifiedWithinTable => "unverified_within_table",
            MistakeKind::WrongArity => "wrong_arity",
            MistakeKind::NotAPointer => "not_a_pointer",
            MistakeKind::VoidReturn => "void_return",
            MistakeKind::MissingReturn => "missing_return",
            MistakeKind::LayoutMismatch => "layout_mismatch",
            MistakeKind::PointeeMismatch => "pointee_mismatch",
            MistakeKind::FloatMismatch => "float_mismatch",
            MistakeKind::ReadOnlyPointer => "read_only_pointer",
            MistakeKind::InvalidValue => "invalid_value",
            MistakeKind::CallbackMismatch => "callback_mismatch",
        }
    }
}

impl fmt::Display for MistakeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One mistake: its kind, the lowercase message that says what to write instead, and the tokens
/// it is about. The macro turns it into a compile error; the command prints the same text.
#[derive(Clone, Debug)]
pub struct Mistake {
    kind: MistakeKind,
    message: String,
    /// Lines that follow the message in the compiler's output (the symbol's typedefs).
    notes: Vec<String>,
    /// The first and last token it is about (as `syn::Error::new_spanned` keeps them: a span
    /// cannot be joined on stable inside a proc macro, and rustc underlines from one to the other).
    start: Span,
    end: Span,
}

impl Mistake {
    /// A mistake about `tokens`.
    pub(crate) fn new(
        kind: MistakeKind,
        tokens: impl ToTokens,
        message: impl Into<String>,
    ) -> Self {
        let mut iter = tokens.into_token_stream().into_iter();
        let start = iter.next().map_or_else(Span::call_site, |t| t.span());
        let end = iter.last().map_or(start, |t| t.span());
        Mistake {
            kind,
            message: message.into(),
            notes: Vec::new(),
            start,
            end,
        }
    }

    /// A mistake at one span.
    pub(crate) fn at(kind: MistakeKind, span: Span, message: impl Into<String>) -> Self {
        Mistake::between(kind, (span, span), message)
    }

    /// A mistake from one span to another.
    pub(crate) fn between(
        kind: MistakeKind,
        (start, end): (Span, Span),
        message: impl Into<String>,
    ) -> Self {
        Mistake {
            kind,
            message: message.into(),
            notes: Vec::new(),
            start,
            end,
        }
    }

    /// Adds `text` to the end of the message.
    pub(crate) fn append(&mut self, text: &str) {
        self.message.push_str(text);
    }

    /// Adds lines that the compiler shows after the message.
    pub(crate) fn add_note(&mut self, note: String) {
        self.notes.push(note);
    }

    /// The kind.
    pub fn kind(&self) -> MistakeKind {
        self.kind
    }

    /// The message, lowercase, saying what to write instead.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// What follows the message in the compiler's output, each a line or more (the symbol's
    /// typedefs, one a line): the detail a one-line report may leave out.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// Where it is: the tokens it is about, joined where the platform can (outside a proc macro,
    /// with proc-macro2's `span-locations`, `span().start().line` is its line).
    pub fn span(&self) -> Span {
        self.start.join(self.end).unwrap_or(self.start)
    }

    /// As a `syn::Error` spanning the same tokens.
    pub fn to_syn_error(&self) -> syn::Error {
        let mut text = self.message.clone();
        for note in &self.notes {
            text.push('\n');
            text.push_str(note);
        }
        syn::Error::new_spanned(Ends(self.start, self.end), text)
    }

    /// The `compile_error!` invocation that reports it.
    pub fn to_compile_error(&self) -> TokenStream {
        self.to_syn_error().into_compile_error()
    }
}

impl fmt::Display for Mistake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Mistake {}

/// Two tokens at the ends of a mistake's span, for `syn::Error::new_spanned`.
struct Ends(Span, Span);

impl ToTokens for Ends {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        for span in [self.0, self.1] {
            let mut punct = Punct::new('#', Spacing::Alone);
            punct.set_span(span);
            tokens.append(punct);
        }
    }
}

/// Where a mistake sits in its declaration, so that mistakes found by different passes come out
/// in source order: the attribute's arguments, then the signature from left to right.
pub(crate) mod place {
    /// A missing argument, reported at the whole argument list.
    pub(crate) const MISSING: u32 = 0;
    /// The `i`th argument (0-based) of the attribute.
    pub(crate) fn argument(i: usize) -> u32 {
        1 + u32::try_from(i).unwrap_or(9_998).min(9_998)
    }
    /// A second `#[cuda_entry(...)]`.
    pub(crate) const ATTRIBUTE: u32 = 10_000;
    /// `const`, `async`, the safety and the ABI of the signature.
    pub(crate) const CONST: u32 = 20_000;
    pub(crate) const ASYNC: u32 = 20_001;
    pub(crate) const SAFETY: u32 = 20_002;
    pub(crate) const ABI: u32 = 20_003;
    pub(crate) const GENERICS: u32 = 20_004;
    /// The parameter list as a whole (its length).
    pub(crate) const PARAMETERS: u32 = 20_005;
    /// The `i`th input of the signature; the variadic, return type and body come after all.
    pub(crate) fn input(i: usize) -> u32 {
        20_006 + u32::try_from(i).unwrap_or(9_000).min(9_000)
    }
    pub(crate) const VARIADIC: u32 = 30_000;
    pub(crate) const RETURN: u32 = 30_001;
    pub(crate) const BODY: u32 = 30_002;
}

/// The mistakes of one declaration, each with its place; read back in source order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Found(Vec<(u32, Mistake)>);

impl Found {
    pub(crate) fn push(&mut self, place: u32, mistake: Mistake) {
        self.0.push((place, mistake));
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether a mistake of `kind` was found.
    pub(crate) fn has(&self, kind: MistakeKind) -> bool {
        self.0.iter().any(|(_, m)| m.kind == kind)
    }

    /// In source order (stable: mistakes at one place keep the order they were found in).
    pub(crate) fn into_sorted(mut self) -> Vec<Mistake> {
        self.0.sort_by_key(|(place, _)| *place);
        self.0.into_iter().map(|(_, m)| m).collect()
    }
}
