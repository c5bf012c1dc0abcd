#!/usr/bin/env bash
# Instructions per operation (valgrind --tool=callgrind) of what the criterion suite times, against
# the simulated driver: repeatable to the instruction where timings on a shared 2-core machine are
# not. Each operation runs COUNT times (default 10000) in a function of its own (benches/entry/
# count.rs); the inclusive count of that function over the repetitions is its cost.
#
#   tests/bench/callgrind.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${COUNT:-10000}
target=${CARGO_TARGET_DIR:-$PWD/target}
exe=$(cargo bench -p cuda-entry-bench --no-run --message-format=json 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "entry":
        print(m["executable"])' | tail -n 1)
sim=$(dirname "$exe")/libcuda_entry_simdriver.so
[ -f "$sim" ] || { echo "no simulated driver next to $exe" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
ln -s "$sim" "$dir/libcuda.so" # the name cudarc looks for
out=$target/callgrind.entry.out
CUDA_ENTRY_DRIVER_PATH=$dir/libcuda.so CUDA_ENTRY_SIMULATED=1 LD_LIBRARY_PATH=$dir \
  CUDA_ENTRY_BENCH_COUNT=$n valgrind --tool=callgrind --callgrind-out-file="$out" "$exe" \
  > "$dir/stdout" 2> "$dir/stderr" || { cat "$dir/stdout" "$dir/stderr"; exit 1; }
grep '^counted' "$dir/stdout"
callgrind_annotate --inclusive=yes --threshold=100 "$out" > "$dir/annotated"
python3 - "$dir/annotated" "$dir/stdout" <<'PY'
import re, sys
counts = {}
for line in open(sys.argv[1]):
    m = re.match(r"\s*([\d,]+) .*count::(count_\w+) \[", line)
    if m:
        counts[m.group(2)] = max(counts.get(m.group(2), 0), int(m.group(1).replace(",", "")))
head = open(sys.argv[2]).read()
m = re.search(r"counted n=(\d+) \(preload: (\d+) rounds of (\d+) entries\)", head)
n, rounds, entries = int(m.group(1)), int(m.group(2)), int(m.group(3))
per = {
    "count_raw_call": n, "count_entry_call": n, "count_cudarc_call": n,
    "count_raw_first": n, "count_entry_first": n,
    "count_raw_loop": rounds * entries, "count_entry_preload": rounds * entries,
    "count_oncelock_first": n, "count_oncelock_loop": rounds * entries,
}
ins = {k: counts[k] / per[k] for k in per if k in counts}
print("\n| operation | instructions |\n|---|---|")
for k, v in ins.items():
    print(f"| {k.removeprefix('count_')} | {v:.1f} |")
def ratio(a, b, what):
    if a in ins and b in ins:
        print(f"| {what} | {ins[a] / ins[b]:.3f} | {ins[a] - ins[b]:+.1f} |")
print("\n| ratio (instructions) | value | difference per operation |\n|---|---|---|")
ratio("count_entry_call", "count_raw_call", "call cuDriverGetVersion: entry / raw pointer")
ratio("count_entry_call", "count_cudarc_call", "call cuDriverGetVersion: entry / cudarc")
ratio("count_entry_first", "count_raw_first", "first resolution: entry / raw cuGetProcAddress_v2")
ratio("count_entry_preload", "count_raw_loop", f"preload / raw loop, per entry ({entries} entries)")
ratio("count_oncelock_first", "count_raw_first", "first resolution: raw query in a std OnceLock / raw")
ratio("count_entry_first", "count_oncelock_first", "first resolution: entry / raw query in a std OnceLock")
ratio("count_oncelock_loop", "count_raw_loop", f"raw loop in std OnceLocks / raw loop, per entry")
ratio("count_entry_preload", "count_oncelock_loop", f"preload / raw loop in std OnceLocks, per entry")
PY
