//! The `CUresult` codes of cuda.h: their names and what they mean, for messages, and
//! [`for_each_status!`](crate::for_each_status) to define one constant per code.

mod generated;

/// One `CUresult` code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status {
    /// The value (`201`).
    pub code: i32,
    /// The enumerator (`CUDA_ERROR_INVALID_CONTEXT`).
    pub name: &'static str,
    /// The first sentence of its doc comment in cuda.h.
    pub description: &'static str,
}

macro_rules! statuses {
    ($(($code:literal, $ident:ident, $name:literal, $description:literal)),* $(,)?) => {
        /// Every `CUresult` code of cuda.h (CUDA 11.7 and newer), sorted by code.
        pub static STATUSES: &[Status] = &[
            $(Status { code: $code, name: $name, description: $description }),*
        ];
    };
}

crate::for_each_status!(statuses);

/// The `CUresult` code `code`: `status(201)` is `CUDA_ERROR_INVALID_CONTEXT`. `None` for a
/// value cuda.h does not define. `O(log n)`.
///
/// ```
/// let s = cuda_entry_table::status(1).unwrap();
/// assert_eq!(s.name, "CUDA_ERROR_INVALID_VALUE");
/// assert!(cuda_entry_table::status(-1).is_none());
/// ```
pub fn status(code: i32) -> Option<&'static Status> {
    STATUSES
        .binary_search_by_key(&code, |s| s.code)
        .ok()
        .map(|i| &STATUSES[i])
}
