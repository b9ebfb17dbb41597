#!/usr/bin/env python3
"""Instructions per MCP call of a stdio server, counted by callgrind (which the machine's
load does not change): the server runs under `valgrind --tool=callgrind` twice, for FEW
and for MANY calls of one tool, and the difference is divided by MANY - FEW, so that
start-up and the handshake drop out.

usage: scripts/callgrind_calls.py [--few 5] [--many 25] [--tool read_file]
           [--args JSON] [--out DIR] -- SERVER_COMMAND...
  e.g. cargo build --release -p rangeread-mcp-server
       scripts/callgrind_calls.py --args '{"path": "whole-1MiB.txt"}' -- \
           target/release/rangeread-mcp --root ROOT --max-lines 0 --max-bytes 2097152

Prints the instructions of each run and per call; the callgrind files stay in --out
(default: a temporary directory) for `callgrind_annotate`.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile


def run(cmd, calls, tool, args, out):
    """Runs `cmd` under callgrind for `calls` calls; returns its total instructions."""
    path = os.path.join(out, f"callgrind.{calls}")
    p = subprocess.Popen(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={path}"] + cmd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )

    def send(obj):
        p.stdin.write((json.dumps(obj) + "\n").encode())
        p.stdin.flush()

    send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "callgrind_calls", "version": "0"}}})
    json.loads(p.stdout.readline())
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    for i in range(1, calls + 1):
        send({"jsonrpc": "2.0", "id": i, "method": "tools/call",
              "params": {"name": tool, "arguments": args}})
        r = json.loads(p.stdout.readline())
        if "result" not in r or r["result"].get("isError"):
            sys.exit(f"callgrind_calls.py: call {i} failed: {str(r)[:300]}")
    p.stdin.close()
    p.wait()
    with open(path) as f:
        m = re.search(r"^summary:\s+(\d+)", f.read(), re.M)
    if not m:
        sys.exit(f"callgrind_calls.py: no summary line in {path}")
    return int(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--few", type=int, default=5)
    ap.add_argument("--many", type=int, default=25)
    ap.add_argument("--tool", default="read_file")
    ap.add_argument("--args", default='{"path": "whole-1MiB.txt"}')
    ap.add_argument("--out")
    ap.add_argument("cmd", nargs="+")
    o = ap.parse_args()
    out = o.out or tempfile.mkdtemp(prefix="callgrind_calls.")
    os.makedirs(out, exist_ok=True)
    args = json.loads(o.args)
    few = run(o.cmd, o.few, o.tool, args, out)
    many = run(o.cmd, o.many, o.tool, args, out)
    print(f"{o.few} calls: {few:,} instructions; {o.many} calls: {many:,}")
    print(f"per call: {(many - few) / (o.many - o.few) / 1e6:.2f} M instructions")
    print(f"callgrind files: {out}")


if __name__ == "__main__":
    main()
