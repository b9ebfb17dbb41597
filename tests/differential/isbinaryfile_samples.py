#!/usr/bin/env python3
"""Writes the samples of tests/data/isbinaryfile_samples.json (names and bytes; the
verdicts are isbinaryfile's own: `node isbinaryfile_check.mjs NODE_MODULES --write`).

Each branch of isbinaryfile 5.0.7's rule: NUL before and after byte 512, control bytes in
and out of BEL..SO, valid and cut UTF-8, legacy text under and over a tenth of
non-ASCII bytes (the pages of the chardet sdist start with an ASCII XML header), byte
order marks."""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data", "isbinaryfile_samples.json")


def samples():
    xml = '<?xml version="1.0" encoding="{}"?>\n<rss version="2.0"><channel>\n'
    ru = "Привет, мир! Это тестовая строка про погоду и новости дня.\n" * 20
    ja = "日本語のテキストです。今日は良い天気ですね。\n" * 20
    return [
        ("plain ASCII", b"just text\n" * 60),
        ("empty", b""),
        ("NUL at byte 100", b"a" * 100 + b"\0" + b"b" * 500),
        ("NUL at byte 600", b"a" * 600 + b"\0" + b"b" * 100),
        ("BEL and VT only", b"\x07\x0b" * 300),
        ("ESC only", b"\x1b" * 300),
        ("ANSI colours in text", b"\x1b[31mred\x1b[0m and plain text here\n" * 20),
        ("form feeds and backspaces", b"page\x0c one\x08\n" * 50),
        ("UTF-8 CJK", ja.encode()),
        ("UTF-8 emoji", ("😀 " * 300).encode()),
        ("UTF-8 cut at 512", ("ж" * 400).encode()[:513]),
        ("Latin-1 short", "café naïve façade über\n".encode("latin-1")),
        ("Latin-1 long, few accents", ("a plain line of English text, and a café\n" * 20).encode("latin-1")),
        ("windows-1251 Russian", ru.encode("cp1251")),
        ("KOI8-R after an XML header", (xml.format("koi8-r") + ru).encode("koi8-r")),
        ("EUC-JP after an XML header", (xml.format("euc-jp") + ja).encode("euc_jp")),
        ("Shift_JIS", ja.encode("shift_jis")),
        ("UTF-16LE with a mark", "\ufeffhello world\n".encode("utf-16-le") * 30),
        ("UTF-16LE without a mark", "hello world\n".encode("utf-16-le") * 30),
        ("UTF-8 mark and Latin-1 bytes", b"\xef\xbb\xbf" + "café\n".encode("latin-1") * 60),
        ("high bytes", bytes(range(0x80, 0x100)) * 4),
        ("PDF header", b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< >>\nendobj\n" * 10),
        ("a few C1 bytes in ASCII", b"text \x85 more text and text again\n" * 20),
        ("DEL bytes", b"\x7f" * 300),
    ]


def main():
    old = {}
    if os.path.exists(DATA):
        old = {s["name"]: s.get("binary") for s in json.load(open(DATA))["samples"]}
    rows = [{"name": n, "hex": b.hex(), "binary": old.get(n)} for n, b in samples()]
    doc = {"source": "to be recorded by isbinaryfile_check.mjs --write", "samples": rows}
    with open(DATA, "w") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
