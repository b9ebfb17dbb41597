#!/usr/bin/env python3
"""The first deep read in a fresh process on every core: 250 lines at 90% of a 1 GiB
file with `read --threads 1`, with the default threads (the host's cores), and `wc -l`
on the same file, alternating, whole process each.

    cargo build --release --example read
    scripts/bench_first_count.py [--runs N] [--big FILE]

FILE defaults to /work/bench-data/lines-1g.txt when present, else
bench-data/lines-1073741824.txt (generated with benches/gen_lines.py when missing).
The page cache is warmed first. Prints, for each command, the median, min and max
wall-clock time and the median user+system CPU time, the ratios (default threads
against `wc -l`, and the speed-up of the default over one thread), and the load
average before and after.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcp_common import GIB, REPO, line_starts, warm  # noqa: E402


def timed(argv):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return wall * 1000, cpu * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=11)
    default_big = "/work/bench-data/lines-1g.txt"
    if not os.path.exists(default_big):
        default_big = os.path.join(REPO, "bench-data", f"lines-{GIB}.txt")
    ap.add_argument("--big", default=default_big)
    a = ap.parse_args()
    read = os.path.join(REPO, "target", "release", "examples", "read")
    if not os.path.exists(read):
        sys.exit("build the example first: cargo build --release --example read")
    if not os.path.exists(a.big):
        os.makedirs(os.path.dirname(a.big), exist_ok=True)
        subprocess.run([sys.executable, os.path.join(REPO, "benches", "gen_lines.py"), a.big, str(GIB)],
                       check=True)
    warm(a.big)
    total, _ = line_starts(a.big, [])
    deep = int(total * 0.9)
    lines = f"{deep}:{deep + 249}"
    cmds = {
        "read --threads 1": [read, "--threads", "1", "--lines", lines, a.big],
        "read (default threads)": [read, "--lines", lines, a.big],
        "wc -l": ["wc", "-l", a.big],
    }
    wall = {k: [] for k in cmds}
    cpu = {k: [] for k in cmds}
    load0 = os.getloadavg()
    names = list(cmds)
    for i in range(a.runs):
        for name in names[i % 3:] + names[: i % 3]:
            w, c = timed(cmds[name])
            wall[name].append(w)
            cpu[name].append(c)
    load1 = os.getloadavg()
    print(f"file: {a.big} ({total} lines), lines {lines}; {a.runs} alternating runs; "
          f"{os.cpu_count()} CPUs; load average {load0[0]:.2f} before, {load1[0]:.2f} after")
    print("| command | median wall | min | max | median CPU (user+sys) |")
    print("|---|---:|---:|---:|---:|")
    for name in names:
        xs = wall[name]
        print(f"| `{name}` | {statistics.median(xs):.0f} ms | {min(xs):.0f} ms | {max(xs):.0f} ms "
              f"| {statistics.median(cpu[name]):.0f} ms |")
    m = {k: statistics.median(v) for k, v in wall.items()}
    print(f"default / wc -l: {m['read (default threads)'] / m['wc -l']:.2f}x; "
          f"one thread / default (speed-up): {m['read --threads 1'] / m['read (default threads)']:.2f}x; "
          f"one thread / wc -l: {m['read --threads 1'] / m['wc -l']:.2f}x")
    # Per-run ratios: each run's three commands ran back to back.
    per_run = sorted(wall["read (default threads)"][i] / wall["wc -l"][i] for i in range(a.runs))
    speed = sorted(wall["read --threads 1"][i] / wall["read (default threads)"][i] for i in range(a.runs))
    print(f"per run, default / wc -l: {per_run[0]:.2f}-{per_run[-1]:.2f}x (median "
          f"{statistics.median(per_run):.2f}); speed-up: {speed[0]:.2f}-{speed[-1]:.2f}x (median "
          f"{statistics.median(speed):.2f})")


if __name__ == "__main__":
    main()
