// The macro's modules, at the fuzz target's root as they are at the macro crate's. The rules they
// call are `cuda_entry_table::rules` (the `rules` feature), a plain dependency. Each target calls
// part of them: the rest is dead code here. `text` asks `proc_macro` whether it runs in the
// compiler (it does not here).
extern crate proc_macro;

#[allow(dead_code)]
#[path = "../../src/callback.rs"]
mod callback;
#[allow(dead_code)]
#[path = "../../src/cargo_toml.rs"]
mod cargo_toml;
#[allow(dead_code)]
#[path = "../../src/crate_path.rs"]
mod crate_path;
#[allow(dead_code)]
#[path = "../../src/expand.rs"]
mod expand;
#[allow(dead_code)]
#[path = "../../src/lint.rs"]
mod lint;
#[allow(dead_code)]
#[path = "../../src/pipeline.rs"]
mod pipeline;
#[allow(dead_code)]
#[path = "../../src/probes.rs"]
mod probes;
#[allow(dead_code)]
#[path = "../../src/shape.rs"]
mod shape;
#[allow(dead_code)]
#[path = "../../src/text.rs"]
mod text;
#[allow(dead_code)]
#[path = "../../src/toml_reference.rs"]
mod toml_reference;
