//! The README's and the guide's Rust blocks, compiled (and run, unless marked `no_run`) by
//! `cargo test --doc` exactly as a reader sees them. A block that is not a whole program is
//! marked `ignore` with the reason on the line before it, or completed with hidden `#` lines.
//! `tests/docs.rs` holds the counts the pages quote against the table and the ground truth;
//! `core/cli/tests/transcripts.rs` runs the command-line transcripts.

macro_rules! pages {
    ($($name:ident => $path:literal,)*) => {$(
        #[doc = include_str!($path)]
        #[allow(dead_code)]
        struct $name;
    )*};
}

pages! {
    Readme => "../../README.md",
    DocsIndex => "../../docs/README.md",
    Decisions => "../../docs/decisions.md",
    Declaring => "../../docs/declaring.md",
    Deploying => "../../docs/deploying.md",
    Errors => "../../docs/errors.md",
    Faq => "../../docs/faq.md",
    Migrating => "../../docs/migrating.md",
    NewerApis => "../../docs/newer-apis.md",
    PerThread => "../../docs/per-thread.md",
    Performance => "../../docs/performance.md",
    ReadingTypedefs => "../../docs/reading-typedefs.md",
    Reliability => "../../docs/reliability.md",
    RuntimeResolver => "../../docs/runtime-resolver.md",
    Security => "../../docs/security.md",
    Testing => "../../docs/testing.md",
    WhyVersions => "../../docs/why-versions.md",
    SimReadme => "../../core/sim/README.md",
    SimdriverReadme => "../../core/sim/simdriver/README.md",
}
