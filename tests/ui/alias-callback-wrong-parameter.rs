// `CUoccupancyB2DSize` is `size_t (*)(int blockSize)`: an alias of a callback taking a `f32`
// hides a floating-point parameter where C passes an `int` in an integer register.
use cuda_entry::cuda_entry;
use cuda_entry::types::{CUfunction, CUresult};

type BlockSizeToSharedMemory = Option<unsafe extern "C" fn(block_size: f32) -> usize>;

#[cuda_entry(symbol = "cuOccupancyMaxPotentialBlockSize", version = 6050)]
pub unsafe extern "C" fn occupancy_max_potential_block_size(
    min_grid_size: *mut i32,
    block_size: *mut i32,
    func: CUfunction,
    block_size_to_dynamic_smem_size: BlockSizeToSharedMemory,
    dynamic_smem_size: usize,
    block_size_limit: i32,
) -> CUresult;

fn main() {}
