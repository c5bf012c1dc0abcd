#!/usr/bin/env bash
# Build-time benchmark (issue 6): what declaring every driver symbol through #[cuda_entry] costs the
# compiler, against the same signatures as plain `extern "C"` declarations and against cudarc 0.19's
# driver-only build. Prints seconds and ratios.
#
#   tests/bench/build-time.sh                 # dev profile, 3 runs of each warm measurement
#   RUNS=5 PROFILE=release tests/bench/build-time.sh
#   MODE=instructions tests/bench/build-time.sh   # valgrind instruction counts (dev profile; nightly too)
#
# Throwaway crates are generated under $CARGO_TARGET_DIR/bench-build-time/ (default
# target/bench-build-time/; nothing is committed), each with its own target directory:
#   macro   every symbol of the typedef table at its newest legacy version, one #[cuda_entry]
#           declaration each (types: *mut c_void for pointers, f32/f64 for float/double,
#           u8..u64 / [uN; K] of the C size and alignment otherwise), depending on cuda-entry by path
#   plain   the same signatures in one `unsafe extern "C"` block, no dependencies
#   manual  the same signatures loaded lazily by hand, as cudarc's `dynamic-loading` does (per
#           function a wrapper with a `static OnceLock` of the pointer, dlsym through libloading):
#           the cost of the equivalent hand-written code, for reference
#   cudarc  `pub use cudarc::driver::sys;` with cudarc 0.19, features std, driver, dynamic-loading,
#           cuda-13000 (no default features)
# Measured, each the median of RUNS builds: "all cold" (empty target dir: the crate and all its
# dependencies), "crate only" (the
# dependencies built, `cargo clean -p <crate>` then build: for cudarc the cudarc crate itself), and
# "one-line change" (a line appended to the crate's lib.rs, incremental rebuild; not for cudarc,
# whose user crate would not recompile it). Works offline once the registry holds the crates
# (`cargo fetch` in the workspace); every cargo call here passes --offline.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
runs=${RUNS:-3}
profile=${PROFILE:-dev}
work=${CARGO_TARGET_DIR:-$root/target}/bench-build-time
unset RUSTC_WRAPPER CARGO_BUILD_RUSTC_WRAPPER CARGO_TARGET_DIR
export CARGO_TERM_COLOR=never
jobs=$(nproc 2>/dev/null || echo '?')
rm -rf "$work"
mkdir -p "$work"

manifest() { # name, dependencies...
  local name=$1; shift
  mkdir -p "$work/$name/src"
  {
    printf '[package]\nname = "bench-build-%s"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n' "$name"
    printf '# Not part of the cuda-entry workspace.\n[workspace]\n\n[dependencies]\n'
    printf '%s\n' "$@"
  } > "$work/$name/Cargo.toml"
  cp Cargo.lock "$work/$name/Cargo.lock" # the workspace's versions, so --offline resolves
}

# The generator (tests/bench/examples/build_time_gen.rs) reads cuda_entry_table and writes
# macro/src/lib.rs, plain/src/lib.rs and manual/src/lib.rs.
manifest macro "cuda-entry = { path = \"$root/core\" }"
manifest plain
manifest manual 'libloading = "0.9.1"'
manifest cudarc 'cudarc = { version = "0.19.10", default-features = false, features = ["std", "driver", "dynamic-loading", "cuda-13000"] }'
echo 'pub use cudarc::driver::sys;' > "$work/cudarc/src/lib.rs"

echo "generating the crates from the typedef table..."
cargo run --offline --quiet -p cuda-entry-bench --example build_time_gen -- "$work"

build() { # crate -> seconds of one `cargo build`
  local crate=$1 start end
  start=$EPOCHREALTIME
  if ! cargo build --offline --quiet --profile "$profile" --manifest-path "$work/$crate/Cargo.toml" \
      --target-dir "$work/$crate/target" > "$work/$crate.log" 2>&1; then
    echo "cargo build of $crate failed:" >&2
    tail -n 40 "$work/$crate.log" >&2
    exit 1
  fi
  end=$EPOCHREALTIME
  python3 -c "print(f'{$end - $start:.3f}')"
}

# MODE=instructions: instructions rustc executes for a one-line change and for the crate alone
# (valgrind's count: runs agree within 0.5%, where seconds on a shared machine move by a third),
# for the three crates and for the macro
# crate's expansion written out (its `-Zunpretty=expanded`, nightly) with parts removed
# (tests/bench/expansion_variants.py): what each part of the expansion costs the compiler when no
# macro runs, and so the floor of any macro that generates it.
count() { # crate dir, edit|crate -> millions of instructions of rustc for a one-line change
  # (incremental), or for the crate alone from clean (its dependencies built)
  local dir=$1 what=$2 cmd package
  package=$(sed -n 's/^name = "\(.*\)"/\1/p' "$dir/Cargo.toml" | head -n 1)
  cargo build --offline --quiet --manifest-path "$dir/Cargo.toml" --target-dir "$dir/target" > "$dir.log" 2>&1 \
    || { echo "cargo build of $dir failed:" >&2; tail -n 40 "$dir.log" >&2; exit 1; }
  # An edit in the clock tick that the build's fingerprint was written in looks older than it:
  # cargo would not rebuild.
  sleep 1
  sed -i "s/^pub const EDIT: u32 = .*;/pub const EDIT: u32 = $RANDOM;/" "$dir/src/lib.rs"
  # The compiler's command line for this crate, as cargo runs it.
  cmd=$(cd "$dir" && cargo build --offline -v --target-dir "$dir/target" 2>&1 \
    | grep -o 'Running `[^`]*rustc --crate-name bench_build[^`]*`' | sed 's/^Running `//; s/`$//')
  [ -n "$cmd" ] || { echo "no rustc command line for $dir" >&2; exit 1; }
  if [ "$what" = crate ]; then
    cargo clean --offline --quiet --manifest-path "$dir/Cargo.toml" --target-dir "$dir/target" -p "$package"
  else
    sleep 1
    sed -i "s/^pub const EDIT: u32 = .*;/pub const EDIT: u32 = $RANDOM;/" "$dir/src/lib.rs"
  fi
  (cd "$dir" && eval "valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null $cmd") \
    > /dev/null 2> "$dir.valgrind" \
    || { echo "rustc under valgrind failed for $dir:" >&2; tail -n 20 "$dir.valgrind" >&2; exit 1; }
  awk '/I *refs/ { gsub(",", "", $NF); printf "%.0f\n", $NF / 1e6 }' "$dir.valgrind"
}

if [ "${MODE:-time}" = instructions ]; then
  command -v valgrind > /dev/null || { echo "MODE=instructions needs valgrind" >&2; exit 1; }
  declare -A m c
  # The macro crate again, with the proc macros compiled optimised for the dev profile, as the
  # guide suggests (docs/guide.md, "Build time").
  mkdir -p "$work/macro-opt/src"
  cp "$work/macro/Cargo.lock" "$work/macro/src/lib.rs" "$work/macro-opt/"
  mv "$work/macro-opt/lib.rs" "$work/macro-opt/src/"
  { cat "$work/macro/Cargo.toml"; printf '\n[profile.dev.build-override]\nopt-level = 3\n'; } \
    > "$work/macro-opt/Cargo.toml"
  for crate in plain manual macro macro-opt; do
    m[$crate]=$(count "$work/$crate" edit)
    c[$crate]=$(count "$work/$crate" crate)
    echo "$crate: ${m[$crate]} M instructions one-line change, ${c[$crate]} M crate only"
  done
  cargo +nightly rustc --offline --quiet --manifest-path "$work/macro/Cargo.toml" \
    --target-dir "$work/macro/target-nightly" -- -Zunpretty=expanded > "$work/expanded.rs" 2> "$work/expanded.log" \
    || { echo "the nightly expansion failed:" >&2; tail -n 20 "$work/expanded.log" >&2; exit 1; }
  # A proc macro that returns its input: the expansion written out, each declaration's items
  # passed through it (the `macro` variant), costs what any proc macro writing it must. And one
  # that lexes its input, a raw string literal, into tokens (the `text` variant): what the
  # cheapest proc macro that makes these tokens costs.
  mkdir -p "$work/identity/src"
  printf '[package]\nname = "bench-identity"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n[lib]\nproc-macro = true\n' \
    > "$work/identity/Cargo.toml"
  cat > "$work/identity/src/lib.rs" <<'RUST'
extern crate proc_macro;
use proc_macro::TokenStream;

#[proc_macro]
pub fn identity(input: TokenStream) -> TokenStream {
    input
}

/// `from_text!(r#"..."#)`: the literal's contents, lexed.
#[proc_macro]
pub fn from_text(input: TokenStream) -> TokenStream {
    let literal = input.to_string();
    let hashes = literal.bytes().skip(1).take_while(|&b| b == b'#').count();
    let text = &literal[hashes + 2..literal.len() - hashes - 1];
    text.parse().unwrap_or_else(|_| "compile_error!(\"from_text: does not lex\");".parse().unwrap())
}
RUST
  variants=("expanded|" "expanded-macro|macro" "expanded-text|text" "expanded-asserts|asserts"
    "expanded-checks|asserts lint"
    "expanded-records|asserts lint registration manifest"
    "expanded-core|asserts lint registration manifest metadata")
  for v in "${variants[@]}"; do
    name=${v%%|*} parts=${v#*|}
    mkdir -p "$work/$name/src"
    # The same package name: the manifest records' lengths count it.
    cp "$work/macro/Cargo.toml" "$work/macro/Cargo.lock" "$work/$name/"
    # (The dependencies are the manifest's last table.)
    if [ "$name" = expanded-macro ] || [ "$name" = expanded-text ]; then
      echo "bench-identity = { path = \"$work/identity\" }" >> "$work/$name/Cargo.toml"
    fi
    # shellcheck disable=SC2086 # the parts are words
    python3 tests/bench/expansion_variants.py "$work/expanded.rs" "$work/$name/src/lib.rs" $parts
    m[$name]=$(count "$work/$name" edit)
    c[$name]=$(count "$work/$name" crate)
    echo "$name: ${m[$name]} M instructions one-line change, ${c[$name]} M crate only"
  done
  per() { python3 -c "print(f'{$1 / ${m[manual]}:.2f}')"; }
  perc() { python3 -c "print(f'{$1 / ${c[manual]}:.2f}')"; }
  cat <<EOF

================ cuda-entry: instructions of rustc (dev profile, $(rustc --version)) ================

| crate (517 declarations), millions of instructions of rustc | one-line change | / hand-written | crate only | / hand-written |
|---|---|---|---|---|
| plain extern "C" | ${m[plain]} | $(per "${m[plain]}") | ${c[plain]} | $(perc "${c[plain]}") |
| loaded lazily by hand (cudarc style) | ${m[manual]} | 1.00 | ${c[manual]} | 1.00 |
| through #[cuda_entry] | ${m[macro]} | $(per "${m[macro]}") | ${c[macro]} | $(perc "${c[macro]}") |
| ... with \`[profile.dev.build-override] opt-level = 3\` | ${m[macro-opt]} | $(per "${m[macro-opt]}") | ${c[macro-opt]} | $(perc "${c[macro-opt]}") |
| its expansion written out (no macro runs) | ${m[expanded]} | $(per "${m[expanded]}") | ${c[expanded]} | $(perc "${c[expanded]}") |
| ... each declaration's items passed through a proc macro that returns them | ${m[expanded-macro]} | $(per "${m[expanded-macro]}") | ${c[expanded-macro]} | $(perc "${c[expanded-macro]}") |
| ... each declaration's items lexed from text by a proc macro | ${m[expanded-text]} | $(per "${m[expanded-text]}") | ${c[expanded-text]} | $(perc "${c[expanded-text]}") |
| ... without the ABI assertions | ${m[expanded-asserts]} | $(per "${m[expanded-asserts]}") | ${c[expanded-asserts]} | $(perc "${c[expanded-asserts]}") |
| ... and without the FFI-lint block | ${m[expanded-checks]} | $(per "${m[expanded-checks]}") | ${c[expanded-checks]} | $(perc "${c[expanded-checks]}") |
| ... and without registration and manifest record | ${m[expanded-records]} | $(per "${m[expanded-records]}") | ${c[expanded-records]} | $(perc "${c[expanded-records]}") |
| ... and without the metadata constants, pointer(), is_available() and docs | ${m[expanded-core]} | $(per "${m[expanded-core]}") | ${c[expanded-core]} | $(perc "${c[expanded-core]}") |

| ratio | value | target | verdict |
|---|---|---|---|
| macro / hand-written, one-line change | $(per "${m[macro]}") | <= 2.50 | $(python3 -c "print('ok' if ${m[macro]} <= 2.5 * ${m[manual]} else 'MISS')") |
| what running the macro adds (macro - expansion written out) / hand-written, one-line change | $(python3 -c "print(f'{(${m[macro]} - ${m[expanded]}) / ${m[manual]}:.2f}')") | | |
| what any proc macro writing the expansion adds (through the identity macro - written out) / hand-written | $(python3 -c "print(f'{(${m[expanded-macro]} - ${m[expanded]}) / ${m[manual]}:.2f}')") | | |
| what making the tokens from text adds (lexed by a proc macro - written out) / hand-written | $(python3 -c "print(f'{(${m[expanded-text]} - ${m[expanded]}) / ${m[manual]}:.2f}')") | | |
| what #[cuda_entry] adds above that (macro - lexed by a proc macro) / hand-written | $(python3 -c "print(f'{(${m[macro]} - ${m[expanded-text]}) / ${m[manual]}:.2f}')") | | |
| what #[cuda_entry] adds above the identity macro (macro - through the identity macro) / hand-written | $(python3 -c "print(f'{(${m[macro]} - ${m[expanded-macro]}) / ${m[manual]}:.2f}')") | | |
| the same, the macro compiled optimised | $(python3 -c "print(f'{(${m[macro-opt]} - ${m[expanded]}) / ${m[manual]}:.2f}')") | | |
| macro compiled optimised / hand-written, one-line change | $(per "${m[macro-opt]}") | <= 2.50 | $(python3 -c "print('ok' if ${m[macro-opt]} <= 2.5 * ${m[manual]} else 'MISS')") |
| macro / hand-written, crate only | $(perc "${c[macro]}") | | |
EOF
  exit 0
fi

median() { python3 -c "import statistics,sys; print(f'{statistics.median(map(float, sys.argv[1:])):.3f}')" "$@"; }

declare -A result
for crate in macro plain manual cudarc; do
  times=()
  for ((i = 0; i < runs; i++)); do
    rm -rf "$work/$crate/target"
    times+=("$(build "$crate")")
  done
  result[$crate,cold]=$(median "${times[@]}")
  echo "$crate: all cold ${result[$crate,cold]} s (median of ${times[*]})"
  times=()
  for ((i = 0; i < runs; i++)); do
    pkg=bench-build-$crate
    [ "$crate" = cudarc ] && pkg=cudarc
    cargo clean --offline --quiet --profile "$profile" --manifest-path "$work/$crate/Cargo.toml" \
      --target-dir "$work/$crate/target" -p "$pkg"
    times+=("$(build "$crate")")
  done
  result[$crate,crate]=$(median "${times[@]}")
  echo "$crate: crate only ${result[$crate,crate]} s (median of ${times[*]})"
  if [ "$crate" != cudarc ]; then
    times=()
    for ((i = 1; i <= runs; i++)); do
      sed -i "s/^pub const EDIT: u32 = .*;/pub const EDIT: u32 = $i;/" "$work/$crate/src/lib.rs"
      times+=("$(build "$crate")")
    done
    result[$crate,edit]=$(median "${times[@]}")
    echo "$crate: one-line change ${result[$crate,edit]} s (median of ${times[*]})"
  fi
done

ratio() { python3 -c "print(f'{$1 / $2:.2f}')"; }
verdict() { python3 -c "print('ok' if $1 $2 $3 else 'MISS')"; }
r_crate=$(ratio "${result[macro,crate]}" "${result[plain,crate]}")
r_edit=$(ratio "${result[macro,edit]}" "${result[plain,edit]}")
r_cold=$(ratio "${result[macro,cold]}" "${result[plain,cold]}")
r_cudarc_cold=$(ratio "${result[macro,cold]}" "${result[cudarc,cold]}")
r_cudarc_crate=$(ratio "${result[macro,crate]}" "${result[cudarc,crate]}")
r_manual_crate=$(ratio "${result[macro,crate]}" "${result[manual,crate]}")
r_manual_edit=$(ratio "${result[macro,edit]}" "${result[manual,edit]}")
cat <<EOF

================ cuda-entry: build time ($profile profile, $jobs cores, $(rustc --version)) ================

| crate | all cold (s) | crate only (s) | one-line change (s) |
|---|---|---|---|
| all symbols through #[cuda_entry] | ${result[macro,cold]} | ${result[macro,crate]} | ${result[macro,edit]} |
| the same as plain extern "C" | ${result[plain,cold]} | ${result[plain,crate]} | ${result[plain,edit]} |
| the same loaded lazily by hand (cudarc style) | ${result[manual,cold]} | ${result[manual,crate]} | ${result[manual,edit]} |
| cudarc 0.19 driver only | ${result[cudarc,cold]} | ${result[cudarc,crate]} | n/a |

| ratio | value | target | verdict |
|---|---|---|---|
| macro / plain, crate only | $r_crate | <= 2.00 | $(verdict "$r_crate" "<=" 2) |
| macro / plain, one-line change | $r_edit | <= 2.00 | $(verdict "$r_edit" "<=" 2) |
| macro / plain, all cold (macro side includes syn & co) | $r_cold | | |
| macro / cudarc driver-only, all cold | $r_cudarc_cold | < 1.00 | $(verdict "$r_cudarc_cold" "<" 1) |
| macro crate / cudarc crate, crate only | $r_cudarc_crate | < 1.00 | $(verdict "$r_cudarc_crate" "<" 1) |
| macro / hand-written lazy loading, crate only | $r_manual_crate | | |
| macro / hand-written lazy loading, one-line change | $r_manual_edit | | |
EOF
