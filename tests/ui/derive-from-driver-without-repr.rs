// Rust's own layout is not the C header's: the derive asks for `#[repr(C)]`.
#[derive(cuda_entry::FromDriver)]
pub struct Info {
    pub free: usize,
    pub total: usize,
}

fn main() {}
