//! What `#[cuda_entry]` expansions name. Not a public API: it changes without notice.

pub use crate::entry::{Entry, Stream};
pub use crate::error::Error;
pub use core::result::Result;

/// The longest message an ABI assertion prints.
const MESSAGE: usize = 512;

const fn push(buf: &mut [u8; MESSAGE], mut len: usize, bytes: &[u8]) -> usize {
    let mut i = 0;
    while i < bytes.len() && len < MESSAGE {
        buf[len] = bytes[i];
        len += 1;
        i += 1;
    }
    len
}

const fn push_number(buf: &mut [u8; MESSAGE], len: usize, mut n: usize) -> usize {
    let mut digits = [0u8; 20];
    let mut count = 0;
    loop {
        digits[digits.len() - 1 - count] = b'0' + (n % 10) as u8;
        count += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let (_, used) = digits.split_at(digits.len() - count);
    push(buf, len, used)
}

/// Fails compilation, naming both layouts, when `T` is not `size` bytes aligned to `align`.
/// `what` names the parameter, its C type and the C layout.
pub const fn check_abi<T>(size: usize, align: usize, what: &str) {
    let (found_size, found_align) = (size_of::<T>(), align_of::<T>());
    if found_size == size && found_align == align {
        return;
    }
    let mut buf = [0u8; MESSAGE];
    let mut len = push(&mut buf, 0, what.as_bytes());
    len = push(&mut buf, len, b", but the declared Rust type is ");
    len = push_number(&mut buf, len, found_size);
    len = push(&mut buf, len, b" bytes, align ");
    len = push_number(&mut buf, len, found_align);
    len = push(&mut buf, len, b": declare it with a type of the C layout");
    let (message, _) = buf.split_at(len);
    match core::str::from_utf8(message) {
        Ok(message) => panic!("{}", message),
        Err(_) => panic!("a declared type does not have the C type's size and alignment"),
    }
}
