#!/usr/bin/env python3
"""What each part of an MCP answer costs, in bytes, for every preset of the server.

    scripts/mcp_response_bytes.py [--server BIN] [--root DIR] [--big FILE] [--fields]

For each preset (the default `read_file`, `session_read_file`, `file_read`, `fs_read`,
`vault`) and each call of the benchmark (a refused binary file, head 250, tail 250, 250
lines at 90% of the 1 GiB file, the whole 1 MiB file with the limits off), prints the
bytes of the JSON-RPC answer line, of each content block's text and of
`structuredContent` (compact JSON, as it is on the wire), as a Markdown table. Calls that
a preset cannot express by lines (`fs_read` selects bytes) ask for the bytes of the same
lines. `--fields` also lists the bytes of each top-level field of `structuredContent`.

The root (default target/bench-root) holds big.txt (a hard link to FILE, default
/work/bench-data/lines-1g.txt when present, else generated), whole-1MiB.txt and
binary.bin; see scripts/mcp_common.py. Raw JSON-RPC over stdio: no MCP SDK needed.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcp_common import BIG, BINARY, REPO, SMALL, Raw, line_starts, prepare_root, size_of  # noqa: E402


def calls(preset, total, starts, big_size, small_size):
    """(label, tool, args) for each call of the table, in this preset's parameters."""
    deep = int(total * 0.9)
    tail = total - 249
    ranges = {"head 250": (1, 250), "tail 250": (tail, total), "deep 250": (deep, deep + 249)}
    out = []
    if preset == "read_file":
        out.append(("refused (binary)", "read_file", {"path": BINARY}))
        out.append(("head 250", "read_file", {"path": BIG, "head": 250}))
        out.append(("tail 250", "read_file", {"path": BIG, "tail": 250}))
        out.append(("deep 250", "read_file", {"path": BIG, "start_line": deep, "end_line": deep + 249}))
        out.append(("whole 1 MiB", "read_file", {"path": SMALL}))
    elif preset == "session_read_file":
        out.append(("refused (binary)", preset, {"session": "default", "target_file": BINARY, "should_read_entire_file": True}))
        for label, (s, e) in ranges.items():
            out.append((label, preset, {"session": "default", "target_file": BIG, "start_line_one_indexed": s,
                                        "end_line_one_indexed_inclusive": e}))
        out.append(("whole 1 MiB", preset, {"session": "default", "target_file": SMALL, "should_read_entire_file": True}))
    elif preset == "file_read":
        out.append(("refused (binary)", preset, {"filename": BINARY}))
        for label, (s, e) in ranges.items():
            out.append((label, preset, {"filename": BIG, "start_line": s, "end_line": e}))
        out.append(("whole 1 MiB", preset, {"filename": SMALL}))
    elif preset == "fs_read":
        out.append(("refused (binary)", preset, {"path": BINARY}))
        for label, (s, e) in ranges.items():
            end = starts.get(e + 1, big_size)
            out.append((label, preset, {"path": BIG, "start_byte": starts[s], "end_byte": end}))
        out.append(("whole 1 MiB", preset, {"path": SMALL}))
    elif preset == "vault":
        out.append(("refused (binary)", "read_file", {"path": BINARY}))
        for label, (s, e) in ranges.items():
            out.append((label, "read_file", {"path": BIG, "start_line": s, "end_line": e}))
        out.append(("whole 1 MiB", "read_file", {"path": SMALL}))
    return out


PRESETS = ["read_file", "session_read_file", "file_read", "fs_read", "vault"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", default=os.path.join(REPO, "target", "release", "rangeread-mcp"))
    ap.add_argument("--root", default=os.path.join(REPO, "target", "bench-root"))
    default_big = "/work/bench-data/lines-1g.txt"
    ap.add_argument("--big", default=default_big if os.path.exists(default_big) else None)
    ap.add_argument("--presets", default=",".join(PRESETS))
    ap.add_argument("--fields", action="store_true")
    a = ap.parse_args()
    root = prepare_root(a.root, a.big)
    big = os.path.join(root, BIG)
    probe_total, _ = line_starts(big, [])
    deep = int(probe_total * 0.9)
    tail = probe_total - 249
    total, starts = line_starts(big, [1, 251, tail, probe_total + 1, deep, deep + 250])
    big_size = os.path.getsize(big)
    small_size = os.path.getsize(os.path.join(root, SMALL))
    print(f"server: {a.server}\nfile: {big} ({big_size} bytes, {total} lines)\n")
    print("| preset | call | answer line | content[0] | content[1] | structuredContent |")
    print("|---|---|---:|---:|---:|---:|")
    details = []
    for preset in a.presets.split(","):
        # The whole 1 MiB file is read with the limits off, as in the benchmark.
        for label, tool, args in calls(preset, total, starts, big_size, small_size):
            extra = ["--max-lines", "0", "--max-bytes", "0"] if label == "whole 1 MiB" else []
            s = Raw([a.server, "--preset", preset, "--root", root, *extra])
            try:
                # The second call: what a warm server sends (the first deep call counts).
                s.call(tool, args)
                _, line, r = s.call(tool, args)
            finally:
                s.close()
            res = r["result"]
            blocks = [size_of(c.get("text", c)) for c in res.get("content", [])]
            sc = res.get("structuredContent")
            cells = [str(b) for b in blocks[:2]] + ["-"] * (2 - min(2, len(blocks)))
            print(f"| {preset} | {label} | {len(line) - 1} | {cells[0]} | {cells[1]} | "
                  f"{size_of(sc) if sc is not None else '-'} |")
            if a.fields and isinstance(sc, dict):
                parts = sorted(((size_of(v) + len(k) + 4, k) for k, v in sc.items()), reverse=True)
                details.append(f"{preset} / {label}: " + ", ".join(f"{k} {n}" for n, k in parts))
    if details:
        print()
        for d in details:
            print(d)


if __name__ == "__main__":
    main()
