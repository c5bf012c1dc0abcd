// The generated function returns `Result<(), Error>`; the declaration states the C return type.
use cuda_entry::cuda_entry;

#[cuda_entry(symbol = "cuCtxSynchronize", version = 2000)]
pub unsafe extern "C" fn synchronize() -> Result<(), cuda_entry::Error>;

fn main() {}
