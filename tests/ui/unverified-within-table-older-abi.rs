// The 3-parameter `cuCtxCreate` at a version the table's headers cover: at 12080 the driver
// returns cuCtxCreate_v4, `PFN_cuCtxCreate_v12050`'s ABI (4 parameters), so `unverified` cannot
// bind this signature there.
use cuda_entry::cuda_entry;
use cuda_entry::types::{CUcontext, CUdevice, CUresult};

#[cuda_entry(symbol = "cuCtxCreate", version = 12080, unverified)]
pub unsafe extern "C" fn ctx_create(pctx: *mut CUcontext, flags: u32, dev: CUdevice) -> CUresult;

fn main() {}
