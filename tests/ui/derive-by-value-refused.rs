// `#[derive(ByValue)]` computes the classes from a C layout: a packed struct (passed in memory
// where C passes registers), an enum with fields or without a `repr`, a struct with Rust's
// layout, and a field that is not `ByValue` (`char` is no C type) are refused.
#[repr(C, packed)]
#[derive(cuda_entry::ByValue)]
pub struct Packed {
    kind: u8,
    id: u32,
}

#[repr(C)]
#[derive(cuda_entry::ByValue)]
pub enum WithFields {
    Device(i32),
}

#[derive(cuda_entry::ByValue)]
pub enum RustLayout {
    Host,
}

#[derive(cuda_entry::ByValue)]
pub struct NoRepr {
    id: i32,
}

#[repr(C)]
#[derive(cuda_entry::ByValue)]
pub struct Letter {
    kind: i32,
    letter: char,
}

fn main() {}
