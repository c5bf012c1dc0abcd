#!/usr/bin/env bash
# Runs a Windows executable under Wine: cargo's runner for x86_64-pc-windows-gnu and
# x86_64-pc-windows-msvc, so that `cargo test --target <target>` runs the tests as a Windows user
# would (tests/run-all.sh sets CARGO_TARGET_<TARGET>_RUNNER to this script).
#
# The Wine prefix is the test run's own, beside the build (<target dir>/wine-prefix; set
# WINEPREFIX to use another). It is created on first use, and the ProcessPrng shim
# (bcryptprimitives.c) is built with mingw-w64 into its System32: Rust's std imports ProcessPrng,
# which Wine 8.0 lacks. Everything the executable starts (the harness's scenario processes, the
# examples, cuda-entry.exe) runs in the same prefix and finds the shim there.
set -euo pipefail

if [ "$#" -lt 1 ]; then
  echo "usage: $0 EXECUTABLE [ARGS...]" >&2
  exit 2
fi
exe=$(realpath -- "$1")
shift
here=$(cd "$(dirname "$0")" && pwd)

# <target dir>/x86_64-pc-windows-{gnu,msvc}/<profile>/...: the prefix goes in <target dir>, one
# for both targets.
case "$exe" in
  */x86_64-pc-windows-gnu/*) target_dir=${exe%%/x86_64-pc-windows-gnu/*} ;;
  */x86_64-pc-windows-msvc/*) target_dir=${exe%%/x86_64-pc-windows-msvc/*} ;;
  *) target_dir=$(cd "$here/../.." && pwd)/target ;;
esac
export WINEPREFIX=${WINEPREFIX:-$target_dir/wine-prefix}
export WINEDEBUG=${WINEDEBUG:--all}
# No Wine dialogs (Mono, Gecko installers) and no desktop integration while creating the prefix.
export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree,mshtml,winemenubuilder.exe=d}

shim=$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll
source=$here/bcryptprimitives.c
if [ ! -f "$shim" ] || [ "$source" -nt "$shim" ]; then
  mkdir -p "$(dirname "$WINEPREFIX")"
  # One creator at a time: cargo may start several runners, each scenario process is another.
  exec 9>"$WINEPREFIX.lock"
  flock 9
  if [ ! -f "$WINEPREFIX/system.reg" ]; then
    wineboot --init >"$WINEPREFIX.log" 2>&1 || { cat "$WINEPREFIX.log" >&2; exit 1; }
    wineserver --wait
  fi
  if [ ! -f "$shim" ] || [ "$source" -nt "$shim" ]; then
    x86_64-w64-mingw32-gcc -O2 -shared -s -o "$shim.tmp" "$source" -ladvapi32
    mv "$shim.tmp" "$shim"
  fi
  exec 9>&-
fi

# One Wine server for the run, kept 60 s after its last program exits: every test program,
# scenario child and example connects to it, and a program that connects while a server exits
# (the default keeps one 3 s) fails with "wine client error:0: recvmsg: Connection reset by
# peer" (seen once in the msvc release run). Where a server already runs, this one exits.
wineserver -p60 >/dev/null 2>&1 || true

exec wine "$exe" "$@"
