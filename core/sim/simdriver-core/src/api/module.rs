//! Modules and their functions: PTX images checked for the kernels they declare.

use std::ffi::{CStr, c_char, c_void};

use super::{Module, non_null, with_context};
use crate::{CUfunction, CUmodule, SimError, SimResult};

/// `cuModuleLoadData(CUmodule *module, const void *image)`.
///
/// A PTX image (NUL-terminated text) is kept to check kernel names against its `.entry`
/// directives; a binary image (cubin/fatbin, starting with a non-text byte) is accepted as is.
///
/// # Safety
///
/// `module` must be NULL or writable; `image` NULL or a PTX string or a binary image whose first
/// byte is readable.
pub unsafe fn module_load_data(module: *mut CUmodule, image: *const c_void) -> SimResult {
    let mut st = with_context()?;
    non_null(module)?;
    non_null(image)?;
    // SAFETY: the caller promises at least the first byte is readable.
    let first = unsafe { image.cast::<u8>().read() };
    let ptx = if first.is_ascii() && first != 0x7f && first != 0 {
        // SAFETY: a text image is a NUL-terminated PTX string (the driver's contract).
        let text = unsafe { CStr::from_ptr(image.cast::<c_char>()) };
        Some(text.to_string_lossy().into_owned())
    } else {
        None
    };
    let handle = st.handle();
    st.modules.insert(handle, Module { ptx });
    // SAFETY: non-NULL, and the caller promises it is writable.
    unsafe { module.write(handle as CUmodule) };
    Ok(())
}

/// Whether PTX text declares the kernel `name` (`.entry name(` / `.entry name `).
fn ptx_declares(ptx: &str, name: &str) -> bool {
    ptx.match_indices(".entry").any(|(i, _)| {
        let rest = ptx[i + ".entry".len()..].trim_start();
        rest.strip_prefix(name)
            .is_some_and(|after| after.starts_with(|c: char| c == '(' || c.is_whitespace()))
    })
}

/// `cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)`: 500 (NOT_FOUND)
/// when a PTX module has no such `.entry`.
///
/// # Safety
///
/// `hfunc` must be NULL or writable; `name` NULL or NUL-terminated.
pub unsafe fn module_get_function(
    hfunc: *mut CUfunction,
    hmod: CUmodule,
    name: *const c_char,
) -> SimResult {
    let mut st = with_context()?;
    non_null(hfunc)?;
    non_null(name)?;
    // SAFETY: non-NULL, and the caller promises a NUL-terminated string.
    let name = unsafe { CStr::from_ptr(name) }
        .to_string_lossy()
        .into_owned();
    let module = st
        .modules
        .get(&(hmod as usize))
        .ok_or(SimError::InvalidHandle)?;
    if module
        .ptx
        .as_deref()
        .is_some_and(|ptx| !ptx_declares(ptx, &name))
    {
        return Err(SimError::NotFound);
    }
    let handle = st.handle();
    st.functions.insert(handle, (hmod as usize, name));
    // SAFETY: non-NULL, and the caller promises it is writable.
    unsafe { hfunc.write(handle as CUfunction) };
    Ok(())
}

/// `cuModuleUnload(CUmodule hmod)`: its functions become invalid.
///
/// # Safety
///
/// None beyond the C signature.
pub unsafe fn module_unload(hmod: CUmodule) -> SimResult {
    let mut st = with_context()?;
    let hmod = hmod as usize;
    st.modules.remove(&hmod).ok_or(SimError::InvalidHandle)?;
    st.functions.retain(|_, (m, _)| *m != hmod);
    Ok(())
}
