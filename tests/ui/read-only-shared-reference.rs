// A shared reference to a type without interior mutability promises no write, whatever its name
// says: `&u64` and a `&Bytes` newtype where the driver writes (`Cell` or an atomic would do).
use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

#[allow(non_camel_case_types)]
#[repr(transparent)]
pub struct Cell(u64);

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuMemGetInfo", version = 3020)]
    fn mem_get_info(free: &usize, total: Option<&Cell>) -> CUresult;
}

fn main() {}
