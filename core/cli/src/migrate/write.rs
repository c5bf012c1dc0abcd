//! `--write`: each `extern` block's driver functions that agree with their typedef become a
//! `#[cuda_entry]` block, every other byte of the file staying as it was.
//!
//! A migrated function keeps its name for the call sites, as a shim: the `#[cuda_entry]`
//! declaration is written under a new name (`<name>_entry`), and a function with the old name and
//! the old signature (`unsafe extern "C" fn cuMemAlloc_v2(...) -> CUresult`) calls it, so that
//! calls and function pointers compile unchanged. The shim's body, which turns the entry's
//! `Result` into the `CUresult` the old declaration returned, is built in one place:
//! [`adapter`]; the status becomes the binding's own type as [`status`](super::status) reads
//! that type, through a helper written once per scope where it takes more than an `as`.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::ops::Range;

use super::binding::Linked;
use super::find::Found;
use super::plan::{Origin, Plan, STATUS_TYPE, Status};
use super::status::{Conversion, EnumMatch, Resolver};
use crate::decl::signature;
use crate::rust_type::{callback_with_integers, passed_unproven, qualified, uninit};

/// One replacement of a file's bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Edit {
    pub(crate) range: Range<usize>,
    pub(crate) text: String,
}

/// How a group of migrated functions is written: where, and what their shims are.
pub(crate) struct Group<'a> {
    /// The indentation of the group's first line.
    pub(crate) indent: &'a str,
    /// The ABI of the entries' block: `C` or `system`.
    pub(crate) abi: &'a str,
    /// Attributes every entry and shim keeps (an `extern` block's `cfg` and lint levels).
    pub(crate) kept: &'a [String],
    /// Whether the shims are `extern` functions (an `extern` item's, a loaded field's), or Rust
    /// functions (a wrapper's own signature).
    pub(crate) extern_shims: bool,
    /// What the shim's doc says the old function did: `linked` or `loaded`.
    pub(crate) replaced: &'static str,
}

/// The ready plans of `origin`'s kind, with the function each is about.
fn ready<'a>(
    plans: &'a [Plan],
    function: impl Fn(&Origin) -> Option<&'a Linked>,
) -> Vec<(&'a Linked, &'a Plan)> {
    plans
        .iter()
        .filter(|p| p.status() == Status::Ready)
        .filter_map(|p| function(&p.origin).map(|f| (f, p)))
        .collect()
}

/// The function declared in Rust a binding of `found` is, if it is one.
pub(crate) fn function<'a>(found: &'a Found, origin: &Origin) -> Option<&'a Linked> {
    match origin {
        Origin::Extern { block, function } => found
            .blocks
            .get(*block)
            .and_then(|b| b.functions.get(*function)),
        Origin::Loaded { strukt, field } => found
            .loaded
            .structs
            .get(*strukt)
            .and_then(|s| s.fields.get(*field))
            .map(|f| &f.function),
        Origin::Wrapper { index } => found.loaded.wrappers.get(*index),
        Origin::Cudarc { .. } => None,
    }
}

/// Where a binding's types are read from: its `extern` block, its struct, its wrapper.
pub(crate) fn origin_at(found: &Found, origin: &Origin) -> Option<usize> {
    match origin {
        Origin::Extern { block, .. } => found.blocks.get(*block).map(|b| b.range.start),
        Origin::Loaded { strukt, .. } => found.loaded.structs.get(*strukt).map(|s| s.start),
        Origin::Wrapper { index } => found.loaded.wrappers.get(*index).map(|w| w.range.start),
        Origin::Cudarc { .. } => None,
    }
}

/// The edits that migrate every ready function of `found`, in order, not overlapping; the
/// binding's types are read through `types`.
pub(crate) fn edits(
    source: &str,
    found: &Found,
    plans: &[Plan],
    types: &Resolver<'_>,
) -> Vec<Edit> {
    let mut taken = Names::new(found.idents.clone());
    let mut helpers = Helpers::default();
    // The ready functions of each block, in one pass (not one pass per block).
    let mut ready_in: Vec<Vec<(&Linked, &Plan)>> = vec![Vec::new(); found.blocks.len()];
    for plan in plans.iter().filter(|p| p.status() == Status::Ready) {
        if let Origin::Extern { block, function } = plan.origin
            && let Some(linked) = found
                .blocks
                .get(block)
                .and_then(|b| b.functions.get(function))
        {
            ready_in[block].push((linked, plan));
        }
    }
    let mut edits = Vec::new();
    for (block, ready) in found.blocks.iter().zip(ready_in) {
        if ready.is_empty() {
            continue;
        }
        let group = Group {
            indent: &block.indent,
            abi: &block.abi,
            kept: &block.kept,
            extern_shims: true,
            replaced: "linked",
        };
        let mut context = Context {
            types,
            at: block.range.start,
            scope: Scope::Of(types.scope(block.range.start)),
            helpers: &mut helpers,
            taken: &mut taken,
        };
        let generated = generate(&group, &ready, &mut context);
        if ready.len() == block.items {
            // Nothing else is declared there: the block goes, its `#[link]` with it.
            edits.push(Edit {
                range: block.range.clone(),
                text: generated,
            });
        } else {
            for (f, _) in &ready {
                edits.push(Edit {
                    range: whole_lines(source, &f.range),
                    text: String::new(),
                });
            }
            edits.push(Edit {
                range: block.range.end..block.range.end,
                text: format!("\n\n{}{generated}", block.indent),
            });
        }
    }
    edits.extend(unlinked(source, found, plans).0);
    for (s, strukt) in found.loaded.structs.iter().enumerate() {
        let ready = ready(plans, |origin| match origin {
            Origin::Loaded { strukt, field } if *strukt == s => found.loaded.structs[s]
                .fields
                .get(*field)
                .map(|f| &f.function),
            _ => None,
        });
        if ready.is_empty() {
            continue;
        }
        let module = super::loaded::module_name(&strukt.name, &mut taken.taken);
        let mut context = Context {
            types,
            at: strukt.start,
            scope: Scope::Entries(s),
            helpers: &mut helpers,
            taken: &mut taken,
        };
        edits.push(Edit {
            range: strukt.start..strukt.start,
            text: entries_module(strukt, &module, &ready, &mut context),
        });
        for field in &strukt.fields {
            if !ready.iter().any(|(f, _)| std::ptr::eq(*f, &field.function)) {
                continue;
            }
            let shim = format!("{module}::{} as {}", field.function.name, field.pointer);
            edits.push(Edit {
                range: field.init.clone(),
                text: if field.fallible {
                    format!("::core::result::Result::Ok({shim})")
                } else {
                    shim
                },
            });
        }
    }
    for (i, wrapper) in found.loaded.wrappers.iter().enumerate() {
        let ready = ready(plans, |origin| match origin {
            Origin::Wrapper { index } if *index == i => Some(wrapper),
            _ => None,
        });
        if ready.is_empty() {
            continue;
        }
        let indent = indent_at(source, wrapper.range.start);
        let group = Group {
            indent: &indent,
            abi: "C",
            kept: &[],
            extern_shims: false,
            replaced: "loaded",
        };
        let mut context = Context {
            types,
            at: wrapper.range.start,
            scope: Scope::Of(types.scope(wrapper.range.start)),
            helpers: &mut helpers,
            taken: &mut taken,
        };
        edits.push(Edit {
            range: wrapper.range.clone(),
            text: generate(&group, &ready, &mut context),
        });
    }
    edits.sort_by_key(|e| (e.range.start, e.range.end));
    edits
}

/// The indentation of the line `offset` is on.
fn indent_at(source: &str, offset: usize) -> String {
    let start = source[..offset].rfind('\n').map_or(0, |i| i + 1);
    source[start..offset]
        .chars()
        .take_while(|c| c.is_whitespace())
        .collect()
}

/// The edits that remove `#[link(name = "cuda")]` from the blocks that keep no function of
/// libcuda after the migration (a block migrated whole goes with its attribute), and a line for
/// each one kept, naming the functions that still need it.
pub(crate) fn unlinked(source: &str, found: &Found, plans: &[Plan]) -> (Vec<Edit>, Vec<String>) {
    let mut edits = Vec::new();
    let mut kept = Vec::new();
    for link in &found.links {
        let migrated: Vec<&str> = plans
            .iter()
            .filter(|p| p.status() == Status::Ready)
            .filter(
                |p| matches!(p.origin, Origin::Extern { block, .. } if Some(block) == link.block),
            )
            .map(|p| p.export.as_str())
            .collect();
        if link
            .block
            .is_some_and(|b| migrated.len() == found.blocks[b].items)
        {
            continue;
        }
        // Driver functions left as they are, and libcuda's other exports (`cudbg...`).
        let remaining: Vec<&str> = link
            .functions
            .iter()
            .map(String::as_str)
            .filter(|f| f.starts_with("cu") && !migrated.contains(f))
            .collect();
        if remaining.is_empty() {
            edits.push(Edit {
                range: whole_lines(source, &link.range),
                text: String::new(),
            });
        } else {
            kept.push(format!(
                "line {}: `#[link(name = \"cuda\")]` is kept: the block still declares {}, \
                 not migrated",
                link.line,
                remaining
                    .iter()
                    .map(|f| format!("`{f}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    (edits, kept)
}

/// The module of a struct's entries and the shims its fields are filled with, and the
/// indentation the struct's first line had (it follows).
fn entries_module(
    strukt: &super::loaded::LoadedStruct,
    module: &str,
    ready: &[(&Linked, &Plan)],
    context: &mut Context<'_, '_>,
) -> String {
    let inner = format!("{}    ", strukt.indent);
    let group = Group {
        indent: &inner,
        abi: "C",
        kept: &[],
        extern_shims: true,
        replaced: "loaded",
    };
    // The shims are the module's, for the constructor of the struct beside it.
    let shims: Vec<Linked> = ready
        .iter()
        .map(|(f, _)| Linked {
            vis: "pub(super) ".to_owned(),
            ..(*f).clone()
        })
        .collect();
    let ready: Vec<(&Linked, &Plan)> = shims.iter().zip(ready.iter().map(|(_, p)| *p)).collect();
    let generated = generate(&group, &ready, context);
    let i = &strukt.indent;
    format!(
        "/// The `#[cuda_entry]` declarations behind the functions of [`{name}`] (written by\n\
         {i}/// `cuda-entry migrate`): each field of `{name}` is filled with the shim of its name.\n\
         {i}#[allow(non_snake_case)]\n\
         {i}mod {module} {{\n\
         {i}    #[allow(unused_imports)]\n\
         {i}    use super::*;\n\n\
         {inner}{generated}\n\
         {i}}}\n\n{i}",
        name = strukt.name,
    )
}

/// `source` with `edits` applied.
pub(crate) fn apply(source: &str, edits: &[Edit]) -> String {
    let mut out = String::with_capacity(source.len());
    let mut at = 0;
    for edit in edits {
        out.push_str(&source[at..edit.range.start]);
        out.push_str(&edit.text);
        at = edit.range.end;
    }
    out.push_str(&source[at..]);
    out
}

/// `range`, widened to its whole lines (their line break included) when nothing but whitespace
/// shares them; as it is otherwise.
pub(crate) fn whole_lines(source: &str, range: &Range<usize>) -> Range<usize> {
    let start = source[..range.start].rfind('\n').map_or(0, |i| i + 1);
    let end = source[range.end..]
        .find('\n')
        .map_or(source.len(), |i| range.end + i + 1);
    let alone =
        source[start..range.start].trim().is_empty() && source[range.end..end].trim().is_empty();
    if alone { start..end } else { range.clone() }
}

/// The names taken in a file, and for each base name the number its next fresh name tries.
#[derive(Debug)]
struct Names {
    taken: HashSet<String>,
    next: HashMap<String, usize>,
}

impl Names {
    fn new(taken: HashSet<String>) -> Names {
        Names {
            taken,
            next: HashMap::new(),
        }
    }
}

/// A name not taken in the file, and now taken: `base`, else `base_2`, `base_3`... Each base
/// keeps its counter, so a fresh name costs O(1) however many share the base (amortised: a
/// number is skipped only when the file already uses that name).
fn free_name(base: String, names: &mut Names) -> String {
    if names.taken.insert(base.clone()) {
        return base;
    }
    let counter = names.next.entry(base.clone()).or_insert(2);
    loop {
        let candidate = format!("{base}_{counter}");
        *counter += 1;
        if names.taken.insert(candidate.clone()) {
            return candidate;
        }
    }
}

/// Where a helper is written: a scope of the file (its module, a block), or the module of a
/// struct's entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Scope {
    Of(usize),
    Entries(usize),
}

/// A helper the shims of a scope call.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Helper {
    /// The `match` of an enum (of the first of its definitions under exclusive `cfg`s).
    Enum((usize, usize, String)),
    /// The conversion bounded by `cuda_entry::FromDriver`.
    FromDriver,
}

/// The helpers of each scope, each written once, with the first group that calls it.
#[derive(Default)]
struct Helpers {
    names: HashMap<(Scope, Helper), String>,
    /// What is named but not yet written, by scope.
    pending: HashMap<Scope, String>,
}

/// What a group's shims are written with.
struct Context<'t, 'h> {
    types: &'h Resolver<'t>,
    /// Where the group's types are read: its block, struct or wrapper.
    at: usize,
    scope: Scope,
    helpers: &'h mut Helpers,
    taken: &'h mut Names,
}

impl Context<'_, '_> {
    /// The name of `helper` in this scope, its text (`text(name)`) to be written once.
    fn helper(
        &mut self,
        helper: Helper,
        base: String,
        text: impl FnOnce(&str) -> String,
    ) -> String {
        let key = (self.scope, helper);
        if let Some(name) = self.helpers.names.get(&key) {
            return name.clone();
        }
        let name = free_name(base, self.taken);
        self.helpers
            .pending
            .entry(self.scope)
            .or_default()
            .push_str(&text(&name));
        self.helpers.names.insert(key, name.clone());
        name
    }

    /// How a status `value` (an `i32`) becomes the binding's `ret`: the text before and after
    /// it.
    fn status_as(&mut self, ret: &str) -> (String, String) {
        match &*self.types.conversion(self.at, ret) {
            Conversion::Integer if ret.trim() == "i32" => (String::new(), String::new()),
            Conversion::Integer => (String::new(), format!(" as {ret}")),
            Conversion::Enum(matches) => {
                let key = matches[0].key.clone();
                let base = format!("{}_from_status", lower_words(&matches[0].name));
                let name = self.helper(Helper::Enum(key), base, |name| {
                    enum_helper(name, ret, matches)
                });
                (format!("{name}("), ")".to_owned())
            }
            Conversion::Newtype { braced: false } => (format!("{ret}("), " as _)".to_owned()),
            Conversion::Newtype { braced: true } => (format!("{ret} {{ 0: "), " as _ }".to_owned()),
            // Refused: the plan is not ready, no shim is written; were one, it would not build.
            Conversion::Unseen | Conversion::Refused(_) => {
                let name = self.helper(
                    Helper::FromDriver,
                    "status_from_driver".to_owned(),
                    from_driver_helper,
                );
                (format!("{name}::<{ret}>("), ")".to_owned())
            }
        }
    }

    /// The argument passing the binding's status `name`, of type `ty`, as the crate's
    /// `CUresult`.
    fn status_argument(&mut self, name: &str, ty: &str) -> String {
        match &*self.types.conversion(self.at, ty) {
            // An enum's discriminant, an integer: an `as`.
            Conversion::Integer | Conversion::Enum(_) | Conversion::Refused(_) => {
                format!("{STATUS_TYPE}({name} as _)")
            }
            Conversion::Newtype { .. } => format!("{STATUS_TYPE}({name}.0 as _)"),
            Conversion::Unseen => status_bytes(name, ty),
        }
    }
}

/// `name` in lower case, a `_` where a lower-case letter or digit meets an upper-case one:
/// `cudaError_enum` is `cuda_error_enum`, `CUresult` `curesult`.
fn lower_words(name: &str) -> String {
    let mut out = String::new();
    let mut previous: Option<char> = None;
    for c in name.chars() {
        if c.is_ascii_uppercase()
            && previous.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit())
        {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
        previous = Some(c);
    }
    out
}

/// The helper turning a status into the enum of `matches` (one, or one per exclusive `cfg`),
/// named `ret` where it is written: a code the enum does not list becomes its unknown variant.
fn enum_helper(name: &str, ret: &str, matches: &[EnumMatch]) -> String {
    let mut out = String::new();
    for m in matches {
        let _ = writeln!(
            out,
            "\n/// The driver's status as `{ret}` (the enum `{}`): a code it does not list is\n\
             /// `{}`, never a value the enum cannot hold.",
            m.name, m.unknown
        );
        for cfg in &m.cfgs {
            let _ = writeln!(out, "{cfg}");
        }
        let _ = writeln!(
            out,
            "#[allow(dead_code)]\nfn {name}(status: i32) -> {ret} {{\n    match status {{"
        );
        for (cfgs, value, variant) in &m.arms {
            for cfg in cfgs {
                let _ = writeln!(out, "        {cfg}");
            }
            let _ = match value {
                Some(code) => writeln!(out, "        {code} => {ret}::{variant},"),
                None => writeln!(
                    out,
                    "        code if code == {ret}::{variant} as i32 => {ret}::{variant},"
                ),
            };
        }
        let _ = writeln!(out, "        _ => {ret}::{},\n    }}\n}}", m.unknown);
    }
    out
}

/// The helper turning a status into a type `migrate` cannot see into: only a type proven to hold
/// every 4-byte value compiles, never an enum.
fn from_driver_helper(name: &str) -> String {
    format!(
        "\n/// The driver's status as `T`, a type `cuda-entry migrate` could not read: this compiles\n\
         /// only for a `T` proven to hold every value (`cuda_entry::FromDriver`), never an enum.\n\
         #[allow(dead_code)]\n\
         fn {name}<T: ::cuda_entry::FromDriver>(status: i32) -> T {{\n    \
             const {{ assert!(::core::mem::size_of::<T>() == 4, \"a CUresult is 4 bytes\") }};\n    \
             // SAFETY: `T` is 4 bytes (asserted), and any 4 bytes are a `T` (`FromDriver`).\n    \
             unsafe {{ ::core::ptr::from_ref(&status).cast::<T>().read_unaligned() }}\n\
         }}\n"
    )
}

/// The `#[cuda_entry]` block of `ready` and a shim for each, indented as `block` (the first line
/// is not: it takes the block's place), and the helpers of the scope not yet written.
fn generate(
    block: &Group<'_>,
    ready: &[(&Linked, &Plan)],
    context: &mut Context<'_, '_>,
) -> String {
    let mut out = String::new();
    out.push_str("#[::cuda_entry::cuda_entry]\n");
    let _ = writeln!(out, "unsafe extern \"{}\" {{", block.abi);
    let mut shims = String::new();
    for (f, plan) in ready {
        let Some(target) = &plan.target else { continue };
        let entry = free_name(
            format!("{}_entry", f.name.trim_start_matches("r#")),
            context.taken,
        );
        let names: Vec<String> = f
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| p.name.clone().unwrap_or_else(|| format!("arg{i}")))
            .collect();
        let params: Vec<String> = names
            .iter()
            .zip(&f.params)
            .map(|(name, p)| format!("{name}: {}", p.ty))
            .collect();
        let ret = f.ret.as_deref().unwrap_or("()");
        // A status the caller passes in (`cuGetErrorString(CUresult error, ..)`) is declared as
        // the crate's `CUresult` too; the shim reads the binding's own value into it.
        let typedef = cuda_entry_table::find(target.symbol, target.version, target.per_thread);
        let is_status = |i: usize| {
            typedef
                .and_then(|t| t.params.get(i))
                .is_some_and(|p| p.ty.spelling == "CUresult")
        };
        // What the entry declares where the binding's own type is not proven to hold what the
        // driver produces, and how the shim passes the binding's value: a struct or an enum the
        // driver writes, as a `MaybeUninit` of it (the pointer cast); a callback taking an enum,
        // with integers there (the function pointer transmuted: the same ABI); an enum or a
        // record passed by value, as its integer or the crate's record (transmuted: the size is
        // checked, and the ABI is the C type's).
        let proven = |i: usize, ty: &str| -> Option<(String, Passed)> {
            let c = &typedef?.params.get(i)?.ty;
            if let Some(callback) =
                callback_with_integers(c, STATUS_TYPE, &mut |c| qualified(c.spelling, "self"))
            {
                return Some((callback, Passed::Transmuted));
            }
            if let Some(ty) = uninit(c, ty) {
                return Some((ty, Passed::Cast));
            }
            // An enum or a record passed by value: its integer, the crate's record.
            passed_unproven(c, "::cuda_entry").map(|ty| (ty, Passed::Transmuted))
        };
        let entry_params: Vec<String> = names
            .iter()
            .zip(&f.params)
            .enumerate()
            .map(|(i, (name, p))| {
                let ty = if is_status(i) {
                    STATUS_TYPE.to_owned()
                } else {
                    proven(i, &p.ty).map_or_else(|| p.ty.clone(), |(ty, _)| ty)
                };
                format!("{name}: {ty}")
            })
            .collect();
        let args: Vec<String> = names
            .iter()
            .zip(&f.params)
            .enumerate()
            .map(|(i, (name, p))| {
                if is_status(i) {
                    return context.status_argument(name, &p.ty);
                }
                match proven(i, &p.ty) {
                    Some((_, Passed::Cast)) => format!("{name}.cast()"),
                    Some((entry, Passed::Transmuted)) => {
                        format!("::core::mem::transmute::<{}, {entry}>({name})", p.ty)
                    }
                    None => name.clone(),
                }
            })
            .collect();
        // The entry: the kept attributes of the block and the function's `cfg`s.
        let _ = writeln!(
            out,
            "    /// `{}` at version {} (`{}`), for `{}`.",
            target.symbol, target.version, target.typedef, f.name
        );
        let cfgs = f.attrs.iter().filter(|a| a.starts_with("#[cfg("));
        for attr in block.kept.iter().chain(cfgs) {
            let _ = writeln!(out, "    {attr}");
        }
        // The entry is named after the binding: rustc's lint asks for snake case.
        if entry.chars().any(|c| c.is_ascii_uppercase()) {
            out.push_str("    #[allow(non_snake_case)]\n");
        }
        let _ = writeln!(out, "    {}", target.attribute);
        // A typedef returning `CUresult` gives a checked call (`Result<(), Error>`); its entry
        // declares the status as a type that holds every `int`.
        let checked = cuda_entry_table::find(target.symbol, target.version, target.per_thread)
            .is_some_and(|t| t.ret.spelling == "CUresult");
        let entry_ret = if checked && f.ret.is_some() {
            STATUS_TYPE
        } else {
            ret
        };
        out.push_str(&signature(
            "    ",
            &format!("{}fn {entry}", f.vis),
            &entry_params,
            entry_ret,
            ";",
        ));
        // The shim: the function's comments and attributes, its name, its signature.
        shims.push('\n');
        for comment in &f.comments {
            let _ = writeln!(shims, "{comment}");
        }
        let (docs, attrs): (Vec<&String>, Vec<&String>) = f
            .attrs
            .iter()
            .partition(|a| a.starts_with("///") || a.starts_with("#[doc"));
        for doc in &docs {
            let _ = writeln!(shims, "{doc}");
        }
        if !docs.is_empty() {
            shims.push_str("///\n");
        }
        let _ = writeln!(
            shims,
            "/// Calls `{}` at version {} through [`{entry}`];\n/// the {} this replaces {} `{}`.",
            target.symbol,
            target.version,
            if block.replaced == "linked" {
                "`extern` declaration"
            } else {
                "function"
            },
            block.replaced,
            plan.export
        );
        let has_safety = docs.iter().any(|d| d.contains("# Safety"));
        if !f.safe && !has_safety {
            let _ = writeln!(
                shims,
                "///\n/// # Safety\n///\n/// The contract of the driver function `{}`.",
                target.symbol
            );
        }
        for attr in block.kept.iter().chain(attrs) {
            let _ = writeln!(shims, "{attr}");
        }
        shims.push_str("#[allow(dead_code, non_snake_case, clippy::too_many_arguments)]\n");
        let head = format!(
            "{}{}{}fn {}",
            f.vis,
            if f.safe { "" } else { "unsafe " },
            if block.extern_shims {
                format!("extern \"{}\" ", block.abi)
            } else {
                String::new()
            },
            f.name
        );
        shims.push_str(&signature("", &head, &params, ret, " {"));
        let into = context.status_as(ret);
        for line in adapter(&entry, &args, f.safe, checked, &into).lines() {
            let _ = writeln!(shims, "    {line}");
        }
        shims.push_str("}\n");
    }
    out.push('}');
    out.push('\n');
    out.push_str(&shims);
    if let Some(helpers) = context.helpers.pending.remove(&context.scope) {
        out.push_str(&helpers);
    }
    let text = out.trim_end();
    let mut indented = String::new();
    for (i, line) in text.lines().enumerate() {
        if i > 0 {
            indented.push('\n');
            if !line.is_empty() {
                indented.push_str(block.indent);
            }
        }
        indented.push_str(line);
    }
    indented
}

/// How a shim passes a binding's value to an entry that declares another type for it.
#[derive(Clone, Copy)]
enum Passed {
    /// `*mut T` to `*mut MaybeUninit<T>`.
    Cast,
    /// A callback taking enums to the same callback taking integers.
    Transmuted,
}

/// The argument passing the binding's status `name` of a type `migrate` cannot see into (`ty`,
/// asserted 4 bytes: an integer, an enum) as the crate's `CUresult`: its `int`, read from its
/// bytes, which any `i32` holds. It is evaluated within the `unsafe` block of the entry's call
/// ([`adapter`]).
fn status_bytes(name: &str, ty: &str) -> String {
    format!(
        "{{\n    \
             const {{ assert!(::core::mem::size_of::<{ty}>() == 4, \"a CUresult is 4 bytes\") }};\n    \
             // Within the call's `unsafe`: `{ty}` is 4 bytes (asserted), any of which an `i32`\n    \
             // holds.\n    \
             {STATUS_TYPE}(::core::ptr::from_ref(&{name}).cast::<i32>().read_unaligned())\n\
         }}"
    )
}

/// The body of a shim: calls `entry` with `args` and gives back what the replaced declaration
/// returned. The one place that knows what an entry returns.
///
/// An entry whose typedef returns `CUresult` is a checked call, `Result<(), cuda_entry::Error>`
/// (`checked`): `Ok` is `CUDA_SUCCESS` (0); an `Err` is the driver's own status when the call
/// returned one (`Error::driver_status`), else the entry could not be resolved (no driver, one
/// older than the typedef, the symbol not served) and it becomes `CUDA_ERROR_NOT_FOUND` (500),
/// what a driver answers for a function it does not have. Any other entry returns
/// `Result<R, cuda_entry::Error>`, `R` the declared return type, whose `Ok` is passed on. The
/// entry declares `cuda_entry::types::CUresult`, which holds every status; the status becomes
/// the binding's own type as `into` writes it (`into.0`, the status, `into.1`: `status as
/// CUresult`, `cuda_error_enum_from_status(status)`), never by reading its bytes into a type
/// that may not hold them.
pub(crate) fn adapter(
    entry: &str,
    args: &[String],
    safe: bool,
    checked: bool,
    into: &(String, String),
) -> String {
    let call = format!("{entry}({})", args.join(", "));
    let contract = if safe {
        "the `extern` block declared it `safe`"
    } else {
        "the caller upholds the driver function's contract, as with the declaration this\n\
         // replaces"
    };
    let (before, after) = into;
    if checked {
        let status = format!(
            "match unsafe {{ {call} }} {{\n    \
                 ::core::result::Result::Ok(()) => 0,\n    \
                 // The driver's status; unresolved (`{entry}::pointer()` says why):\n    \
                 // CUDA_ERROR_NOT_FOUND, as for a missing function.\n    \
                 ::core::result::Result::Err(error) => error.driver_status().unwrap_or(500),\n\
             }}"
        );
        // The binding's status is an `i32`: the status itself.
        if before.is_empty() && after.is_empty() {
            return format!("// SAFETY: {contract}.\n{status}\n");
        }
        return format!(
            "// SAFETY: {contract}.\nlet status: i32 = {status};\n{before}status{after}\n"
        );
    }
    format!(
        "// SAFETY: {contract}.\n\
         match unsafe {{ {call} }} {{\n    \
             ::core::result::Result::Ok(returned) => returned,\n    \
             // Unresolved (`{entry}::pointer()` says why):\n    \
             // CUDA_ERROR_NOT_FOUND, as for a missing function.\n    \
             ::core::result::Result::Err(_) => {before}500{after},\n\
         }}\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_alone_are_removed_whole() {
        let source = "a\n    fn f();\nb fn g(); c\n";
        let f = source.find("fn f").expect("f")..source.find("();").expect(";") + 3;
        assert_eq!(&source[whole_lines(source, &f)], "    fn f();\n");
        let g = source.find("fn g").expect("g")..source.find("g();").expect(";") + 4;
        assert_eq!(&source[whole_lines(source, &g)], "fn g();");
    }

    #[test]
    fn helpers_are_named_after_their_enum_in_snake_case() {
        assert_eq!(lower_words("cudaError_enum"), "cuda_error_enum");
        assert_eq!(lower_words("CUresult"), "curesult");
        assert_eq!(lower_words("CUDA_ERROR"), "cuda_error");
        assert_eq!(lower_words("Status2Code"), "status2_code");
    }

    #[test]
    fn names_are_not_taken_twice() {
        let mut taken = Names::new(["a_entry".to_owned(), "a_entry_3".to_owned()].into());
        assert_eq!(free_name("a_entry".to_owned(), &mut taken), "a_entry_2");
        assert_eq!(free_name("a_entry".to_owned(), &mut taken), "a_entry_4");
        assert_eq!(free_name("b_entry".to_owned(), &mut taken), "b_entry");
    }

    #[test]
    fn a_fresh_name_stays_short_however_many_share_its_base() {
        // N modules of one file each binding `cuMemAlloc_v2`: every entry wants the same name.
        const N: usize = 1000;
        let base = "cuMemAlloc_v2_entry";
        let mut taken = Names::new([base.to_owned(), format!("{base}_3")].into());
        let names: Vec<String> = (0..N)
            .map(|_| free_name(base.to_owned(), &mut taken))
            .collect();
        let distinct: HashSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), N, "no name given twice");
        assert!(!names.iter().any(|n| n == base || *n == format!("{base}_3")));
        // The base and a number: a name's length (and so the cost of making it) does not grow
        // with how many came before.
        let longest = names.iter().map(String::len).max().unwrap_or(0);
        assert!(longest <= base.len() + 5, "a name of {longest} bytes");
    }
}
