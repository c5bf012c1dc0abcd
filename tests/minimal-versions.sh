#!/usr/bin/env bash
# The published library crates' dependency minimums are what their code needs: each is checked
# with every direct dependency at the lowest version its requirement allows (cargo's
# `-Z direct-minimal-versions`, nightly), so adding cuda-entry or cuda-entry-sim to a project
# whose lockfile holds older versions forces no update it does not need; where a minimum is
# genuinely newer, `cuda-entry migrate` names the `cargo update -p` to run
# (core/cli/src/migrate/manifest.rs, held against these requirements by core/cli/tests/minimums.rs).
#
# Checked in a copy of the workspace holding only those crates (the command, the benches and the
# tests' dev-dependencies, which no user's lockfile shares, would otherwise raise every shared
# minimum to theirs: one version of a package per workspace), with a lockfile of its own: the
# workspace's Cargo.lock is never touched. Needs the nightly toolchain and the registry's index.
# tests/run-all.sh runs it (required under CI=1).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
crates=(core macros macros/table core/sim core/sim/simdriver core/sim/simdriver-core
  core/sim/simdriver-11x core/sim/simdriver-old core/sim/simruntime core/sim/simruntime-core
  core/sim/simruntime-old)
for crate in "${crates[@]}"; do
  mkdir -p "$copy/$crate"
  # The crate's own files, not its nested packages (core/cli) nor build outputs.
  (cd "$crate" && git ls-files -co --exclude-standard . | grep -v '^cli/\|^fuzz/\|^generator/' |
    while read -r file; do mkdir -p "$copy/$crate/$(dirname "$file")" && cp "$file" "$copy/$crate/$file"; done)
done
cp README.md "$copy/"
# The workspace's shared settings, with only these crates as members and no root package.
python3 - "$root/Cargo.toml" "$copy/Cargo.toml" "${crates[@]}" <<'PY'
import sys, re
source, target, members = sys.argv[1], sys.argv[2], sys.argv[3:]
text = open(source).read()
keep = []
for section in re.split(r"(?m)^(?=\[)", text):
    header = section.split("\n", 1)[0].strip()
    if header in ("[workspace.package]", "[workspace.dependencies]", "[workspace.lints.rust]",
                  "[workspace.lints.clippy]"):
        keep.append(section)
members = ", ".join(f'"{m}"' for m in members)
open(target, "w").write(f'[workspace]\nmembers = [{members}]\nresolver = "3"\n\n' + "".join(keep))
PY
cd "$copy"
export CARGO_TARGET_DIR="$root/target/minimal-versions"
set -x
cargo +nightly generate-lockfile -Z direct-minimal-versions
cargo +nightly check --workspace --all-targets --all-features
