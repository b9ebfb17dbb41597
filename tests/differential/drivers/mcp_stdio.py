#!/usr/bin/env python3
"""Drives an MCP server over stdio with the suite's calls (agents' servers and ours alike).

    mcp_stdio.py CALLS.json OUT.jsonl [--tool NAME] -- COMMAND [ARG...]

Each call is a `tools/call` of `call["tool"]` (else of NAME: a server with one tool) with
`call["args"]`. A JSON-RPC error
(a call the server's SDK refused before the tool ran) is what a host shows the model:
`MCP error CODE: MESSAGE`, as an error. A server that dies is restarted and the call
recorded as a crash.
"""

import json
import os
import select
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Writer, answer, load_calls, mcp_items  # noqa: E402

TIMEOUT = 120


class Server:
    def __init__(self, cmd):
        self.cmd = cmd
        self.next_id = 0
        self.start()

    def start(self):
        self.p = subprocess.Popen(
            self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.buf = b""
        self.request("initialize", {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "rangeread-differential", "version": "1"},
        })
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg):
        self.p.stdin.write((json.dumps(msg) + "\n").encode())
        self.p.stdin.flush()

    def readline(self):
        # Answers of tens of MB arrive in pipe-sized chunks: only the new chunk is
        # searched for the end of the line.
        parts = [self.buf]
        while b"\n" not in parts[-1]:
            ready, _, _ = select.select([self.p.stdout], [], [], TIMEOUT)
            if not ready:
                raise TimeoutError(f"no answer in {TIMEOUT} s")
            chunk = os.read(self.p.stdout.fileno(), 1 << 20)
            if not chunk:
                raise EOFError("the server exited")
            parts.append(chunk)
        line, _, self.buf = b"".join(parts).partition(b"\n")
        return line

    def request(self, method, params):
        self.next_id += 1
        rid = self.next_id
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            line = self.readline()
            if not line.strip():
                continue
            msg = json.loads(line)
            if msg.get("id") == rid and ("result" in msg or "error" in msg):
                return msg

    def stop(self):
        try:
            self.p.stdin.close()
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def main():
    calls_path, out_path = sys.argv[1], sys.argv[2]
    cut = sys.argv.index("--")
    cmd = sys.argv[cut + 1:]
    opts = sys.argv[3:cut]
    default_tool = opts[opts.index("--tool") + 1] if "--tool" in opts else None
    server = Server(cmd)
    out = Writer(out_path)
    for call in load_calls(calls_path):
        try:
            msg = server.request("tools/call", {"name": call["tool"] or default_tool, "arguments": call["args"]})
        except (EOFError, TimeoutError, BrokenPipeError) as e:
            out.put(answer(call["id"], "", True, crash=f"{type(e).__name__}: {e}"))
            server.p.kill()
            server.start()
            continue
        if "error" in msg:
            err = msg["error"]
            out.put(answer(call["id"], f"MCP error {err.get('code')}: {err.get('message')}", True))
            continue
        res = msg["result"]
        text, media = mcp_items(res.get("content"))
        out.put(answer(call["id"], text, res.get("isError", False), media))
    server.stop()
    out.close()


if __name__ == "__main__":
    main()
