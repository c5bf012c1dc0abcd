#!/usr/bin/env bash
# Regenerates macros/table/src/{generated.rs,exports/generated.rs,status/generated.rs} and docs/table.md
# from the headers of pinned CUDA toolkit releases (PyPI wheels). See macros/generator/README.md.
#
#   macros/generator/regenerate.sh            # download (cached), generate, rustfmt, write
#   macros/generator/regenerate.sh --check    # regenerate into a temp dir, diff with the committed files
#
# Options: --cache DIR (default: $CUDA_ENTRY_HEADERS or <workspace>/target/cuda-headers).
# If the wheels cannot be downloaded, --check prints "SKIPPED: could not fetch headers: ..." and
# exits 0, except with CI set (not empty, 0 or false; .ci/run exports CI=1), where the check is
# required and the script exits 1. Without --check a failed download is always an error.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CACHE=${CUDA_ENTRY_HEADERS:-$ROOT/target/cuda-headers}
CHECK=0
while [ $# -gt 0 ]; do
    case "$1" in
        --check) CHECK=1 ;;
        --cache) CACHE=${2:?--cache needs a directory}; shift ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "regenerate.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done

# One line per toolkit: <toolkit> <runtime wheel (has cuda.h and the *Typedefs.h)> <profiler wheel (cudaProfiler.h)>.
# The newest patch release of every minor on PyPI. There is no 12.7 wheel; the only cu11 profiler wheel
# is 11.8.86, whose cudaProfiler.h 11.7 also uses (the header only declares CUoutput_mode and 3 calls).
TOOLKITS=(
    "11.7 nvidia-cuda-runtime-cu11==11.7.99  nvidia-cuda-profiler-api-cu11==11.8.86"
    "11.8 nvidia-cuda-runtime-cu11==11.8.89  nvidia-cuda-profiler-api-cu11==11.8.86"
    "12.0 nvidia-cuda-runtime-cu12==12.0.146 nvidia-cuda-profiler-api-cu12==12.0.140"
    "12.1 nvidia-cuda-runtime-cu12==12.1.105 nvidia-cuda-profiler-api-cu12==12.1.105"
    "12.2 nvidia-cuda-runtime-cu12==12.2.140 nvidia-cuda-profiler-api-cu12==12.2.140"
    "12.3 nvidia-cuda-runtime-cu12==12.3.101 nvidia-cuda-profiler-api-cu12==12.3.101"
    "12.4 nvidia-cuda-runtime-cu12==12.4.127 nvidia-cuda-profiler-api-cu12==12.4.127"
    "12.5 nvidia-cuda-runtime-cu12==12.5.82  nvidia-cuda-profiler-api-cu12==12.5.39"
    "12.6 nvidia-cuda-runtime-cu12==12.6.77  nvidia-cuda-profiler-api-cu12==12.6.77"
    "12.8 nvidia-cuda-runtime-cu12==12.8.90  nvidia-cuda-profiler-api-cu12==12.8.90"
    "12.9 nvidia-cuda-runtime-cu12==12.9.79  nvidia-cuda-profiler-api-cu12==12.9.79"
    "13.0 nvidia-cuda-runtime==13.0.96       nvidia-cuda-profiler-api==13.0.85"
    "13.1 nvidia-cuda-runtime==13.1.80       nvidia-cuda-profiler-api==13.1.115"
    "13.2 nvidia-cuda-runtime==13.2.86       nvidia-cuda-profiler-api==13.2.86"
    "13.3 nvidia-cuda-runtime==13.3.29       nvidia-cuda-profiler-api==13.3.27"
    "13.4 nvidia-cuda-runtime==13.4.92       nvidia-cuda-profiler-api==13.4.92"
    "13.5 nvidia-cuda-runtime==13.5.37       nvidia-cuda-profiler-api==13.5.25"
)

# The headers cannot be had: only an optional check may go on without them.
cannot_fetch() {
    if [ "$CHECK" != 1 ]; then
        echo "regenerate.sh: could not fetch headers: $*" >&2
        exit 1
    fi
    case "${CI:-}" in
        "" | 0 | false) ;;
        *)
            echo "regenerate.sh --check: could not fetch headers: $*" >&2
            echo "regenerate.sh --check: CI=$CI, so the table check is required: failing" >&2
            exit 1
            ;;
    esac
    echo "==================================================================" >&2
    echo "SKIPPED: could not fetch headers: $*" >&2
    echo "(the committed table was not checked; with CI set this fails)" >&2
    echo "==================================================================" >&2
    exit 0
}

if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    echo "regenerate.sh: the table records x86_64 Linux sizes; run it on x86_64 Linux" >&2
    exit 1
fi
for tool in pip unzip cc cargo rustfmt; do
    command -v "$tool" >/dev/null || { echo "regenerate.sh: '$tool' is required" >&2; exit 1; }
done

# Download and unpack (cached: a toolkit folder with .complete is reused).
mkdir -p "$CACHE/wheels"
DIRS=()
for line in "${TOOLKITS[@]}"; do
    read -r tk runtime profiler <<<"$line"
    dir="$CACHE/cuda-$tk"
    if [ ! -f "$dir/.complete" ]; then
        rm -rf "$dir"
        mkdir -p "$dir"
        for spec in "$runtime" "$profiler"; do
            name=${spec%%==*}
            version=${spec##*==}
            wheel=$(find "$CACHE/wheels" -maxdepth 1 -name "${name//-/_}-${version}-*.whl" | head -n 1)
            if [ -z "$wheel" ]; then
                pip download --no-deps --only-binary=:all: --quiet --disable-pip-version-check \
                    -d "$CACHE/wheels" "$spec" >&2 || cannot_fetch "pip download $spec failed"
                wheel=$(find "$CACHE/wheels" -maxdepth 1 -name "${name//-/_}-${version}-*.whl" | head -n 1)
                [ -n "$wheel" ] || cannot_fetch "pip download $spec produced no wheel in $CACHE/wheels"
            fi
            unzip -q -o "$wheel" 'nvidia/*/include/*' -d "$dir"
        done
        touch "$dir/.complete"
    fi
    DIRS+=("$dir")
done

# The probe compiles cudaGL.h (needs GL/gl.h), cudaEGL.h (EGL/egl.h) and cudaVDPAU.h (vdpau/vdpau.h).
if ! printf '#include <GL/gl.h>\n#include <EGL/egl.h>\n#include <vdpau/vdpau.h>\n' | cc -E -x c - >/dev/null 2>&1; then
    echo "regenerate.sh: installing the GL/EGL/VDPAU C headers (mesa-common-dev libegl-dev libvdpau-dev)" >&2
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq mesa-common-dev libegl-dev libvdpau-dev >/dev/null
fi

OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
start=$(date +%s)
cargo run --quiet --release --manifest-path "$ROOT/Cargo.toml" -p cuda-entry-generator -- \
    --rs "$OUT/generated.rs" --exports "$OUT/exports.rs" --statuses "$OUT/status.rs" \
    --md "$OUT/table.md" "${DIRS[@]}"
FMT_CONFIG=()
for cfg in rustfmt.toml .rustfmt.toml; do
    if [ -f "$ROOT/$cfg" ]; then FMT_CONFIG=(--config-path "$ROOT/$cfg"); fi
done
rustfmt --edition 2024 "${FMT_CONFIG[@]}" "$OUT/generated.rs" "$OUT/exports.rs" "$OUT/status.rs"
echo "regenerate.sh: generated in $(($(date +%s) - start)) s" >&2

# Each output and where it is committed.
TABLE="$ROOT/macros/table/src"
FILES=(
    "generated.rs:$TABLE/generated.rs"
    "exports.rs:$TABLE/exports/generated.rs"
    "status.rs:$TABLE/status/generated.rs"
    "table.md:$ROOT/docs/table.md"
)
if [ "$CHECK" = 1 ]; then
    status=0
    for f in "${FILES[@]}"; do
        committed=${f#*:}
        if [ -f "$committed" ]; then
            diff -u "$committed" "$OUT/${f%%:*}" || status=1
        else
            echo "regenerate.sh --check: $committed is missing" >&2
            status=1
        fi
    done
    if [ "$status" != 0 ]; then
        echo "regenerate.sh --check: the committed table differs from the headers; run macros/generator/regenerate.sh" >&2
        exit 1
    fi
    echo "regenerate.sh --check: the committed table is up to date" >&2
else
    for f in "${FILES[@]}"; do
        committed=${f#*:}
        mkdir -p "$(dirname "$committed")"
        cp "$OUT/${f%%:*}" "$committed"
        echo "regenerate.sh: wrote $committed" >&2
    done
fi
