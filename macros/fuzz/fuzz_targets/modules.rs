// The macro's modules, at the fuzz target's root as they are at the macro crate's.
#[path = "../../src/expand.rs"]
mod expand;
#[path = "../../src/parse.rs"]
mod parse;
#[path = "../../src/pipeline.rs"]
mod pipeline;
#[path = "../../src/validate.rs"]
mod validate;
