// A struct is proven field by field: a `bool` field is not, and the error points at it.
#[derive(cuda_entry::FromDriver)]
#[repr(C)]
pub struct Attributes {
    pub managed: bool,
    pub size: usize,
}

fn main() {}
