#!/usr/bin/env bash
# The benchmark suite on the GPU machine, which has no Rust toolchain.
#
# Here:        tests/bench/device.sh build
#   builds the bench executable (`cargo bench --no-run`, bench profile) and the simulated driver
#   into .device/bench/ (git-ignored; leaves the rest of .device/, tests/device/build.sh's, alone),
#   debug info stripped (a few MiB; the device takes at most 64 MiB of carried files).
# On the device (the lead's `run` tool, carry [".device"]):
#              tests/bench/device.sh run
#   runs it against the real driver: criterion's output and the ratio table go to $OUT/bench/
#   (ratios.md: the table), the log to $OUT/bench/bench.log. BENCH_SIM=1 adds a second pass
#   against the simulated driver on the same machine; CUDA_ENTRY_BENCH_THREADS changes the 64
#   threads of the concurrency group. Takes about 2 minutes per pass.
set -euo pipefail
cd "$(dirname "$0")/../.."

build() {
  local json exe
  json=$(cargo bench -p cuda-entry-bench --no-run --message-format=json)
  exe=$(python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "entry":
        print(m["executable"])' <<< "$json" | tail -n 1)
  [ -x "$exe" ] || { echo "no bench executable built" >&2; exit 1; }
  rm -rf .device/bench
  mkdir -p .device/bench
  cp "$exe" .device/bench/entry
  cp "$(dirname "$exe")/libcuda_entry_simdriver.so" .device/bench/
  strip --strip-debug .device/bench/*
  ls -la .device/bench
  du -sh .device/bench .device
}

run() {
  local out=${OUT:-/tmp/cuda-entry-device}/bench rc=0
  mkdir -p "$out"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | sed 's/^/GPU: /' || true
  echo "CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
  # Criterion writes (and the summary reads) $CRITERION_HOME; --noplot: no gnuplot there.
  CRITERION_HOME=$out/criterion .device/bench/entry --bench --noplot 2>&1 | tee "$out/bench.log" || rc=$?
  cp "$out/criterion/cuda-entry-ratios.md" "$out/ratios.md" 2>/dev/null || true
  if [ "${BENCH_SIM:-0}" = 1 ]; then
    echo; echo "================ the same against the SIMULATED driver ================"
    CUDA_ENTRY_BENCH_DRIVER=sim CRITERION_HOME=$out/criterion-sim .device/bench/entry --bench --noplot \
      2>&1 | tee "$out/bench-sim.log" || rc=$?
    cp "$out/criterion-sim/cuda-entry-ratios.md" "$out/ratios-simulated.md" 2>/dev/null || true
  fi
  return "$rc"
}

case "${1:-}" in
  build) build ;;
  run) run ;;
  *) echo "usage: $0 build|run" >&2; exit 2 ;;
esac
