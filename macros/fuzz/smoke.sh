#!/usr/bin/env bash
# A short libFuzzer run of each harness (CI); long runs: SECONDS_EACH=600 macros/fuzz/smoke.sh.
# Needs the nightly toolchain and cargo-fuzz (installed here when missing).
set -euo pipefail
cd "$(dirname "$0")"
seconds=${SECONDS_EACH:-30}
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
for target in args declaration manifest cargo_toml; do
  work=$(mktemp -d)
  cp -r "corpus/$target/." "$work/"
  cargo +nightly fuzz run "$target" "$work" -- -max_total_time="$seconds" 2>&1 | tail -n 3
  rm -rf "$work"
done
