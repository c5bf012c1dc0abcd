// An enum never holds every value of its size: the driver may store a code newer than its list.
#[allow(dead_code)]
#[derive(cuda_entry::FromDriver)]
#[repr(u32)]
pub enum MemoryType {
    Host = 1,
    Device = 2,
}

fn main() {}
