#!/usr/bin/env bash
# What each feature costs to build: crates compiled and wall time, in a fresh target
# directory, adding one feature at a time to the library without default features
# (each step compiles only the crates it adds, plus rangeread itself). Then the first
# `cargo build --example read` of a fresh clone, in another fresh target directory.
#
# usage: scripts/build_cost.sh            (prints a Markdown table; takes a few minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

target=$(mktemp -d)
trap 'rm -rf "$target"' EXIT

# step LABEL CARGO-ARGS...: one build in $target; prints "| LABEL | crates | seconds |".
step() {
  local label=$1
  shift
  local start=$SECONDS
  CARGO_TARGET_DIR=$target cargo build --locked "$@" 2>"$target/log" \
    || { cat "$target/log" >&2; exit 1; }
  printf '| %s | %s | %s s |\n' "$label" "$(grep -c ' Compiling ' "$target/log")" \
    "$((SECONDS - start))"
}

echo "| build (cumulative target dir) | crates compiled | time |"
echo "|---|---:|---:|"
step "library, no default features" --lib --no-default-features
step "+ sessions (rangeread only)" --lib --no-default-features --features sessions
step "+ legacy-encodings" --lib --no-default-features --features legacy-encodings
step "+ schemars" --lib --no-default-features --features schemars
step "+ opencode (C build of SQLite)" --lib --no-default-features --features opencode
step "+ images (image: PNG, JPEG, GIF, WebP codecs)" --lib --no-default-features --features images
step "+ pdf (lopdf, pdf-extract)" --lib --no-default-features --features pdf
rm -rf "$target" && mkdir -p "$target"
step "library, default features, fresh" --lib
rm -rf "$target" && mkdir -p "$target"
step "cargo build --example read, fresh" --example read
echo
echo "rustc $(rustc -V | cut -d' ' -f2), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
