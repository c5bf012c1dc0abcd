// The 3.2 signature of cuCtxCreate under the 12.5 version: `PFN_cuCtxCreate_v12050` takes a
// `CUctxCreateParams *` as its second parameter, so this call would pass the flags where the
// driver reads a pointer.
use cuda_entry::cuda_entry;
use cuda_entry::types::{CUcontext, CUdevice, CUresult};

#[cuda_entry(symbol = "cuCtxCreate", version = 12050)]
unsafe extern "C" fn ctx_create(pctx: *mut CUcontext, flags: u32, dev: CUdevice) -> CUresult;

fn main() {}
