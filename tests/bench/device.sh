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
#              tests/bench/device.sh run3
#   runs the real-driver pass three times ($OUT/bench/run1..3/) and writes the median ratio of
#   each figure with its target to $OUT/bench/median-ratios.md (one noisy run does not decide).
#   Takes about 6 minutes: give the command the 600 s limit.
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

# The median of each row's ratio over the given ratio tables, with the row's target and the
# median's verdict against it (awk: the device has no guaranteed Python).
medians() {
  awk -F'|' '
    function trim(s) { gsub(/^ +| +$/, "", s); return s }
    FNR == 1 { runs++ }
    /^\| / && $3 ~ /^ *[0-9.]+ *$/ {
      m = trim($2); if (!(m in seen)) { seen[m] = 1; order[++rows] = m; target[m] = trim($4) }
      values[m] = values[m] " " trim($3)
    }
    END {
      print "| measure | median ratio | runs | target | verdict |"
      print "|---|---|---|---|---|"
      for (i = 1; i <= rows; i++) {
        m = order[i]; k = split(values[m], v, " ")
        for (a = 1; a <= k; a++) for (b = a + 1; b <= k; b++) if (v[b] + 0 < v[a] + 0) { t = v[a]; v[a] = v[b]; v[b] = t }
        med = (k % 2) ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
        verdict = ""
        if (target[m] ~ /^<=/) { x = target[m]; sub(/<= */, "", x); verdict = (med + 0 <= x + 0) ? "ok" : "MISS" }
        if (target[m] ~ /^>=/) { x = target[m]; sub(/>= */, "", x); verdict = (med + 0 >= x + 0) ? "ok" : "MISS" }
        printf "| %s | %.3f | %s | %s | %s |\n", m, med, trim(values[m]), target[m], verdict
      }
      if (runs < 3) print "\n(only " runs " ratio tables)"
    }' "$@"
}

run3() {
  local out=${OUT:-/tmp/cuda-entry-device}/bench rc=0 i tables=()
  for i in 1 2 3; do
    echo "================ run $i of 3 ================"
    OUT=$out/run$i BENCH_SIM=0 run || rc=$?
    [ -f "$out/run$i/bench/ratios.md" ] && tables+=("$out/run$i/bench/ratios.md")
  done
  [ ${#tables[@]} -gt 0 ] || { echo "no ratio table written" >&2; return 1; }
  medians "${tables[@]}" | tee "$out/median-ratios.md"
  return "$rc"
}

case "${1:-}" in
  build) build ;;
  run) run ;;
  run3) run3 ;;
  medians) shift; medians "$@" ;;
  *) echo "usage: $0 build|run|run3|medians RATIOS.md..." >&2; exit 2 ;;
esac
