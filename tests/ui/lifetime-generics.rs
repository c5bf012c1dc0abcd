// Generics are refused with one error: the lifetimes they declared cause no follow-on errors.
use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

#[cuda_entry(symbol = "cuMemGetInfo", version = 3020)]
pub unsafe extern "C" fn mem_get_info<'a>(free: &'a mut usize, total: &'a mut usize) -> CUresult;

fn main() {}
