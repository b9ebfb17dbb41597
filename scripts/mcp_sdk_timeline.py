#!/usr/bin/env python3
"""Where a whole 1 MiB read's time goes through the official Python MCP SDK: ours against
rust-mcp-filesystem (and, optionally, another build of ours), calls interleaved.

    scripts/peers.sh                                   # the peers and the bench root (once)
    target/mcp-client-venv/bin/python scripts/mcp_sdk_timeline.py [--calls N] [--rounds R]
        [--root DIR] [--peers DIR] [--other BINARY]

For each call it stamps every chunk the SDK's stdio reader receives (anyio's
`TextReceiveStream.receive`) and prints medians of:
- total: `call_tool` from the call to its result;
- first: from the call to the first chunk of the answer (the server's time to its first
  write, plus the request's way there);
- span: from the first chunk to the last (the SDK reading and splitting 64 KiB chunks
  while the server writes);
- after: from the last chunk to the result (the SDK parsing the 1 MiB line).
The bench root is scripts/bench_peers.py's (`target/bench-root`, `prepare_root`).
"""

import argparse
import contextlib
import os
import statistics
import sys
import time

import anyio
import anyio.streams.text as text_stream

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcp_common import REPO, SMALL, prepare_root, warm  # noqa: E402

STAMPS = []
_receive = text_stream.TextReceiveStream.receive


async def _stamped(self):
    chunk = await _receive(self)
    STAMPS.append(time.perf_counter())
    return chunk


text_stream.TextReceiveStream.receive = _stamped


async def run(servers, root, calls, rounds):
    from mcp import Client, StdioServerParameters

    async with contextlib.AsyncExitStack() as stack:
        clients = {}
        for name, (cmd, _) in servers.items():
            params = StdioServerParameters(command=cmd[0], args=cmd[1:], cwd=root)
            clients[name] = await stack.enter_async_context(Client(params, read_timeout_seconds=600))
        names = list(servers)
        for r in range(rounds):
            t = {n: {"total": [], "first": [], "span": [], "after": []} for n in names}
            for i in range(calls):
                for name in names[i % len(names):] + names[:i % len(names)]:
                    tool, args = servers[name][1]
                    STAMPS.clear()
                    start = time.perf_counter()
                    await clients[name].call_tool(tool, args)
                    end = time.perf_counter()
                    d = t[name]
                    d["total"].append(end - start)
                    d["first"].append(STAMPS[0] - start)
                    d["span"].append(STAMPS[-1] - STAMPS[0])
                    d["after"].append(end - STAMPS[-1])
            load = os.getloadavg()[0]
            print(f"round {r + 1}: {calls} calls each, load {load:.2f}")
            base = statistics.median(t["rust"]["total"])
            for name in names:
                m = {k: statistics.median(v) * 1000 for k, v in t[name].items()}
                print(f"  {name:6} total {m['total']:6.2f} ms ({m['total'] / base / 1000:.3f}x rust)  "
                      f"first {m['first']:5.2f}  span {m['span']:5.2f}  after {m['after']:5.2f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--root", default=os.path.join(REPO, "target", "bench-root"))
    ap.add_argument("--peers", default=os.path.join(REPO, "target", "peers"))
    ap.add_argument("--other", help="another build of rangeread-mcp, run beside ours as 'other'")
    a = ap.parse_args()
    prepare_root(a.root)
    warm(os.path.join(a.root, SMALL))
    ours = os.path.join(REPO, "target", "release", "rangeread-mcp")
    rust = os.path.join(a.peers, "rust-mcp-filesystem", "bin", "rust-mcp-filesystem")
    for path, what in [(ours, "cargo build --release -p rangeread-mcp-server"), (rust, "scripts/peers.sh")]:
        if not os.path.exists(path):
            sys.exit(f"{path} is missing: run {what}")
    budgets = ["--max-lines", "0", "--max-bytes", str(2 << 20)]
    read = ("read_file", {"path": SMALL})
    servers = {"ours": ([ours, "--root", a.root, *budgets], read)}
    if a.other:
        servers["other"] = ([a.other, "--root", a.root, *budgets], read)
    servers["rust"] = ([rust, a.root], ("read_text_file", {"path": SMALL}))
    anyio.run(run, servers, a.root, a.calls, a.rounds)


if __name__ == "__main__":
    main()
