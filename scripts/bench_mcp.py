#!/usr/bin/env python3
"""Client-side timing of the MCP server's read_file on a 1 GiB file.

    target/mcp-client-venv/bin/python scripts/bench_mcp.py [--big FILE] [--runs N]

Needs the Python MCP SDK (tests/mcp_client/run.sh installs it into
target/mcp-client-venv) and the release server:

    cargo build --release -p rangeread-mcp-server

The 1 GiB file is FILE if given, else bench-data/lines-1073741824.txt, generated with
benches/gen_lines.py when missing. A 1 MiB file (the first 1 MiB of it, cut at a line
end) is written next to this script's bench-data/. Each case is timed from the client:
`await client.call_tool(...)` in the official SDK, so the figures include the SDK's own
JSON and validation work; a call refused before any file is touched is printed as
that floor.

Cases: head 250, tail 250 (and that it returns exactly 250 lines), 250 lines at 90% of the
file on a freshly started server (no index yet) and again on the same server (index
cached), and a whole 1 MiB file. Peak memory is the server's VmHWM from /proc.
Page cache is warmed first (one sequential read of the file).
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

import anyio
from mcp import Client, StdioServerParameters

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER = os.path.join(REPO, "target", "release", "rangeread-mcp")
GIB = 1 << 30
MIB = 1 << 20


def ensure_files(big):
    data = os.path.join(REPO, "bench-data")
    os.makedirs(data, exist_ok=True)
    if big is None:
        big = os.path.join(data, f"lines-{GIB}.txt")
        if not os.path.exists(big) or os.path.getsize(big) != GIB:
            print(f"generating {big} ...", file=sys.stderr)
            subprocess.run(
                [sys.executable, os.path.join(REPO, "benches", "gen_lines.py"), big, str(GIB)],
                check=True,
            )
    small = os.path.join(data, "whole-1MiB.txt")
    with open(big, "rb") as f:
        head = f.read(MIB + 4096)
    head = head[: head.rfind(b"\n", 0, MIB) + 1]
    with open(small, "wb") as f:
        f.write(head)
    return big, small


def warm(path):
    with open(path, "rb") as f:
        while f.read(8 * MIB):
            pass


def count_lines(path):
    n = 0
    with open(path, "rb") as f:
        while True:
            b = f.read(8 * MIB)
            if not b:
                return n
            n += b.count(b"\n")


def children_hwm():
    """Peak RSS (VmHWM, KiB) of this process's children, by pid."""
    out = {}
    me = os.getpid()
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            if ppid != me:
                continue
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        out[int(pid)] = int(line.split()[1])
        except (OSError, ValueError, IndexError):
            pass
    return out


def line_count(text):
    """Lines in a text: LF count, plus a last line without LF (the file may end so)."""
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


def server(root, *extra):
    return StdioServerParameters(command=SERVER, args=["--root", root, *extra])


async def timed(client, args):
    t = time.perf_counter()
    r = await client.call_tool("read_file", args)
    dt = (time.perf_counter() - t) * 1000
    if r.is_error:
        raise RuntimeError(f"{args}: {r.content[0].text}")
    return dt, r


def ms(xs):
    return f"median {statistics.median(xs):8.3f} ms  (min {min(xs):.3f}, max {max(xs):.3f}, n={len(xs)})"


async def bench(big, small, runs):
    total = count_lines(big)
    deep = int(total * 0.9)
    name = os.path.basename(big)
    root = os.path.dirname(os.path.abspath(big))
    peak = 0
    rows = []

    async with Client(server(root), read_timeout_seconds=120) as c:
        await c.list_tools()
        # The floor: a call the server refuses before touching a file.
        floor = []
        for _ in range(runs * 5):
            t = time.perf_counter()
            await c.call_tool("read_file", {"path": 0})
            floor.append((time.perf_counter() - t) * 1000)
        rows.append(("refused call (SDK + transport floor)", floor, ""))
        for label, args in [
            ("head 250", {"path": name, "head": 250}),
            ("tail 250", {"path": name, "tail": 250}),
        ]:
            times = []
            for _ in range(runs * 5):
                dt, r = await timed(c, args)
                times.append(dt)
            n = line_count(r.content[0].text)
            rows.append((label, times, f"{n} lines returned"))
        peak = max(peak, *children_hwm().values())

    first, cached = [], []
    for _ in range(runs):
        async with Client(server(root), read_timeout_seconds=120) as c:
            await c.list_tools()
            args = {"path": name, "start_line": deep, "end_line": deep + 249}
            dt, r = await timed(c, args)
            first.append(dt)
            for _ in range(5):
                dt, r = await timed(c, args)
                cached.append(dt)
            n = line_count(r.content[0].text)
            peak = max(peak, *children_hwm().values())
    rows.append((f"250 lines at 90% (line {deep}), first call", first, f"{n} lines returned"))
    rows.append(("same, index cached", cached, ""))

    small_root = os.path.dirname(os.path.abspath(small))
    async with Client(
        server(small_root, "--max-lines", "0", "--max-bytes", str(2 * MIB)), read_timeout_seconds=120
    ) as c:
        await c.list_tools()
        times = []
        for _ in range(runs * 5):
            dt, r = await timed(c, {"path": os.path.basename(small)})
            times.append(dt)
        size = len(r.content[0].text.encode())
        rows.append(("whole 1 MiB file", times, f"{size} bytes returned"))
        peak = max(peak, *children_hwm().values())

    print(f"file: {big} ({os.path.getsize(big)} bytes, {total} lines)")
    for label, xs, note in rows:
        print(f"{label:42} {ms(xs)}  {note}")
    print(f"server peak memory (VmHWM): {peak / 1024:.1f} MiB")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--big", help="the 1 GiB file (default: bench-data/lines-1073741824.txt)")
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    if not os.path.exists(SERVER):
        sys.exit(f"build the server first: cargo build --release -p rangeread-mcp-server")
    big, small = ensure_files(a.big)
    warm(big)
    anyio.run(bench, big, small, a.runs)


if __name__ == "__main__":
    main()
