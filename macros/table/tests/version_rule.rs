//! The version rule, swept: every symbol of the table, every well-formed version up to the first
//! above the newest header the table read, both stream flavours (no `stream`, and `stream =
//! "per_thread"`), with and without `unverified`, judged by the public rules API and held against
//! an expectation computed here from the table's data alone (the typedef versions of each symbol
//! and flavour, read straight from `TYPEDEFS`, and the newest toolkit of `TOOLKITS`), never
//! through the rules' own helpers.
//!
//! - Without `unverified`, a known symbol is accepted exactly at its typedef versions of the
//!   declaration's flavour.
//! - With `unverified`, exactly above the newest header: there a typedef from newer headers could
//!   exist; at or below it the table knows which ABI the driver returns.
//! - A refusal carries version mistakes only, of the expected kind, and suggests `unverified`
//!   exactly when the version is above the newest header.
//!
//! Each declaration has the signature of the typedef it should match (one parameter of a type the
//! tokens cannot judge per C parameter, and a return type where C has one), so that the signature
//! never decides; a version no typedef has gets an empty signature, which is never compared.

#![cfg(feature = "rules")]

use std::collections::BTreeMap;
use std::time::Instant;

use cuda_entry_table::rules::{Argument, Declaration, Mistake, MistakeKind, parse_item};
use cuda_entry_table::{Flavour, TOOLKITS, TYPEDEFS, Typedef, Version};
use proc_macro2::{Span, TokenStream};

/// The kinds that say the version (or `unverified` with it) is wrong for the symbol.
const VERSION_KINDS: &[MistakeKind] = &[
    MistakeKind::NotATypedef,
    MistakeKind::WrongStreamFlavour,
    MistakeKind::NoPerThreadVariant,
    MistakeKind::PerThreadOnly,
    MistakeKind::NeedlessUnverified,
    MistakeKind::UnverifiedWithinTable,
];

/// How a message suggests the opt-in.
const SUGGESTS_UNVERIFIED: &str = "add `unverified`";

/// The newest toolkit the table read.
fn newest() -> u32 {
    *TOOLKITS.last().expect("the table read some toolkit")
}

/// The typedefs of one symbol, by flavour group: `[legacy, per-thread]`.
type Groups = [Vec<&'static Typedef>; 2];

/// Every symbol's typedefs, from `TYPEDEFS` directly.
fn by_symbol() -> BTreeMap<&'static str, Groups> {
    let mut all: BTreeMap<&'static str, Groups> = BTreeMap::new();
    for t in TYPEDEFS {
        let group = usize::from(t.stream != Flavour::Legacy);
        all.entry(t.symbol).or_default()[group].push(t);
    }
    all
}

/// The form rule, from its definition: `1000 * major + 10 * minor`, major at least 1, at most
/// 99.99.
fn well_formed(n: u32) -> bool {
    (1000..=99_990).contains(&n) && n.is_multiple_of(10)
}

/// `#[cuda_entry(symbol, version = 1000, [stream = "per_thread"], [unverified])]` on a function
/// with `params` parameters, returning a value or not.
fn declaration(
    symbol: &str,
    per_thread: bool,
    unverified: bool,
    params: usize,
    returns: bool,
) -> Declaration {
    let args = format!(
        "symbol = \"{symbol}\", version = 1000{}{}",
        if per_thread {
            ", stream = \"per_thread\""
        } else {
            ""
        },
        if unverified { ", unverified" } else { "" }
    );
    let params: Vec<String> = (0..params).map(|i| format!("a{i}: Opaque")).collect();
    let item = format!(
        "unsafe extern \"C\" fn f({}){};",
        params.join(", "),
        if returns { " -> Opaque" } else { "" }
    );
    let args: TokenStream = args.parse().expect("arguments");
    let item: TokenStream = item.parse().expect("an item");
    let item = parse_item(args, item).expect("a declaration");
    assert_eq!(item.mistakes().count(), 0);
    item.declarations().next().expect("one").clone()
}

/// The declaration written for the typedef `t`: its arity, a return type where it has one.
fn declaration_for(t: &Typedef, unverified: bool) -> Declaration {
    let returns = t.ret.spelling != "void";
    declaration(
        t.symbol,
        t.stream != Flavour::Legacy,
        unverified,
        t.params.len(),
        returns,
    )
}

fn at(decl: &mut Declaration, version: u32) {
    let version = Version::new(version).expect("a well-formed version");
    decl.args.version = Argument::Given(Span::call_site(), version);
}

/// What is expected of one known symbol at one version, from the data alone.
fn expected_kind(
    groups: &Groups,
    version: u32,
    per_thread: bool,
    unverified: bool,
) -> Option<MistakeKind> {
    let has = |g: &[&Typedef]| g.iter().any(|t| t.version == version);
    let (own, other) = if per_thread {
        (&groups[1], &groups[0])
    } else {
        (&groups[0], &groups[1])
    };
    if unverified {
        return if version > newest() {
            None
        } else if has(own) {
            Some(MistakeKind::NeedlessUnverified)
        } else {
            Some(MistakeKind::UnverifiedWithinTable)
        };
    }
    if has(own) {
        None
    } else if own.is_empty() && per_thread {
        Some(MistakeKind::NoPerThreadVariant)
    } else if has(other) {
        Some(MistakeKind::WrongStreamFlavour)
    } else if own.is_empty() {
        Some(MistakeKind::PerThreadOnly)
    } else {
        Some(MistakeKind::NotATypedef)
    }
}

/// The typedef the driver returns at `version` in the group: the newest at or below it.
fn served(group: &[&'static Typedef], version: u32) -> Option<&'static Typedef> {
    group
        .iter()
        .filter(|t| t.version <= version)
        .max_by_key(|t| t.version)
        .copied()
}

/// What the messages of one symbol and flavour must say, written once: the opt-in's limit, and
/// for each typedef of the group, that the driver returns its ABI and which version to write.
struct Words {
    only: String,
    returns: BTreeMap<u32, String>,
}

impl Words {
    fn new(group: &[&'static Typedef]) -> Words {
        let returns = group
            .iter()
            .map(|t| {
                let name = format!("PFN_{}_v{}{}", t.symbol, t.version, t.stream.suffix());
                let text = format!(
                    "the driver returns the ABI of `{name}`: write `version = {}`",
                    t.version
                );
                (t.version, text)
            })
            .collect();
        Words {
            only: format!("only for versions above {}", newest()),
            returns,
        }
    }
}

/// One case: the declaration, the symbol's typedefs, the version and the flavour.
struct Case<'a> {
    decl: &'a Declaration,
    groups: &'a Groups,
    version: u32,
    per_thread: bool,
    unverified: bool,
}

/// Holds one judgement to `expected`; `Err` says what is wrong.
fn judge(case: &Case<'_>, expected: Option<MistakeKind>, words: &Words) -> Result<(), String> {
    let Case {
        decl,
        groups,
        version,
        per_thread,
        unverified,
    } = *case;
    match (decl.validate(), expected) {
        (Ok(checked), None) => {
            let typedef = checked
                .typedef
                .map(|t| (t.version, t.stream != Flavour::Legacy));
            let want = (!unverified).then_some((version, per_thread));
            if checked.version.get() != version || typedef != want {
                return Err(format!(
                    "accepted as {:?}, not {want:?}",
                    checked.typedef_name()
                ));
            }
            Ok(())
        }
        (Ok(checked), Some(kind)) => Err(format!(
            "accepted as {}, expected {}",
            checked.typedef_name(),
            kind.name()
        )),
        (Err(mistakes), None) => Err(format!("refused, expected accepted: {}", list(&mistakes))),
        (Err(mistakes), Some(kind)) => {
            if mistakes.len() != 1 || mistakes[0].kind() != kind {
                return Err(format!("expected one {}: {}", kind.name(), list(&mistakes)));
            }
            let m = &mistakes[0];
            if !VERSION_KINDS.contains(&m.kind()) {
                return Err(format!("not a version kind: {}", list(&mistakes)));
            }
            let suggests = m.message().contains(SUGGESTS_UNVERIFIED);
            if suggests != (version > newest()) {
                return Err(format!(
                    "suggests `unverified`: {suggests}, above the newest header ({}): {}: {}",
                    newest(),
                    version > newest(),
                    m.message()
                ));
            }
            if kind == MistakeKind::UnverifiedWithinTable {
                if !m.message().contains(&words.only) {
                    return Err(format!("does not say `{}`: {}", words.only, m.message()));
                }
                let group = &groups[usize::from(per_thread)];
                let in_other = groups[usize::from(!per_thread)]
                    .iter()
                    .any(|t| t.version == version);
                if let (Some(t), false) = (served(group, version), in_other) {
                    let text = &words.returns[&t.version];
                    if !m.message().contains(text.as_str()) {
                        return Err(format!("does not say `{text}`: {}", m.message()));
                    }
                }
            }
            Ok(())
        }
    }
}

fn list(mistakes: &[Mistake]) -> String {
    mistakes
        .iter()
        .map(|m| format!("{}: {}", m.kind().name(), m.message()))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// What a share of the sweep found: cases, acceptances, what was wrong (the first few).
#[derive(Default)]
struct Tally {
    cases: usize,
    accepted: usize,
    wrong: Vec<String>,
}

/// Sweeps the symbols `share` of the table.
fn sweep(share: &[(&'static str, Groups)], versions: &[u32]) -> Tally {
    let mut tally = Tally::default();
    for (symbol, groups) in share {
        for per_thread in [false, true] {
            let group = &groups[usize::from(per_thread)];
            let words = Words::new(group);
            for unverified in [false, true] {
                // One declaration per typedef (its signature), one for every other version.
                let mut matching: BTreeMap<u32, Declaration> = group
                    .iter()
                    .map(|t| (t.version, declaration_for(t, unverified)))
                    .collect();
                let mut other = declaration(symbol, per_thread, unverified, 0, true);
                for &version in versions {
                    let decl = matching.get_mut(&version).unwrap_or(&mut other);
                    at(decl, version);
                    let expected = expected_kind(groups, version, per_thread, unverified);
                    let case = Case {
                        decl,
                        groups,
                        version,
                        per_thread,
                        unverified,
                    };
                    tally.cases += 1;
                    match judge(&case, expected, &words) {
                        Ok(()) => tally.accepted += usize::from(expected.is_none()),
                        Err(why) if tally.wrong.len() < 20 => tally.wrong.push(format!(
                            "{symbol} {version}{}{}: {why}",
                            if per_thread { " per_thread" } else { "" },
                            if unverified { " unverified" } else { "" }
                        )),
                        Err(_) => {}
                    }
                }
            }
        }
    }
    tally
}

#[test]
fn every_symbol_every_version_both_flavours_with_and_without_unverified() {
    let start = Instant::now();
    let symbols: Vec<(&'static str, Groups)> = by_symbol().into_iter().collect();
    assert!(symbols.len() > 500, "{} symbols", symbols.len());
    // Up to the next version above the newest header (13060 above 13050).
    let versions: Vec<u32> = (0..=newest() + 10).filter(|&n| well_formed(n)).collect();
    assert!(versions.contains(&newest()) && versions.iter().any(|&v| v > newest()));
    // A share of the symbols per core (a declaration's spans stay in the thread that made it).
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let per_share = symbols.len().div_ceil(threads);
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let versions = &versions;
        let shares: Vec<_> = symbols
            .chunks(per_share)
            .map(|share| scope.spawn(move || sweep(share, versions)))
            .collect();
        shares
            .into_iter()
            .map(|s| s.join().expect("a share"))
            .collect()
    });
    let cases: usize = tallies.iter().map(|t| t.cases).sum();
    let accepted: usize = tallies.iter().map(|t| t.accepted).sum();
    let wrong: Vec<&String> = tallies.iter().flat_map(|t| &t.wrong).collect();
    println!(
        "version rule: {cases} cases ({accepted} accepted), {} symbols x {} versions ({}..={}, \
         the newest header {}) x 2 flavours x with and without `unverified`, on {threads} \
         threads in {:.2?}",
        symbols.len(),
        versions.len(),
        versions[0],
        versions[versions.len() - 1],
        newest(),
        start.elapsed()
    );
    assert!(
        wrong.is_empty(),
        "{}",
        wrong
            .iter()
            .map(|w| w.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    let expected_cases = symbols.len() * versions.len() * 4;
    assert_eq!(cases, expected_cases);
    // Every typedef once, and every symbol in both flavours above the newest header.
    let above = versions.iter().filter(|&&v| v > newest()).count();
    assert_eq!(accepted, TYPEDEFS.len() + symbols.len() * 2 * above);
}

#[test]
fn a_symbol_the_table_does_not_know_takes_any_well_formed_version_with_unverified() {
    let symbol = "cuSomethingNewerThanTheTable";
    assert!(TYPEDEFS.iter().all(|t| t.symbol != symbol));
    let mut cases = 0;
    for per_thread in [false, true] {
        let mut with = declaration(symbol, per_thread, true, 2, true);
        let mut without = declaration(symbol, per_thread, false, 2, true);
        for version in (0..=newest() + 10).filter(|&n| well_formed(n)) {
            at(&mut with, version);
            at(&mut without, version);
            cases += 2;
            let checked = with
                .validate()
                .unwrap_or_else(|m| panic!("{version}: {}", list(&m)));
            assert!(checked.typedef.is_none() && checked.version.get() == version);
            let mistakes = without.validate().expect_err("refused");
            let kinds: Vec<MistakeKind> = mistakes.iter().map(Mistake::kind).collect();
            assert_eq!(kinds, [MistakeKind::UnknownSymbol], "{version}");
        }
    }
    println!("unknown symbol: {cases} cases");
}

#[test]
fn the_form_rule_over_every_integer_up_to_above_the_newest_header() {
    // `cuMemAlloc`: 2000 and 3020, legacy only. The version is written as a literal, so the
    // attribute parser's form rule is what is tested.
    let symbol = "cuMemAlloc";
    let groups = &by_symbol()[symbol];
    let start = Instant::now();
    let mut cases = 0;
    for n in 0..=newest() + 10 {
        assert_eq!(Version::new(n).is_ok(), well_formed(n), "Version::new({n})");
        for unverified in [false, true] {
            let args = format!(
                "symbol = \"{symbol}\", version = {n}{}",
                if unverified { ", unverified" } else { "" }
            );
            let item = parse_item(
                args.parse().expect("arguments"),
                "unsafe extern \"C\" fn f(dptr: Opaque, bytesize: Opaque) -> Opaque;"
                    .parse()
                    .expect("an item"),
            )
            .expect("a declaration");
            let decl = item.declarations().next().expect("one");
            cases += 1;
            let kinds: Vec<MistakeKind> = match decl.validate() {
                Ok(_) => Vec::new(),
                Err(m) => m.iter().map(Mistake::kind).collect(),
            };
            if !well_formed(n) {
                assert_eq!(kinds, [MistakeKind::NotAVersion], "{n}");
                continue;
            }
            assert!(matches!(decl.args.version, Argument::Given(_, v) if v.get() == n));
            // A signature of two opaque types stands for either typedef: only the version decides.
            let expected = expected_kind(groups, n, false, unverified);
            assert_eq!(
                kinds,
                Vec::from_iter(expected),
                "{n} unverified: {unverified}"
            );
        }
    }
    println!(
        "form rule: {cases} cases (0..={}), in {:.2?}",
        newest() + 10,
        start.elapsed()
    );
}
