#!/usr/bin/env bash
# The whole test suite: formatting, lints, every test, and the docs with warnings denied.
set -euo pipefail
cd "$(dirname "$0")/.."
set -x
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace
# The facade's per-thread-default-stream feature switches entries that name no stream.
cargo test --test per_thread --features per-thread-default-stream
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps
# --- The testing kit as users meet it (docs/testing.md) ---------------------------------------
# Crates outside this workspace, with path dependencies only and their own Cargo.lock, offline:
# one tests its driver calls on cuda-entry-sim, one keeps compile-fail tests of its declarations.
for outside in tests/kit-user examples/compile-fail; do
  cargo fmt --check --manifest-path "$outside/Cargo.toml"
  CARGO_TARGET_DIR=target/outside cargo clippy --offline --locked \
    --manifest-path "$outside/Cargo.toml" --all-targets -- -D warnings
  CARGO_TARGET_DIR=target/outside cargo test --offline --locked --manifest-path "$outside/Cargo.toml"
done
# The kit and what it depends on, packaged and verified together (a local registry stands in for
# crates.io, where none of them is yet).
cargo package --offline --allow-dirty -p cuda-entry-table -p cuda-entry-macros -p cuda-entry \
  -p cuda-entry-simdriver-core -p cuda-entry-simdriver -p cuda-entry-simdriver-11x \
  -p cuda-entry-simdriver-old -p cuda-entry-simruntime-core -p cuda-entry-simruntime \
  -p cuda-entry-simruntime-old -p cuda-entry-sim
# --- end of the testing kit -----------------------------------------------------------------
# The entry cache and the one-time loads, model-checked (loom explores every interleaving).
RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=target/loom cargo test -p cuda-entry --lib --release loom
# Where the nightly toolchain has them: Miri over the FFI-free core, and a libFuzzer smoke run of
# the macro's parser and validator (the long runs are noted in docs/reliability.md).
if cargo +nightly miri --version >/dev/null 2>&1; then
  cargo +nightly miri test -p cuda-entry --lib
else
  echo "SKIPPED Miri: run 'rustup +nightly component add miri rust-src' to include it"
fi
if cargo +nightly fuzz --version >/dev/null 2>&1; then
  macros/fuzz/smoke.sh
else
  echo "SKIPPED the fuzz smoke run: run 'cargo install cargo-fuzz' (needs the nightly toolchain)"
fi
# Windows (nvcuda.dll, cudart64_*.dll paths): compile-checked where the target is installed.
if rustup target list --installed 2>/dev/null | grep -qx x86_64-pc-windows-gnu; then
  cargo check -p cuda-entry -p cuda-entry-macros --target x86_64-pc-windows-gnu
else
  echo "SKIPPED the Windows check: run 'rustup target add x86_64-pc-windows-gnu' to include it"
fi
