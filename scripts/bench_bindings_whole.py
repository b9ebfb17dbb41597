#!/usr/bin/env python3
"""A whole small file through each binding against the language's own read, side by side
in one run: the numbers docs/performance.md records for issue 44.

    python3 scripts/bench_bindings_whole.py [--runs 5] [--rounds 9] [--calls 1000]
        [--python target/bindings-venv-python/bin/python] [--node node]

Runs `node benches/node/whole.mjs ROUNDS CALLS --json` (rangeread's
`reader.read(p).content` against `fs.readFileSync(p, 'utf8')`) and
`PYTHON benches/python/whole.py --rounds ROUNDS --calls CALLS --json`
(`reader.read(p).content` against `open(p, encoding='utf-8').read()`) one after the
other, RUNS times each, alternating, on files of 4 KiB, 64 KiB and 1 MiB. Each run
alternates the two ways ROUNDS times (CALLS calls each) and gives the median ratio
rangeread / the language; printed: for each binding and size the median of the runs'
ratios, their range, the median times of a call, and the load average before and after
(the machine may be shared: ratios measured in one run are what to compare).

Needs the Node addon built (`cd bindings/node && npm run build`) and a Python with the
extension installed (bash bindings/python/ci.sh builds one into
target/bindings-venv-python, the default here).
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd):
    out = subprocess.run(cmd, cwd=REPO, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def cpu():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=9)
    # Rounds of 50 or 200 calls of a 4 KiB read mostly time the collector's pauses (one
    # ranged 0.38-3.36x between rounds); 1,000 calls a round give steady ratios.
    ap.add_argument("--calls", type=int, default=1000)
    ap.add_argument("--python", default=os.path.join(REPO, "target", "bindings-venv-python", "bin", "python"))
    ap.add_argument("--node", default="node")
    a = ap.parse_args()
    if not os.path.exists(a.python):
        sys.exit(f"--python {a.python} does not exist: build the extension with "
                 "`bash bindings/python/ci.sh` or pass --python PYTHON with rangeread installed")
    node = [a.node, "benches/node/whole.mjs", str(a.rounds), str(a.calls), "--json"]
    python = [a.python, "benches/python/whole.py", "--rounds", str(a.rounds),
              "--calls", str(a.calls), "--json"]
    versions = {
        "node": subprocess.run([a.node, "--version"], capture_output=True, text=True).stdout.strip(),
        "python": subprocess.run([a.python, "-c", "import sys; print(sys.version.split()[0])"],
                                 capture_output=True, text=True).stdout.strip(),
    }
    print(f"{os.cpu_count()} CPUs ({cpu()}), {platform.system()} {platform.release()}; "
          f"Node {versions['node']}, Python {versions['python']}")
    print(f"{a.runs} runs of each binding, alternating; each run {a.rounds} rounds of "
          f"{a.calls} calls, alternating with the language's own read\n")
    reports = {"node": [], "python": []}
    loads = []
    for i in range(a.runs):
        order = [("node", node), ("python", python)]
        for name, cmd in order if i % 2 == 0 else order[::-1]:
            r = run(cmd)
            reports[name].append(r)
            loads += [r["load_before"], r["load_after"]]
            print(f"run {i + 1} {name}: " + ", ".join(
                f"{s['name']} {s['ratio']:.2f}x" for s in r["sizes"]) +
                f" (load {r['load_before']:.2f})", flush=True)
    own = {"node": "readFileSync(p, 'utf8')", "python": "open(p, encoding='utf-8').read()"}
    print(f"\nload average {min(loads):.2f}-{max(loads):.2f}\n")
    print("| binding | whole file | rangeread / own read: median of runs (runs' range) "
          "| rangeread | own read |")
    print("|---|---|---|---:|---:|")
    for name in ("node", "python"):
        sizes = [s["name"] for s in reports[name][0]["sizes"]]
        for k, size in enumerate(sizes):
            ratios = [r["sizes"][k]["ratio"] for r in reports[name]]
            ours = statistics.median(r["sizes"][k]["ours_us"] for r in reports[name])
            theirs = statistics.median(r["sizes"][k]["theirs_us"] for r in reports[name])
            us = lambda x: f"{x / 1000:.2f} ms" if x >= 1000 else f"{x:.1f} us"  # noqa: E731
            print(f"| {name} vs `{own[name]}` | {size} | {statistics.median(ratios):.2f}x "
                  f"({min(ratios):.2f}-{max(ratios):.2f}x) | {us(ours)} | {us(theirs)} |")


if __name__ == "__main__":
    main()
