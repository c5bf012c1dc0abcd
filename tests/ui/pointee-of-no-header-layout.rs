// `CUdevResource` is 144 bytes aligned to 4 in CUDA 12.4 to 13.0 and to 8 from 13.1: an array of
// 72 `u16` (aligned to 2) is the layout of no header.
use cuda_entry::cuda_entry;
use cuda_entry::types::{CUcontext, CUresult};

#[cuda_entry(symbol = "cuCtxGetDevResource", version = 12040)]
pub unsafe extern "C" fn ctx_get_dev_resource(
    ctx: CUcontext,
    resource: *mut [u16; 72],
    kind: i32,
) -> CUresult;

fn main() {}
