#!/usr/bin/env bash
# The whole test suite: formatting, lints, every test, and the docs with warnings denied; then the
# same tests built for the other targets and run where this machine can run them: Windows (gnu and
# msvc) under Wine, aarch64 Linux under qemu-user.
#
# Every check is required except those that need something this machine may lack: Miri, the
# minimal-versions check (the nightly toolchain), the fuzz smoke run, the Windows check, the Windows runs under Wine and the aarch64 run under qemu-user
# (a tool or a target), the header completeness test (the downloaded headers) and the GPU suite
# (a GPU). Those print "SKIPPED <check>: <why>" and the run goes on; the end of the run lists every
# SKIPPED line again. With CI set (not empty, 0 or false; .ci/run exports CI=1) the tools and the
# headers are required: a missing tool fails the run before anything starts, missing headers fail
# the completeness test. The GPU suite is required only with CUDA_ENTRY_REQUIRE_GPU=1
# (tests/device/run.sh). docs/testing.md has the rule, and the platform table.
#
# Each stage prints its time ("---- stage NAME: N s") and the end of the run lists them all
# (docs/testing.md keeps the figures of a cold run).
#
# usage: tests/run-all.sh [STAGE...]
# With STAGE names (fmt clippy tests rustdoc kit minimal-versions loom miri fuzz windows-check
# windows-gnu windows-msvc aarch64), only those stages run: for working on one part. CI runs them all.
set -euo pipefail
cd "$(dirname "$0")/.."
stages=(fmt clippy tests rustdoc kit minimal-versions loom miri fuzz windows-check windows-gnu
  windows-msvc aarch64)
only=("$@")
for name in "${only[@]}"; do
  [[ " ${stages[*]} " == *" $name "* ]] || {
    echo "run-all.sh: no stage '$name'; the stages: ${stages[*]}" >&2
    exit 2
  }
done
# Whether the stage NAME runs: every stage, or those named on the command line.
selected() { [ "${#only[@]}" -eq 0 ] || [[ " ${only[*]} " == *" $1 "* ]]; }

on_ci() {
  case "${CI:-}" in
    "" | 0 | false) return 1 ;;
    *) return 0 ;;
  esac
}
have_miri() { cargo +nightly miri --version >/dev/null 2>&1; }
have_nightly() { cargo +nightly --version >/dev/null 2>&1; }
have_fuzz() { cargo +nightly fuzz --version >/dev/null 2>&1; }
have_target() { rustup target list --installed 2>/dev/null | grep -qx "$1"; }
have_windows() { have_target x86_64-pc-windows-gnu; }
have_wine() {
  command -v wine >/dev/null && command -v wineboot >/dev/null \
    && command -v x86_64-w64-mingw32-gcc >/dev/null
}
have_wine_gnu() { have_windows && have_wine; }
# The msvc target links with the toolchain's rust-lld (lld-link) against import libraries made
# from Wine's DLLs and a stand-in CRT (tests/windows/msvc-libs.sh): gendef, llvm-dlltool,
# llvm-lib and clang make them.
have_wine_msvc() {
  have_target x86_64-pc-windows-msvc && have_wine && command -v gendef >/dev/null \
    && command -v llvm-dlltool >/dev/null && command -v llvm-lib >/dev/null \
    && command -v clang >/dev/null
}
# Debian's cross toolchain links, its libc is what qemu-user loads the programs against.
aarch64_sysroot=/usr/aarch64-linux-gnu
have_qemu_aarch64() {
  have_target aarch64-unknown-linux-gnu && command -v qemu-aarch64 >/dev/null \
    && command -v aarch64-linux-gnu-gcc >/dev/null && [ -f "$aarch64_sysroot/lib/libc.so.6" ]
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
    "the Windows msvc run under Wine")
      echo "apt-get install wine wine64 gcc-mingw-w64-x86-64 mingw-w64-tools llvm clang;" \
        "rustup target add x86_64-pc-windows-msvc"
      ;;
    "the aarch64 run under qemu-user")
      echo "apt-get install qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross;" \
        "rustup target add aarch64-unknown-linux-gnu"
      ;;
  esac
}
missing=()
! selected miri || have_miri || missing+=("Miri")
! selected minimal-versions || have_nightly || missing+=("the minimal-versions check")
! selected fuzz || have_fuzz || missing+=("the fuzz smoke run")
! selected windows-check || have_windows || missing+=("the Windows check")
! selected windows-gnu || have_wine_gnu || missing+=("the Windows run under Wine")
! selected windows-msvc || have_wine_msvc || missing+=("the Windows msvc run under Wine")
! selected aarch64 || have_qemu_aarch64 || missing+=("the aarch64 run under qemu-user")
if on_ci && [ "${#missing[@]}" -gt 0 ]; then
  echo "run-all.sh: CI=$CI, so every check is required, and these cannot run here:" >&2
  for check in "${missing[@]}"; do
    echo "  $check: run '$(install "$check")'" >&2
  done
  exit 1
fi

# Every SKIPPED line of the run, for the summary at the end; the workspace tests' output; each
# stage's time.
skipped=$(mktemp)
tests=$(mktemp)
timings=$(mktemp)
skip() { # check
  echo "SKIPPED $1: not installed; run '$(install "$1")' to include it" | tee -a "$skipped" >&2
}
# The tests print their own SKIPPED lines past libtest's capture; they are collected here.
collect_skipped() { { grep -o "SKIPPED .*" "$tests" >>"$skipped" || true; } 2>/dev/null; }

# --- Stages and their times -------------------------------------------------------------------
# stage NAME FUNCTION: runs FUNCTION (traced) as the stage NAME, if selected, and prints how long
# it took. A failure stops the run; the summary then says in which stage.
current_stage=""
stage() {
  selected "$1" || return 0
  local began=$SECONDS
  current_stage=$1
  echo "---- stage $1" >&2
  set -x
  "$2"
  { set +x; } 2>/dev/null
  printf '%s\t%s\n' "$((SECONDS - began))" "$1" >>"$timings"
  echo "---- stage $1: $((SECONDS - began)) s" >&2
  current_stage=""
}
summary() {
  local status=$?
  { set +x; } 2>/dev/null
  if [ -s "$timings" ] || [ -n "$current_stage" ]; then
    echo
    echo "Stage times (seconds):"
    awk -F'\t' '{ printf "  %6d  %s\n", $1, $2; total += $1 } END { printf "  %6d  in all\n", total }' \
      "$timings"
    [ -z "$current_stage" ] || echo "  FAILED in the stage: $current_stage (exit status $status)"
  fi
  rm -f "$skipped" "$tests" "$timings"
}
trap summary EXIT

# --- The host: x86_64 Linux ---------------------------------------------------------------------
fmt_check() { cargo fmt --all --check; }
clippy_check() { cargo clippy --workspace --all-targets -- -D warnings; }
workspace_tests() {
  cargo test --workspace 2>&1 | tee "$tests"
  collect_skipped
  # The facade's per-thread-default-stream feature switches entries that name no stream.
  cargo test --test per_thread --features per-thread-default-stream
}
docs_build() { RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps; }
# --- The testing kit as users meet it (docs/testing.md) ---------------------------------------
kit_check() {
  # Crates outside this workspace, with path dependencies only and their own Cargo.lock,
  # offline: one tests its driver calls on cuda-entry-sim, one keeps compile-fail tests of its
  # declarations.
  for outside in tests/kit-user examples/compile-fail; do
    cargo fmt --check --manifest-path "$outside/Cargo.toml"
    CARGO_TARGET_DIR=target/outside cargo clippy --offline --locked \
      --manifest-path "$outside/Cargo.toml" --all-targets -- -D warnings
    CARGO_TARGET_DIR=target/outside cargo test --offline --locked \
      --manifest-path "$outside/Cargo.toml"
  done
  # A cudarc user's crate: what `decl --types c` and `migrate` print, compiled against cudarc's
  # types of CUDA 13.0 (its default feature) and of CUDA 12.8 (cudarc builds one version at a
  # time).
  cargo fmt --check --manifest-path tests/cudarc-user/Cargo.toml
  local features
  for features in "--features cuda-13000" "--no-default-features --features cuda-12080"; do
    # shellcheck disable=SC2086 # two words each
    CARGO_TARGET_DIR=target/outside cargo clippy --offline --locked \
      --manifest-path tests/cudarc-user/Cargo.toml $features --all-targets -- -D warnings
    # shellcheck disable=SC2086
    CARGO_TARGET_DIR=target/outside cargo test --offline --locked \
      --manifest-path tests/cudarc-user/Cargo.toml $features
  done
  # Issue 40's story: a program using cudarc's safe API, built against cudarc as published and as
  # migrated by the command, run on the kit's drivers of CUDA 13.0, 12.2, 12.0, 11.8 and 11.2.
  tests/story.sh
  cargo fmt --check --manifest-path tests/story/Cargo.toml
  CARGO_TARGET_DIR=target/story-original cargo clippy --locked \
    --manifest-path tests/story/Cargo.toml --all-targets -- -D warnings
  # The kit and what it depends on, packaged and verified together (a local registry stands in
  # for crates.io, where none of them is yet).
  # Packaged in a target folder of its own, new each run: cargo extracts a local registry's
  # crates under a name derived from the registry's path and never extracts a name-version
  # twice, so a reused folder would verify an earlier run's sources of the same version instead
  # of this tree's.
  local package_dir
  package_dir=$(mktemp -d)
  CARGO_TARGET_DIR=$package_dir cargo package --offline --allow-dirty -p cuda-entry-table \
    -p cuda-entry-macros -p cuda-entry -p cuda-entry-simdriver-core -p cuda-entry-simdriver \
    -p cuda-entry-simdriver-11x -p cuda-entry-simdriver-old -p cuda-entry-simruntime-core \
    -p cuda-entry-simruntime -p cuda-entry-simruntime-old -p cuda-entry-sim
  rm -rf "$package_dir"
}
# --- end of the testing kit -----------------------------------------------------------------
# The published crates' dependency minimums are what their code needs: checked with every direct
# dependency at its lowest allowed version (cargo -Z direct-minimal-versions, nightly; a copy of
# the workspace, the lockfile untouched).
minimal_versions_check() { tests/minimal-versions.sh; }
# The entry cache and the one-time loads, model-checked (loom explores every interleaving).
loom_check() {
  RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=target/loom cargo test -p cuda-entry --lib --release loom
}
# Miri over the FFI-free core, libFuzzer smoke runs of the macro's parser and validator and of
# `cuda-entry check`'s readers (core/cli/fuzz: the binary and manifest reader, the source
# scanner); the long runs are noted in docs/reliability.md.
miri_check() {
  cargo +nightly miri test -p cuda-entry --lib
  # The matrix's hostile stand-in driver: every accepted cell the driver writes, read as its
  # declared type under Miri (tests/matrix.rs; docs/soundness.md).
  cargo test --test matrix -- --ignored --exact miri --nocapture
}
fuzz_smoke() {
  macros/fuzz/smoke.sh
  core/cli/fuzz/smoke.sh
}
# The Windows paths (nvcuda.dll, cudart64_*.dll) compile-checked, and linted as well: the
# Windows-only code (tests/support/pe.rs, the loader's flags) is never seen by the Linux clippy run.
windows_check() {
  cargo clippy --target x86_64-pc-windows-gnu -p cuda-entry -p cuda-entry-workspace \
    -p cuda-entry-simdriver-core -p cuda-entry-simruntime-core --all-targets -- -D warnings
}

# --- The other targets, each run where this machine can run it ----------------------------------
# The tests every target runs: core's unit tests and the support crate's, and the scenario tests:
# the driver and runtime resolvers, the per-thread default stream, the stress run, the registry
# (which runs the target's cuda-entry on its own binary: records from this package and from
# tests/fixture-entries), the examples, the search paths and the scenario harness. Each program
# they start runs through the target's runner too (tests/support/program.rs).
target_tests=(-p cuda-entry -p cuda-entry-workspace --lib --test driver --test runtime
  --test per_thread --test stress --test registry --test examples --test search --test harness
  --test driver_version)

# run_target TARGET [CARGO OPTION...] [-- TEST OPTION...]: builds cuda-entry's command, the
# examples and the tests for TARGET, and runs the tests with the target's runner (exported by the
# caller): the list above, then per_thread again with the per-thread-default-stream feature.
run_target() {
  local target=$1
  shift
  local cargo_options=()
  while [ "$#" -gt 0 ] && [ "$1" != -- ]; do
    cargo_options+=("$1")
    shift
  done
  if [ "$#" -gt 0 ]; then shift; fi
  local on=(--target "$target" "${cargo_options[@]}")
  cargo build "${on[@]}" -p cuda-entry-cli --bins
  cargo build "${on[@]}" -p cuda-entry-workspace --examples
  cargo test "${on[@]}" "${target_tests[@]}" -- "$@" 2>&1 | tee "$tests"
  collect_skipped
  cargo test "${on[@]}" --test per_thread --features per-thread-default-stream -- "$@"
  same_check "${on[@]}"
}

# same_check CARGO OPTION...: `cuda-entry check` reads a binary of any target as it reads a Linux
# one: the host's command on the registry test built with these options prints the lines it
# prints on the host's own build of that test (the file's name aside; in any order, since each
# linker orders the records its own way). The target's own command judges the same binary in
# the test itself (tests/registry.rs).
same_check() {
  local binary host
  binary=$(registry_test "$@")
  host=$(registry_test)
  cargo build -p cuda-entry-cli --bins
  diff <(check_output "$host") <(check_output "$binary")
  echo "cuda-entry check: the same judgement of $binary as of $host"
}
# The registry test executable that cargo built with these options (nothing is rebuilt).
registry_test() {
  local path
  path=$(cargo test "$@" --test registry --no-run --message-format=json 2>/dev/null \
    | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
  [ -n "$path" ] && [ -f "$path" ] || {
    echo "run-all.sh: cargo named no registry test executable for: $*" >&2
    return 1
  }
  echo "$path"
}
# What the host's `cuda-entry check --driver-version 12040` prints about FILE (exit status 1:
# two declarations need a newer driver), FILE's name replaced by `FILE`, lines sorted.
check_output() {
  local status=0 out
  out=$(target/debug/cuda-entry check --driver-version 12040 "$1" 2>&1) || status=$?
  [ "$status" -eq 1 ] || {
    echo "run-all.sh: cuda-entry check exited $status on $1:" >&2
    echo "$out" >&2
    return 1
  }
  echo "${out//"$1"/FILE}" | sort
}

# Windows, GNU toolchain, under Wine (tests/windows/wine-run.sh is cargo's runner for the target:
# it makes the run's Wine prefix and builds the ProcessPrng shim into it).
windows_gnu_run() {
  CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER="$PWD/tests/windows/wine-run.sh" \
    run_target x86_64-pc-windows-gnu
}
# Windows, MSVC toolchain (the default Windows target), under Wine: linked by the toolchain's
# rust-lld as lld-link, against import libraries generated from Wine's own DLLs and a stand-in
# for the static part of the MSVC CRT (tests/windows/msvc-libs.sh makes them into target/).
# Not link.exe, not Microsoft's CRT, not Windows: docs/testing.md. Debug, then release: rustc
# links both with /OPT:REF (release adds ICF), so the records of both crates must survive it.
windows_msvc_run() {
  tests/windows/msvc-libs.sh "$PWD/target/msvc-libs"
  local msvc=X86_64_PC_WINDOWS_MSVC
  export "CARGO_TARGET_${msvc}_LINKER=rust-lld"
  export "CARGO_TARGET_${msvc}_RUSTFLAGS=-Lnative=$PWD/target/msvc-libs"
  export "CARGO_TARGET_${msvc}_RUNNER=$PWD/tests/windows/wine-run.sh"
  run_target x86_64-pc-windows-msvc
  run_target x86_64-pc-windows-msvc --release
}
# aarch64 Linux under qemu-user, linked by Debian's cross gcc. Release: the examples' host
# arithmetic (vector_add: 2 x 16M elements) and the stress run take minutes of emulated debug
# code. The programs the tests start run through the same emulator (CUDA_ENTRY_TEST_EMULATOR,
# tests/support/program.rs). Left out: the setgid scenario of tests/driver.rs, which needs the
# kernel to run the setgid program itself (under the emulator it runs qemu, without secure-
# execution mode); it runs on the host.
aarch64_run() {
  local emulator="qemu-aarch64 -L $aarch64_sysroot"
  CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
    CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER=$emulator \
    CUDA_ENTRY_TEST_EMULATOR=$emulator \
    run_target aarch64-unknown-linux-gnu --release \
    -- --skip privileged_programs_ignore_the_override_unless_trusted
}

# optional CHECK PROBE NAME FUNCTION: the stage NAME, or the SKIPPED line of CHECK when PROBE
# fails (with CI set, a failing probe has stopped the run above).
optional() {
  selected "$3" || return 0
  if "$2"; then
    stage "$3" "$4"
  else
    skip "$1"
  fi
}

stage fmt fmt_check
stage clippy clippy_check
stage tests workspace_tests
stage rustdoc docs_build
stage kit kit_check
optional "the minimal-versions check" have_nightly minimal-versions minimal_versions_check
stage loom loom_check
optional "Miri" have_miri miri miri_check
optional "the fuzz smoke run" have_fuzz fuzz fuzz_smoke
optional "the Windows check" have_windows windows-check windows_check
optional "the Windows run under Wine" have_wine_gnu windows-gnu windows_gnu_run
optional "the Windows msvc run under Wine" have_wine_msvc windows-msvc windows_msvc_run
optional "the aarch64 run under qemu-user" have_qemu_aarch64 aarch64 aarch64_run

echo
if [ "${#only[@]}" -eq 0 ]; then
  echo "================ run-all.sh: every check passed ================"
else
  echo "================ run-all.sh: the stages ${only[*]} passed ================"
fi
if [ -s "$skipped" ]; then
  echo "except these, which did not run here (CI=1 makes the tools and the headers required;"
  echo "CUDA_ENTRY_REQUIRE_GPU=1 the GPU suite, see docs/testing.md):"
  sed 's/^/  /' "$skipped"
fi
