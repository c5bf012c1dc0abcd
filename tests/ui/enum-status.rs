// A Rust enum cannot hold a status it lacks, and the driver may return any `int`: bindings'
// `#[repr(u32)] enum cudaError_enum` is refused as the return type, as is a padded struct of the
// right size and alignment, which is no integer.
use cuda_entry::cuda_entry;
use cuda_entry::types::CUdeviceptr;

#[allow(dead_code)]
#[derive(Clone, Copy)]
#[repr(u32)]
pub enum Status {
    Success = 0,
    InvalidValue = 1,
}

#[derive(Clone, Copy)]
#[repr(C, align(4))]
pub struct Padded(u8);

#[cuda_entry]
unsafe extern "C" {
    #[cuda_entry(symbol = "cuMemAlloc", version = 3020)]
    fn mem_alloc(dptr: *mut CUdeviceptr, bytesize: usize) -> Status;
    #[cuda_entry(symbol = "cuInit", version = 2000)]
    fn init(flags: u32) -> Padded;
}

fn main() {}
