#!/usr/bin/env bash
# Runs on the device machine (real driver), from the repository root, after tests/device/build.sh
# here. Prints every test's output and a summary table at the end; copies logs to $OUT.
#
# Every GPU check is required here (CUDA_ENTRY_REQUIRE_GPU=1: a test that cannot reach the real
# driver fails instead of skipping). The script exits 1 when any run fails, any expected binary is
# missing, or any log says SKIPPED; the summary is printed either way.
set -uo pipefail
cd "$(dirname "$0")/../.."
export CUDA_ENTRY_REQUIRE_GPU=1
out=${OUT:-/tmp/cuda-entry-device}
mkdir -p "$out"
summary=()
problems=()
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | sed 's/^/GPU: /'

run() { # name, command...
  local name=$1; shift
  if [ ! -x "$1" ]; then
    echo "=== $name: MISSING $1 (run tests/device/build.sh here and carry .device)"
    summary+=("$(printf '%-40s MISSING %s' "$name" "$1")")
    problems+=("$name: $1 is missing")
    return
  fi
  local start=$EPOCHREALTIME
  "$@" > "$out/$name.log" 2>&1
  local rc=$?
  local secs
  secs=$(python3 -c "print(f'{$EPOCHREALTIME - $start:.2f}')")
  echo "=== $name (exit $rc, ${secs}s)"
  tail -n 60 "$out/$name.log"
  summary+=("$(printf '%-40s exit %-3s %8ss' "$name" "$rc" "$secs")")
  [ "$rc" = 0 ] || problems+=("$name: exit $rc")
  if grep -q "SKIPPED" "$out/$name.log"; then
    problems+=("$name: $(grep -m1 "SKIPPED" "$out/$name.log")")
  fi
}

# The real-driver suite, then the rest of the workspace's tests (the simulator ones still use the
# simulator through the override, which proves the same binaries work here).
# The runtime resolver against the toolkit's libcudart (the answers were measured identical).
CUDA_ENTRY_RUNTIME_PATH=/usr/local/cuda/lib64/libcudart.so.13 \
  run gpu-test .device/deps/gpu-test --nocapture --test-threads=1
# Core's suite against the simulated drivers (the same binaries, now on this machine), and the
# examples run against the simulator; the real-driver runs of the examples follow.
for name in cuda_entry-test driver-test runtime-test per_thread-test registry-test stress-test examples-test; do
  run "$name" ".device/deps/$name"
done
for ex in quickstart vector_add new_api cudarc_interop; do
  run "example-$ex" ".device/examples/$ex"
done

# The command against the real driver: what it serves, and the deployment gate on vector_add's
# binary, which must agree with what running vector_add found above.
run cli-probe .device/cuda-entry probe
run cli-probe-json .device/cuda-entry probe --json
run cli-check-vector_add .device/cuda-entry check .device/examples/vector_add
run cli-check-vector_add-12040 .device/cuda-entry check --driver-version 12040 .device/examples/vector_add

echo
echo "================ SUMMARY ================"
printf '%s\n' "${summary[@]}"
grep -h "^SUMMARY" "$out"/*.log
grep -h "MISMATCH" "$out"/*.log | head -20
if [ "${#problems[@]}" -gt 0 ]; then
  echo
  echo "FAILED: ${#problems[@]} problem(s)"
  printf '  %s\n' "${problems[@]}"
  exit 1
fi
echo
echo "OK: every run passed, nothing skipped, nothing missing"
