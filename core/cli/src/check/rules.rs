//! The macro's rules, as `check` applies them: what `#[cuda_entry(...)]`'s arguments say, whether
//! the declaration's form is one the macro accepts, and what the typedef table makes of it.
//!
//! This file is `check`'s one interface to those rules, and a stand-in: the macro's own rules
//! module (`cuda_entry_table::rules`) replaces what is inside it. Everything else in `check` sees
//! only [`declared`], [`against_table`], [`Form`], [`Mistake`] and [`Table`], and never how an
//! argument is spelled or what the table accepts.

use cuda_entry_table::Version;
use syn::{Attribute, LitInt, LitStr, Meta};

use super::Request;
use crate::common::{flavour, typedef_list, unknown_symbol};

/// A mistake the macro refuses a declaration for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Mistake {
    /// A short, stable name (`macro_rejects`, `unknown_symbol`, `not_a_typedef`), for JSON.
    pub(super) kind: &'static str,
    /// What is wrong and what to write instead.
    pub(super) message: String,
}

impl Mistake {
    fn new(kind: &'static str, message: impl Into<String>) -> Mistake {
        Mistake {
            kind,
            message: message.into(),
        }
    }
}

/// Where a `#[cuda_entry(...)]` sits, as the source scan found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Form {
    /// A declaration ending with `;`, alone or in a `#[cuda_entry]` extern block.
    Declaration,
    /// A function with a body.
    WithBody,
    /// A declaration in an extern block that has no `#[cuda_entry]` of its own.
    InUnmarkedBlock,
    /// A second (or later) `#[cuda_entry(...)]` on the same declaration.
    Repeated,
}

/// One declaration as the macro reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Declared {
    /// What it asks for, or why its arguments are refused.
    pub(super) request: Result<Request, Mistake>,
    /// Why its form is refused, whatever its arguments.
    pub(super) form: Option<Mistake>,
}

/// What the typedef table makes of a request the macro accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Table {
    /// Whether the table has the symbol at all (`unverified` ones may not).
    pub(super) known: bool,
    /// What is fine but worth saying (an older typedef, an unverified signature).
    pub(super) notes: Vec<String>,
}

/// Reads the declaration `attr` sits on, in `form`.
pub(super) fn declared(attr: &Attribute, form: Form) -> Declared {
    let form = match form {
        Form::Declaration => None,
        Form::WithBody => Some(
            "the macro rejects a body: a declaration ends with `;`, the driver provides the \
             function",
        ),
        Form::InUnmarkedBlock => Some(
            "the `extern` block has no `#[cuda_entry]`: without it the declarations are linked \
             against libcuda instead of resolved",
        ),
        Form::Repeated => Some("duplicate `#[cuda_entry(...)]`: give it once"),
    };
    Declared {
        request: arguments(attr),
        form: form.map(|m| Mistake::new("macro_rejects", m)),
    }
}

/// The arguments of `#[cuda_entry(...)]`, or the reason the macro rejects them.
fn arguments(attr: &Attribute) -> Result<Request, Mistake> {
    let rejects = |m: String| Mistake::new("macro_rejects", m);
    if !matches!(attr.meta, Meta::List(_)) {
        return Err(rejects(
            "`#[cuda_entry]` without arguments: write `#[cuda_entry(symbol = \"cuName\", version \
             = N)]` on the declaration"
                .to_owned(),
        ));
    }
    let mut symbol = None;
    let mut version = None;
    let mut per_thread = false;
    let mut runtime = false;
    let mut unverified = false;
    let mut seen: Vec<String> = Vec::new();
    attr.parse_nested_meta(|meta| {
        let name = meta
            .path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        // As the macro: a second `version = ...` is refused, not silently the one kept.
        if seen.contains(&name) {
            return Err(meta.error(format!("duplicate argument `{name}`: give it once")));
        }
        seen.push(name.clone());
        match name.as_str() {
            "symbol" => symbol = Some(meta.value()?.parse::<LitStr>()?.value()),
            "version" => {
                let lit = meta.value()?.parse::<LitInt>()?;
                if !lit.suffix().is_empty() {
                    return Err(meta.error("the version must be a plain integer literal"));
                }
                let v = lit.base10_parse::<u64>()?;
                version = Some(Version::from_u64(v).map_err(|e| meta.error(e))?);
            }
            "stream" => match meta.value()?.parse::<LitStr>()?.value().as_str() {
                "legacy" => per_thread = false,
                "per_thread" => per_thread = true,
                other => {
                    return Err(meta.error(format!(
                        "unknown stream `{other}`: `legacy` or `per_thread`"
                    )));
                }
            },
            "resolver" => match meta.value()?.parse::<LitStr>()?.value().as_str() {
                "driver" => runtime = false,
                "runtime" => runtime = true,
                other => {
                    return Err(
                        meta.error(format!("unknown resolver `{other}`: `driver` or `runtime`"))
                    );
                }
            },
            "unverified" => unverified = true,
            other => return Err(meta.error(format!("unknown argument `{other}`"))),
        }
        Ok(())
    })
    .map_err(|e| rejects(format!("the macro rejects the arguments: {e}")))?;
    let symbol =
        symbol.ok_or_else(|| rejects("the macro rejects it: no `symbol = \"cuName\"`".into()))?;
    let version =
        version.ok_or_else(|| rejects("the macro rejects it: no `version = N`".into()))?;
    Ok(Request {
        symbol,
        version,
        per_thread,
        runtime,
        unverified,
    })
}

/// What the typedef table makes of `request`: refused as the macro refuses it, or accepted with
/// notes.
pub(super) fn against_table(request: &Request) -> Result<Table, Mistake> {
    let symbol = &request.symbol;
    let version = request.version.get();
    let known = !cuda_entry_table::lookup(symbol).is_empty();
    let mut notes = Vec::new();
    match (known, request.unverified) {
        (false, false) => {
            return Err(Mistake::new(
                "unknown_symbol",
                format!("the macro rejects it: {}", unknown_symbol(symbol)),
            ));
        }
        (true, true) => {
            let group = flavour(symbol, request.per_thread);
            if group.iter().any(|t| t.version >= version) {
                return Err(Mistake::new(
                    "macro_rejects",
                    format!(
                        "the macro rejects it: remove `unverified`, the typedef table knows \
                         `{symbol}` at this version or a newer one"
                    ),
                ));
            }
            notes.push(
                "unverified: a version newer than the typedef table, the signature is not checked"
                    .to_owned(),
            );
        }
        (true, false) => {
            let group = flavour(symbol, request.per_thread);
            if !group.iter().any(|t| t.version == version) {
                let valid = if group.is_empty() {
                    format!(
                        "`{symbol}` has no {} typedef",
                        if request.per_thread {
                            "per-thread"
                        } else {
                            "legacy"
                        }
                    )
                } else {
                    format!("valid: {}", typedef_list(&group))
                };
                return Err(Mistake::new(
                    "not_a_typedef",
                    format!(
                        "the macro rejects it: no {}typedef of `{symbol}` has version {version} \
                         ({valid})",
                        if request.per_thread {
                            "per-thread "
                        } else {
                            ""
                        },
                    ),
                ));
            }
            let newer: Vec<String> = group
                .iter()
                .filter(|t| t.version > version)
                .map(|t| t.version.to_string())
                .collect();
            if !newer.is_empty() {
                notes.push(format!(
                    "not the newest typedef: `{symbol}` also has {} (fine when this is the \
                     signature written; newer ABIs exist)",
                    newer.join(", ")
                ));
            }
        }
        (false, true) => notes
            .push("unverified: not in the typedef table, the signature is not checked".to_owned()),
    }
    Ok(Table { known, notes })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(attribute: &str) -> Declared {
        let item: syn::ForeignItemFn =
            syn::parse_str(&format!("{attribute} fn f();")).expect("parses");
        declared(&item.attrs[0], Form::Declaration)
    }

    fn request(symbol: &str, version: u32, per_thread: bool, unverified: bool) -> Request {
        Request {
            symbol: symbol.to_owned(),
            version: Version::new(version).expect("a version"),
            per_thread,
            runtime: false,
            unverified,
        }
    }

    #[test]
    fn arguments_are_read_as_the_macro_reads_them() {
        let d = read(
            r#"#[cuda_entry(symbol = "cuLaunchKernel", version = 7000, stream = "per_thread", resolver = "runtime")]"#,
        );
        assert_eq!(d.form, None);
        let r = d.request.expect("read");
        assert_eq!(
            (r.symbol.as_str(), r.version.get(), r.per_thread, r.runtime),
            ("cuLaunchKernel", 7000, true, true)
        );
    }

    #[test]
    fn bad_versions_are_refused_by_the_one_version_rule() {
        for (version, shown) in [
            ("3021", "`3021` is not a CUDA version"),
            ("0", "`0` is not a CUDA version"),
            ("100000", "between 1000 and 99990"),
            ("4294967290", "`4294967290` is not a CUDA version"),
            ("99999999999999999999999", "too large"),
        ] {
            let d = read(&format!(
                "#[cuda_entry(symbol = \"cuMemAlloc\", version = {version})]"
            ));
            let m = d.request.expect_err(version);
            assert_eq!(m.kind, "macro_rejects");
            assert!(m.message.contains(shown), "{version}: {}", m.message);
        }
    }

    #[test]
    fn duplicate_arguments_are_refused_as_the_macro_refuses_them() {
        for args in [
            r#"symbol = "cuMemAlloc", version = 3020, version = 2000"#,
            r#"symbol = "cuMemAlloc", symbol = "cuMemFree", version = 3020"#,
            r#"symbol = "cuMemAlloc", version = 3020, unverified, unverified"#,
            r#"symbol = "cuLaunchKernel", version = 7000, stream = "legacy", stream = "per_thread""#,
        ] {
            let m = read(&format!("#[cuda_entry({args})]"))
                .request
                .expect_err(args);
            assert_eq!(m.kind, "macro_rejects");
            assert!(
                m.message.contains("duplicate argument"),
                "{args}: {}",
                m.message
            );
        }
    }

    #[test]
    fn the_form_and_the_arguments_are_refused_apart() {
        let item: syn::ForeignItemFn = syn::parse_str("#[cuda_entry] fn f();").expect("parses");
        let d = declared(&item.attrs[0], Form::WithBody);
        assert!(d.form.is_some_and(|m| m.message.contains("rejects a body")));
        let d = read("#[cuda_entry]");
        assert_eq!(d.form, None);
        assert!(
            d.request
                .is_err_and(|m| m.message.contains("without arguments"))
        );
    }

    #[test]
    fn the_table_refuses_and_notes() {
        let refused = |r: &Request| against_table(r).map(|_| ()).map_err(|m| m.kind);
        assert_eq!(
            refused(&request("cuMemAloc", 3020, false, false)),
            Err("unknown_symbol")
        );
        assert_eq!(
            refused(&request("cuMemAlloc", 3010, false, false)),
            Err("not_a_typedef")
        );
        assert_eq!(
            refused(&request("cuMemAlloc", 3020, false, true)),
            Err("macro_rejects")
        );
        let old = against_table(&request("cuCtxCreate", 3020, false, false)).expect("accepted");
        assert!(old.known);
        assert_eq!(old.notes.len(), 1);
        assert!(old.notes[0].contains("11040, 12050"), "{:?}", old.notes);
        let future = against_table(&request("cuFuture", 14000, false, true)).expect("accepted");
        assert!(!future.known);
        assert_eq!(future.notes.len(), 1);
    }
}
