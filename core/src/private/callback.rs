//! What the expansion asks the compiler of a type declared where C has a callback (`CUhostFn`,
//! `CUstreamCallback`): through [`CFn`], whether it is a function pointer, its ABI, its arity, and
//! the layout and class of each parameter and of the return, whatever the type is called (an
//! alias, `cudarc::driver::sys::CUhostFn`). [`callback`] fails the build with the macro's words.

use core::ptr::NonNull;

use super::abi::{Layout, Message, class_mismatch};
use super::seal::{CFnMark, Seal};
use crate::by_value::Classes;

/// The calling convention of a function pointer type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FnAbi {
    /// `extern "C"`.
    C,
    /// `extern "system"`: `"C"` wherever CUDA runs but 32-bit Windows.
    System,
    /// The Rust ABI (`fn(..)` without `extern`), which C code cannot call.
    Rust,
    /// `extern "C-unwind"` or `extern "system-unwind"`.
    Unwind,
    /// Not a function pointer: an integer or a data pointer (which has a function pointer's
    /// layout, not its type).
    NotAFunction,
}

/// Where a function has fewer parameters than [`CFn`] names: no parameter.
#[derive(Debug)]
pub struct NoParameter;

/// A function pointer type: `[unsafe] [extern "ABI"] fn(A0, A1, ..) -> Ret`, or an `Option` of
/// one, of up to eight parameters (a C callback has at most five). Integers and data pointers
/// implement it too, as [`FnAbi::NotAFunction`], so that [`callback`] names them in the macro's
/// words.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a function pointer, but the C parameter is a callback",
    label = "the C type is a function pointer here",
    note = "declare `Option<unsafe extern \"C\" fn(..)>` with the parameter and return types of \
            the C callback (raw pointers, not references), as the macro's message says"
)]
pub trait CFn: Seal<CFnMark> {
    /// Its calling convention.
    const ABI: FnAbi;
    /// How many parameters it takes.
    const ARITY: usize;
    /// The layout of each parameter.
    const PARAMS: &'static [Layout];
    /// The layout of what it returns (`()`: 0 bytes).
    const RET: Layout;
    /// The first parameter's type, [`NoParameter`] where there is none.
    type A0;
    /// The second's.
    type A1;
    /// The third's.
    type A2;
    /// The fourth's.
    type A3;
    /// The fifth's.
    type A4;
    /// The sixth's.
    type A5;
    /// The seventh's.
    type A6;
    /// The eighth's.
    type A7;
    /// What it returns.
    type Ret;
}

macro_rules! c_fn {
    // One pointer type: the impl.
    (@impl ($($pointer:tt)*) $abi:ident; [$($t:ident => $a:ident),*]; [$($none:ident),*]) => {
        impl<R, $($t),*> Seal<CFnMark> for $($pointer)* {}
        impl<R, $($t),*> CFn for $($pointer)* {
            const ABI: FnAbi = FnAbi::$abi;
            const ARITY: usize = <[&str]>::len(&[$(stringify!($t)),*]);
            const PARAMS: &'static [Layout] = &[$(Layout::of::<$t>()),*];
            const RET: Layout = Layout::of::<R>();
            $(type $a = $t;)*
            $(type $none = NoParameter;)*
            type Ret = R;
        }
    };
    // One ABI: the four shapes of pointer.
    (@abi [$($abi_tokens:tt)*] $abi:ident; $ts:tt; $nones:tt; $($t:ident),*) => {
        c_fn!(@impl (Option<unsafe $($abi_tokens)* fn($($t),*) -> R>) $abi; $ts; $nones);
        c_fn!(@impl (Option<$($abi_tokens)* fn($($t),*) -> R>) $abi; $ts; $nones);
        c_fn!(@impl (unsafe $($abi_tokens)* fn($($t),*) -> R) $abi; $ts; $nones);
        c_fn!(@impl ($($abi_tokens)* fn($($t),*) -> R) $abi; $ts; $nones);
    };
    // One arity: every ABI.
    ([$($t:ident => $a:ident),*]; [$($none:ident),*]) => {
        c_fn!(@abi [extern "C"] C; [$($t => $a),*]; [$($none),*]; $($t),*);
        c_fn!(@abi [extern "system"] System; [$($t => $a),*]; [$($none),*]; $($t),*);
        c_fn!(@abi [] Rust; [$($t => $a),*]; [$($none),*]; $($t),*);
        c_fn!(@abi [extern "C-unwind"] Unwind; [$($t => $a),*]; [$($none),*]; $($t),*);
        c_fn!(@abi [extern "system-unwind"] Unwind; [$($t => $a),*]; [$($none),*]; $($t),*);
    };
}

macro_rules! not_a_function {
    (@body) => {
        const ABI: FnAbi = FnAbi::NotAFunction;
        const ARITY: usize = 0;
        const PARAMS: &'static [Layout] = &[];
        const RET: Layout = Layout::of::<()>();
        type A0 = NoParameter;
        type A1 = NoParameter;
        type A2 = NoParameter;
        type A3 = NoParameter;
        type A4 = NoParameter;
        type A5 = NoParameter;
        type A6 = NoParameter;
        type A7 = NoParameter;
        type Ret = ();
    };
    ($($t:ty),*; $($p:ty),*) => {
        $(impl Seal<CFnMark> for $t {}
        impl CFn for $t {
            not_a_function!(@body);
        })*
        $(impl<'a, T: ?Sized> Seal<CFnMark> for $p {}
        impl<'a, T: ?Sized> CFn for $p {
            not_a_function!(@body);
        })*
    };
}

not_a_function!(
    u8, i8, u16, i16, u32, i32, u64, i64, u128, i128, usize, isize;
    *mut T, *const T, &'a T, &'a mut T, NonNull<T>, Option<NonNull<T>>, Option<&'a T>,
    Option<&'a mut T>
);

c_fn!([]; [A0, A1, A2, A3, A4, A5, A6, A7]);
c_fn!([T0 => A0]; [A1, A2, A3, A4, A5, A6, A7]);
c_fn!([T0 => A0, T1 => A1]; [A2, A3, A4, A5, A6, A7]);
c_fn!([T0 => A0, T1 => A1, T2 => A2]; [A3, A4, A5, A6, A7]);
c_fn!([T0 => A0, T1 => A1, T2 => A2, T3 => A3]; [A4, A5, A6, A7]);
c_fn!([T0 => A0, T1 => A1, T2 => A2, T3 => A3, T4 => A4]; [A5, A6, A7]);
c_fn!([T0 => A0, T1 => A1, T2 => A2, T3 => A3, T4 => A4, T5 => A5]; [A6, A7]);
c_fn!([T0 => A0, T1 => A1, T2 => A2, T3 => A3, T4 => A4, T5 => A5, T6 => A6]; [A7]);
c_fn!([T0 => A0, T1 => A1, T2 => A2, T3 => A3, T4 => A4, T5 => A5, T6 => A6, T7 => A7]; []);

/// One value a C callback passes or returns: its layouts, its class, and the words after what is
/// found (`, where C has `void *userData` (8 bytes, align 8, ...)`).
#[derive(Clone, Copy, Debug)]
pub struct CValue<'a> {
    /// The C size.
    pub size: usize,
    /// The C alignment.
    pub align: usize,
    /// Other layouts the headers of the typedef's toolkits gave it.
    pub also: &'a [(usize, usize)],
    /// How C passes it: one of these classes ([`Classes`]).
    pub classes: &'a [Classes],
    /// The words after what is found.
    pub words: &'a str,
}

impl CValue<'_> {
    const fn accepts(&self, found: Layout) -> bool {
        found.is_one_of((self.size, self.align), self.also)
    }

    /// What is wrong with a value of layout `found` and class `class`, if anything, in words
    /// that follow `of` (a layout) or `as` (a class): `parameter 1 of 4 bytes, align 4`.
    const fn wrong(&self, what: Message, found: Layout, class: Option<Classes>) -> Option<Message> {
        if !self.accepts(found) {
            let found = Message::layout(" of ", found, "");
            return Some(what.then(found.as_str()).then(self.words));
        }
        match class_mismatch(class, self.classes) {
            Some(words) => Some(what.then(" as ").then(words.as_str()).then(self.words)),
            None => None,
        }
    }
}

/// The C callback a declared type must match, and the words around what is wrong: `before`
/// (`parameter 3 `fn` of ... is `CUhostFn fn`, a callback `void (*)(void *userData)`, but
/// `HostFn` `), then what is wrong, then `after` (`: declare it ...`) and the typedefs.
#[derive(Clone, Copy, Debug)]
pub struct CCallback<'a> {
    /// The C parameters.
    pub params: &'a [CValue<'a>],
    /// The C return; `None` for `void`.
    pub ret: Option<CValue<'a>>,
    /// The message up to what is wrong.
    pub before: &'a str,
    /// The message after it.
    pub after: &'a str,
}

/// Fails compilation with the macro's message when `F` is not a function pointer the driver can
/// call as the C callback: another ABI, another arity, a parameter or the return of another
/// layout or class (`classes`: [`Passed`](super::abi::Passed)'s answer for each of `F`'s first
/// parameters, as many as C has; `ret`: for its return). `#[track_caller]`: the error
/// points at the declared type.
///
/// `proven`: for each of `F`'s first parameters, whether its type is proven to hold every value
/// the driver may pass ([`Proven`](super::values::Proven)): the driver produces them.
#[track_caller]
pub const fn callback<F: CFn>(
    expect: CCallback<'_>,
    (classes, proven): (&[Option<Classes>], &[bool]),
    ret: Option<Classes>,
    typedefs: &str,
) {
    if let Some(message) = callback_message::<F>(expect, Some((classes, ret)), proven, typedefs) {
        panic!("{}", message.as_str());
    }
}

/// [`callback`] where pointers are not 64 bits wide, so the table's layouts do not hold: the
/// ABI, the arity and what the driver passes (`proven`) only.
#[track_caller]
pub const fn callback_portable<F: CFn>(expect: CCallback<'_>, proven: &[bool], typedefs: &str) {
    if let Some(message) = callback_message::<F>(expect, None, proven, typedefs) {
        panic!("{}", message.as_str());
    }
}

/// [`callback`]'s message, `None` when `F` matches; without `classes`, layouts and classes are
/// not compared.
const fn callback_message<F: CFn>(
    expect: CCallback<'_>,
    classes: Option<(&[Option<Classes>], Option<Classes>)>,
    proven: &[bool],
    typedefs: &str,
) -> Option<Message> {
    let wrong = match F::ABI {
        FnAbi::Rust => Some(Message::text("has the Rust ABI, which C cannot call")),
        FnAbi::Unwind => Some(Message::text(
            "has an unwinding ABI: a panic must not unwind into the driver",
        )),
        FnAbi::NotAFunction => Some(Message::text("is not a function pointer")),
        FnAbi::C | FnAbi::System => match wrong_signature::<F>(expect, classes) {
            None => unproven(proven),
            wrong => wrong,
        },
    };
    match wrong {
        Some(what) => Some(
            Message::text(expect.before)
                .then(what.as_str())
                .then(expect.after)
                .then(typedefs),
        ),
        None => None,
    }
}

/// The first parameter whose type is not proven to hold every value the driver may pass, in
/// words.
const fn unproven(proven: &[bool]) -> Option<Message> {
    let mut i = 0;
    while i < proven.len() {
        if !proven[i] {
            return Some(
                Message::text("takes parameter ")
                    .then_number(i + 1)
                    .then(" as ")
                    .then(cuda_entry_table::value_words::UNPROVEN)
                    .then(", where the driver passes any value C allows"),
            );
        }
        i += 1;
    }
    None
}

/// What is wrong with `F`'s arity, parameters or return, in words.
const fn wrong_signature<F: CFn>(
    expect: CCallback<'_>,
    classes: Option<(&[Option<Classes>], Option<Classes>)>,
) -> Option<Message> {
    if F::ARITY != expect.params.len() {
        let s = if F::ARITY == 1 { "" } else { "s" };
        return Some(
            Message::text("takes ")
                .then_number(F::ARITY)
                .then(" parameter")
                .then(s),
        );
    }
    let Some((classes, ret)) = classes else {
        return None;
    };
    let mut i = 0;
    while i < expect.params.len() {
        let c = expect.params[i];
        let class = if i < classes.len() { classes[i] } else { None };
        let what = Message::text("takes parameter ").then_number(i + 1);
        if let Some(wrong) = c.wrong(what, F::PARAMS[i], class) {
            return Some(wrong);
        }
        i += 1;
    }
    match expect.ret {
        None if F::RET.is(0, 1) => None,
        None => Some(
            Message::layout("returns a value of ", F::RET, "").then(", where C returns `void`"),
        ),
        Some(c) => c.wrong(Message::text("returns a value"), F::RET, ret),
    }
}

#[cfg(test)]
mod tests {
    use core::ffi::c_void;

    use super::*;
    use crate::__private::{Passed, PassedFallback as _};

    type HostFn = Option<unsafe extern "C" fn(*mut c_void)>;
    type Occupancy = Option<unsafe extern "C" fn(i32) -> usize>;

    const VOID_PTR: CValue<'static> = CValue {
        size: 8,
        align: 8,
        also: &[],
        classes: &[Classes::POINTER],
        words: ", where C has `void *userData`",
    };
    const HOST_FN: CCallback<'static> = CCallback {
        params: &[VOID_PTR],
        ret: None,
        before: "b ",
        after: " a",
    };

    fn message<F: CFn>(
        expect: CCallback<'_>,
        classes: &[Option<Classes>],
        ret: Option<Classes>,
    ) -> String {
        let proven = [true; 8];
        callback_message::<F>(
            expect,
            Some((classes, ret)),
            &proven[..classes.len()],
            "\nt",
        )
        .map(|m| m.as_str().to_owned())
        .unwrap_or_default()
    }

    #[test]
    fn function_pointers_tell_their_signature() {
        const {
            assert!(matches!(<HostFn as CFn>::ABI, FnAbi::C));
            assert!(<HostFn as CFn>::ARITY == 1);
            assert!(<HostFn as CFn>::PARAMS[0].is(8, 8));
            assert!(<HostFn as CFn>::RET.is(0, 1));
            assert!(<Occupancy as CFn>::RET.is(8, 8));
            assert!(matches!(<fn(u8) as CFn>::ABI, FnAbi::Rust));
            assert!(matches!(
                <Option<extern "system" fn()> as CFn>::ABI,
                FnAbi::System
            ));
            assert!(Passed::<<Occupancy as CFn>::A0>::CLASSES.is_some());
            assert!(Passed::<<Occupancy as CFn>::Ret>::CLASSES.is_some());
            assert!(Passed::<<Occupancy as CFn>::A1>::CLASSES.is_none());
            callback::<HostFn>(HOST_FN, (&[Some(Classes::POINTER)], &[true]), None, "");
        }
    }

    #[test]
    fn a_parameter_not_proven_valid_is_named() {
        let pointer = Some(Classes::POINTER);
        // With the layouts (64-bit targets) and without (the portable check): the same words.
        for classes in [Some((&[pointer][..], None)), None] {
            let wrong = callback_message::<HostFn>(HOST_FN, classes, &[false], "\nt")
                .map(|m| m.as_str().to_owned())
                .unwrap_or_default();
            assert!(
                wrong.starts_with("b takes parameter 1 as a type not proven valid"),
                "{wrong}"
            );
            assert!(
                wrong.ends_with("where the driver passes any value C allows a\nt"),
                "{wrong}"
            );
        }
    }

    #[test]
    fn without_layouts_the_abi_and_the_arity_are_still_checked() {
        type Wide = Option<unsafe extern "C" fn(u64)>;
        type Two = Option<unsafe extern "C" fn(*mut c_void, i32)>;
        type Rust = Option<fn(*mut c_void)>;
        let portable = |wrong: Option<Message>| wrong.map(|m| m.as_str().to_owned());
        // A parameter of another size passes where layouts are not compared...
        assert_eq!(
            portable(callback_message::<Wide>(HOST_FN, None, &[true], "")),
            None
        );
        // ...but not another arity or ABI.
        let two = portable(callback_message::<Two>(HOST_FN, None, &[true, true], ""));
        assert_eq!(two.as_deref(), Some("b takes 2 parameters a"));
        let rust = portable(callback_message::<Rust>(HOST_FN, None, &[true], ""));
        assert_eq!(
            rust.as_deref(),
            Some("b has the Rust ABI, which C cannot call a")
        );
    }

    #[test]
    fn mismatches_are_named() {
        let unknown = Some(Classes::POINTER);
        assert_eq!(message::<HostFn>(HOST_FN, &[unknown], unknown), "");
        assert_eq!(
            message::<Option<fn(*mut c_void)>>(HOST_FN, &[unknown], unknown),
            "b has the Rust ABI, which C cannot call a\nt"
        );
        assert_eq!(
            message::<usize>(HOST_FN, &[unknown], unknown),
            "b is not a function pointer a\nt"
        );
        assert_eq!(
            message::<*mut c_void>(HOST_FN, &[unknown], unknown),
            "b is not a function pointer a\nt"
        );
        assert!(
            message::<extern "C-unwind" fn(*mut u8)>(HOST_FN, &[unknown], unknown)
                .starts_with("b has an unwinding ABI")
        );
        assert_eq!(
            message::<extern "C" fn(u8, f64, u128) -> f64>(HOST_FN, &[unknown], unknown),
            "b takes 3 parameters a\nt"
        );
        assert_eq!(
            message::<extern "C" fn(u32)>(HOST_FN, &[unknown], unknown),
            "b takes parameter 1 of 4 bytes, align 4, where C has `void *userData` a\nt"
        );
        assert_eq!(
            message::<extern "C" fn(f64)>(HOST_FN, &[Some(Classes::F64)], unknown),
            "b takes parameter 1 as a floating-point type, passed in a floating-point register, \
             where C has `void *userData` a\nt"
        );
        assert_eq!(
            message::<extern "C" fn(*mut c_void) -> i32>(HOST_FN, &[unknown], unknown),
            "b returns a value of 4 bytes, align 4, where C returns `void` a\nt"
        );
        let size_t = CValue {
            words: ", where C returns `size_t`",
            classes: &[Classes::integer(8)],
            ..VOID_PTR
        };
        let occupancy = CCallback {
            params: &[CValue {
                size: 4,
                align: 4,
                classes: &[Classes::integer(4)],
                ..VOID_PTR
            }],
            ret: Some(size_t),
            ..HOST_FN
        };
        let int = Some(Classes::integer(4));
        let size = Some(Classes::integer(8));
        assert_eq!(message::<Occupancy>(occupancy, &[int], size), "");
        // A parameter not proven by value.
        assert!(
            message::<Occupancy>(occupancy, &[None], size)
                .starts_with("b takes parameter 1 as not proven")
        );
        assert_eq!(
            message::<extern "C" fn(i32) -> f64>(occupancy, &[int], Some(Classes::F64)),
            "b returns a value as a floating-point type, passed in a floating-point register, \
             where C returns `size_t` a\nt"
        );
    }
}
