#!/usr/bin/env bash
# A fuzz smoke run: every target of fuzz/ for FUZZ_SECONDS (10 by default), where a nightly
# toolchain exists (libFuzzer's instrumentation); cargo-fuzz itself comes from crates.io,
# pinned. `RANGEREAD_FUZZ_SMOKE=1 bash .ci/run` runs it after the rest of CI.
#
#   bash scripts/fuzz_smoke.sh
#   FUZZ_SECONDS=60 bash scripts/fuzz_smoke.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
echo "== fuzz smoke: every target of fuzz/ for ${FUZZ_SECONDS:-10}s"
# Needs a nightly toolchain (libFuzzer's instrumentation); cargo-fuzz itself comes from
# crates.io, pinned, into ~/.cargo/bin, and the fuzz build into a target directory under
# ~/.cache: both stay for later runs on a machine that keeps them. Measured on the 2-core
# machine under a load average of 5-6: the install 2 min (once), the build 4 min cold,
# the seven runs 80 s; a later run 1.5 min.
if cargo +nightly --version >/dev/null 2>&1; then
  if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "installing cargo-fuzz 0.13.2 from crates.io (once; kept in ~/.cargo/bin)"
    cargo install --locked cargo-fuzz --version 0.13.2
  fi
  fuzz_target_dir="${RANGEREAD_FUZZ_TARGET_DIR:-$HOME/.cache/rangeread/fuzz-target}"
  mkdir -p "$fuzz_target_dir"
  targets=$(cd fuzz && cargo +nightly fuzz list)
  [ -n "$targets" ] || { echo "no fuzz target found" >&2; exit 1; }
  ran=0
  for target in $targets; do
    (cd fuzz && cargo +nightly fuzz run --target-dir "$fuzz_target_dir" "$target" -- \
      -max_total_time="${FUZZ_SECONDS:-10}" -rss_limit_mb=2048)
    ran=$((ran + 1))
  done
  echo "fuzz smoke: $ran targets ran, 0 crashed"
else
  echo "fuzz smoke skipped: needs a nightly toolchain (rustup toolchain install nightly)"
fi
