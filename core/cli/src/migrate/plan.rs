//! What each binding becomes: the typedef its export implements (`cuda_entry_table::export`:
//! `cuMemAlloc_v2` is `cuMemAlloc` at 3020), the `#[cuda_entry]` declaration to use, and where
//! the signature disagrees with that typedef: the macro's own rules (arity, pointers), and the
//! sizes of the types whose size a reader can tell (`u32`, `usize`, pointers).

use cuda_entry_table::rules::{self as shared, twin};
use cuda_entry_table::{Typedef, export};

use super::binding::Linked;
use super::find::{Call, Found};
use crate::decl::{function_name, snake_case};
use crate::rust_type::{callback_with_integers, passed_unproven, qualified, uninit};
use cuda_entry_table::rules::table_range;

/// One binding and what it becomes.
#[derive(Debug)]
pub(crate) struct Plan {
    pub(crate) line: usize,
    pub(crate) column: usize,
    pub(crate) origin: Origin,
    /// The export it binds (`cuMemAlloc_v2`).
    pub(crate) export: String,
    /// The typedef that export implements; `None` for an export the table does not know.
    pub(crate) target: Option<Target>,
    /// Where the signature disagrees with the typedef, or why the export is not known.
    pub(crate) notes: Vec<Note>,
}

/// Where a binding is.
#[derive(Debug)]
pub(crate) enum Origin {
    /// The `function`th driver function of the `block`th block of [`Found::blocks`].
    Extern { block: usize, function: usize },
    /// A call through cudarc's `sys`, by the path written.
    Cudarc { path: String },
    /// The `field`th field of the `strukt`th struct of loaded functions.
    Loaded { strukt: usize, field: usize },
    /// The `index`th wrapper function that loads its export by name.
    Wrapper { index: usize },
}

/// The typedef a binding's export implements, and the declaration of it to use.
#[derive(Debug)]
pub(crate) struct Target {
    pub(crate) symbol: &'static str,
    pub(crate) version: u32,
    pub(crate) per_thread: bool,
    /// The typedef's name (`PFN_cuMemAlloc_v3020`).
    pub(crate) typedef: String,
    /// The attribute: `#[cuda_entry(symbol = "cuMemAlloc", version = 3020)]`.
    pub(crate) attribute: String,
    /// The declaration to use, attribute included, as text.
    pub(crate) declaration: String,
}

/// The kind of the note refusing a binding whose status type is an enum with no variant for a
/// code it does not list ([`status`](super::status)).
pub(crate) const STATUS_REFUSED: &str = "status_enum_without_unknown";

/// What is said about a binding: a stable kind name and the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Note {
    pub(crate) kind: &'static str,
    pub(crate) message: String,
}

/// What a binding's plan comes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    /// Its declaration agrees with the typedef: `--write` migrates it.
    Ready,
    /// It disagrees with the typedef: reported, left as it is.
    Disagrees,
    /// The table does not know its export: reported, left as it is.
    Unknown,
}

impl Plan {
    pub(crate) fn status(&self) -> Status {
        match (&self.target, self.notes.is_empty()) {
            (None, _) => Status::Unknown,
            (Some(_), true) => Status::Ready,
            (Some(_), false) => Status::Disagrees,
        }
    }
}

/// The plans of everything found, extern functions first, then calls, each in source order.
pub(crate) fn plans(found: &Found, entries: Entries) -> Vec<Plan> {
    let mut plans = Vec::new();
    for (b, block) in found.blocks.iter().enumerate() {
        for (f, linked) in block.functions.iter().enumerate() {
            let origin = Origin::Extern {
                block: b,
                function: f,
            };
            plans.push(linked_plan(linked, &block.abi, origin, entries));
        }
    }
    for (s, strukt) in found.loaded.structs.iter().enumerate() {
        for (f, field) in strukt.fields.iter().enumerate() {
            let origin = Origin::Loaded {
                strukt: s,
                field: f,
            };
            plans.push(linked_plan(&field.function, "C", origin, entries));
        }
    }
    for (index, wrapper) in found.loaded.wrappers.iter().enumerate() {
        plans.push(linked_plan(
            wrapper,
            "C",
            Origin::Wrapper { index },
            entries,
        ));
    }
    plans.extend(found.calls.iter().map(|c| call_plan(c, entries)));
    plans
}

/// Whether the declarations `migrate` writes are `optional` (docs/decisions.md, "A migrated
/// binding is optional").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Entries {
    /// `optional`: a bindings crate declares what a driver may have, not what the program needs,
    /// so its entries set no requirement and `preload_all` does not fail on them (the default).
    Optional,
    /// Required (`--required`): every function declared is one the program needs.
    Required,
}

/// The attribute for the typedef an export implements: the base symbol, the typedef's version,
/// the stream wherever the facade's `per-thread-default-stream` feature could otherwise pick
/// the other variant than the export linked, and `optional` unless the entries are required.
fn attribute(t: &Typedef, entries: Entries) -> String {
    let stream = if t.stream.is_per_thread() {
        ", stream = \"per_thread\""
    } else if twin(t).is_some() {
        ", stream = \"legacy\""
    } else {
        ""
    };
    let optional = match entries {
        Entries::Optional => ", optional",
        Entries::Required => "",
    };
    format!(
        "#[cuda_entry(symbol = \"{}\", version = {}{stream}{optional})]",
        t.symbol, t.version
    )
}

/// The typedef of `name`, or the note that the table does not know it.
fn typedef_of(name: &str) -> Result<&'static Typedef, Note> {
    export(name).and_then(|e| e.typedef()).ok_or_else(|| Note {
        kind: "unknown_export",
        message: format!(
            "`{name}` is no driver export the typedef table{} knows: which typedef it \
             implements cannot be told, so it is not migrated; declare it from its typedef in \
             cudaTypedefs.h (`cuda-entry decl`)",
            table_range()
        ),
    })
}

/// The status type of every declaration `migrate` writes: `cuda_entry::types::CUresult`.
pub(crate) const STATUS_TYPE: &str = "::cuda_entry::types::CUresult";

/// The plan of a function declared in Rust: an `extern` item, a loaded field, a wrapper.
fn linked_plan(f: &Linked, abi: &str, origin: Origin, entries: Entries) -> Plan {
    let mut plan = Plan {
        line: f.line,
        column: f.column,
        origin,
        export: f.export.clone(),
        target: None,
        notes: Vec::new(),
    };
    let t = match typedef_of(&f.export) {
        Ok(t) => t,
        Err(note) => {
            plan.notes.push(note);
            return plan;
        }
    };
    // A status passed in is declared as the crate's `CUresult`, as the return is (the shim
    // converts the binding's value).
    let params: Vec<String> = f
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let status = t.params.get(i).is_some_and(|c| c.ty.spelling == "CUresult");
            let ty = if status { STATUS_TYPE } else { &p.ty };
            format!("{}: {ty}", p.name.as_deref().unwrap_or("_"))
        })
        .collect();
    let variadic = if f.variadic { ", ..." } else { "" };
    // A status is declared as the crate's `CUresult`, which holds every `int`: the binding's own
    // type may be an enum, which cannot (the shim gives the caller that type back).
    let ret = f.ret.as_ref().map_or_else(String::new, |r| {
        let r = if t.ret.spelling == "CUresult" {
            STATUS_TYPE
        } else {
            r
        };
        format!(" -> {r}")
    });
    let signature = format!(
        "unsafe extern \"{abi}\" fn {}({}{variadic}){ret};",
        f.name,
        params.join(", ")
    );
    let attribute = attribute(t, entries);
    let mut declaration = String::new();
    for attr in &f.attrs {
        declaration.push_str(attr);
        declaration.push('\n');
    }
    declaration.push_str(&format!("{attribute}\n{}{signature}", f.vis));
    plan.notes = disagreements(&attribute, &signature);
    plan.target = Some(target(t, attribute, declaration));
    plan
}

fn target(t: &'static Typedef, attribute: String, declaration: String) -> Target {
    Target {
        symbol: t.symbol,
        version: t.version,
        per_thread: t.stream.is_per_thread(),
        typedef: t.typedef_name(),
        attribute,
        declaration,
    }
}

/// Where a declaration disagrees with its typedef: the mistakes the macro's rules find in it
/// (the layouts the tokens tell among them).
fn disagreements(attribute: &str, signature: &str) -> Vec<Note> {
    let mut notes = Vec::new();
    let args = attribute
        .strip_prefix("#[cuda_entry(")
        .and_then(|a| a.strip_suffix(")]"))
        .unwrap_or_default();
    match (args.parse(), signature.parse()) {
        (Ok(args), Ok(item)) => match shared::parse_item(args, item) {
            Ok(entry) => {
                let mistakes = entry.validate().err().unwrap_or_default();
                notes.extend(mistakes.iter().map(|m| Note {
                    kind: m.kind().name(),
                    message: m.message().to_owned(),
                }));
            }
            Err(m) => notes.push(Note {
                kind: m.kind().name(),
                message: m.message().to_owned(),
            }),
        },
        _ => notes.push(Note {
            kind: "not_read",
            message: "the declaration does not read back as Rust".to_owned(),
        }),
    }
    notes
}

fn call_plan(call: &Call, entries: Entries) -> Plan {
    let mut plan = Plan {
        line: call.line,
        column: call.column,
        origin: Origin::Cudarc {
            path: call.path.clone(),
        },
        export: call.export.clone(),
        target: None,
        notes: Vec::new(),
    };
    let t = match typedef_of(&call.export) {
        Ok(t) => t,
        Err(note) => {
            plan.notes.push(note);
            return plan;
        }
    };
    let mut names: Vec<String> = Vec::new();
    let params: Vec<String> = t
        .params
        .iter()
        .map(|p| {
            let mut name = snake_case(p.name);
            while names.contains(&name) {
                name.push('_');
            }
            names.push(name.clone());
            let ty = if p.ty.spelling == "CUresult" {
                STATUS_TYPE.to_owned()
            } else if let Some(callback) = callback_with_integers(&p.ty, STATUS_TYPE, &mut |c| {
                qualified(c.spelling, &call.module)
            }) {
                // cudarc's callbacks take its enums: what the driver passes is any `int`.
                callback
            } else if let Some(ty) = passed_unproven(&p.ty, "::cuda_entry") {
                // cudarc's enums and records carry no proof of how they are passed.
                ty
            } else {
                let ty = qualified(p.ty.spelling, &call.module);
                // cudarc's structs and enums carry no proof that they hold every value the
                // driver may write.
                uninit(&p.ty, &ty).unwrap_or(ty)
            };
            format!("{name}: {ty}")
        })
        .collect();
    let attribute = attribute(t, entries);
    // cudarc's `sys::CUresult` is an enum, which cannot hold every status the driver returns.
    let ret = if t.ret.spelling == "CUresult" {
        STATUS_TYPE.to_owned()
    } else {
        qualified(t.ret.spelling, &call.module)
    };
    let declaration = format!(
        "{attribute}\npub unsafe extern \"C\" fn {}({}) -> {ret};",
        function_name(t.symbol),
        params.join(", "),
    );
    if call.arguments != t.params.len() {
        plan.notes.push(Note {
            kind: "wrong_arity",
            message: format!(
                "the call passes {} argument{}, `{}` takes {}",
                call.arguments,
                if call.arguments == 1 { "" } else { "s" },
                t.typedef_name(),
                t.params.len()
            ),
        });
    }
    plan.target = Some(target(t, attribute, declaration));
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exports_name_their_typedef() {
        let attr = |name: &str| attribute(typedef_of(name).expect("known"), Entries::Required);
        assert_eq!(
            attr("cuMemAlloc_v2"),
            "#[cuda_entry(symbol = \"cuMemAlloc\", version = 3020)]"
        );
        assert_eq!(
            attr("cuCtxCreate_v4"),
            "#[cuda_entry(symbol = \"cuCtxCreate\", version = 12050)]"
        );
        assert_eq!(
            attr("cuStreamSynchronize_ptsz"),
            "#[cuda_entry(symbol = \"cuStreamSynchronize\", version = 7000, stream = \"per_thread\")]"
        );
        // The legacy export of a symbol with a per-thread variant says so.
        assert_eq!(
            attr("cuStreamSynchronize"),
            "#[cuda_entry(symbol = \"cuStreamSynchronize\", version = 2000, stream = \"legacy\")]"
        );
        assert_eq!(
            attr("cuInit"),
            "#[cuda_entry(symbol = \"cuInit\", version = 2000)]"
        );
        // A bindings crate's entries are optional unless the program says otherwise.
        assert_eq!(
            attribute(
                typedef_of("cuMemAlloc_v2").expect("known"),
                Entries::Optional
            ),
            "#[cuda_entry(symbol = \"cuMemAlloc\", version = 3020, optional)]"
        );
        let unknown = typedef_of("cuMemAlloc_v9").expect_err("unknown");
        assert_eq!(unknown.kind, "unknown_export");
    }
}
