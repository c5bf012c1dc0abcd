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
# `cuda-entry check`'s readers (core/cli/fuzz): a libFuzzer smoke run of the binary and manifest
# reader and of the source scanner.
if cargo +nightly fuzz --version >/dev/null 2>&1; then
  core/cli/fuzz/smoke.sh
else
  echo "SKIPPED the command's fuzz smoke run: run 'cargo install cargo-fuzz' (needs the nightly toolchain)"
fi
# Windows (nvcuda.dll, cudart64_*.dll paths): compile-checked where the target is installed.
if rustup target list --installed 2>/dev/null | grep -qx x86_64-pc-windows-gnu; then
  cargo check -p cuda-entry -p cuda-entry-macros --target x86_64-pc-windows-gnu
else
  echo "SKIPPED the Windows check: run 'rustup target add x86_64-pc-windows-gnu' to include it"
fi
