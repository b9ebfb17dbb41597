#!/usr/bin/env python3
"""Whole-process timings of the `read` example against coreutils on one large file.

Runs each pair alternately (ours, theirs, ours, theirs ...) with a warm page cache and
reports the median wall time of each, their ratio, and each side's peak RSS.

usage: compare.py FILE READ_BINARY [RUNS]
"""
import os
import statistics
import subprocess
import sys
import time


def run(cmd):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"command failed: {' '.join(cmd)}")
    return dt


def peak_rss_kib(cmd):
    """Peak RSS of `cmd` alone, by GNU time (a child's rusage from Python would include
    the parent's memory shared before exec)."""
    if not os.path.exists("/usr/bin/time"):
        return -1  # GNU time (Debian package `time`) is not installed
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    return int(p.stderr.strip().splitlines()[-1])


def count_lines(path):
    out = subprocess.run(["wc", "-l", path], capture_output=True, text=True, check=True)
    return int(out.stdout.split()[0])


def main():
    path, exe = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 11
    size = os.path.getsize(path)
    total = count_lines(path)
    deep = int(total * 0.9)
    s1, s50, s99 = size // 100, size // 2, size * 99 // 100
    cases = [
        ("250 lines at 90% (no index) vs wc -l",
         [exe, "--lines", f"{deep}:{deep + 249}", path], ["wc", "-l", path], 1.5),
        ("250 lines at 90%, numbered (counts all lines) vs wc -l",
         [exe, "--lines", f"{deep}:{deep + 249}", "--format", "cat-n", path], ["wc", "-l", path], None),
        ("--tail 250 vs tail -n 250",
         [exe, "--tail", "250", path], ["tail", "-n", "250", path], 3.0),
        ("--head 250 vs head -n 250",
         [exe, "--head", "250", path], ["head", "-n", "250", path], 3.0),
    ]
    for label, s in [("1%", s1), ("50%", s50), ("99%", s99)]:
        cases.append((f"64 KiB at {label} vs dd",
                      [exe, "--bytes", f"{s}:{s + 65536}", "--max-bytes", "0", path],
                      ["dd", f"if={path}", "of=/dev/null", "bs=65536", "iflag=skip_bytes",
                       f"skip={s}", "count=1", "status=none"], 3.0))
    # Warm the page cache.
    subprocess.run(["cat", path], stdout=subprocess.DEVNULL, check=True)
    print(f"file: {path}, {size / 2**30:.2f} GiB, {total} lines; {runs} alternating runs each")
    print(f"{'case':58} {'ours ms':>9} {'theirs ms':>10} {'ratio':>6} {'target':>7} {'RSS KiB':>8} {'their RSS':>9}")
    for label, ours, theirs, target in cases:
        a, b = [], []
        for _ in range(runs):
            a.append(run(ours))
            b.append(run(theirs))
        ma, mb = statistics.median(a), statistics.median(b)
        tgt = f"<={target}x" if target else "-"
        ra, rb = peak_rss_kib(ours), peak_rss_kib(theirs)
        print(f"{label:58} {ma * 1e3:9.2f} {mb * 1e3:10.2f} {ma / mb:6.2f} {tgt:>7} {ra:8d} {rb:9d}", flush=True)


if __name__ == "__main__":
    main()
