// The alias hides a `*const` and an `Option<&T>`: the compiler sees them, and the driver writes
// through both parameters.
use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

type Out = *const usize;
type MaybeOut<'a> = Option<&'a usize>;

#[cuda_entry(symbol = "cuMemGetInfo", version = 3020)]
pub unsafe extern "C" fn mem_get_info(free: Out, total: MaybeOut<'static>) -> CUresult;

fn main() {}
