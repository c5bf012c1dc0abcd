//! The signature against its typedef: the arity, then each parameter and the return type judged
//! from their tokens ([`judge`](super::judge)). What the tokens show is wrong is a mistake; the
//! first of a declaration also names the typedef the written types are those of, where they
//! tell, and lists the symbol's typedefs. What the tokens leave open, the expansion asserts at
//! compile time ([`Assertion`](super::Assertion)).

use syn::Type;

use super::callback::check_callback;
use super::declaration::{Declaration, is_c_type};
use super::headers::Toolkits;
use super::judge::{Wrong, judge};
use super::layout::read;
use super::mistake::{Found, Mistake, MistakeKind, place};
use super::site::{Level, Site, by_value, c_param, elsewhere, is_unit, of_pointee, of_second};
use super::values::{judge_parameter, judge_status};
use crate::{Access, CType, Typedef, flavour};

/// Arity, then each type against the C type, then the return type.
pub(crate) fn check_signature(decl: &Declaration, typedef: &Typedef, found: &mut Found) {
    if decl.found.has(MistakeKind::SelfParameter)
        || decl.found.has(MistakeKind::Variadic)
        || decl.found.has(MistakeKind::ConditionalParameter)
    {
        return; // reported; counting the rest would only mislead
    }
    let name = typedef.typedef_name();
    // Each with the typedefs that have the layout found at its place, if any.
    let mut mistakes: Vec<(u32, Mistake, Option<String>)> = Vec::new();
    if decl.params.len() == typedef.params.len() {
        for (i, (p, c)) in decl.params.iter().zip(typedef.params).enumerate() {
            if !is_c_type(&p.ty) {
                continue; // reported
            }
            let r = read(&p.ty);
            let site = || Site::parameter(typedef, i, p.name.to_string(), c, &p.ty);
            if let Err(wrong) = judge(&c.ty, &r, Toolkits::of(typedef)) {
                let mistake = Mistake::new(kind(wrong), &p.ty, site().wrong(wrong, &c.ty, &r));
                let hint = layout_elsewhere(wrong, &elsewhere(typedef, decl, Some(i)));
                mistakes.push((place::input(i), mistake, hint));
            } else if let Err(mistake) = check_callback(typedef, i, p.name.to_string(), c, &p.ty) {
                mistakes.push((place::input(i), mistake, None));
            } else if let Err(wrong) = judge_parameter(Access::of(typedef, i), &p.ty) {
                let mistake = site().wrong_value(wrong, &c.ty, &p.ty);
                mistakes.push((place::input(i), mistake, None));
            }
        }
    } else {
        let expected: Vec<String> = typedef.params.iter().map(c_param).collect();
        let message = format!(
            "`{name}` takes {} parameter{} ({}), this declaration has {}: copy the parameter list \
             of that typedef",
            typedef.params.len(),
            if typedef.params.len() == 1 { "" } else { "s" },
            expected.join(", "),
            decl.params.len()
        );
        let mistake = Mistake::at(MistakeKind::WrongArity, decl.parens, message);
        mistakes.push((place::PARAMETERS, mistake, None));
    }
    if let Some(mistake) = check_return(decl, typedef, &name) {
        mistakes.push((place::RETURN, mistake, None));
    }
    // The first says what the written types are, or else each where its layout is found, and
    // lists the typedefs to choose from.
    let signature = matching(decl, typedef);
    for (i, (at, mut mistake, hint)) in mistakes.into_iter().enumerate() {
        // Another typedef's signature is no fix for a value the driver produces.
        let abi = !matches!(
            mistake.kind(),
            MistakeKind::ReadOnlyPointer | MistakeKind::InvalidValue | MistakeKind::MissingReturn
        );
        match (&signature, hint) {
            _ if !abi => {}
            (Some(signature), _) if i == 0 => mistake.append(&format!("; {signature}")),
            (None, Some(hint)) => mistake.append(&format!("; {hint}")),
            _ => {}
        }
        if i == 0 {
            mistake.add_note(typedefs_note(typedef));
        }
        found.push(at, mistake);
    }
}

/// `that is its layout in ...`: the other typedefs whose C type has, at the place and level of a
/// layout mismatch, the layout found.
fn layout_elsewhere(wrong: Wrong, elsewhere: &[(&'static Typedef, CType)]) -> Option<String> {
    let (level, found): (Level, _) = match wrong {
        Wrong::Layout(found) => (by_value, found),
        Wrong::Pointee(found) => (of_pointee, found),
        Wrong::Second(found) => (of_second, found),
        _ => return None,
    };
    let names: Vec<String> = elsewhere
        .iter()
        .filter(|(_, c)| level(c) == Some(found))
        .map(|(t, _)| format!("`{}` (`version = {}`)", t.typedef_name(), t.version))
        .collect();
    (!names.is_empty()).then(|| format!("that is its layout in {}", names.join(" or ")))
}

fn check_return(decl: &Declaration, typedef: &Typedef, name: &str) -> Option<Mistake> {
    let c = &typedef.ret;
    if !is_c_type(&decl.ret) {
        return None; // reported
    }
    if c.size == 0 {
        return (!is_unit(&decl.ret)).then(|| {
            let message = format!("`{name}` returns `void`: remove the return type");
            Mistake::new(MistakeKind::VoidReturn, &decl.ret, message)
        });
    }
    if is_unit(&decl.ret) {
        let message = if c.spelling == "CUresult" {
            format!(
                "`{name}` returns `CUresult`: add `-> CUresult` (`cuda_entry::types::CUresult`, \
                 or `i32`); the function then returns `Result<(), Error>`, the driver's status \
                 checked"
            )
        } else {
            format!(
                "`{name}` returns `{}`: add `-> T` with a type of its layout ({} bytes, align {})",
                c.spelling, c.size, c.align
            )
        };
        return Some(Mistake::at(
            MistakeKind::MissingReturn,
            decl.parens,
            message,
        ));
    }
    let r = read(&decl.ret);
    let site = Site::ret(typedef, &decl.ret);
    if c.spelling == "CUresult" && is_result(&decl.ret) {
        let message = format!(
            "declare what `{name}` returns, `-> CUresult` (`cuda_entry::types::CUresult`, or \
             `i32`): the function `#[cuda_entry]` generates returns `Result<(), Error>` itself, \
             the driver's status checked"
        );
        return Some(Mistake::new(
            MistakeKind::LayoutMismatch,
            &decl.ret,
            message,
        ));
    }
    if let Err(wrong) = judge(c, &r, Toolkits::of(typedef)) {
        return Some(Mistake::new(
            kind(wrong),
            &decl.ret,
            site.wrong(wrong, c, &r),
        ));
    }
    let wrong = judge_status(&decl.ret)
        .err()
        .filter(|_| c.spelling == "CUresult")?;
    Some(site.wrong_value(wrong, c, &decl.ret))
}

fn kind(wrong: Wrong) -> MistakeKind {
    match wrong {
        Wrong::NotAPointer => MistakeKind::NotAPointer,
        Wrong::Layout(_) => MistakeKind::LayoutMismatch,
        Wrong::Class { .. } => MistakeKind::FloatMismatch,
        Wrong::Pointee(_) | Wrong::PointeeNotAPointer | Wrong::Second(_) => {
            MistakeKind::PointeeMismatch
        }
    }
}

/// Whether `ty` is a path to a `Result` (the generated function's return type, written by hand).
fn is_result(ty: &Type) -> bool {
    match ty {
        Type::Path(p) => p
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == "Result" && !s.arguments.is_none()),
        Type::Paren(p) => is_result(&p.elem),
        Type::Group(g) => is_result(&g.elem),
        _ => false,
    }
}

/// A typedef as C declares it: `CUresult PFN_cuMemGetInfo_v2000(unsigned int *free, ...)`.
fn c_signature(t: &Typedef) -> String {
    let params: Vec<String> = t.params.iter().map(c_param).collect();
    format!(
        "{} {}({})",
        t.ret.spelling,
        t.typedef_name(),
        params.join(", ")
    )
}

/// The symbol's typedefs of the declaration's flavour, one a line, with their versions.
pub(crate) fn typedefs_note(typedef: &Typedef) -> String {
    let mut note = format!("the typedefs of `{}`:", typedef.symbol);
    for t in flavour(typedef.symbol, typedef.stream.is_per_thread()) {
        note.push_str(&format!(
            "\n    version = {}: {}",
            t.version,
            c_signature(t)
        ));
    }
    note
}

/// Whether the written types fit `t` as far as their tokens tell: `Some(true)` when they tell
/// everything that sets `t` apart from `declared` (the typedef of the version written).
fn fits(decl: &Declaration, t: &Typedef, declared: &Typedef) -> Option<bool> {
    if decl.params.len() != t.params.len() {
        return None;
    }
    let mut whole = true;
    for (i, (p, c)) in decl.params.iter().zip(t.params).enumerate() {
        let left = judge(&c.ty, &read(&p.ty), Toolkits::of(t)).ok()?;
        let differs = declared.params.get(i).is_none_or(|d| d.ty != c.ty);
        whole &= left.is_empty() || !differs;
    }
    match (t.ret.size, is_unit(&decl.ret)) {
        (0, true) => {}
        (0, false) => return None,
        // A missing return type is the same mistake at every version.
        (_, true) => {}
        (_, false) => {
            let left = judge(&t.ret, &read(&decl.ret), Toolkits::of(t)).ok()?;
            whole &= left.is_empty() || t.ret == declared.ret;
        }
    }
    Some(whole)
}

/// The other typedefs the written types fit: `this is the signature of ...`.
fn matching(decl: &Declaration, typedef: &Typedef) -> Option<String> {
    let fitting: Vec<(&Typedef, bool)> = flavour(typedef.symbol, typedef.stream.is_per_thread())
        .filter(|t| *t != typedef)
        .filter_map(|t| fits(decl, t, typedef).map(|whole| (t, whole)))
        .collect();
    if fitting.is_empty() {
        return None;
    }
    let names: Vec<String> = fitting
        .iter()
        .map(|(t, _)| format!("`{}` (`version = {}`)", t.typedef_name(), t.version))
        .collect();
    let whole = fitting.iter().all(|(_, whole)| *whole);
    Some(format!(
        "{}this is the signature of {}",
        if whole {
            ""
        } else {
            "as far as its types can be read, "
        },
        names.join(" or ")
    ))
}
