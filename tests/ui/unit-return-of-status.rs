// `-> ()` where the typedef returns `CUresult`: the fix is the return type, not another version.
use cuda_entry::cuda_entry;
use cuda_entry::types::CUdeviceptr;

#[cuda_entry(symbol = "cuMemFree", version = 3020)]
pub unsafe extern "C" fn mem_free(dptr: CUdeviceptr) -> ();

fn main() {}
