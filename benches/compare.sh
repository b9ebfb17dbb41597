#!/usr/bin/env bash
# Generates a 1 GiB file of realistic source lines (once, under bench-data/) and times
# the release `read` example, whole process, against wc, head, tail and dd.
#
# usage: benches/compare.sh [SIZE_BYTES] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-1073741824}
runs=${2:-11}
mkdir -p bench-data
file=bench-data/lines-$size.txt
if [ ! -f "$file" ] || [ "$(stat -c %s "$file")" != "$size" ]; then
  echo "generating $file ..."
  python3 benches/gen_lines.py "$file" "$size"
fi
cargo build --release --example read -q
python3 benches/compare.py "$file" target/release/examples/read "$runs"
