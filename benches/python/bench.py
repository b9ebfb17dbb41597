#!/usr/bin/env python3
"""The Python binding against each way Python code usually reads a part of a file, side
by side in one run, on the same files (numbers in docs/performance.md).

usage: benches/python/bench.py [--size-gib 1] [--rounds 5]
Needs: the binding installed in this interpreter (bash bindings/python/ci.sh builds one
into target/bindings-venv-python), benches/gen_lines.py, and for the OpenHands row the
`openhands-aci` package (pip install openhands-aci; the row says so when it is missing).

Each measurement runs in a fresh process (whole-process wall time and peak RSS, median of
--rounds alternating runs); `call` is the time of the read itself inside that process.
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "bench-data"


def one(name: str, path: str, arg: str) -> None:
    """Runs one measurement in this process and prints {call_s, lines}: the call alone,
    after the imports (the whole-process wall time counts them)."""
    if name.startswith("rangeread"):
        import rangeread  # noqa: F401
    elif name.startswith("openhands"):
        import openhands_aci.editor.editor  # noqa: F401
    started = time.perf_counter()
    n = 0
    if name == "rangeread_deep":
        import rangeread as rr

        start = int(arg)
        r = rr.Reader(summaries=False).read(path, lines=f"{start}:+249")
        n = r.content.count("\n")
    elif name == "islice_deep":
        import itertools

        start = int(arg)
        with open(path, encoding="utf-8", errors="replace") as f:
            n = len(list(itertools.islice(f, start - 1, start + 249)))
    elif name == "linecache_deep":
        import linecache

        start = int(arg)
        n = sum(1 for i in range(start, start + 250) if linecache.getline(path, i))
    elif name == "rangeread_tail":
        import rangeread as rr

        n = rr.Reader(summaries=False).read(path, tail=250).content.count("\n")
    elif name == "rangeread_tail_if_known":
        import rangeread as rr

        r = rr.Reader(summaries=False, totals="if_known").read(path, tail=250)
        n = r.content.count("\n")
    elif name == "deque_tail":
        import collections

        with open(path, encoding="utf-8", errors="replace") as f:
            n = len(collections.deque(f, maxlen=250))
    elif name == "rangeread_whole":
        import rangeread as rr

        n = len(rr.Reader(max_lines=0, max_bytes=0, max_line_chars=0, summaries=False).read(path).content)
    elif name == "open_read_whole":
        with open(path, encoding="utf-8", errors="replace") as f:
            n = len(f.read())
    elif name == "rangeread_openhands":
        import rangeread as rr

        start = int(arg)
        r = rr.DialectTool("openhands").respond(
            {"command": "view", "path": path, "view_range": [start, start + 249]}
        )
        n = -1 if r.is_error else r.text.count("\n")
    elif name == "openhands_aci_view":
        from openhands_aci.editor.editor import OHEditor

        start = int(arg)
        try:
            out = OHEditor()(command="view", path=path, view_range=[start, start + 249])
            n = getattr(out, "output", str(out)).count("\n")
        except Exception as e:  # the tool's own refusal is its answer
            n = -1
            print(f"openhands-aci: {type(e).__name__}: {str(e)[:120]}", file=sys.stderr)
    else:
        raise SystemExit(f"unknown measurement {name}")
    call = time.perf_counter() - started
    print(json.dumps({"call_s": call, "n": n}))


def measure(name: str, path: Path, arg: str):
    started = time.perf_counter()
    p = subprocess.run(
        [sys.executable, __file__, "--one", name, str(path), arg],
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - started
    if p.returncode != 0:
        return {"error": p.stderr.strip().splitlines()[-1] if p.stderr.strip() else f"exit {p.returncode}"}
    out = json.loads(p.stdout.strip().splitlines()[-1])
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return {"wall_s": wall, "call_s": out["call_s"], "n": out["n"], "children_max_rss_kib": rss}


def peak_rss_kib(name: str, path: Path, arg: str) -> int:
    """Peak RSS of one run, by GNU time (the children's maximum is cumulative)."""
    p = subprocess.run(
        ["/usr/bin/time", "-f", "%M", sys.executable, __file__, "--one", name, str(path), arg],
        capture_output=True,
        text=True,
    )
    return int(p.stderr.strip().splitlines()[-1]) if p.returncode == 0 else -1


def per_call_overhead(sample: Path, reps: int = 20000):
    import rangeread as rr

    reader = rr.Reader()
    reader.read(sample, lines="20:+2")
    started = time.perf_counter()
    for _ in range(reps):
        reader.read(sample, lines="20:+2").content
    py_ns = (time.perf_counter() - started) / reps * 1e9
    rust = subprocess.run(
        ["cargo", "run", "-q", "--profile", "bindings", "-p", "rangeread-bindings", "--example", "percall", "--",
         str(sample), "20:+2", str(reps)],
        cwd=REPO, capture_output=True, text=True, check=True,
    )
    rust_ns = json.loads(rust.stdout)["ns_per_call"]
    return py_ns, rust_ns


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--one", nargs=3)
    ap.add_argument("--size-gib", type=float, default=1.0)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    if a.one:
        return one(*a.one)
    DATA.mkdir(exist_ok=True)
    size = int(a.size_gib * (1 << 30))
    big = DATA / f"lines-{size}.txt"
    if not big.exists() or big.stat().st_size != size:
        subprocess.run([sys.executable, REPO / "benches/gen_lines.py", big, str(size)], check=True)
    mib = DATA / "lines-1MiB.txt"
    if not mib.exists():
        subprocess.run([sys.executable, REPO / "benches/gen_lines.py", mib, str(1 << 20)], check=True)
    nine = DATA / "lines-9MiB.txt"
    if not nine.exists():
        subprocess.run([sys.executable, REPO / "benches/gen_lines.py", nine, str(9 << 20)], check=True)
    total = int(subprocess.run(["wc", "-l", str(big)], capture_output=True, text=True).stdout.split()[0])
    deep = total * 9 // 10
    nine_deep = int(subprocess.run(["wc", "-l", str(nine)], capture_output=True, text=True).stdout.split()[0]) * 9 // 10
    pairs = [
        ("deep 250 lines at 90%", big, str(deep), ["rangeread_deep", "islice_deep", "linecache_deep"]),
        ("tail 250 lines", big, "", ["rangeread_tail", "rangeread_tail_if_known", "deque_tail"]),
        ("whole 1 MiB file", mib, "", ["rangeread_whole", "open_read_whole"]),
        ("openhands view, 250 lines at 90% of 1 GiB", big, str(deep), ["rangeread_openhands", "openhands_aci_view"]),
        ("openhands view, 250 lines at 90% of 9 MiB", nine, str(nine_deep), ["rangeread_openhands", "openhands_aci_view"]),
    ]
    # Warm the page cache once: every row reads from memory.
    subprocess.run(["cat", str(big)], stdout=subprocess.DEVNULL, check=True)
    report = {"file_bytes": size, "file_lines": total, "rounds": a.rounds, "rows": []}
    for title, path, arg, names in pairs:
        runs = {n: [] for n in names}
        for _ in range(a.rounds):
            for n in names:
                runs[n].append(measure(n, path, arg))
        row = {"what": title}
        for n in names:
            ok = [r for r in runs[n] if "error" not in r]
            if not ok:
                row[n] = {"error": runs[n][0]["error"]}
                continue
            row[n] = {
                "wall_s": round(statistics.median(r["wall_s"] for r in ok), 4),
                "call_s": round(statistics.median(r["call_s"] for r in ok), 5),
                "lines": ok[0]["n"],
                "peak_rss_mib": round(peak_rss_kib(n, path, arg) / 1024, 1),
            }
        print(json.dumps(row), flush=True)
        report["rows"].append(row)
    py_ns, rust_ns = per_call_overhead(REPO / "tests/data/sample.txt")
    report["per_call"] = {"python_ns": round(py_ns), "rust_ns": rust_ns, "overhead_ns": round(py_ns - rust_ns)}
    print(json.dumps(report["per_call"]))
    import rangeread as rr

    kept = rr.Reader(summaries=False)
    kept.read(big, lines=f"{deep}:+249")
    started = time.perf_counter()
    kept.read(big, lines=f"{deep - 1000}:+249")
    print(json.dumps({"deep 250 lines again, same Reader (its index kept)": {"call_s": round(time.perf_counter() - started, 6)}}))


if __name__ == "__main__":
    main()
