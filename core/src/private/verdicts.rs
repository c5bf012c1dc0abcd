//! The table the rule is held to (issue 37): every std type with invalid values, and some that
//! have none, inside each container, at each position a declared type can take. The expected
//! verdict is computed from facts of the language written here (which bit patterns a type
//! allows, whether it is a scalar or a pointer C can pass), never read from the crate's impls;
//! the verdict found is the probe the expansion asks at that position:
//!
//! - passed by value (a parameter, a callback's return): `Passed::<T>::CLASSES` is proven;
//! - produced by the driver (what it writes through a pointer, at either level of a `T **`,
//!   a value it returns, a callback's parameter): `Proven::<T>::FROM_DRIVER`;
//! - behind a `const` pointer only a layout is asked, which any sized type has (no probe).

use core::cell::{Cell, UnsafeCell};
use core::ffi::c_void;
use core::mem::{ManuallyDrop, MaybeUninit};
use core::num::{NonZero, Wrapping};
use core::ptr::NonNull;
use core::sync::atomic::{AtomicBool, AtomicU64};

use super::abi::{Passed, PassedFallback as _};
use super::values::{Proven, ProvenFallback as _};

/// What the language says of an inner type.
#[derive(Clone, Copy, Debug)]
struct Facts {
    /// Every bit pattern of its size is a value.
    any_bits: bool,
    /// C passes it by value as a scalar or a pointer of its size.
    scalar: bool,
    /// `Option<T>` has `T`'s size with `None` as 0 (a non-null niche).
    niche: bool,
    /// A value of it the driver stores may be any address: a pointer that is never read through
    /// by the crate (raw, `NonNull`) or a C function pointer; not a reference (it must point to
    /// a valid value) nor a Rust-ABI function (the driver stores C functions).
    any_address: bool,
}

/// A shape's name, and its verdicts: passed by value, produced by the driver.
type Verdicts = [(&'static str, bool, bool); 9];

/// The verdicts of `T` itself and of each container of it, as the rule computes them from `T`'s
/// facts.
fn expected(f: Facts) -> Verdicts {
    let (value, produced) = (f.scalar, f.any_bits);
    [
        ("T", value, produced),
        // Its elements one after another.
        ("[T; 2]", value, produced),
        // `repr(transparent)` (or T's layout and validity).
        ("Cell<T>", value, produced),
        ("UnsafeCell<T>", value, produced),
        ("ManuallyDrop<T>", value, produced),
        ("Wrapping<T>", value, produced),
        // No claim about its bytes; passed as T is.
        ("MaybeUninit<T>", value, true),
        // No defined layout.
        ("(T,)", false, false),
        // Only a niche keeps T's layout; every value is then valid where any address is, or
        // where the niche is the only invalid value (`NonZero`).
        ("Option<T>", f.niche && f.scalar, f.niche && f.any_address),
    ]
}

macro_rules! found {
    ($t:ty) => {
        [
            (
                "T",
                Passed::<$t>::CLASSES.is_some(),
                Proven::<$t>::FROM_DRIVER,
            ),
            (
                "[T; 2]",
                Passed::<[$t; 2]>::CLASSES.is_some(),
                Proven::<[$t; 2]>::FROM_DRIVER,
            ),
            (
                "Cell<T>",
                Passed::<Cell<$t>>::CLASSES.is_some(),
                Proven::<Cell<$t>>::FROM_DRIVER,
            ),
            (
                "UnsafeCell<T>",
                Passed::<UnsafeCell<$t>>::CLASSES.is_some(),
                Proven::<UnsafeCell<$t>>::FROM_DRIVER,
            ),
            (
                "ManuallyDrop<T>",
                Passed::<ManuallyDrop<$t>>::CLASSES.is_some(),
                Proven::<ManuallyDrop<$t>>::FROM_DRIVER,
            ),
            (
                "Wrapping<T>",
                Passed::<Wrapping<$t>>::CLASSES.is_some(),
                Proven::<Wrapping<$t>>::FROM_DRIVER,
            ),
            (
                "MaybeUninit<T>",
                Passed::<MaybeUninit<$t>>::CLASSES.is_some(),
                Proven::<MaybeUninit<$t>>::FROM_DRIVER,
            ),
            (
                "(T,)",
                Passed::<($t,)>::CLASSES.is_some(),
                Proven::<($t,)>::FROM_DRIVER,
            ),
            (
                "Option<T>",
                Passed::<Option<$t>>::CLASSES.is_some(),
                Proven::<Option<$t>>::FROM_DRIVER,
            ),
        ]
    };
}

const fn facts(any_bits: bool, scalar: bool, niche: bool, any_address: bool) -> Facts {
    Facts {
        any_bits,
        scalar,
        niche,
        any_address,
    }
}

#[allow(dead_code)]
#[repr(u32)]
enum Level {
    Error = 0,
    Warning = 1,
}

type CFn = unsafe extern "C" fn(*mut c_void);
type RustFn = fn(*mut c_void);

#[test]
fn every_container_of_every_type_at_every_position_gets_the_rules_verdict() {
    // (name, facts, what the probes answer for T and each container).
    let table: Vec<(&str, Facts, Verdicts)> = vec![
        ("u32", facts(true, true, false, false), found!(u32)),
        ("f64", facts(true, true, false, false), found!(f64)),
        ("*mut u8", facts(true, true, false, false), found!(*mut u8)),
        ("bool", facts(false, true, false, false), found!(bool)),
        // Not a C scalar: a Unicode scalar value has no C type.
        ("char", facts(false, false, false, false), found!(char)),
        // 0 is its niche, and the only value it lacks.
        (
            "NonZero<u32>",
            facts(false, true, true, true),
            found!(NonZero<u32>),
        ),
        (
            "&u64",
            facts(false, true, true, false),
            found!(&'static u64),
        ),
        (
            "NonNull<c_void>",
            facts(false, true, true, true),
            found!(NonNull<c_void>),
        ),
        (
            "extern \"C\" fn",
            facts(false, true, true, true),
            found!(CFn),
        ),
        // C cannot call it: no class proven; the driver never stores one.
        (
            "fn (Rust ABI)",
            facts(false, false, true, false),
            found!(RustFn),
        ),
        // Only its listed values; no derive here.
        (
            "enum Level",
            facts(false, false, false, false),
            found!(Level),
        ),
        // Shared memory, not a value to pass: no class proven.
        (
            "AtomicU64",
            facts(true, false, false, false),
            found!(AtomicU64),
        ),
        (
            "AtomicBool",
            facts(false, false, false, false),
            found!(AtomicBool),
        ),
    ];
    let mut wrong = Vec::new();
    for (name, facts, found) in &table {
        for (want, got) in expected(*facts).iter().zip(found) {
            assert_eq!(want.0, got.0, "the table's containers are in one order");
            if (want.1, want.2) != (got.1, got.2) {
                wrong.push(format!(
                    "{} of {name}: rule (by value {}, produced {}), probes ({}, {})",
                    want.0, want.1, want.2, got.1, got.2
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "verdicts against the rule:\n{}",
        wrong.join("\n")
    );
    assert_eq!(table.len() * 9, 117, "13 types, 9 shapes each, 2 positions");
}
