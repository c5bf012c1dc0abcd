// The proofs the expansion asks are sealed or `unsafe`: a `bool` newtype cannot claim, without
// `unsafe`, to hold whatever the driver writes.
struct Flag(#[allow(dead_code)] bool);

impl cuda_entry::__private::Produced for Flag {}

fn main() {}
