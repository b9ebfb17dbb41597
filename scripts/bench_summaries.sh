#!/usr/bin/env bash
# Whole-process cost of omitted-content summaries: a 250-line read at 90% of a large file
# with summaries on (the default) and off (`--no-summaries`), through the release `read`
# example, in alternating runs; prints the median wall time of each and the ratio.
#
# Usage: scripts/bench_summaries.sh FILE [RUNS] [-- EXTRA READ FLAGS]
# Example (the issue's target): a 1 GiB file of real Rust sources, generated with
#   mkdir -p bench-data && find ~/.cargo/registry/src -name '*.rs' -size -200k | sort |
#     head -3000 | xargs cat > bench-data/seed.rs  (then repeat it up to 1 GiB)
#   scripts/bench_summaries.sh bench-data/big.rs 21
# The file is read once before timing, so runs measure a warm page cache.
set -euo pipefail
cd "$(dirname "$0")/.."

FILE=${1:?usage: scripts/bench_summaries.sh FILE [RUNS] [-- FLAGS]}
RUNS=${2:-21}
shift $(( $# >= 2 ? 2 : 1 ))
[ "${1:-}" = "--" ] && shift
EXTRA=("$@")

cargo build --release --example read >&2
READ=target/release/examples/read

FILE=$FILE RUNS=$RUNS READ=$READ python3 - "${EXTRA[@]}" <<'PY'
import os, statistics, subprocess, sys, time

path, runs, read = os.environ["FILE"], int(os.environ["RUNS"]), os.environ["READ"]
extra = sys.argv[1:]
with open(path, "rb") as f:
    total = 0
    while True:
        b = f.read(1 << 24)
        if not b:
            break
        total += b.count(b"\n")
start = int(total * 0.9)
base = [read, "--lines", f"{start}:+249", *extra, path]
cmds = {"on": base, "off": base[:1] + ["--no-summaries"] + base[1:]}
print(f"file: {path} ({os.path.getsize(path)} bytes, {total} lines); read lines {start}-{start + 249}")
for name, cmd in cmds.items():
    print(f"{name:>3}: {' '.join(cmd)}")
# Warm up (page cache, binary).
for cmd in cmds.values():
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
times = {"on": [], "off": []}
for i in range(runs):
    order = ["on", "off"] if i % 2 == 0 else ["off", "on"]
    for name in order:
        t = time.perf_counter()
        subprocess.run(cmds[name], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times[name].append(time.perf_counter() - t)
on, off = statistics.median(times["on"]), statistics.median(times["off"])
print(f"runs: {runs} each, alternating")
print(f"median on:  {on * 1000:.1f} ms (min {min(times['on']) * 1000:.1f})")
print(f"median off: {off * 1000:.1f} ms (min {min(times['off']) * 1000:.1f})")
print(f"ratio on/off: {on / off:.3f}")
PY
