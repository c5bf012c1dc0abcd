//! The export at an address on Windows, as `dladdr` answers it on Linux: the module the address
//! lies in (`GetModuleHandleExW`), then that module's PE export table, read in memory where the
//! loader mapped it. Every offset is checked against the image's size, so a damaged table gives
//! `None`, never a read outside the image.

use std::ffi::c_void;

/// `GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT`: look the module up, do not pin it.
const UNCHANGED_REFCOUNT: u32 = 0x2;
/// `GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS`: the "name" is an address inside the module.
const FROM_ADDRESS: u32 = 0x4;
/// `IMAGE_NT_OPTIONAL_HDR32_MAGIC`, `IMAGE_NT_OPTIONAL_HDR64_MAGIC`.
const PE32: u16 = 0x10b;
const PE32_PLUS: u16 = 0x20b;

#[link(name = "kernel32")]
unsafe extern "system" {
    fn GetModuleHandleExW(flags: u32, name: *const u16, module: *mut *mut c_void) -> i32;
}

/// The name of the export of the loaded module holding `address` whose function starts exactly
/// there, or `None` (not in a module, not an export's start, or a table that does not read).
#[allow(
    clippy::not_unsafe_ptr_arg_deref,
    reason = "the address is looked up, never dereferenced"
)]
pub fn export_name(address: *const c_void) -> Option<String> {
    let mut module: *mut c_void = std::ptr::null_mut();
    // SAFETY: with FROM_ADDRESS the second argument is only compared with the loaded modules'
    // ranges; UNCHANGED_REFCOUNT leaves the module's reference count alone.
    let found = unsafe {
        GetModuleHandleExW(
            FROM_ADDRESS | UNCHANGED_REFCOUNT,
            address.cast(),
            &raw mut module,
        )
    };
    if found == 0 || module.is_null() {
        return None;
    }
    let rva = u32::try_from((address as usize).checked_sub(module as usize)?).ok()?;
    // SAFETY: `module` is the base of an image the loader mapped (headers included) and keeps
    // mapped while the address's code is in use; `Image` reads only inside its SizeOfImage.
    let image = unsafe { Image::at(module.cast::<u8>())? };
    image.export_at(rva)
}

/// A mapped PE image: its base and how many bytes from there are mapped.
struct Image {
    base: *const u8,
    size: usize,
}

impl Image {
    /// The image mapped at `base`, sized by its headers.
    ///
    /// # Safety
    /// `base` is the base of a mapped PE image whose headers are readable.
    unsafe fn at(base: *const u8) -> Option<Image> {
        // The DOS header's e_lfanew, then "PE\0\0", the file header (20 bytes) and the optional
        // header's magic; SizeOfImage is at offset 56 of either optional header.
        let headers = Image { base, size: 0x40 };
        let nt = headers.u32(0x3c)? as usize;
        let headers = Image {
            base,
            size: nt + 24 + 60,
        };
        if headers.u32(nt)? != u32::from_le_bytes(*b"PE\0\0") {
            return None;
        }
        let size = headers.u32(nt + 24 + 56)? as usize;
        Some(Image { base, size })
    }

    fn bytes(&self, offset: usize, len: usize) -> Option<&[u8]> {
        if offset.checked_add(len)? > self.size {
            return None;
        }
        // SAFETY: the range lies inside the mapped image (checked above).
        Some(unsafe { std::slice::from_raw_parts(self.base.add(offset), len) })
    }

    fn u16(&self, offset: usize) -> Option<u16> {
        Some(u16::from_le_bytes(self.bytes(offset, 2)?.try_into().ok()?))
    }

    fn u32(&self, offset: usize) -> Option<u32> {
        Some(u32::from_le_bytes(self.bytes(offset, 4)?.try_into().ok()?))
    }

    /// The NUL-terminated name at `offset`.
    fn name(&self, offset: usize) -> Option<String> {
        let rest = self.bytes(offset, self.size.checked_sub(offset)?)?;
        let end = rest.iter().position(|&b| b == 0)?;
        Some(String::from_utf8_lossy(&rest[..end]).into_owned())
    }

    /// The export whose function's RVA is `rva`, read from the export directory.
    fn export_at(&self, rva: u32) -> Option<String> {
        let nt = self.u32(0x3c)? as usize;
        let optional = nt + 24;
        let directories = match self.u16(optional)? {
            PE32 => optional + 96,
            PE32_PLUS => optional + 112,
            _ => return None,
        };
        // Data directory 0: the export table's RVA (0: the module exports nothing).
        let exports = self.u32(directories)? as usize;
        if exports == 0 {
            return None;
        }
        let names = self.u32(exports + 24)? as usize;
        let functions = self.u32(exports + 28)? as usize;
        let name_rvas = self.u32(exports + 32)? as usize;
        let ordinals = self.u32(exports + 36)? as usize;
        // Both arrays inside the image, or a damaged count is not walked.
        self.bytes(name_rvas, names.checked_mul(4)?)?;
        self.bytes(ordinals, names.checked_mul(2)?)?;
        (0..names).find_map(|i| {
            let ordinal = usize::from(self.u16(ordinals + 2 * i)?);
            if self.u32(functions + 4 * ordinal)? != rva {
                return None;
            }
            self.name(self.u32(name_rvas + 4 * i)? as usize)
        })
    }
}
