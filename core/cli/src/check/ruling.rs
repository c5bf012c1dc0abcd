//! The ruling on a declaration: the macro's rules as `check` applies them,
//! `cuda_entry_table::rules`, the one module the macro itself runs, so that the command rejects
//! the same declarations with the same message and kind name. What only the command says is added
//! here: the table's notes (an older typedef, an unverified signature) on a declaration the rules
//! accept.

use cuda_entry_table::rules::{self, Argument, Checked, Mistake, Resolver};
use cuda_entry_table::{DefaultStream, manifest};

use super::{Judged, Rejection, Request};

/// A source declaration as the macro judges it: `block` holds the mistakes of the `extern` block
/// it sits in, which make the macro reject every declaration of the block.
pub(super) fn declaration(decl: &rules::Declaration, block: &[Mistake]) -> Judged {
    let asked = request(&decl.args);
    let mut mistakes: Vec<Rejection> = block.iter().map(|m| rejection(m, true)).collect();
    match decl.validate() {
        Ok(checked) if mistakes.is_empty() => accepted(&checked, true),
        Ok(_) => Judged::Rejected { asked, mistakes },
        Err(found) => {
            mistakes.extend(found.iter().map(|m| rejection(m, true)));
            Judged::Rejected { asked, mistakes }
        }
    }
}

/// The mistakes of an `extern` block that declares nothing: rejected all the same.
pub(super) fn block(block: &[Mistake]) -> Judged {
    Judged::Rejected {
        asked: None,
        mistakes: block.iter().map(|m| rejection(m, true)).collect(),
    }
}

/// A binary's manifest record, judged by the same rules (`Declaration::from_record`: the
/// signature of the typedef it names stands in for the one the record does not keep). Its symbol
/// and version are held against this table, which may be newer than the binary's.
pub(super) fn record(request: Request) -> Judged {
    let record = manifest::Record {
        symbol: &request.symbol,
        version: request.version.get(),
        stream: DefaultStream::per_thread(request.per_thread),
        resolver: if request.runtime {
            Resolver::Runtime
        } else {
            Resolver::Driver
        },
        unverified: request.unverified,
        optional: request.optional,
        package: "",
    };
    let decl = rules::Declaration::from_record(&record);
    match decl.validate() {
        Ok(checked) => accepted(&checked, false),
        Err(found) => Judged::Rejected {
            mistakes: found.iter().map(|m| rejection(m, false)).collect(),
            asked: Some(request),
        },
    }
}

/// What the arguments ask for, when they name a symbol and a version (a rejected declaration may
/// still: it counts towards the minimum driver).
fn request(args: &rules::Arguments) -> Option<Request> {
    let (Argument::Given(_, symbol), Argument::Given(_, version)) = (&args.symbol, &args.version)
    else {
        return None;
    };
    Some(Request {
        symbol: symbol.clone(),
        version: *version,
        per_thread: args.stream.value().is_some_and(|s| s.is_per_thread()),
        runtime: args.resolver.value() == Some(&Resolver::Runtime),
        unverified: matches!(args.unverified, Argument::Given(..)),
        optional: matches!(args.optional, Argument::Given(..)),
    })
}

/// A declaration the rules accept: what it asks for, the table's notes on it, and, for a source
/// declaration (`source`), what its types leave to the compiler (a binary's was compiled).
fn accepted(checked: &Checked<'_>, source: bool) -> Judged {
    let request = Request {
        symbol: checked.symbol.to_owned(),
        version: checked.version,
        per_thread: checked.per_thread(),
        runtime: checked.resolver == Resolver::Runtime,
        unverified: checked.typedef.is_none(),
        optional: checked.optional,
    };
    Judged::Accepted {
        request,
        notes: notes(checked),
        compiler: if source {
            checked.left_to_compiler()
        } else {
            Vec::new()
        },
    }
}

/// What is fine but worth saying: an older typedef than the symbol's newest, or a signature no
/// table checked.
fn notes(checked: &Checked<'_>) -> Vec<String> {
    let symbol = checked.symbol;
    let Some(typedef) = checked.typedef else {
        let why = if cuda_entry_table::lookup(symbol).is_empty() {
            "not in the typedef table"
        } else {
            "a version newer than the typedef table"
        };
        return vec![format!("unverified: {why}, the signature is not checked")];
    };
    let newer: Vec<String> = cuda_entry_table::flavour(symbol, typedef.stream.is_per_thread())
        .filter(|t| t.version > typedef.version)
        .map(|t| t.version.to_string())
        .collect();
    if newer.is_empty() {
        return Vec::new();
    }
    vec![format!(
        "not the newest typedef: `{symbol}` also has {} (fine when this is the signature written; \
         newer ABIs exist)",
        newer.join(", ")
    )]
}

/// A mistake as `check` reports it: its kind's name and message as the macro's, and its line and
/// column in the source (`located`), where rustc would point.
fn rejection(mistake: &Mistake, located: bool) -> Rejection {
    let start = mistake.span().start();
    Rejection {
        kind: mistake.kind().name(),
        message: mistake.message().to_owned(),
        at: located.then_some((start.line, start.column + 1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cuda_entry_table::Version;
    use cuda_entry_table::rules::EntryItem;

    /// The judgement of the one declaration in `source`.
    fn judged(source: &str) -> Judged {
        let file: syn::File = syn::parse_str(source).expect("parses");
        let item = EntryItem::from_item(&file.items[0]).expect("a declaration");
        let block: Vec<Mistake> = item.mistakes().cloned().collect();
        declaration(item.declarations().next().expect("one"), &block)
    }

    fn mistakes(judged: Judged) -> Vec<(&'static str, String)> {
        match judged {
            Judged::Rejected { mistakes, .. } => {
                mistakes.into_iter().map(|m| (m.kind, m.message)).collect()
            }
            Judged::Accepted { request, .. } => panic!("accepted: {request:?}"),
        }
    }

    fn request(symbol: &str, version: u32, per_thread: bool, unverified: bool) -> Request {
        Request {
            symbol: symbol.to_owned(),
            version: Version::new(version).expect("a version"),
            per_thread,
            runtime: false,
            unverified,
            optional: false,
        }
    }

    #[test]
    fn duplicate_arguments_are_rejected_as_the_macro_rejects_them() {
        for (args, name) in [
            (
                r#"symbol = "cuMemAlloc", version = 3020, version = 2000"#,
                "version",
            ),
            (
                r#"symbol = "cuMemAlloc", symbol = "cuMemFree", version = 3020"#,
                "symbol",
            ),
            (
                r#"symbol = "cuMemAlloc", version = 3020, unverified, unverified"#,
                "unverified",
            ),
            (
                r#"symbol = "cuMemAlloc", version = 3020, stream = "legacy", stream = "per_thread""#,
                "stream",
            ),
        ] {
            let source = format!(
                "#[cuda_entry({args})] unsafe extern \"C\" fn f(p: *mut u64, n: usize) -> i32;"
            );
            let found = mistakes(judged(&source));
            assert!(
                found.contains(&(
                    "duplicate_argument",
                    format!("duplicate argument `{name}`: give it once")
                )),
                "{args}: {found:?}"
            );
        }
    }

    #[test]
    fn mistakes_are_located_where_rustc_points() {
        let Judged::Rejected { asked, mistakes } = judged(
            "\n#[cuda_entry(symbol = \"cuMemAlloc\", version = 3000)]\n\
             unsafe extern \"C\" fn f(p: *mut u64, n: usize) -> i32;",
        ) else {
            panic!("accepted")
        };
        assert_eq!(mistakes.len(), 1);
        assert_eq!(mistakes[0].kind, "not_a_typedef");
        assert_eq!(mistakes[0].at, Some((2, 47)));
        // What it asked for still counts towards the minimum driver.
        assert_eq!(asked.map(|r| r.version.get()), Some(3000));
    }

    #[test]
    fn records_are_judged_by_the_same_rules() {
        let kinds = |r: Request| match record(r) {
            Judged::Accepted { .. } => Vec::new(),
            Judged::Rejected { mistakes, .. } => {
                assert!(mistakes.iter().all(|m| m.at.is_none()));
                mistakes.into_iter().map(|m| m.kind).collect()
            }
        };
        assert_eq!(
            kinds(request("cuMemAloc", 3020, false, false)),
            ["unknown_symbol"]
        );
        assert_eq!(
            kinds(request("cuMemAlloc", 3010, false, false)),
            ["not_a_typedef"]
        );
        assert_eq!(
            kinds(request("cuMemAlloc", 3020, false, true)),
            ["needless_unverified"]
        );
        assert_eq!(
            kinds(request("cuMemAlloc\x1b[2K", 3020, false, false)),
            ["symbol_not_an_identifier"]
        );
        for accepted in [
            request("cuCtxCreate", 12050, false, false),
            request("cuLaunchKernel", 7000, true, false),
            request("cuMemcpy", 7000, true, false),
            request("cuFuture", 14000, false, true),
        ] {
            assert_eq!(kinds(accepted.clone()), Vec::<&str>::new(), "{accepted:?}");
        }
        // The record's optional flag is the declaration's.
        let optional = Request {
            optional: true,
            ..request("cuCtxCreate", 12050, false, false)
        };
        assert!(matches!(
            record(optional),
            Judged::Accepted { request, .. } if request.optional
        ));
    }

    #[test]
    fn the_table_notes_what_is_accepted() {
        let notes = |r: Request| match record(r) {
            Judged::Accepted { notes, .. } => notes,
            Judged::Rejected { mistakes, .. } => panic!("{mistakes:?}"),
        };
        let old = notes(request("cuCtxCreate", 3020, false, false));
        assert_eq!(old.len(), 1);
        assert!(old[0].contains("also has 11040, 12050"), "{old:?}");
        assert_eq!(notes(request("cuCtxCreate", 12050, false, false)), [""; 0]);
        assert_eq!(
            notes(request("cuFuture", 14000, false, true)),
            ["unverified: not in the typedef table, the signature is not checked"]
        );
        assert_eq!(
            notes(request("cuMemAlloc", 13080, false, true)),
            ["unverified: a version newer than the typedef table, the signature is not checked"]
        );
    }

    #[test]
    fn optional_is_read_from_the_arguments() {
        let source = |args: &str| {
            format!("#[cuda_entry({args})] unsafe extern \"C\" fn f(dptr: u64) -> i32;")
        };
        let Judged::Accepted { request, .. } =
            judged(&source(r#"symbol = "cuMemFree", version = 3020, optional"#))
        else {
            panic!("rejected")
        };
        assert!(request.optional);
        // Refused, it still says what it asked for, optional included.
        let Judged::Rejected { asked, .. } =
            judged(&source(r#"symbol = "cuMemFree", version = 3010, optional"#))
        else {
            panic!("accepted")
        };
        assert!(asked.is_some_and(|r| r.optional));
    }
}
