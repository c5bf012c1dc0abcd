#!/usr/bin/env bash
# What migrating a real bindings crate costs its build: cuda-driver-sys 0.3.0 (bindgen output for
# CUDA 10.2, 279 functions, linked with -lcuda), fetched by cargo, migrated with one command
# (`cuda-entry migrate --write`), then built as the original and as the migrated crate. Prints
# the build time of the crate itself (its dependencies built first; the best of RUNS rebuilds,
# default 3) and the size of its rlib, and the ratios migrated / original. Neither build links
# libcuda (an rlib is not linked). Usage: tests/bench/migrate-crate.sh [--release]
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
profile_flag=${1:-}
profile=$([ "$profile_flag" = --release ] && echo release || echo debug)
runs=${RUNS:-3}
work=$root/target/bench-migrate
rm -rf "$work/original" "$work/migrated" "$work/fetch"
mkdir -p "$work/fetch/src"
cat >"$work/fetch/Cargo.toml" <<'TOML'
[package]
name = "fetch"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
cuda-driver-sys = "=0.3.0"

[workspace]
TOML
: >"$work/fetch/src/lib.rs"
cargo fetch --quiet --manifest-path "$work/fetch/Cargo.toml"
src=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/cuda-driver-sys-0.3.0 | head -1)
cp -r "$src" "$work/original"
cp -r "$src" "$work/migrated"
# Each is a workspace of its own (they sit inside this one's target folder).
for variant in original migrated; do
  printf '\n[workspace]\n' >>"$work/$variant/Cargo.toml"
done
cargo build --quiet -p cuda-entry-cli
"$root/target/debug/cuda-entry" migrate --write --allow-no-vcs --dependency "path = \"$root/core\"" \
  "$work/migrated" >"$work/migrate.log"
tail -n 4 "$work/migrate.log"

# The crate's own build time: dependencies built first, then the crate rebuilt RUNS times.
measure() { # variant
  local dir=$work/$1 target=$work/target-$1
  # The crates' own warnings (the original's, under today's rustc) go to a log.
  CARGO_TARGET_DIR=$target cargo build --quiet $profile_flag --manifest-path "$dir/Cargo.toml" \
    2>>"$work/build-$1.log"
  local best=
  for _ in $(seq "$runs"); do
    touch "$dir/src/lib.rs"
    local start end
    start=$(date +%s.%N)
    CARGO_TARGET_DIR=$target cargo build --quiet $profile_flag --manifest-path "$dir/Cargo.toml" \
      2>>"$work/build-$1.log"
    end=$(date +%s.%N)
    best=$(python3 -c "t = $end - $start; b = '$best'; print(f'{min(t, float(b)) if b else t:.2f}')")
  done
  local rlib
  rlib=$(ls -S "$target/$profile/deps/"libcuda_driver_sys-*.rlib | head -1)
  echo "$best $(stat -c %s "$rlib")"
}
read -r t_orig s_orig < <(measure original)
read -r t_mig s_mig < <(measure migrated)
python3 - "$profile" "$t_orig" "$s_orig" "$t_mig" "$s_mig" <<'PY'
import sys
profile, t_o, s_o, t_m, s_m = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
print(f"cuda-driver-sys 0.3.0, {profile} build of the crate itself (best of the rebuilds):")
print(f"  {'':10} {'build':>9} {'rlib':>12}")
print(f"  {'original':10} {t_o:>8.2f}s {s_o:>12,}")
print(f"  {'migrated':10} {t_m:>8.2f}s {s_m:>12,}")
print(f"  {'ratio':10} {t_m / t_o:>8.2f}x {s_m / s_o:>11.2f}x   (targets: build <= 2x, rlib <= 2.5x)")
PY
