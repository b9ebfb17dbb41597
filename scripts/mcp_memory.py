#!/usr/bin/env python3
"""Memory of the MCP server over many calls: raw JSON-RPC over stdio (no MCP SDK needed),
`read_file` of one file again and again with the limits off; prints VmRSS and VmHWM of
the server at calls 1, 10, 100, 300, 1000 (and the last) and the mean time per call.

usage: scripts/mcp_memory.py SERVER_BINARY ROOT FILE_IN_ROOT CALLS
  e.g. cargo build --release -p rangeread-mcp-server
       head -c 1048576 big.txt > /tmp/root/a.txt
       scripts/mcp_memory.py target/release/rangeread-mcp /tmp/root a.txt 1000
"""
import json, subprocess, sys, os, time
server, root, fname, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
p = subprocess.Popen([server, "--root", root, "--max-bytes", "0", "--max-lines", "0"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
def send(obj):
    p.stdin.write((json.dumps(obj) + "\n").encode()); p.stdin.flush()
def recv():
    return json.loads(p.stdout.readline())
send({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"m","version":"0"}}})
recv()
send({"jsonrpc":"2.0","method":"notifications/initialized"})
def rss():
    d = {}
    for l in open(f"/proc/{p.pid}/status"):
        k, v = l.split(":", 1); d[k] = v.strip()
    return d["VmRSS"], d["VmHWM"]
t0 = time.time()
for i in range(1, n + 1):
    send({"jsonrpc":"2.0","id":i,"method":"tools/call","params":{"name":"read_file","arguments":{"path":fname}}})
    r = recv()
    assert "result" in r and not r["result"].get("isError"), r
    if i in (1, 10, 100, 300, 1000, n):
        print(i, "rss", *rss(), f"{(time.time()-t0)/i*1000:.2f} ms/call", flush=True)
p.stdin.close(); p.wait()
