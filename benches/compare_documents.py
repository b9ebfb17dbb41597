#!/usr/bin/env python3
"""Median wall time and peak RSS of the `read` example against pdftotext, mutool and jq.

usage: compare_documents.py READ_BINARY PDF NOTEBOOK [RUNS] [BIG_PDF]

PDF is R's 2,415-page reference manual: its pages 1, 1000 and 2415 (the last) are read,
and its overview (no page selection) against `mutool show PDF outline`;
BIG_PDF, when given, is a PDF over 300 MiB (tests/documents/setup.sh --big) whose page 5
is read. Each page is then read again with `--index-dir` (a new directory, where one read
of the page before timing left what it learned): a second process's read of the page.
With MCP_SERVER=PATH (the release `rangeread-mcp`), page 1000 is also read through one
`read_file` call of a fresh server each run: the call's time, and the server's peak RSS
after it.

Each pair runs alternately (ours, theirs, ...) with a warm page cache; both sides print
to /dev/null, and a side that exits with an error stops the run. What each side prints is
not compared here (tests/documents_pdf.rs compares the PDF text with pdftotext's and the
outline with mutool's).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from compare import peak_rss_kib, run  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts"))


def mcp_page(server, pdf, page):
    """(seconds of one read_file call for `page`, the server's peak RSS in KiB)."""
    from mcp_common import Raw  # noqa: E402 (scripts/: a JSON-RPC client over stdio)
    pdf = os.path.realpath(pdf)  # the fixtures are links out of their directory
    raw = Raw([server, "--root", os.path.dirname(pdf)])
    try:
        dt, line, resp = raw.call("read_file", {"path": os.path.basename(pdf), "pages": str(page)})
        text = json.dumps(resp)
        if f"page {page}" not in text or resp.get("result", {}).get("isError"):
            sys.exit(f"read_file pages={page}: unexpected answer {text[:300]}")
        return dt, raw.hwm_kib()
    finally:
        raw.close()


def main():
    exe, pdf, nb = sys.argv[1:4]
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 11
    big = sys.argv[5] if len(sys.argv) > 5 else None
    ncells = int(subprocess.run(["jq", ".cells | length", nb], capture_output=True, text=True,
                                check=True).stdout)
    a = ncells // 2
    pages = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True, check=True).stdout
    last = int(next(l for l in pages.splitlines() if l.startswith("Pages:")).split()[1])
    cases = [
        (f"PDF page {n} of {last:,} vs pdftotext -f {n} -l {n}",
         [exe, "--pages", str(n), pdf], ["pdftotext", "-f", str(n), "-l", str(n), pdf, "-"])
        for n in (1, 1000, last)
    ]
    cases.append(("PDF overview (count, title, 1,426 bookmarks, every page's size, pages "
                  "until the budget) vs mutool show outline",
                  [exe, pdf], ["mutool", "show", pdf, "outline"]))
    if big:
        mib = os.path.getsize(big) / (1 << 20)
        cases.append((f"PDF page 5 of a {mib:.0f} MiB file vs pdftotext -f 5 -l 5",
                      [exe, "--pages", "5", big], ["pdftotext", "-f", "5", "-l", "5", big, "-"]))
    # The same pages read again by a new process with --index-dir, after one read of each
    # left what it learned there (the cross-reference data, the page's object).
    index = tempfile.mkdtemp(prefix="rangeread-pdf-index-")
    for label, ours, theirs in list(cases):
        again = ours[:1] + ["--index-dir", index] + ours[1:]
        subprocess.run(again, stdout=subprocess.DEVNULL, check=True)
        cases.append((label.replace("PDF ", "PDF, second read with --index-dir: ", 1),
                      again, theirs))
    cases += [
        (f"notebook cells {a}-{a + 9} of {ncells} (100 MB) vs jq '.cells[{a}:{a + 10}]'",
         [exe, "--cells", f"{a}-{a + 9}", nb], ["jq", f".cells[{a}:{a + 10}]", nb]),
        (f"notebook last cell ({ncells - 1}) vs jq '.cells[-1]'",
         [exe, "--cells", str(ncells - 1), nb], ["jq", ".cells[-1]", nb]),
    ]
    print(f"{'case':<72} {'ours':>9} {'theirs':>9} {'ratio':>6} {'RSS ours':>10} "
          f"{'RSS theirs':>11} {'ratio':>6}")
    for label, ours, theirs in cases:
        to, tt = [], []
        for _ in range(runs):
            to.append(run(ours))
            tt.append(run(theirs))
        mo, mt = statistics.median(to), statistics.median(tt)
        ro, rt = peak_rss_kib(ours) / 1024, peak_rss_kib(theirs) / 1024
        print(f"{label:<72} {mo * 1000:8.1f}ms {mt * 1000:8.1f}ms {mo / mt:6.2f} "
              f"{ro:8.1f}MiB {rt:9.1f}MiB {ro / rt:6.2f}")
    server = os.environ.get("MCP_SERVER")
    if server:
        calls, hwm = [], 0
        tt = []
        for _ in range(runs):
            dt, kib = mcp_page(server, pdf, 1000)
            calls.append(dt)
            hwm = max(hwm, kib)
            tt.append(run(["pdftotext", "-f", "1000", "-l", "1000", pdf, "-"]))
        mo, mt = statistics.median(calls), statistics.median(tt)
        rt = peak_rss_kib(["pdftotext", "-f", "1000", "-l", "1000", pdf, "-"]) / 1024
        label = "MCP read_file pages=1000 (one call, fresh server) vs pdftotext -f 1000 -l 1000"
        print(f"{label:<72} {mo * 1000:8.1f}ms {mt * 1000:8.1f}ms {mo / mt:6.2f} "
              f"{hwm / 1024:8.1f}MiB {rt:9.1f}MiB {hwm / 1024 / rt:6.2f}")
    print(f"runs {runs}, load average {' '.join(open('/proc/loadavg').read().split()[:3])}, "
          f"{os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
