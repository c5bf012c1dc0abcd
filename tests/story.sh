#!/usr/bin/env bash
# Issue 40's story as a test, run by tests/run-all.sh (the kit stage) without a GPU: cudarc
# 0.19.10 pinned to `cuda-12090`, migrated by the command alone, and a program using its safe API
# (tests/story/) run on the kit's simulated drivers of CUDA 13.0, 12.2, 12.0, 11.8 and 11.2, built
# against cudarc as published and against the migrated cudarc. Each build runs its own
# tests/story/tests/drivers.rs, which prints what the program said on each driver.
#
#   tests/story.sh            both builds; exit 1 when a test fails
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$root/target/story
mkdir -p "$work"

# cudarc as published, from cargo's registry (the story's lockfile pins it).
cargo fetch --quiet --manifest-path tests/story/Cargo.toml
registry=$(dirname "$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/cudarc-0.19.10 | head -1)")
migrated=$work/cudarc-0.19.10-migrated
rm -rf "$migrated"
cp -r "$registry/cudarc-0.19.10" "$migrated"
chmod -R u+w "$migrated"
# Its own workspace, as in the registry (this folder lies inside the repository's).
printf '\n[workspace]\n' >>"$migrated/Cargo.toml"

# The migration: one command, nothing edited by hand. 3: cudarc's cuFile wrappers load libcufile,
# not the driver; reported and left.
cargo build --quiet -p cuda-entry-cli
status=0
"$root/target/debug/cuda-entry" migrate --write --allow-no-vcs \
  --dependency "path = \"$root/core\"" "$migrated" >"$work/migrate.log" || status=$?
if [ "$status" != 0 ] && [ "$status" != 3 ]; then
  cat "$work/migrate.log" >&2
  echo "story.sh: cuda-entry migrate exited with $status" >&2
  exit 1
fi
tail -n 4 "$work/migrate.log"

echo "=== the program against cudarc as published"
CARGO_TARGET_DIR=$root/target/story-original cargo test --locked \
  --manifest-path tests/story/Cargo.toml -- --nocapture

echo "=== the program against the migrated cudarc"
copy=$work/program
rm -rf "$copy" && mkdir -p "$copy"
cp -r tests/story/Cargo.toml tests/story/Cargo.lock tests/story/src tests/story/tests "$copy/"
sed -i "s|\"\\.\\./\\.\\./|\"$root/|g" "$copy/Cargo.toml"
printf '\n[patch.crates-io]\ncudarc = { path = "%s" }\n' "$migrated" >>"$copy/Cargo.toml"
CARGO_TARGET_DIR=$root/target/story-migrated cargo test --features migrated \
  --manifest-path "$copy/Cargo.toml" -- --nocapture
