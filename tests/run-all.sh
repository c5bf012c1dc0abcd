#!/usr/bin/env bash
# The whole test suite: formatting, lints, every test, and the docs with warnings denied.
#
# Every check is required except those that need something this machine may lack: Miri, the
# minimal-versions check (the nightly toolchain), the fuzz smoke run, the Windows check and the
# Windows run under Wine (a tool), the header completeness
# test (the downloaded headers) and the GPU suite (a GPU). Those print "SKIPPED <check>: <why>"
# and the run goes on; the end of the run lists every SKIPPED line again. With CI set (not empty,
# 0 or false; .ci/run exports CI=1) the tools and the headers are required: a missing tool fails
# the run before anything starts, missing headers fail the completeness test. The GPU suite is
# required only with CUDA_ENTRY_REQUIRE_GPU=1 (tests/device/run.sh). docs/testing.md has the rule.
set -euo pipefail
cd "$(dirname "$0")/.."

on_ci() {
  case "${CI:-}" in
    "" | 0 | false) return 1 ;;
    *) return 0 ;;
  esac
}
have_miri() { cargo +nightly miri --version >/dev/null 2>&1; }
have_nightly() { cargo +nightly --version >/dev/null 2>&1; }
have_fuzz() { cargo +nightly fuzz --version >/dev/null 2>&1; }
have_windows() { rustup target list --installed 2>/dev/null | grep -qx x86_64-pc-windows-gnu; }
have_wine() {
  have_windows && command -v wine >/dev/null && command -v wineboot >/dev/null \
    && command -v x86_64-w64-mingw32-gcc >/dev/null
}

# How to get what each optional check needs.
install() {
  case "$1" in
    Miri) echo "rustup +nightly component add miri rust-src" ;;
    "the minimal-versions check") echo "rustup toolchain install nightly --profile minimal" ;;
    "the fuzz smoke run") echo "cargo install cargo-fuzz (needs the nightly toolchain)" ;;
    "the Windows check") echo "rustup target add x86_64-pc-windows-gnu" ;;
    "the Windows run under Wine")
      echo "apt-get install wine wine64 gcc-mingw-w64-x86-64; rustup target add x86_64-pc-windows-gnu"
      ;;
  esac
}
missing=()
have_miri || missing+=("Miri")
have_nightly || missing+=("the minimal-versions check")
have_fuzz || missing+=("the fuzz smoke run")
have_windows || missing+=("the Windows check")
have_wine || missing+=("the Windows run under Wine")
if on_ci && [ "${#missing[@]}" -gt 0 ]; then
  echo "run-all.sh: CI=$CI, so every check is required, and these cannot run here:" >&2
  for check in "${missing[@]}"; do
    echo "  $check: run '$(install "$check")'" >&2
  done
  exit 1
fi

# Every SKIPPED line of the run, for the summary at the end; the workspace tests' output.
skipped=$(mktemp)
tests=$(mktemp)
trap 'rm -f "$skipped" "$tests"' EXIT
skip() { # check
  echo "SKIPPED $1: not installed; run '$(install "$1")' to include it" | tee -a "$skipped" >&2
}

set -x
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
# The tests print their own SKIPPED lines past libtest's capture; they are collected here.
cargo test --workspace 2>&1 | tee "$tests"
{ grep -o "SKIPPED .*" "$tests" >>"$skipped" || true; } 2>/dev/null
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
# A cudarc user's crate: what `decl --types c` and `migrate` print, compiled against cudarc's
# types of CUDA 13.0 (its default feature) and of CUDA 12.8 (cudarc builds one version at a time).
cargo fmt --check --manifest-path tests/cudarc-user/Cargo.toml
for features in "--features cuda-13000" "--no-default-features --features cuda-12080"; do
  # shellcheck disable=SC2086 # two words each
  CARGO_TARGET_DIR=target/outside cargo clippy --offline --locked \
    --manifest-path tests/cudarc-user/Cargo.toml $features --all-targets -- -D warnings
  # shellcheck disable=SC2086
  CARGO_TARGET_DIR=target/outside cargo test --offline --locked \
    --manifest-path tests/cudarc-user/Cargo.toml $features
done
# The kit and what it depends on, packaged and verified together (a local registry stands in for
# crates.io, where none of them is yet).
# Packaged in a target folder of its own, new each run: cargo extracts a local registry's crates
# under a name derived from the registry's path and never extracts a name-version twice, so a
# reused folder would verify an earlier run's sources of the same version instead of this tree's.
package_dir=$(mktemp -d)
CARGO_TARGET_DIR=$package_dir cargo package --offline --allow-dirty -p cuda-entry-table -p cuda-entry-macros -p cuda-entry \
  -p cuda-entry-simdriver-core -p cuda-entry-simdriver -p cuda-entry-simdriver-11x \
  -p cuda-entry-simdriver-old -p cuda-entry-simruntime-core -p cuda-entry-simruntime \
  -p cuda-entry-simruntime-old -p cuda-entry-sim
rm -rf "$package_dir"
# --- end of the testing kit -----------------------------------------------------------------
# The published crates' dependency minimums are what their code needs: checked with every direct
# dependency at its lowest allowed version (cargo -Z direct-minimal-versions, nightly; a copy of
# the workspace, the lockfile untouched).
{ set +x; } 2>/dev/null
if have_nightly; then
  (set -x; tests/minimal-versions.sh)
else
  skip "the minimal-versions check"
fi
set -x
# The entry cache and the one-time loads, model-checked (loom explores every interleaving).
RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=target/loom cargo test -p cuda-entry --lib --release loom
# Miri over the FFI-free core, a libFuzzer smoke run of the macro's parser and validator (the long
# runs are noted in docs/reliability.md), and the Windows paths (nvcuda.dll, cudart64_*.dll)
# compile-checked.
{ set +x; } 2>/dev/null
if have_miri; then
  (set -x; cargo +nightly miri test -p cuda-entry --lib)
else
  skip "Miri"
fi
if have_fuzz; then
  (set -x; macros/fuzz/smoke.sh)
  # `cuda-entry check`'s readers (core/cli/fuzz): the binary and manifest reader, the source scanner.
  (set -x; core/cli/fuzz/smoke.sh)
else
  skip "the fuzz smoke run"
fi
if have_windows; then
  # Linted as well as compiled: the Windows-only code (tests/support/pe.rs, the loader's flags)
  # is never seen by the Linux clippy run.
  (set -x; cargo clippy --target x86_64-pc-windows-gnu -p cuda-entry -p cuda-entry-workspace \
    -p cuda-entry-simdriver-core -p cuda-entry-simruntime-core --all-targets -- -D warnings)
else
  skip "the Windows check"
fi
# The Windows build run as a Windows user would, under Wine (tests/windows/wine-run.sh is cargo's
# runner for the target: it makes the run's Wine prefix and builds the ProcessPrng shim into it):
# the scenario tests, the examples, the registry (which runs cuda-entry.exe on its own binary),
# the search paths and the core's unit tests.
if have_wine; then
  windows=(--target x86_64-pc-windows-gnu)
  (
    set -x
    export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER="$PWD/tests/windows/wine-run.sh"
    cargo build "${windows[@]}" -p cuda-entry-cli --bins
    cargo build "${windows[@]}" -p cuda-entry-workspace --examples
    cargo test "${windows[@]}" -p cuda-entry -p cuda-entry-workspace --lib --test driver \
      --test runtime --test per_thread --test stress --test registry --test examples \
      --test search --test harness --test driver_version 2>&1 | tee "$tests"
    cargo test "${windows[@]}" --test per_thread --features per-thread-default-stream
  )
  { grep -o "SKIPPED .*" "$tests" >>"$skipped" || true; } 2>/dev/null
else
  skip "the Windows run under Wine"
fi

echo
echo "================ run-all.sh: every check passed ================"
if [ -s "$skipped" ]; then
  echo "except these, which did not run here (CI=1 makes the tools and the headers required;"
  echo "CUDA_ENTRY_REQUIRE_GPU=1 the GPU suite, see docs/testing.md):"
  sed 's/^/  /' "$skipped"
fi
