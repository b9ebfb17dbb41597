#!/usr/bin/env python3
"""Compares Python's codecs with the crate's legacy decoders (the WHATWG tables of
encoding_rs) over every code: which codes both decode, but to different text.

usage: python scripts/python_codecs.py [LABEL:CODEC ...]
       python scripts/python_codecs.py --write   # src/text/codecs/tables.rs
       (a Python with the binding installed: `maturin develop` in bindings/python)

Each code is decoded alone: every byte from 0x80, every pair with a lead byte from 0x81
and a trail byte from 0x40 (multi-byte encodings), and EUC-JP's 3-byte codes (8F A1A1 to
8F FEFE). A code only one side decodes is counted, not listed: Python leaves undefined
what WHATWG maps to C1 controls or to vendor extensions. A character the crate gives for
two codes that Python reads differently is listed too: no remap by character can then
match Python (EUC-JP's U+FF5E, from A1C1 and 8FA2B7). docs/mcp.md ("On a corpus from
outside") quotes what this prints.

`--write` writes the tables of `CodecTables::Python` (src/text/codecs/tables.rs): for each
codec the crate swaps to, the codes both decode to one character each, but to different
ones, with Python's character (GB18030's 4-byte codes from 81 30 81 30 to 84 39 FE 39
included). bindings/python/tests/test_codecs.py checks the result against the Python the
tests run under.
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


# The tables `CodecTables::Python` swaps with: (constant, label, Python's codec, what it is).
TABLES = [
    ("EUC_JP", "euc-jp", "euc_jp",
     "EUC-JP as Python's `euc_jp` decodes it (JIS X 0208's own mapping: `〜` WAVE DASH where the\n"
     "/// WHATWG table has FULLWIDTH TILDE, and so on)."),
    ("SHIFT_JIS", "shift_jis", "shift_jis",
     "Shift_JIS text without a code of cp932's own (NEC's and IBM's rows), as Python's\n"
     "/// `shift_jis` decodes it (charset-normalizer's name for most such text)."),
    ("GB2312", "gbk", "gb2312",
     "GBK text every code of which is GB2312's, as Python's `gb2312` decodes it (the name\n"
     "/// charset-normalizer gives such text)."),
    ("GB18030", "gbk", "gb18030",
     "Other GBK text, as Python's `gb18030` decodes it (GB18030-2005; the WHATWG table\n"
     "/// follows GB18030-2022 and keeps `0x8135F437` for U+E7C7)."),
    ("BIG5", "big5", "big5",
     "Big5 as Python's `big5` decodes it (the WHATWG table is Big5-HKSCS's, with the ETEN\n"
     "/// extensions)."),
]
TABLES_RS = Path(__file__).resolve().parent.parent / "src" / "text" / "codecs" / "tables.rs"


def swapped(label, codec, tmp):
    """The codes the crate and Python each decode to one character, a different one:
    (code as an integer, Python's character), by code."""
    cs = codes(label)
    if codec == "gb18030":
        cs += [bytes([a, b, c, d]) for a in range(0x81, 0x85) for b in range(0x30, 0x3A)
               for c in range(0x81, 0xFF) for d in range(0x30, 0x3A)]
    out = []
    for code, text in zip(cs, crate_decodes(label, cs, tmp)):
        try:
            theirs = code.decode(codec)
        except UnicodeDecodeError:
            continue
        if "\ufffd" not in text and theirs != text and len(theirs) == 1 == len(text):
            out.append((int.from_bytes(code, "big"), theirs))
    return sorted(out)


def write_tables(tmp):
    lines = [
        "//! The codes Python's codecs decode otherwise than the WHATWG tables encoding_rs has,",
        "//! found by decoding every code of each encoding both ways (`scripts/python_codecs.py",
        "//! --write` makes this file; `bindings/python/tests/test_codecs.py` checks every code",
        "//! against the Python it runs under). Sorted by code: a code of two bytes is `0xHHLL`,",
        "//! of three `0xHHMMLL`, of four `0xHHMMLLKK`.",
    ]
    for const, label, codec, doc in TABLES:
        table = swapped(label, codec, tmp)
        print(f"{const}: {len(table)} codes")
        lines += ["", f"/// {doc}", "/// Each code, and the character Python gives it.",
                  f"pub(super) const {const}: &[(u32, char)] = &["]
        lines += [f"    (0x{code:X}, '\\u{{{ord(c):04X}}}')," for code, c in table]
        lines.append("];")
    TABLES_RS.write_text("\n".join(lines) + "\n")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        if sys.argv[1:] == ["--write"]:
            write_tables(tmp)
            return
        for pair in sys.argv[1:] or PAIRS:
            label, codec = pair.split(":")
            compare(label, codec, tmp)


if __name__ == "__main__":
    main()
