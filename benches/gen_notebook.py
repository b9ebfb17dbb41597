#!/usr/bin/env python3
"""Writes a notebook of about SIZE bytes by repeating the cells of a real one.

usage: gen_notebook.py SOURCE.ipynb OUT.ipynb [SIZE_BYTES]

The cells of SOURCE (code with outputs and plots, Markdown) are copied in turn, each
copy with an id of its own, until the file reaches SIZE (100 MB by default); the
metadata is SOURCE's. The result is a notebook nbformat 4.5 reads.
"""
import json
import sys


def main(src, out, size):
    nb = json.load(open(src))
    cells = nb["cells"]
    big = []
    total = 0
    i = 0
    while total < size:
        c = json.loads(json.dumps(cells[i % len(cells)]))
        c["id"] = f"c{i:07d}"
        total += len(json.dumps(c)) + 2
        big.append(c)
        i += 1
    nb["cells"] = big
    nb["nbformat"], nb["nbformat_minor"] = 4, 5
    with open(out, "w") as f:
        json.dump(nb, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 100_000_000)
