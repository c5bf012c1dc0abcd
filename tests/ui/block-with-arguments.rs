use cuda_entry::cuda_entry;
use cuda_entry::types::CUresult;

#[cuda_entry(symbol = "cuMemFree", version = 3020)]
unsafe extern "C" {
    fn mem_free(dptr: u64) -> CUresult;
}

fn main() {}
