#!/usr/bin/env bash
# Builds, here, everything the device machine runs (it has no Rust toolchain) into .device/
# (git-ignored; pass it as `carry`): the test executables, the examples, the simulated drivers.
# Then, on the device: tests/device/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
profile=${PROFILE:-debug}
flag=$([ "$profile" = release ] && echo --release || true)
rm -rf .device && mkdir -p .device/deps .device/examples
cargo build $flag --workspace --examples
cargo test $flag --workspace --no-run --message-format=json 2>/dev/null > target/device-tests.json
python3 - "$profile" <<'PY'
import json, shutil, sys, os
# What tests/device/run.sh runs (the device takes at most 64 MiB of carried files).
wanted = {"gpu", "driver", "runtime", "per_thread", "registry", "stress", "examples", "cuda_entry"}
found = set()
for line in open("target/device-tests.json"):
    msg = json.loads(line)
    if msg.get("reason") != "compiler-artifact" or not msg.get("executable") or not msg["profile"]["test"]:
        continue
    name = msg["target"]["name"].replace("-", "_")
    if name not in wanted:
        continue
    dest = f".device/deps/{name}-test"
    shutil.copy(msg["executable"], dest)
    found.add(name)
    print("test executable:", dest)
if found != wanted:
    sys.exit(f"build.sh: no test executable for {sorted(wanted - found)}: tests/device/run.sh would miss them")
PY
cp target/$profile/deps/libcuda_entry_sim*.so .device/deps/
# The command, where tests/registry.rs looks for it (next to the deps folder).
cargo build $flag -p cuda-entry-cli
cp target/$profile/cuda-entry .device/
for ex in target/$profile/examples/*; do
  [ -f "$ex" ] && [ -x "$ex" ] && case "$ex" in *-*|*.d|*.so) ;; *) cp "$ex" .device/examples/ ;; esac
done
# The device takes at most 64 MiB of carried files: debug info stays here.
strip --strip-debug .device/deps/* .device/examples/* .device/cuda-entry
ls -la .device/deps .device/examples
du -sh .device
