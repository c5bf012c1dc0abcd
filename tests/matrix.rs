//! Issue 47, the matrix through the real macro: declarations for every position a table
//! parameter can take (by value, behind a pointer the driver reads or writes, at either level of
//! a `T **`, a callback's parameters and return, the function's return) crossed with a catalogue
//! of Rust types, compiled with the real `#[cuda_entry]` and held to a verdict computed apart from
//! the macro's rules: from the language's facts (`matrix/types.rs`) and the driver's
//! (`matrix/positions.rs`), in `matrix/oracle.rs`. Every cell where they differ is a bug (a false
//! accept: soundness; a false refusal: usability), unless `matrix/exceptions.rs` documents why.
//!
//! - `matrix` (about a minute warm): the cells expected to compile in one crate, the others in
//!   a second, both checked with `cargo check`; each error is mapped to the cell whose lines
//!   hold it. It prints the cell counts.
//! - `miri` (run by the Miri stage of tests/run-all.sh, not by a plain `cargo test`: it needs
//!   `cargo +nightly miri` and minutes): every cell the macro accepts
//!   where the driver writes, called through its own `Pfn` on a hostile stand-in driver that
//!   writes adversarial bytes, each value then read as its declared type under Miri: no
//!   undefined behaviour expected; a hand-written broken cell must show some (the harness can
//!   fail). `cargo test --test matrix -- --ignored --exact miri`.
//! - the other tests are quick: the oracle against the facts the issue states, the positions
//!   against the table's spellings and layouts.

#[path = "matrix/build.rs"]
mod build;
#[path = "matrix/catalogue.rs"]
mod catalogue;
#[path = "matrix/exceptions.rs"]
mod exceptions;
#[path = "matrix/json.rs"]
mod json;
#[path = "matrix/miri.rs"]
mod miri;
#[path = "matrix/oracle.rs"]
mod oracle;
#[path = "matrix/positions.rs"]
mod positions;
#[path = "matrix/types.rs"]
mod types;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Instant;

use catalogue::Cell;
use positions::{C, Pointee, Position, Varied};

/// Where the macro and the oracle stand on one cell.
#[derive(Debug)]
pub(crate) struct Row {
    pub(crate) cell: Cell,
    pub(crate) expected: oracle::Verdict,
    pub(crate) found: Result<(), String>,
    /// The documented exception that covers a disagreement.
    pub(crate) exception: Option<&'static str>,
}

impl Row {
    pub(crate) fn agrees(&self) -> bool {
        self.expected.is_ok() == self.found.is_ok()
    }
}

/// The matrix over the positions `wanted` selects: each cell's expected and found verdicts.
pub(crate) fn run(wanted: &dyn Fn(&Position) -> bool, log: &mut String) -> Vec<Row> {
    let positions = positions::all();
    let cells: Vec<Cell> = catalogue::cells(&positions)
        .into_iter()
        .filter(|c| wanted(&positions[c.position]))
        .collect();
    let expected: BTreeMap<usize, oracle::Verdict> = cells
        .iter()
        .map(|c| (c.index, oracle::verdict(&positions[c.position], &c.ty)))
        .collect();
    let (accept, refuse): (Vec<&Cell>, Vec<&Cell>) =
        cells.iter().partition(|c| expected[&c.index].is_ok());
    // The two crates are checked side by side, each in a target folder of its own (one folder
    // would take them in turn); the dependencies are built once per folder and kept.
    let scratch = build::scratch();
    let mut found = build::Found::new();
    let parts: Vec<(Result<build::Found, String>, String)> = std::thread::scope(|scope| {
        let jobs: Vec<_> = [(&accept, "matrix-accept"), (&refuse, "matrix-refuse")]
            .into_iter()
            .map(|(cells, name)| {
                let (scratch, positions) = (&scratch, &positions);
                scope.spawn(move || {
                    let mut log = String::new();
                    let target = scratch.join(format!("target-{name}"));
                    let found = build::verdicts(
                        cells,
                        positions,
                        &scratch.join(name),
                        name,
                        &target,
                        &mut log,
                    );
                    (found, log)
                })
            })
            .collect();
        jobs.into_iter().map(|j| j.join().unwrap()).collect()
    });
    for (part, part_log) in parts {
        log.push_str(&part_log);
        found.extend(part.unwrap_or_else(|e| panic!("{e}\n{log}")));
    }
    let exceptions = exceptions::all();
    cells
        .into_iter()
        .map(|cell| {
            let expected = expected[&cell.index].clone();
            let found = found
                .remove(&cell.index)
                .unwrap_or_else(|| Err("(no verdict)".to_owned()));
            let exception = if expected.is_ok() == found.is_ok() {
                None
            } else {
                exceptions::find(
                    &exceptions,
                    &positions[cell.position],
                    &cell.ty,
                    found.is_ok(),
                )
                .map(|e| e.why)
            };
            Row {
                cell,
                expected,
                found,
                exception,
            }
        })
        .collect()
}

/// The first line of rustc's message, without the typedef list the macro appends.
fn first_line(message: &str) -> String {
    let line = message.lines().next().unwrap_or("");
    let line = line
        .strip_prefix("error[E0080]: evaluation panicked: ")
        .or_else(|| line.strip_prefix("error: "))
        .unwrap_or(line);
    if line.len() > 400 {
        format!("{}...", &line[..400])
    } else {
        line.to_owned()
    }
}

/// The report: the counts, then every disagreement grouped by position.
pub(crate) fn report(rows: &[Row], seconds: f64) -> (String, usize) {
    let positions = positions::all();
    let accepted = rows.iter().filter(|r| r.found.is_ok()).count();
    let disagreements: Vec<&Row> = rows
        .iter()
        .filter(|r| !r.agrees() && r.exception.is_none())
        .collect();
    let excepted = rows.iter().filter(|r| r.exception.is_some()).count();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "matrix: {} cells, {accepted} accepted, {} refused, {} disagreements, {excepted} documented \
         exceptions ({} expected accepted, {} expected refused; {seconds:.0} s)",
        rows.len(),
        rows.len() - accepted,
        disagreements.len(),
        rows.iter().filter(|r| r.expected.is_ok()).count(),
        rows.iter().filter(|r| r.expected.is_err()).count(),
    );
    let mut last = usize::MAX;
    for row in &disagreements {
        let position = &positions[row.cell.position];
        if row.cell.position != last {
            last = row.cell.position;
            let _ = writeln!(out, "\n{} ({})", position.title(), position.why);
        }
        let items = row.cell.ty.items();
        let spelled = if items.is_empty() {
            format!("`{}`", row.cell.ty.spell())
        } else {
            format!("`{}` (with `{}`)", row.cell.ty.spell(), items.join(" "))
        };
        match (&row.expected, &row.found) {
            (Err(why), Ok(())) => {
                let _ = writeln!(
                    out,
                    "  FALSE ACCEPT  {} {spelled}: expected refused ({why}); the macro accepts",
                    row.cell.name(&positions)
                );
            }
            (Ok(()), Err(message)) => {
                let _ = writeln!(
                    out,
                    "  FALSE REFUSAL {} {spelled}: expected accepted; the macro refuses: {}",
                    row.cell.name(&positions),
                    first_line(message)
                );
            }
            _ => unreachable!(),
        }
    }
    let strange: Vec<&Row> = rows
        .iter()
        .filter(|r| matches!(&r.found, Err(m) if !build::is_the_macros(m)))
        .collect();
    if !strange.is_empty() {
        let _ = writeln!(
            out,
            "\nrefused by rustc, not by the macro (a malformed cell? these count as disagreements):"
        );
        for row in &strange {
            let _ = writeln!(
                out,
                "  {} `{}`: {}",
                row.cell.name(&positions),
                row.cell.ty.spell(),
                first_line(row.found.as_ref().unwrap_err())
            );
        }
    }
    if excepted > 0 {
        let _ = writeln!(out, "\ndocumented exceptions (tests/matrix/exceptions.rs):");
        let mut whys: Vec<&str> = rows.iter().filter_map(|r| r.exception).collect();
        whys.dedup();
        whys.sort_unstable();
        whys.dedup();
        for why in whys {
            let cells: Vec<String> = rows
                .iter()
                .filter(|r| r.exception == Some(why))
                .map(|r| format!("{} `{}`", r.cell.name(&positions), r.cell.ty.spell()))
                .collect();
            let _ = writeln!(
                out,
                "  {} cells: {why}\n    {}",
                cells.len(),
                cells.join(", ")
            );
        }
    }
    (out, disagreements.len() + strange.len())
}

#[test]
fn matrix() {
    let began = Instant::now();
    let mut log = String::new();
    let rows = run(&|_| true, &mut log);
    let (report, disagreements) = report(&rows, began.elapsed().as_secs_f64());
    let path = build::scratch().join("report.txt");
    std::fs::write(&path, format!("{report}\n{log}")).unwrap();
    println!("{log}");
    println!("{report}");
    println!("(also in {})", path.display());
    assert_eq!(
        disagreements, 0,
        "the macro and the oracle disagree; each line above is a bug of the macro (or of the \
         oracle: fix whichever is wrong, or document the exception in tests/matrix/exceptions.rs)"
    );
}

#[test]
#[ignore = "Miri's stage of tests/run-all.sh runs it (minutes, `cargo +nightly miri`): \
            `cargo test --test matrix -- --ignored --exact miri`"]
fn miri() {
    miri::run();
}

/// The positions are the table's: each parameter's spelling and name, and the layouts the
/// oracle uses, are those of the typedef named.
#[test]
fn positions_are_the_tables() {
    for position in positions::all() {
        if position.unverified {
            assert!(cuda_entry_table::lookup(position.symbol).is_empty());
            continue;
        }
        let typedef = cuda_entry_table::find(position.symbol, position.version, false)
            .unwrap_or_else(|| panic!("{}: no typedef", position.title()));
        assert_eq!(
            position.params.len(),
            typedef.params.len(),
            "{}",
            position.title()
        );
        let ty = match position.varied {
            Varied::Param(at) => {
                assert_eq!(
                    typedef.params[at].name,
                    position.c_name,
                    "{}",
                    position.title()
                );
                typedef.params[at].ty
            }
            Varied::Return => typedef.ret,
        };
        assert_eq!(ty.spelling, position.c_spelling, "{}", position.title());
        let (size, align) = (ty.size as usize, ty.align as usize);
        match &position.c {
            C::Integer(n) | C::Float(n) => assert_eq!((size, align), (*n, *n)),
            C::Handle => assert!(!ty.pointer && (size, align) == (8, 8)),
            C::Record(s, a, _) => assert_eq!((size, align), (*s, *a)),
            C::Status => assert_eq!((size, align, ty.spelling), (4, 4, "CUresult")),
            C::Pointer(_, pointee) => {
                assert!(ty.pointer, "{}", position.title());
                let c = ty.pointee.expect("a pointer's pointee");
                match pointee {
                    Pointee::Data { size, align, .. } => {
                        assert_eq!(
                            (c.size as usize, c.align as usize),
                            (*size, *align),
                            "{}",
                            position.title()
                        );
                    }
                    Pointee::Void { .. } => assert_eq!(c.size, 0, "{}", position.title()),
                    Pointee::Slot(_) => {
                        assert!(c.pointer && c.size == 8, "{}", position.title());
                    }
                }
            }
            C::Callback(params, _) => {
                let callback = ty.callback.expect("a callback's signature");
                assert_eq!(callback.params.len(), params.len(), "{}", position.title());
            }
            C::UnknownReturn => unreachable!(),
        }
    }
}

/// The oracle says what the issue states of the driver's positions.
#[test]
fn the_oracle_holds_the_documented_facts() {
    use types::{Abi, Int, Ptr, Ty, Wrap, arr, c_char, func, opt, ptr, wrap};
    let positions = positions::all();
    let at = |id: &str| positions.iter().find(|p| p.id == id).unwrap();
    let u8_ = Ty::Int(Int::U8);
    let u64_ = Ty::Int(Int::U64);
    let void_mut = || ptr(Ptr::Mut, Ty::CVoid);
    let cases: Vec<(&str, Ty, bool)> = vec![
        ("p3_luid", ptr(Ptr::Mut, arr(c_char(), 8)), true),
        ("p3_luid", ptr(Ptr::Mut, arr(u8_.clone(), 8)), true),
        ("p3_floats", ptr(Ptr::RefMut, arr(Ty::F32, 4)), true),
        (
            "p4_host",
            ptr(Ptr::Mut, opt(func(Abi::C, true, vec![], None))),
            true,
        ),
        (
            "p4_pfn",
            ptr(Ptr::RefMut, wrap(Wrap::MaybeUninit, void_mut())),
            true,
        ),
        ("p4_pfn", ptr(Ptr::Mut, ptr(Ptr::Const, u8_.clone())), true),
        ("p5_string", ptr(Ptr::Mut, ptr(Ptr::Const, Ty::Bool)), false),
        ("p5_string", ptr(Ptr::Mut, ptr(Ptr::Const, c_char())), true),
        (
            "p5_cubin",
            ptr(Ptr::Mut, ptr(Ptr::Const, u8_.clone())),
            true,
        ),
        ("p5_cubin", ptr(Ptr::Mut, ptr(Ptr::Const, Ty::Bool)), false),
        ("p6_data", ptr(Ptr::Mut, ptr(Ptr::Mut, Ty::Bool)), false),
        (
            "p6_data",
            ptr(Ptr::Mut, ptr(Ptr::Mut, Ty::NonZero(Int::U32))),
            false,
        ),
        (
            "p6_data",
            ptr(Ptr::Mut, ptr(Ptr::Mut, ptr(Ptr::Ref, u64_.clone()))),
            false,
        ),
        ("p6_data", ptr(Ptr::RefMut, ptr(Ptr::Mut, Ty::Char)), false),
        (
            "p6_data",
            ptr(Ptr::Mut, opt(ptr(Ptr::NonNull, Ty::Bool))),
            false,
        ),
        (
            "p6_data",
            ptr(Ptr::Mut, ptr(Ptr::Const, u64_.clone())),
            false,
        ),
        ("p6_data", ptr(Ptr::Mut, ptr(Ptr::Mut, u64_.clone())), true),
        ("p6_data", ptr(Ptr::Mut, void_mut()), true),
        ("p9_status", Ty::CuResult, true),
        ("p9_status", Ty::Int(Int::I32), true),
        ("p9_status", Ty::Int(Int::U32), true),
        ("p9_status", Ty::Bool, false),
        ("p9_status", Ty::Char, false),
        ("p9_status", Ty::NonZero(Int::I32), false),
        ("p9_status", Ty::Enum(types::UserEnum::I32ByValue), false),
        ("p3_dptr", ptr(Ptr::Ref, u64_.clone()), false),
        (
            "p3_dptr",
            ptr(Ptr::Ref, wrap(Wrap::Cell, u64_.clone())),
            true,
        ),
        (
            "p3_handle",
            ptr(Ptr::Mut, opt(ptr(Ptr::NonNull, Ty::CVoid))),
            true,
        ),
        (
            "p3_handle",
            ptr(Ptr::Mut, ptr(Ptr::NonNull, Ty::CVoid)),
            false,
        ),
        ("p1_size", Ty::Tuple(vec![u64_.clone()]), false),
        (
            "p1_size",
            ptr(Ptr::Ref, Ty::Slice(Box::new(u8_.clone()))),
            false,
        ),
        ("p1_enum", Ty::NonZero(Int::I32), true),
        ("p1_float", Ty::Int(Int::U32), false),
        (
            "p8_hostfn",
            opt(func(Abi::C, true, vec![void_mut()], None)),
            true,
        ),
        (
            "p8_streamcb",
            opt(func(
                Abi::C,
                true,
                vec![void_mut(), Ty::NonZero(Int::I32), void_mut()],
                None,
            )),
            false,
        ),
        (
            "p8_hostfn",
            opt(func(Abi::Rust, true, vec![void_mut()], None)),
            false,
        ),
    ];
    let mut wrong = Vec::new();
    for (id, ty, accepted) in cases {
        let verdict = oracle::verdict(at(id), &ty);
        if verdict.is_ok() != accepted {
            wrong.push(format!("{id} `{}`: {verdict:?}", ty.spell()));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Every catalogue type has a verdict, and the catalogue asks both ways at every position.
    let cells = catalogue::cells(&positions);
    for (at, position) in positions.iter().enumerate() {
        let verdicts: Vec<bool> = cells
            .iter()
            .filter(|c| c.position == at)
            .map(|c| oracle::verdict(position, &c.ty).is_ok())
            .collect();
        assert!(
            verdicts.contains(&true) && verdicts.contains(&false),
            "{}: the catalogue asks one way only",
            position.title()
        );
    }
}
