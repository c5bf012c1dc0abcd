// Nor can a type claim interior mutability, so that a `&Flag` would pass as written through.
struct Flag(#[allow(dead_code)] bool);

impl cuda_entry::__private::InteriorMutable for Flag {}

fn main() {}
