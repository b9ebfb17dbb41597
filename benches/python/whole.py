#!/usr/bin/env python3
"""A whole small file through the binding against Python's own read, in one process.

    python benches/python/whole.py [--rounds 7] [--calls 50] [--json]

`rangeread.Reader(max_lines=0, max_bytes=0).read(p).content` (the file classified,
checked against the budgets, its lines counted) against
`open(p, encoding='utf-8').read()`, on files of 4 KiB, 64 KiB and 1 MiB of source-like
ASCII lines, and on 4 KiB files each read once (a host reading files it has not read
before: no cache of ours holds them): the two ways alternate, ROUNDS rounds of CALLS
calls each, and each prints
the median time of a call and the ratio rangeread / Python, with the load average (the
machine may be shared: the ratio is what to compare). Needs the binding installed in
this interpreter (bash bindings/python/ci.sh builds one into target/bindings-venv-python).
--json prints one JSON line instead of the table (scripts/bench_bindings_whole.py runs it
so).
"""

import argparse
import json
import os
import statistics
import tempfile
import time

import rangeread


def text(size):
    line = b"    let value = compute(input, &options).unwrap_or_default(); // why\n"
    out = line * (size // len(line))
    return out + b" " * (size - len(out) - 1) + b"\n"


def per_call(f, path, calls):
    t = time.perf_counter()
    for _ in range(calls):
        f(path)
    return (time.perf_counter() - t) / calls


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--calls", type=int, default=50)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    say = (lambda *_: None) if a.json else print
    report = {"binding": "python", "load_before": os.getloadavg()[0], "rounds": a.rounds,
              "calls": a.calls, "sizes": []}
    reader = rangeread.Reader(max_lines=0, max_bytes=0)

    def ours(p):
        return reader.read(p).content

    def python(p):
        with open(p, encoding="utf-8") as f:
            return f.read()

    def measure(name, time_of):
        """Alternates the two ways ROUNDS times, `time_of(f, r, key)` timing a round's calls
        (seconds a call), and reports the medians."""
        t = {"ours": [], "python": []}
        for r in range(a.rounds):
            order = [("ours", ours), ("python", python)]
            for key, f in order if r % 2 == 0 else order[::-1]:
                t[key].append(time_of(f, r, key))
        mo, mp = statistics.median(t["ours"]), statistics.median(t["python"])
        ratios = [o / q for o, q in zip(t["ours"], t["python"])]
        say(f"| {name} | {mo * 1e6:.1f} us | {mp * 1e6:.1f} us | {mo / mp:.2f}x "
            f"(rounds {min(ratios):.2f}-{max(ratios):.2f}x) |")
        report["sizes"].append({"name": name, "ours_us": mo * 1e6, "theirs_us": mp * 1e6,
                                "ratio": mo / mp, "rounds": ratios})

    load = os.getloadavg()[0]
    say(f"load average {load:.2f}; {a.rounds} rounds of {a.calls} calls, alternating; medians\n")
    say("| whole file | rangeread | open().read() | ratio |")
    say("|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as d:
        for size, name in [(4 << 10, "4 KiB"), (64 << 10, "64 KiB"), (1 << 20, "1 MiB")]:
            p = os.path.join(d, f"whole-{size}.txt")
            with open(p, "wb") as f:
                f.write(text(size))
            assert ours(p) == python(p)
            measure(name, lambda f, r, key: per_call(f, p, a.calls))
        # Files neither way read before: each (round, way) its own CALLS files.
        fresh = {}
        for r in range(a.rounds):
            for key in ("ours", "python"):
                fresh[r, key] = [os.path.join(d, f"new-{r}-{key}-{i}.txt") for i in range(a.calls)]
                for q in fresh[r, key]:
                    with open(q, "wb") as f:
                        f.write(text(4 << 10)[:-9] + b"%08d\n" % len(q))

        def each_new(f, r, key):
            start = time.perf_counter()
            for q in fresh[r, key]:
                f(q)
            return (time.perf_counter() - start) / a.calls

        measure("4 KiB, each file new", each_new)
    say(f"\nload average after {os.getloadavg()[0]:.2f}")
    report["load_after"] = os.getloadavg()[0]
    if a.json:
        print(json.dumps(report))


if __name__ == "__main__":
    main()
