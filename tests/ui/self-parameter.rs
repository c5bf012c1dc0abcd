use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

#[cuda_entry(symbol = "cuMemFree", version = 3020)]
pub unsafe extern "C" fn mem_free(self) -> CUresult;

fn main() {}
