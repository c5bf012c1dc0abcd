//! The `CUresult` codes: lookup by code, and one constant per code through `for_each_status!`.

use cuda_entry_table::{STATUSES, status};

#[test]
fn known_codes() {
    let s = status(0).expect("0");
    assert_eq!(
        (s.name, s.description),
        ("CUDA_SUCCESS", "The API call returned with no errors.")
    );
    let s = status(201).expect("201");
    assert_eq!(s.name, "CUDA_ERROR_INVALID_CONTEXT");
    assert!(
        s.description
            .starts_with("This most frequently indicates that there is no context bound"),
        "{}",
        s.description
    );
    assert_eq!(status(999).map(|s| s.name), Some("CUDA_ERROR_UNKNOWN"));
    assert_eq!(status(1).map(|s| s.name), Some("CUDA_ERROR_INVALID_VALUE"));
    assert_eq!(status(34).map(|s| s.name), Some("CUDA_ERROR_STUB_LIBRARY"));
    assert_eq!(status(500).map(|s| s.name), Some("CUDA_ERROR_NOT_FOUND"));
    assert_eq!(status(-1), None);
    assert_eq!(status(998), None);
}

#[test]
fn codes_are_unique_sorted_and_described() {
    assert!(STATUSES.len() > 100, "{}", STATUSES.len());
    for w in STATUSES.windows(2) {
        assert!(w[0].code < w[1].code, "{:?} then {:?}", w[0], w[1]);
    }
    let mut names: Vec<&str> = STATUSES.iter().map(|s| s.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), STATUSES.len());
    for s in STATUSES {
        assert!(s.code >= 0, "{s:?}");
        assert!(s.name.starts_with("CUDA_"), "{s:?}");
        assert_eq!(status(s.code), Some(s));
        let d = s.description;
        assert!(
            d.ends_with('.') && !d.contains('\n') && !d.contains("::"),
            "{s:?}"
        );
        assert!(d.chars().next().is_some_and(char::is_uppercase), "{s:?}");
    }
}

#[derive(Debug, PartialEq, Eq)]
struct CUresult(i32);

macro_rules! constants {
    ($(($code:literal, $ident:ident, $name:literal, $description:literal)),* $(,)?) => {
        #[allow(dead_code)]
        impl CUresult {
            $(
                #[doc = $description]
                const $ident: CUresult = CUresult($code);
            )*
        }
        const NAMES: &[(i32, &str, &str)] = &[$(($code, stringify!($ident), $name)),*];
    };
}

cuda_entry_table::for_each_status!(constants);

#[test]
fn the_macro_defines_one_constant_per_code() {
    assert_eq!(CUresult::SUCCESS, CUresult(0));
    assert_eq!(CUresult::ERROR_INVALID_VALUE, CUresult(1));
    assert_eq!(CUresult::ERROR_INVALID_CONTEXT, CUresult(201));
    assert_eq!(CUresult::ERROR_UNKNOWN, CUresult(999));
    assert_eq!(NAMES.len(), STATUSES.len());
    for (&(code, ident, name), s) in NAMES.iter().zip(STATUSES) {
        assert_eq!((code, name), (s.code, s.name));
        assert_eq!(Some(ident), name.strip_prefix("CUDA_"));
    }
}
