// The macro's modules, at the fuzz target's root as they are at the macro crate's. The rules they
// call are `cuda_entry_table::rules` (the `rules` feature), a plain dependency.
#[path = "../../src/cargo_toml.rs"]
mod cargo_toml;
#[path = "../../src/crate_path.rs"]
mod crate_path;
#[path = "../../src/expand.rs"]
mod expand;
#[path = "../../src/pipeline.rs"]
mod pipeline;
#[path = "../../src/shape.rs"]
mod shape;
