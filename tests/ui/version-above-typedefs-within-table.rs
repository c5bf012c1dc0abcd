// Without `unverified`, a version above every typedef of the symbol but within the table's headers
// (CUDA 12.8 for `cuCtxCreate`, whose newest typedef is 12050): the table knows the driver returns
// an older typedef's ABI there, so the message does not suggest `unverified`.
use cuda_entry::cuda_entry;
use cuda_entry::types::{CUcontext, CUdevice, CUresult};

#[cuda_entry(symbol = "cuCtxCreate", version = 12080)]
pub unsafe extern "C" fn ctx_create(pctx: *mut CUcontext, flags: u32, dev: CUdevice) -> CUresult;

fn main() {}
