#!/usr/bin/env bash
# A short libFuzzer run of each harness (CI); long runs: SECONDS_EACH=600 macros/fuzz/smoke.sh.
# Needs the nightly toolchain and cargo-fuzz (installed here when missing). On a failure (a build
# error or an input that breaks the property) the end of that target's log is printed, with the
# failing input's path and bytes, so that a CI log is enough to reproduce it.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${SECONDS_EACH:-30}
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
for target in args declaration manifest cargo_toml; do
  work=$(mktemp -d)
  log=$(mktemp)
  cp -r "corpus/$target/." "$work/"
  if cargo +nightly fuzz run "$target" "$work" -- -max_total_time="$seconds" >"$log" 2>&1; then
    tail -n 3 "$log"
  else
    status=$?
    echo "smoke.sh: the $target target failed (exit status $status); the end of its log:" >&2
    grep -v "^#[0-9]" "$log" | tail -n 80 >&2
    for input in "artifacts/$target"/*; do
      [ -f "$input" ] || continue
      echo "smoke.sh: failing input $input, as base64: $(base64 -w0 "$input")" >&2
    done
    rm -rf "$work" "$log"
    exit "$status"
  fi
  rm -rf "$work" "$log"
done
