#!/usr/bin/env python3
"""Our MCP server against the two peer file servers, call by call, on one 1 GiB file.

    scripts/peers.sh                       # builds the peers and our server (once)
    target/mcp-client-venv/bin/python scripts/bench_peers.py [--runs N] [--slow-runs M]
        [--big FILE] [--root DIR] [--peers DIR] [--mode sdk,raw]

Servers (scripts/peers.sh builds them into target/peers):
- ours: target/release/rangeread-mcp --root ROOT --max-lines 0 --max-bytes 2097152 (the line
  budget off and a 2 MiB byte budget, so that the whole 1 MiB file comes back whole, as
  from the peers; the 250-line reads are the same with the default budgets);
- node: `@modelcontextprotocol/server-filesystem` (node dist/index.js ROOT);
- rust: `rust-mcp-filesystem` (rust-mcp-filesystem ROOT).

Calls, each in the server's own tool (ours: read_file; node: read_text_file with
head/tail; rust: head_file, tail_file, read_file_lines, read_text_file):
- binary: a 35 KB ELF file (ours refuses it; rust fails on invalid UTF-8; node returns
  it decoded as text);
- head 250, tail 250;
- deep 250: 250 lines at 90% of the file, on a fresh server (first) and again on the same
  server (repeated; ours has the line index cached then). Node has no line ranges: n/a;
- whole: the whole 1 MiB file.

Each case runs N times (M for a case whose first run took over a second), the servers
interleaved in a rotating order, and reports medians: through the official Python MCP
SDK (`mcp.Client`, client side, as a host sees it) and over raw JSON-RPC lines on stdio
(the protocol floor); for raw JSON-RPC also the server's CPU time per call (the sum over
its threads of /proc/PID/task/*/schedstat, at nanosecond resolution, read 2 ms after the
answer arrived so that what a server does after writing counts too), its minor page
faults per call, the bytes of the answer line and the server's peak RSS (VmHWM). Page cache is warmed first.
"""

import argparse
import contextlib
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcp_common import BIG, BINARY, REPO, SMALL, Raw, line_starts, prepare_root, warm  # noqa: E402

CASES = ["binary", "head 250", "tail 250", "deep 250 first", "deep 250 repeated", "whole 1 MiB"]


def servers(root, peers):
    node = os.path.join(peers, "node", "node_modules", "@modelcontextprotocol",
                        "server-filesystem", "dist", "index.js")
    rust = os.path.join(peers, "rust-mcp-filesystem", "bin", "rust-mcp-filesystem")
    ours = os.path.join(REPO, "target", "release", "rangeread-mcp")
    for path, what in [(ours, "cargo build --release -p rangeread-mcp-server"),
                       (node, "scripts/peers.sh"), (rust, "scripts/peers.sh")]:
        if not os.path.exists(path):
            sys.exit(f"{path} is missing: run {what}")
    # Every server runs in the root: rust-mcp-filesystem resolves relative paths against
    # its working directory.
    return {
        "cwd": root,
        "ours": [ours, "--root", root, "--max-lines", "0", "--max-bytes", str(2 << 20)],
        "node": ["node", node, root],
        "rust": [rust, root],
    }


def call_of(server, case, deep):
    """(tool, arguments) of a case for a server; None when the server cannot do it."""
    if case == "binary":
        return {"ours": ("read_file", {"path": BINARY}),
                "node": ("read_text_file", {"path": BINARY}),
                "rust": ("read_text_file", {"path": BINARY})}[server]
    if case == "head 250":
        return {"ours": ("read_file", {"path": BIG, "head": 250}),
                "node": ("read_text_file", {"path": BIG, "head": 250}),
                "rust": ("head_file", {"path": BIG, "lines": 250})}[server]
    if case == "tail 250":
        return {"ours": ("read_file", {"path": BIG, "tail": 250}),
                "node": ("read_text_file", {"path": BIG, "tail": 250}),
                "rust": ("tail_file", {"path": BIG, "lines": 250})}[server]
    if case.startswith("deep"):
        return {"ours": ("read_file", {"path": BIG, "start_line": deep, "end_line": deep + 249}),
                "node": None,
                "rust": ("read_file_lines", {"path": BIG, "offset": deep - 1, "limit": 250})}[server]
    if case == "whole 1 MiB":
        return {"ours": ("read_file", {"path": SMALL}),
                "node": ("read_text_file", {"path": SMALL}),
                "rust": ("read_text_file", {"path": SMALL})}[server]
    raise ValueError(case)


def cpu_ns(pid):
    """CPU time of a process so far, in ns: (the sum over its live threads, at nanosecond
    resolution; the process's own count, in clock ticks, which keeps the time of threads
    that have exited, such as our parallel counting threads)."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = (int(fields[11]) + int(fields[12])) * 1e9 / os.sysconf("SC_CLK_TCK")
    return total, ticks


def minflt(pid):
    """Minor page faults of a process so far (fresh pages the kernel had to map in)."""
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[7])


# After an answer arrives, the server may still be freeing or recycling what it sent: the
# CPU reading waits this long, so that such work counts for every server.
SETTLE_S = 0.002


def cpu_ms(before, after):
    """CPU time between two cpu_ns readings, in ms: the fine count, unless threads that
    exited in between make the coarse one clearly larger."""
    fine = (after[0] - before[0]) / 1e6
    coarse = (after[1] - before[1]) / 1e6
    return coarse if coarse > fine + 20 else fine


def text_of(result):
    """The text of the first content block (raw JSON-RPC result)."""
    c = result.get("content") or [{}]
    return c[0].get("text", "")


def line_count(text):
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


class Samples:
    def __init__(self):
        self.t = {}      # (mode, server, case) -> [ms]
        self.cpu = {}    # (server, case) -> [ms]
        self.bytes = {}  # (server, case) -> bytes of the answer line
        self.lines = {}  # (server, case) -> lines of the first text block
        self.error = {}  # (server, case) -> isError
        self.hwm = {}    # server -> KiB
        self.faults = {}  # (server, case) -> [minor page faults per call]

    def add(self, d, key, v):
        d.setdefault(key, []).append(v)


def runs_for(s, mode, server, case, runs, slow_runs):
    xs = s.t.get((mode, server, case), [])
    return slow_runs if xs and xs[0] > 1000 else runs


def raw_round(s, cmds, case, deep, order, runs, slow_runs, long_lived):
    for name in order:
        call = call_of(name, case, deep)
        if call is None or len(s.t.get(("raw", name, case), [])) >= runs_for(s, "raw", name, case, runs, slow_runs):
            continue
        tool, args = call
        if case.startswith("deep"):
            srv = Raw(cmds[name], cwd=cmds["cwd"])
            try:
                for which in ("first", "repeated"):
                    c0 = cpu_ns(srv.p.pid)
                    dt, line, r = srv.call(tool, args)
                    time.sleep(SETTLE_S)
                    c1 = cpu_ns(srv.p.pid)
                    key = (name, f"deep 250 {which}")
                    if len(s.t.get(("raw",) + key, [])) < runs_for(s, "raw", name, key[1], runs, slow_runs):
                        s.add(s.t, ("raw",) + key, dt * 1000)
                        s.add(s.cpu, key, cpu_ms(c0, c1))
                    record(s, key, line, r)
                s.hwm[name] = max(s.hwm.get(name, 0), srv.hwm_kib())
            finally:
                srv.close()
            continue
        srv = long_lived[name]
        c0, f0 = cpu_ns(srv.p.pid), minflt(srv.p.pid)
        dt, line, r = srv.call(tool, args)
        time.sleep(SETTLE_S)
        c1, f1 = cpu_ns(srv.p.pid), minflt(srv.p.pid)
        s.add(s.t, ("raw", name, case), dt * 1000)
        s.add(s.cpu, (name, case), cpu_ms(c0, c1))
        s.add(s.faults, (name, case), f1 - f0)
        record(s, (name, case), line, r)


def record(s, key, line, r):
    res = r.get("result", {})
    s.bytes[key] = len(line) - 1
    s.lines[key] = line_count(text_of(res))
    s.error[key] = bool(res.get("isError")) or "error" in r


async def sdk_bench(s, cmds, deep, runs, slow_runs):
    from mcp import Client, StdioServerParameters

    def params(name):
        return StdioServerParameters(command=cmds[name][0], args=cmds[name][1:], cwd=cmds["cwd"])

    names = [n for n in cmds if n != "cwd"]
    clients = {}
    async with contextlib.AsyncExitStack() as stack:
        for name in names:
            clients[name] = (None, await stack.enter_async_context(
                Client(params(name), read_timeout_seconds=600)))
        for i in range(max(runs, 1)):
            order = names[i % len(names):] + names[:i % len(names)]
            for case in CASES:
                if case == "deep 250 repeated":
                    continue
                for name in order:
                    call = call_of(name, case, deep)
                    if call is None:
                        continue
                    which = [case] if not case.startswith("deep") else ["deep 250 first", "deep 250 repeated"]
                    if len(s.t.get(("sdk", name, which[0]), [])) >= runs_for(s, "sdk", name, which[0], runs, slow_runs):
                        continue
                    tool, args = call
                    if case.startswith("deep"):
                        async with Client(params(name), read_timeout_seconds=600) as fresh:
                            for w in which:
                                t = time.perf_counter()
                                await fresh.call_tool(tool, args)
                                s.add(s.t, ("sdk", name, w), (time.perf_counter() - t) * 1000)
                        continue
                    _, c = clients[name]
                    t = time.perf_counter()
                    await c.call_tool(tool, args)
                    s.add(s.t, ("sdk", name, case), (time.perf_counter() - t) * 1000)


def fmt(xs):
    if not xs:
        return "n/a"
    m = statistics.median(xs)
    return f"{m:.2f} ms" if m < 100 else f"{m:.0f} ms"


def ratio(s, mode, case, peer):
    a = s.t.get((mode, "ours", case))
    b = s.t.get((mode, peer, case))
    if not a or not b:
        return "n/a"
    return f"{statistics.median(a) / statistics.median(b):.2f}x"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--slow-runs", type=int, default=3, help="runs of a case whose first run took > 1 s")
    ap.add_argument("--root", default=os.path.join(REPO, "target", "bench-root"))
    ap.add_argument("--peers", default=os.path.join(REPO, "target", "peers"))
    default_big = "/work/bench-data/lines-1g.txt"
    ap.add_argument("--big", default=default_big if os.path.exists(default_big) else None)
    ap.add_argument("--mode", default="raw,sdk")
    a = ap.parse_args()
    root = prepare_root(a.root, a.big)
    big = os.path.join(root, BIG)
    cmds = servers(os.path.abspath(root), a.peers)
    warm(big)
    total, _ = line_starts(big, [])
    deep = int(total * 0.9)
    s = Samples()
    load0 = os.getloadavg()
    t0 = time.time()
    modes = a.mode.split(",")
    if "raw" in modes:
        names = [n for n in cmds if n != "cwd"]
        long_lived = {n: Raw(cmds[n], cwd=root) for n in names}
        try:
            for i in range(a.runs):
                order = names[i % len(names):] + names[:i % len(names)]
                for case in CASES:
                    if case == "deep 250 repeated":
                        continue
                    raw_round(s, cmds, case, deep, order, a.runs, a.slow_runs, long_lived)
            for n, srv in long_lived.items():
                s.hwm[n] = max(s.hwm.get(n, 0), srv.hwm_kib())
        finally:
            for srv in long_lived.values():
                srv.close()
    if "sdk" in modes:
        import anyio
        anyio.run(sdk_bench, s, cmds, deep, a.runs, a.slow_runs)
    load1 = os.getloadavg()

    print(f"file: {big} ({os.path.getsize(big)} bytes, {total} lines; deep = line {deep})")
    print(f"runs: {a.runs} ({a.slow_runs} for cases over 1 s); {time.time() - t0:.0f} s; "
          f"load average before {load0[0]:.2f}, after {load1[0]:.2f}; {os.cpu_count()} CPUs")
    for mode in modes:
        title = {"raw": "raw JSON-RPC over stdio, client side", "sdk": "official Python MCP SDK, client side"}[mode]
        print(f"\n{title} (medians):\n")
        print("| call | ours | node | rust | ours/node | ours/rust |")
        print("|---|---:|---:|---:|---:|---:|")
        for case in CASES:
            print(f"| {case} | " + " | ".join(fmt(s.t.get((mode, n, case))) for n in ("ours", "node", "rust"))
                  + f" | {ratio(s, mode, case, 'node')} | {ratio(s, mode, case, 'rust')} |")
    if "raw" in modes:
        print("\nserver CPU time per call (medians), answer bytes, lines in the first block "
              "(E: an error result):\n")
        print("| call | ours CPU | node CPU | rust CPU | ours bytes | node bytes | rust bytes | lines ours/node/rust |")
        print("|---|---:|---:|---:|---:|---:|---:|---|")
        for case in CASES:
            cpu = [fmt(s.cpu.get((n, case))) for n in ("ours", "node", "rust")]
            by = [str(s.bytes.get((n, case), "n/a")) for n in ("ours", "node", "rust")]
            ln = "/".join(
                ("E" if s.error.get((n, case)) else str(s.lines[(n, case)])) if (n, case) in s.lines else "n/a"
                for n in ("ours", "node", "rust"))
            print(f"| {case} | " + " | ".join(cpu + by) + f" | {ln} |")
        print("\nserver minor page faults per call (medians; long-lived servers): " + "; ".join(
            f"{case}: " + "/".join(
                str(int(statistics.median(s.faults[(n, case)]))) if (n, case) in s.faults else "n/a"
                for n in ("ours", "node", "rust"))
            for case in CASES if not case.startswith("deep")) + " (ours/node/rust)")
        print("\nserver peak RSS (VmHWM): " + ", ".join(
            f"{n} {s.hwm.get(n, 0) / 1024:.1f} MiB" for n in ("ours", "node", "rust")))


if __name__ == "__main__":
    main()
