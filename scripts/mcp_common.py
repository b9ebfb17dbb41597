"""Shared by scripts/mcp_response_bytes.py and scripts/bench_peers.py: the benchmark root
(the 1 GiB file, a 1 MiB file cut from it, a binary file), line offsets, and a raw
JSON-RPC client over stdio (no MCP SDK needed)."""

import json
import os
import shutil
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GIB = 1 << 30
MIB = 1 << 20
BIG = "big.txt"
SMALL = "whole-1MiB.txt"
BINARY = "binary.bin"


def prepare_root(root, big=None):
    """The benchmark root: ROOT/big.txt (a hard link to, or copy of, the 1 GiB file;
    generated with benches/gen_lines.py when no file is given and none is there),
    ROOT/whole-1MiB.txt (its first MiB cut at a line end) and ROOT/binary.bin (a copy of
    /usr/bin/true, a 35 KB ELF executable, or of the python interpreter running this)."""
    os.makedirs(root, exist_ok=True)
    dst = os.path.join(root, BIG)
    if big is not None and os.path.abspath(big) != os.path.abspath(dst):
        if os.path.exists(dst) and not os.path.samefile(big, dst):
            os.remove(dst)
        if not os.path.exists(dst):
            try:
                os.link(big, dst)
            except OSError:
                shutil.copyfile(big, dst)
    if not os.path.exists(dst) or os.path.getsize(dst) != GIB:
        print(f"generating {dst} ...", file=sys.stderr)
        subprocess.run(
            [sys.executable, os.path.join(REPO, "benches", "gen_lines.py"), dst, str(GIB)],
            check=True,
        )
    small = os.path.join(root, SMALL)
    with open(dst, "rb") as f:
        head = f.read(MIB + 4096)
    with open(small, "wb") as f:
        f.write(head[: head.rfind(b"\n", 0, MIB) + 1])
    binary = os.path.join(root, BINARY)
    if not os.path.exists(binary):
        src = "/usr/bin/true" if os.path.exists("/usr/bin/true") else os.path.realpath(sys.executable)
        shutil.copyfile(src, binary)
    return root


def warm(path):
    with open(path, "rb") as f:
        while f.read(8 * MIB):
            pass


def line_starts(path, lines):
    """Total lines of the file, and the byte offset where each 1-based line in `lines`
    starts (one pass)."""
    want = sorted(set(lines))
    out = {}
    n = 0  # lines seen complete so far
    pos = 0
    i = 0
    with open(path, "rb") as f:
        while True:
            b = f.read(8 * MIB)
            if not b:
                break
            c = b.count(b"\n")
            while i < len(want) and want[i] - 1 <= n + c:
                # line want[i] starts after the (want[i]-1)-th LF
                k = want[i] - 1 - n
                off = -1
                for _ in range(k):
                    off = b.index(b"\n", off + 1)
                out[want[i]] = pos + off + 1 if k > 0 else pos
                i += 1
            n += c
            pos += len(b)
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        f.seek(size - 1)
        last = f.read(1)
    total = n + (1 if size and last != b"\n" else 0)
    return total, out


class Raw:
    """One MCP server over stdio, driven with JSON-RPC lines."""

    def __init__(self, argv, cwd=None):
        self.p = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd
        )
        self.id = 0
        self.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "bench", "version": "0"}}})
        self.recv()
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, obj):
        self.p.stdin.write((json.dumps(obj) + "\n").encode())
        self.p.stdin.flush()

    def recv_line(self):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("the server closed its output")
            if b'"id"' in line[:64] or b'"result"' in line or b'"error"' in line:
                return line

    def recv(self):
        return json.loads(self.recv_line())

    def call(self, tool, args):
        """(seconds, the response line as bytes, the parsed response)."""
        self.id += 1
        t = time.perf_counter()
        self.send({"jsonrpc": "2.0", "id": self.id, "method": "tools/call",
                   "params": {"name": tool, "arguments": args}})
        line = self.recv_line()
        dt = time.perf_counter() - t
        return dt, line, json.loads(line)

    def hwm_kib(self):
        with open(f"/proc/{self.p.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        return 0

    def cpu_seconds(self):
        """User + system CPU time of the server so far (from /proc, clock ticks)."""
        with open(f"/proc/{self.p.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self):
        try:
            self.p.stdin.close()
        except OSError:
            pass
        try:
            self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()


def size_of(value):
    """Bytes of a JSON value as compact UTF-8 JSON (how servers write it)."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())
