// A status named `CUresult` is the C `int` the call returns: an 8-byte one is refused at the
// declaration, by `cargo check` already.
use cuda_entry::cuda_entry;

#[allow(non_camel_case_types)]
pub type CUresult = u64;

#[cuda_entry(symbol = "cuFutureThing", version = 14000, unverified)]
pub unsafe extern "C" fn future_thing(flags: u32) -> CUresult;

fn main() {}
