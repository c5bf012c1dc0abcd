//! The `const` assertions of what the tokens of the declared types leave to the compiler
//! ([`Checked::assertions`]), with the messages of their failures: the expansion writes them, the
//! command says which declarations rely on them.

use syn::Type;

use super::callback::{CallbackAssertion, Value, Words, value_words};
use super::headers::Toolkits;
use super::judge::{Left, data_pointer, everything, judge, pointee, second};
use super::layout::{read, type_text};
use super::signature::typedefs_note;
use super::site::{Level, Site, by_value, c_param, elsewhere, is_unit, of_pointee, of_second};
use super::validate::Checked;
use crate::{Access, CType, Class, Passing, Typedef, extent};

/// A `const` assertion of what the tokens of a declared type leave open, for the expansion to
/// write: the compiler knows the type, the macro only its tokens. Each message is complete but for
/// what is found (a layout between an [`Expected`]'s `before` and `after`, a class between a
/// [`ClassRule`]'s), and ends with [`Checked::typedefs_lines`].
#[derive(Clone)]
pub struct Assertion<'a> {
    /// The declared type: a parameter's, or the return type.
    pub ty: &'a Type,
    /// `parameter 2 `bytesize``, or `the return type`.
    pub place: String,
    /// Its size and alignment must be the C type's.
    pub layout: Option<Expected>,
    /// It must be passed as the C type is (`cuda_entry::ByValue`, of the C type's classes).
    pub class: Option<ClassRule>,
    /// It must be a data pointer (the C type is a `T *`): `cuda_entry::__private::CPointer`.
    pub pointer: bool,
    /// What it points to must have the C pointee's size and alignment, unless it is `c_void`.
    pub pointee: Option<Expected>,
    /// What that points to must have the C type's, unless either is `c_void` (a C `T **`).
    pub second: Option<Expected>,
    /// The driver writes through it: it must not promise otherwise (`&T`, `*const T`,
    /// `Option<&T>`); the message when it does.
    pub writable: Option<String>,
    /// The driver writes through the caller's pointers at the second level (`void **data`): the
    /// pointer it points to must not promise otherwise; the message when it does.
    pub second_writable: Option<String>,
    /// The driver writes what it points to: that type must have no invalid values (`bool`,
    /// `char`, `NonZero`, references, `NonNull`, function pointers); the message before and after
    /// the words naming its kind ([`value_words`](crate::value_words)).
    pub valid: Option<(String, String)>,
    /// The driver produces what the second level holds (stores it through the caller's pointers,
    /// or fills memory of its own): that type must have no invalid values either, unless the
    /// first level is `c_void`; the message before and after the words.
    pub second_valid: Option<(String, String)>,
    /// It is a C `void **` (nothing below the `void *` is checked): what it points to must still
    /// be a pointer, or an `Option` of a function pointer (`cuda_entry::__private::CSlot`).
    pub slot: bool,
    /// The driver reaches a documented number of its pointee's elements (`char *luid`, 8): a
    /// reference must cover them (the bytes, the message before and after the size found).
    pub extent: Option<(u32, String, String)>,
    /// It is the status the driver returns: it must hold every `int` (a primitive integer or
    /// `cuda_entry::types::CUresult`); the message before and after the words.
    pub status: Option<(String, String)>,
}

impl std::fmt::Debug for Assertion<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Assertion")
            .field("ty", &type_text(self.ty))
            .field("place", &self.place)
            .field("layout", &self.layout)
            .field("class", &self.class)
            .field("pointer", &self.pointer)
            .field("pointee", &self.pointee)
            .field("second", &self.second)
            .field("writable", &self.writable)
            .field("second_writable", &self.second_writable)
            .field("valid", &self.valid)
            .field("second_valid", &self.second_valid)
            .field("slot", &self.slot)
            .field("extent", &self.extent)
            .field("status", &self.status)
            .finish()
    }
}

/// A size and alignment, and the message of a mismatch: `before`, the layout found as `N bytes,
/// align A`, `after`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    /// The C size in bytes.
    pub size: u32,
    /// The C alignment in bytes.
    pub align: u32,
    /// The other layouts the headers of the typedef's toolkits gave the C type, accepted as well
    /// (`CUdevResource`: 144 bytes aligned to 4 up to CUDA 13.0, to 8 from 13.1).
    pub also: Vec<(u32, u32)>,
    /// The message up to the layout found.
    pub before: String,
    /// The message after it.
    pub after: String,
    /// The other layouts this place has in the symbol's other typedefs (of the declaration's
    /// arity), each with the words that follow `after` when it is the layout found: `; that is
    /// its layout in `PFN_cuMemAlloc_v2000` (`version = 2000`)`.
    pub others: Vec<(u32, u32, String)>,
}

/// Which register class the C type travels in, and the message when the declared type's is the
/// other: `before`, the words naming the declared type's class
/// ([`class_words`](crate::class_words)), `after`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassRule {
    /// How C passes the type: the declared type's classes must be these.
    pub passing: Passing,
    /// The message up to the words.
    pub before: String,
    /// The message after them.
    pub after: String,
}

impl Checked<'_> {
    /// The `const` assertions of every declared type, parameters then the return type: the
    /// compiler judges each type as it is, whatever its tokens say (a name can be shadowed, an
    /// alias can lie). For an `unverified` declaration only the return type is asserted: a
    /// status that holds every `int`, or a value without invalid bit patterns.
    pub fn assertions(&self) -> Vec<Assertion<'_>> {
        let Some(typedef) = self.typedef else {
            return self.unverified_return().into_iter().collect();
        };
        self.asserted(typedef, |c, _| Some(everything(c)))
    }

    /// The assertions of each place whose `left` (from its C type and declared type) is not
    /// empty.
    fn asserted(
        &self,
        typedef: &'static Typedef,
        left: impl Fn(&CType, &Type) -> Option<Left>,
    ) -> Vec<Assertion<'_>> {
        let decl = self.declaration;
        let mut out = Vec::new();
        for (i, (p, c)) in decl.params.iter().zip(typedef.params).enumerate() {
            if let Some(left) = left(&c.ty, &p.ty) {
                let site = Site::parameter(typedef, i, p.name.to_string(), c, &p.ty);
                let place = format!("parameter {} `{}`", i + 1, p.name);
                let elsewhere = elsewhere(typedef, decl, Some(i));
                let c = (&c.ty, Access::of(typedef, i), &elsewhere[..]);
                let extent = extent(typedef, i).map(|count| site.extent(c.0, count));
                out.extend(assertion(&site, place, left, c, &p.ty).map(|mut a| {
                    a.extent = extent;
                    a
                }));
            }
        }
        if typedef.ret.size != 0
            && !is_unit(&decl.ret)
            && let Some(left) = left(&typedef.ret, &decl.ret)
        {
            let site = Site::ret(typedef, &decl.ret);
            let place = RETURN.to_owned();
            let elsewhere = elsewhere(typedef, decl, None);
            let c = (&typedef.ret, Access::NONE, &elsewhere[..]);
            out.extend(assertion(&site, place, left, c, &decl.ret));
        }
        out
    }

    /// An `unverified` declaration's return type: what the driver returns is valid for it.
    fn unverified_return(&self) -> Option<Assertion<'_>> {
        let ret = &self.declaration.ret;
        if is_unit(ret) {
            return None;
        }
        // No typedef: the headers of every toolkit.
        let within = Toolkits::new(0, u32::MAX);
        let site = Site::status(&self.typedef_name(), "CUresult", ret, within);
        let mut assertion = Assertion {
            ty: ret,
            place: "the return type".to_owned(),
            layout: None,
            class: None,
            pointer: false,
            pointee: None,
            second: None,
            writable: None,
            second_writable: None,
            valid: None,
            second_valid: None,
            slot: false,
            extent: None,
            status: None,
        };
        if self.returns_status() {
            // Named `CUresult`: the C enum, an `int`, that the checked call reads.
            let (before, after) = site.layout(&CUresult);
            assertion.layout = Some(Expected {
                size: 4,
                align: 4,
                also: Vec::new(),
                before,
                after,
                others: Vec::new(),
            });
            assertion.status = Some(site.invalid_status());
        } else {
            assertion.valid = Some(site.invalid_return());
        }
        Some(assertion)
    }

    /// What only the compiler can judge, for a reader without one (the command): each place whose
    /// type's tokens leave something open, with what (`parameter 1 `dptr`: what `*mut
    /// CUdeviceptr` points to`). Empty when the tokens tell everything.
    pub fn left_to_compiler(&self) -> Vec<String> {
        let Some(typedef) = self.typedef else {
            return Vec::new();
        };
        self.asserted(typedef, |c, ty| {
            judge(c, &read(ty), Toolkits::of(typedef))
                .ok()
                .filter(|left| !left.is_empty())
        })
        .iter()
        .map(|a| {
            let ty = type_text(a.ty);
            let mut what = Vec::new();
            if a.layout.is_some() {
                what.push(format!("the layout of `{ty}`"));
            }
            if a.class.is_some() {
                what.push("its class".to_owned());
            }
            if a.pointer && a.pointee.is_none() && a.second.is_none() {
                what.push(format!("that `{ty}` is a pointer"));
            }
            if a.pointee.is_some() || a.second.is_some() {
                what.push(format!("what `{ty}` points to"));
            }
            format!("{}: {}", a.place, what.join(", "))
        })
        .collect()
    }

    /// The lines that end every assertion's message, from a line break on: the symbol's
    /// typedefs of the declaration's flavour (empty for an `unverified` declaration).
    pub fn typedefs_lines(&self) -> String {
        self.typedef
            .map(|t| format!("\n{}", typedefs_note(t)))
            .unwrap_or_default()
    }
}

/// The place of the return type in the messages.
const RETURN: &str = "the return type";

/// The C `CUresult` every typedef returns.
#[allow(non_upper_case_globals)]
const CUresult: CType = CType {
    spelling: "CUresult",
    pointer: false,
    size: 4,
    align: 4,
    class: Class::Enum,
    pointee: None,
    layouts: &[],
    callback: None,
};

fn assertion<'a>(
    site: &Site,
    place: String,
    left: Left,
    (c, access, elsewhere): (&CType, Access, &[(&'static Typedef, CType)]),
    ty: &'a Type,
) -> Option<Assertion<'a>> {
    let written = access.writes_first();
    // What the driver returns; a `CUresult` parameter (`cuGetErrorName`'s) is the caller's value.
    let status = place == RETURN && c.spelling == "CUresult";
    let produces = written || access.writes_through_second() || access.produces_second();
    if left.is_empty() && !produces && !status {
        return None;
    }
    // `at`: the C type at the level, whose every layout in the typedef's headers is accepted.
    let expected = |(before, after): (String, String), level: Level, at: Option<&CType>| {
        let (size, align) = level(c)?;
        let also: Vec<(u32, u32)> = at
            .map(|at| site.within().layouts(at))
            .unwrap_or_default()
            .into_iter()
            .filter(|l| *l != (size, align))
            .collect();
        // The other layouts of this place, each naming the typedefs that have it.
        let mut others: Vec<(u32, u32, Vec<String>)> = Vec::new();
        for (t, other) in elsewhere {
            let Some(layout) = level(other).filter(|l| *l != (size, align) && !also.contains(l))
            else {
                continue;
            };
            let name = format!("`{}` (`version = {}`)", t.typedef_name(), t.version);
            match others.iter_mut().find(|(s, a, _)| (*s, *a) == layout) {
                Some((_, _, names)) => names.push(name),
                None => others.push((layout.0, layout.1, vec![name])),
            }
        }
        Some(Expected {
            size,
            align,
            also,
            before,
            others: others
                .into_iter()
                .map(|(s, a, names)| {
                    (
                        s,
                        a,
                        format!("; that is its layout in {}", names.join(" or ")),
                    )
                })
                .collect(),
            after,
        })
    };
    // A status's check proves more than its class; a callback's checks its own.
    let class = (left.class && !status && c.class != Class::FunctionPointer).then(|| {
        let (before, after) = site.class(c);
        ClassRule {
            passing: c.passing(),
            before,
            after,
        }
    });
    Some(Assertion {
        ty,
        place,
        layout: left
            .layout
            .then(|| expected(site.layout(c), by_value, Some(c)))
            .flatten(),
        class,
        pointer: left.pointer || left.pointee || left.second,
        pointee: left
            .pointee
            .then(|| expected(site.pointee(c), of_pointee, pointee(c)))
            .flatten(),
        second: left
            .second
            .then(|| expected(site.second(c), of_second, second(c)))
            .flatten(),
        writable: written.then(|| site.read_only()),
        second_writable: access
            .writes_through_second()
            .then(|| site.read_only_second()),
        valid: written.then(|| site.invalid_pointee(c)),
        second_valid: access.produces_second().then(|| site.invalid_second(c)),
        slot: left.pointee && second(c).is_none() && pointee(c).is_some_and(data_pointer),
        extent: None,
        status: status.then(|| site.invalid_status()),
    })
}

impl Checked<'_> {
    /// The compile-time assertions of the callback parameters: each declared type must be a
    /// function pointer of the `"C"` or `"system"` ABI with the C signature's arity, parameter
    /// and return layouts and classes. Empty for an `unverified` declaration.
    pub fn callbacks(&self) -> Vec<CallbackAssertion<'_>> {
        let Some(typedef) = self.typedef else {
            return Vec::new();
        };
        let within = Toolkits::of(typedef);
        let decl = self.declaration;
        let mut out = Vec::new();
        for (i, (p, c)) in decl.params.iter().zip(typedef.params).enumerate() {
            let Some(callback) = c.ty.callback else {
                continue;
            };
            let site = Site::parameter(typedef, i, p.name.to_string(), c, &p.ty);
            let words = Words::new(&site, callback);
            let value = |ty: &CType, words: String| {
                let layouts = within.layouts(ty);
                let (size, align) = layouts.first().copied().unwrap_or((ty.size, ty.align));
                Value {
                    size,
                    align,
                    also: layouts.into_iter().skip(1).collect(),
                    passing: ty.passing(),
                    words,
                }
            };
            let params = callback
                .params
                .iter()
                .map(|q| {
                    let words = format!(
                        ", where C has `{}` ({})",
                        c_param(q),
                        value_words(&q.ty, within)
                    );
                    value(&q.ty, words)
                })
                .collect();
            let ret = (callback.ret.class != Class::Void).then(|| {
                let words = format!(
                    ", where C returns `{}` ({})",
                    callback.ret.spelling,
                    value_words(&callback.ret, within)
                );
                value(&callback.ret, words)
            });
            out.push(CallbackAssertion {
                ty: &p.ty,
                params,
                ret,
                before: words.before,
                after: words.after,
            });
        }
        out
    }
}
