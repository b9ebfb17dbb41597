#!/usr/bin/env python3
"""Server CPU per MCP call (the sum over the server's threads of
/proc/PID/task/*/schedstat around each call), for servers compared alternately: a whole
read of ROOT/whole-1MiB.txt over raw JSON-RPC, 5 calls of warm-up, then the median of
100 calls; three rounds, the servers in turn.

usage: scripts/mcp_cpu.py ROOT SERVER_BINARY...
  e.g. scripts/mcp_cpu.py /tmp/root /tmp/rangeread-mcp.before target/release/rangeread-mcp
(each server runs as `SERVER --root ROOT --max-lines 0 --max-bytes 2097152`; Linux only)
"""
import json, subprocess, sys, os, glob, statistics
ROOT = sys.argv[1]
def cpu(pid):
    return sum(int(open(f).read().split()[0]) for f in glob.glob(f"/proc/{pid}/task/*/schedstat"))
def run(server, n=100):
    p = subprocess.Popen([server, "--root", ROOT, "--max-lines", "0", "--max-bytes", "2097152"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    def call(obj):
        p.stdin.write((json.dumps(obj) + "\n").encode()); p.stdin.flush()
    call({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"m","version":"0"}}}); p.stdout.readline()
    call({"jsonrpc":"2.0","method":"notifications/initialized"})
    ts = []
    for i in range(1, n + 6):
        c0 = cpu(p.pid)
        call({"jsonrpc":"2.0","id":i,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"whole-1MiB.txt"}}})
        p.stdout.readline()
        if i > 5: ts.append(cpu(p.pid) - c0)
    p.stdin.close(); p.wait()
    return statistics.median(ts) / 1e6
for r in range(3):
    for b in sys.argv[2:]:
        print(b, f"{run(b):.2f} ms server CPU (median of 100)")
