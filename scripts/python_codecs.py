#!/usr/bin/env python3
"""Compares Python's codecs with the crate's legacy decoders (the WHATWG tables of
encoding_rs) over every code: which codes both decode, but to different text.

usage: python scripts/python_codecs.py [LABEL:CODEC ...]
       (a Python with the binding installed: `maturin develop` in bindings/python)

Each code is decoded alone: every byte from 0x80, every pair with a lead byte from 0x81
and a trail byte from 0x40 (multi-byte encodings), and EUC-JP's 3-byte codes (8F A1A1 to
8F FEFE). A code only one side decodes is counted, not listed: Python leaves undefined
what WHATWG maps to C1 controls or to vendor extensions. A character the crate gives for
two codes that Python reads differently is listed too: no remap by character can then
match Python (EUC-JP's U+FF5E, from A1C1 and 8FA2B7). docs/mcp.md ("On a corpus from
outside") quotes what this prints.
"""

import collections
import sys
import tempfile
from pathlib import Path

import rangeread as rr

PAIRS = [
    "euc-jp:euc_jp", "euc-jp:euc_jis_2004", "shift_jis:shift_jis", "shift_jis:cp932",
    "gbk:gb2312", "gbk:gbk", "gbk:gb18030", "big5:big5", "big5:cp950", "euc-kr:euc_kr",
    "euc-kr:cp949", "koi8-u:koi8_u", "koi8-u:koi8_r", "windows-1250:cp1250",
    "windows-1251:cp1251", "windows-1252:cp1252", "windows-1253:cp1253",
    "windows-1254:cp1254", "windows-1255:cp1255", "windows-1256:cp1256",
    "windows-1257:cp1257", "windows-1258:cp1258", "windows-874:cp874",
    "iso-8859-2:iso8859_2", "iso-8859-5:iso8859_5", "iso-8859-7:iso8859_7",
    "ibm866:cp866",
]
SINGLE_BYTE = ("koi8", "iso-8859", "windows", "ibm")


def codes(label):
    out = [bytes([b]) for b in range(0x80, 0x100)]
    if label.startswith(SINGLE_BYTE):
        return out
    out += [bytes([a, b]) for a in range(0x81, 0x100) for b in range(0x40, 0x100)]
    if label == "euc-jp":
        out += [bytes([0x8F, a, b]) for a in range(0xA1, 0xFF) for b in range(0xA1, 0xFF)]
    return out


def crate_decodes(label, cs, tmp):
    # One code a line: no trail byte of these encodings is 0x0A, so a line is a code.
    path = Path(tmp) / f"{label}.txt"
    path.write_bytes(b"\n".join(cs) + b"\n")
    reader = rr.Reader(encoding=label, max_lines=0, max_bytes=0, max_line_chars=0)
    return reader.read(path).content.split("\n")


def compare(label, codec, tmp):
    cs = codes(label)
    ours = crate_decodes(label, cs, tmp)
    differ, only_crate, only_python = [], 0, 0
    by_char = collections.defaultdict(set)
    for code, text in zip(cs, ours):
        try:
            theirs = code.decode(codec)
        except UnicodeDecodeError:
            theirs = None
        decoded = "\ufffd" not in text
        if theirs is None:
            only_crate += decoded
        elif not decoded:
            only_python += 1
        elif theirs != text:
            differ.append((code.hex().upper(), text, theirs))
        if decoded and theirs is not None:
            by_char[text].add(theirs)
    print(f"{label} / {codec}: {len(differ)} codes differ, {only_crate} only the crate "
          f"decodes, {only_python} only Python decodes")
    for code, text, theirs in differ[:12]:
        show = lambda s: " ".join(f"U+{ord(c):04X}" for c in s)  # noqa: E731
        print(f"    {code}: crate {show(text)}, Python {show(theirs)}")
    if len(differ) > 12:
        print(f"    ... {len(differ) - 12} more")
    clashes = [(char, pythons) for char, pythons in sorted(by_char.items())
               if len(pythons) > 1 and any(p != char for p in pythons)]
    for char, pythons in clashes[:3]:
        alts = ", ".join(sorted(" ".join(f"U+{ord(c):04X}" for c in p) for p in pythons))
        print(f"    not a remap by character: {' '.join(f'U+{ord(c):04X}' for c in char)} "
              f"is {alts} to Python")
    if len(clashes) > 3:
        print(f"    ... {len(clashes) - 3} more characters so")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        for pair in sys.argv[1:] or PAIRS:
            label, codec = pair.split(":")
            compare(label, codec, tmp)


if __name__ == "__main__":
    main()
