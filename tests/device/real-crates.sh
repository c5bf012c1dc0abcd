#!/usr/bin/env bash
# Proof on published crates: each is migrated with one command and nothing by hand, and its
# dependents' own test suites are built twice, against the original crate (linked against
# libcuda) and against the migrated one (resolving through cuda-entry); on the GPU machine both
# run and their results are compared test by test.
#
#   tests/device/real-crates.sh build   here: fetch, migrate, build both variants into .device-real
#   tests/device/real-crates.sh run     on the GPU machine: run both, compare, exit 1 on a difference
#
# The crates (docs/migrating.md says what they show):
#   cuda-driver-sys 0.3.0  bindgen output for CUDA 10.2, 279 functions in an `extern` block,
#                          linked with `cargo:rustc-link-lib=dylib=cuda`; the suite is RustaCUDA
#                          0.1.3's own (its unit and integration tests), built against each
#                          variant through a `[patch]` given on cargo's command line.
#   cudarc 0.19.10         wrappers loading each export lazily by name (`dynamic-loading`), with
#                          an `extern` fallback under a cfg; the suite is its own driver tests
#                          (`cuda-13010`, `driver`, `nvrtc`).
#   cust_raw 0.11.3        bindgen output whose build script links through a finder crate
#                          (`find_cuda_helper::include_cuda()`); the suite is its dependent cust
#                          0.3.2's own unit tests. cust links libcuda itself too (the same finder
#                          call in its build script, and an `extern` block of its own for
#                          cuGraphDebugDotPrint): both crates are migrated by one command.
# Linking the original needs a libcuda.so, which this machine lacks: a stub exporting every
# function of the real driver (tests/ground-truth/driver-13000-exports.txt), built with cc and
# used only for the link; its SONAME is libcuda.so.1, so the device loads its real driver.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=$root/.device-real
work=${REAL_CRATES_WORK:-$root/target/real-crates}

build() {
  rm -rf "$out" && mkdir -p "$out/original" "$out/migrated"
  mkdir -p "$work"
  # Sources outside this workspace's tree walk: a crate of their own each.
  local fetch=$work/fetch
  rm -rf "$fetch" && mkdir -p "$fetch/src"
  cat >"$fetch/Cargo.toml" <<'TOML'
[package]
name = "fetch"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
cuda-driver-sys = "=0.3.0"
rustacuda = "=0.1.3"
cudarc = { version = "=0.19.10", default-features = false }
cust_raw = "=0.11.3"
cust = "=0.3.2"

[workspace]
TOML
  : >"$fetch/src/lib.rs"
  cargo fetch --quiet --manifest-path "$fetch/Cargo.toml"
  local registry
  registry=$(dirname "$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/cuda-driver-sys-0.3.0 | head -1)")
  for crate in cuda-driver-sys-0.3.0 rustacuda-0.1.3 cudarc-0.19.10 cust_raw-0.11.3 cust-0.3.2; do
    rm -rf "${work:?}/$crate" "$work/$crate-migrated"
    cp -r "$registry/$crate" "$work/$crate"
    # Inside this repository's target folder: each its own workspace, as in the registry.
    printf '\n[workspace]\n' >>"$work/$crate/Cargo.toml"
  done
  cp -r "$work/cuda-driver-sys-0.3.0" "$work/cuda-driver-sys-0.3.0-migrated"
  cp -r "$work/cudarc-0.19.10" "$work/cudarc-0.19.10-migrated"
  cp -r "$work/cust_raw-0.11.3" "$work/cust_raw-0.11.3-migrated"
  cp -r "$work/cust-0.3.2" "$work/cust-0.3.2-migrated"

  # The command, then one migration per crate: nothing else is edited.
  cargo build --quiet -p cuda-entry-cli
  local dependency="path = \"$root/core\""
  for crate in cuda-driver-sys-0.3.0 cudarc-0.19.10; do
    echo "=== cuda-entry migrate --write $crate"
    # 3: cudarc's cuFile wrappers load libcufile, not the driver: reported, left as they are.
    "$root/target/debug/cuda-entry" migrate --write --allow-no-vcs --dependency "$dependency" \
      "$work/$crate-migrated" >"$out/migrate-$crate.log" || [ $? = 3 ]
    grep -v "^    \|is .* at [0-9]* (PFN_" "$out/migrate-$crate.log" | tail -n 12
  done
  # The finder-crate shape: the bindings and their dependent, which links libcuda itself, in one
  # run (the finder calls in both build scripts are removed, cust's own extern block declared).
  echo "=== cuda-entry migrate --write cust_raw-0.11.3 cust-0.3.2"
  (cd "$work" && "$root/target/debug/cuda-entry" migrate --write --allow-no-vcs \
    --dependency "$dependency" cust_raw-0.11.3-migrated cust-0.3.2-migrated) >"$out/migrate-cust.log"
  grep -v "^    \|is .* at [0-9]* (PFN_\|^[-+@ ]" "$out/migrate-cust.log" | tail -n 12

  # The stub libcuda.so, for linking the original only.
  # cuda-driver-sys's build script looks in $CUDA_LIBRARY_PATH/lib64.
  local stub=$work/stub
  mkdir -p "$stub/lib64"
  sed -e '/^$/d' -e 's/.*/int &(void) { return 34; }/' tests/ground-truth/driver-13000-exports.txt >"$stub/cuda.c"
  cc -shared -fPIC -Wl,-soname,libcuda.so.1 -o "$stub/lib64/libcuda.so" "$stub/cuda.c"

  # RustaCUDA's suite, against each cuda-driver-sys. Its Cargo.lock holds quote 1.0.9 and
  # proc-macro2 1.0.28, older than cuda-entry's macros need (syn 3 needs 1.0.35 and 1.0.91): the
  # update `migrate` names for such a lockfile, run once for both variants (it changes the
  # versions of rustacuda_derive's build-time dependencies only).
  local rustacuda=$work/rustacuda-0.1.3
  (cd "$rustacuda" && cargo update --quiet -p quote -p proc-macro2)
  for variant in original migrated; do
    local sys=$work/cuda-driver-sys-0.3.0
    [ "$variant" = migrated ] && sys=$work/cuda-driver-sys-0.3.0-migrated
    collect "rustacuda" "$variant" env CUDA_LIBRARY_PATH="$stub" CARGO_TARGET_DIR="$work/target-rustacuda-$variant" \
      cargo test --no-run --message-format=json --manifest-path "$rustacuda/Cargo.toml" \
      --config "patch.crates-io.cuda-driver-sys.path=\"$sys\""
  done
  # cudarc's driver tests, original and migrated. With `cuda-13010` bindings, not `cuda-13000`:
  # cuda-entry's typedef table holds one layout per C type, the newest header's, and
  # `CUdevResource` grew from align 4 (CUDA 12.4-13.0, cudarc's `cuda-13000`) to align 8 in 13.1,
  # so the macro refuses the seven green-context functions of `cuda-13000` (their 12040
  # typedefs); no test calls them, and the driver's functions the tests call are the same.
  for variant in original migrated; do
    local dir=$work/cudarc-0.19.10
    [ "$variant" = migrated ] && dir=$work/cudarc-0.19.10-migrated
    collect "cudarc" "$variant" env CARGO_TARGET_DIR="$work/target-cudarc-$variant" \
      cargo test --no-run --message-format=json --manifest-path "$dir/Cargo.toml" --lib \
      --no-default-features --features std,driver,nvrtc,dynamic-loading,cuda-13010
  done
  # cust's unit tests, against each cust_raw. The original finds the stub through
  # find_cuda_helper's CUDA_LIBRARY_PATH; the migrated build is given no CUDA at all.
  for variant in original migrated; do
    local raw=$work/cust_raw-0.11.3 cust=$work/cust-0.3.2 cuda=(CUDA_LIBRARY_PATH="$stub")
    if [ "$variant" = migrated ]; then
      raw=$work/cust_raw-0.11.3-migrated cust=$work/cust-0.3.2-migrated
      cuda=(-u CUDA_LIBRARY_PATH -u CUDA_PATH -u CUDA_ROOT -u CUDA_TOOLKIT_ROOT_DIR)
    fi
    collect "cust" "$variant" env "${cuda[@]}" CARGO_TARGET_DIR="$work/target-cust-$variant" \
      cargo test --no-run --message-format=json --manifest-path "$cust/Cargo.toml" --lib \
      --config "patch.crates-io.cust_raw.path=\"$raw\""
  done
  # The device takes at most 64 MiB of carried files: debug info stays here.
  strip --strip-debug "$out"/original/* "$out"/migrated/*
  ls -la "$out/original" "$out/migrated"
  du -sh "$out"
  # Neither migrated executable links libcuda; the originals of cuda-driver-sys do.
  for exe in "$out"/migrated/*; do
    if readelf -d "$exe" | grep -q 'NEEDED.*libcuda'; then
      echo "real-crates.sh: $exe links libcuda" >&2
      exit 1
    fi
  done
}

# Builds the test executables of one suite with the command given, and copies them as
# $out/<variant>/<suite>-<target>.
collect() { # suite variant command...
  local suite=$1 variant=$2
  shift 2
  echo "=== $suite ($variant)"
  "$@" >"$work/$suite-$variant.json"
  python3 - "$work/$suite-$variant.json" "$out/$variant" "$suite" <<'PY'
import json, shutil, sys
source, dest, suite = sys.argv[1:]
count = 0
for line in open(source):
    if not line.startswith("{"):
        continue
    msg = json.loads(line)
    if msg.get("reason") != "compiler-artifact" or not msg.get("executable"):
        continue
    if not msg["profile"]["test"]:
        continue
    name = f"{suite}-{msg['target']['name']}"
    shutil.copy(msg["executable"], f"{dest}/{name}")
    print("test executable:", f"{dest}/{name}")
    count += 1
if count == 0:
    sys.exit(f"real-crates.sh: no test executable of {suite} was built")
PY
}

run() {
  local results=${OUT:-/tmp/cuda-entry-real}
  mkdir -p "$results"
  { nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 || true; } | sed 's/^/GPU: /'
  local failed=0
  for exe in "$out"/original/*; do
    local name
    name=$(basename "$exe")
    for variant in original migrated; do
      if [ ! -x "$out/$variant/$name" ]; then
        echo "MISSING $variant/$name (run tests/device/real-crates.sh build here, carry .device-real)"
        failed=1
        continue
      fi
      # One test at a time: the suites share the device and its primary context.
      (cd "$out/$variant" && "./$name" --test-threads=1) >"$results/$variant-$name.log" 2>&1 || true
    done
    compare "$results/original-$name.log" "$results/migrated-$name.log" "$name" || failed=1
  done
  if [ "$failed" = 0 ]; then
    echo "OK: every test of the migrated crates ended as with the originals"
  else
    echo "FAILED: see the differences above (logs in $results)"
    exit 1
  fi
}

# The comparison: each test's outcome, original against migrated.
compare_py='
import re, sys
def outcomes(path):
    result = {}
    for line in open(path, errors="replace"):
        m = re.match(r"test (\S+)(?: - should panic)? \.\.\. (ok|FAILED|ignored)", line)
        if m:
            result[m.group(1)] = m.group(2)
    return result
original, migrated, name = outcomes(sys.argv[1]), outcomes(sys.argv[2]), sys.argv[3]
passed = sum(1 for v in original.values() if v == "ok")
print("=== %s: %d tests, %d passed with the original" % (name, len(original), passed))
differ = sorted(t for t in set(original) | set(migrated) if original.get(t) != migrated.get(t))
for t in differ:
    print("  DIFFERS %s: original %s, migrated %s" % (t, original.get(t, "missing"), migrated.get(t, "missing")))
if not original:
    print("  no test ran: see", sys.argv[1])
    sys.exit(1)
sys.exit(1 if differ else 0)
'
compare() { # original.log migrated.log name
  python3 -c "$compare_py" "$@"
}

case "${1:-}" in
  build) build ;;
  run) run ;;
  *)
    echo "usage: tests/device/real-crates.sh build|run" >&2
    exit 2
    ;;
esac
