#!/usr/bin/env bash
# Makes what rust-lld (lld-link) needs to link x86_64-pc-windows-msvc programs and DLLs that run
# under Wine, without anything from Microsoft, into the folder OUT (tests/run-all.sh passes
# <target dir>/msvc-libs and adds it to the target's library path):
#
#   - an import library per Windows DLL that Rust's std and the tests link by name
#     (kernel32.lib, ntdll.lib, ...): each DLL's export list read off Wine's own build of it with
#     gendef (mingw-w64-tools), then written as a COFF import library by llvm-dlltool;
#   - msvcrt.lib, the library every MSVC-targeted object asks for (/DEFAULTLIB:msvcrt): the
#     import libraries of vcruntime140.dll and ucrtbase.dll, archived with the stand-in for the
#     static part of Microsoft's CRT (msvc-crt/*.c, built with clang for the msvc target).
#
# Nothing of this is committed: it is made again when this script or the stand-in changes, or
# when Wine's DLLs do (a stamp in OUT records what it was made from).
#
# usage: tests/windows/msvc-libs.sh OUT
set -euo pipefail

if [ "$#" -ne 1 ]; then
  echo "usage: $0 OUT" >&2
  exit 2
fi
out=$1
here=$(cd "$(dirname "$0")" && pwd)

# Wine's 64-bit PE DLLs (Debian's wine64 package).
wine_dlls=/usr/lib/x86_64-linux-gnu/wine/x86_64-windows
if [ ! -f "$wine_dlls/kernel32.dll" ]; then
  echo "$0: no Wine PE DLLs in $wine_dlls: apt-get install wine64" >&2
  exit 1
fi
# The DLLs Rust's std names (kernel32, ntdll, userenv, ws2_32, dbghelp), those the workspace's
# crates name, and the two whose import libraries make msvcrt.lib.
dlls=(kernel32 ntdll userenv ws2_32 dbghelp advapi32 vcruntime140 ucrtbase)

# What the folder is made from: this script, the stand-in's sources, Wine's build of the DLLs.
stamp_of() {
  cat "$0" "$here"/msvc-crt/*.c
  for dll in "${dlls[@]}"; do
    stat -c '%n %s %Y' "$wine_dlls/$dll.dll"
  done
}
stamp=$(stamp_of | sha256sum | cut -d' ' -f1)
if [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$stamp" ]; then
  exit 0
fi

# Made beside OUT, then moved into place: a run stopped halfway leaves no half-made folder.
mkdir -p "$(dirname "$out")"
work=$(mktemp -d "$out.new.XXXXXX")
trap 'rm -rf "$work"' EXIT

for dll in "${dlls[@]}"; do
  # gendef writes a forwarded export as `Name = OTHER.Target`; an import library names the
  # export only (the loader follows the forward), so the forward is dropped.
  gendef - "$wine_dlls/$dll.dll" 2>/dev/null \
    | sed -E 's/^([^ ;=]+) = [^ ]+(.*)$/\1\2/' >"$work/$dll.def"
  grep -q '^EXPORTS' "$work/$dll.def" || {
    echo "$0: gendef read no exports from $wine_dlls/$dll.dll" >&2
    exit 1
  }
  llvm-dlltool -m i386:x86-64 -d "$work/$dll.def" -l "$work/$dll.lib"
done

# The stand-in CRT, one object per source, so that a DLL does not take the program entry point.
crt=()
for source in "$here"/msvc-crt/*.c; do
  object=$work/crt-$(basename "$source" .c).obj
  clang --target=x86_64-pc-windows-msvc -O2 -Wall -Werror -fno-stack-protector -c "$source" \
    -o "$object"
  crt+=("$object")
done
# msvcrt.lib: the stand-in's objects and every member of the two import libraries (llvm-lib
# takes an archive's members when given an archive).
llvm-lib /out:"$work/msvcrt.lib" "${crt[@]}" "$work/vcruntime140.lib" "$work/ucrtbase.lib"

echo "$stamp" >"$work/stamp"
rm -rf "$out"
mv "$work" "$out"
trap - EXIT
