#!/usr/bin/env python3
"""Writes src/text/codecs/tables.rs: the codes Python's codecs decode otherwise than the
WHATWG tables (encoding_rs, the crate's default), found by decoding every code of each
encoding both ways: Python's codec here, the crate's through its Python binding.

    target/bindings-venv-python/bin/python scripts/python_codec_tables.py   # rangeread installed

bindings/python/tests/test_codecs.py checks the result against the Python it runs under.
"""

import os
import sys
import tempfile

import rangeread as rr

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "src", "text", "codecs", "tables.rs")


def two_byte(leads, trails):
    return [bytes([a, b]) for a in leads for b in trails]


# (constant, Python's codec, WHATWG label, the codes tried, what the table is)
TABLES = [
    (
        "EUC_JP",
        "euc_jp",
        "euc-jp",
        two_byte(range(0xA1, 0xFF), range(0xA1, 0xFF))
        + two_byte([0x8E], range(0xA1, 0xE0))
        + [bytes([0x8F, a, b]) for a in range(0xA1, 0xFF) for b in range(0xA1, 0xFF)],
        "EUC-JP as Python's `euc_jp` decodes it (JIS X 0208's own mapping: `〜` WAVE DASH where the\n"
        "/// WHATWG table has FULLWIDTH TILDE, and so on).",
    ),
    (
        "SHIFT_JIS",
        "shift_jis",
        "shift_jis",
        two_byte(list(range(0x81, 0xA0)) + list(range(0xE0, 0xFD)), range(0x40, 0xFD)),
        "Shift_JIS text without a code of cp932's own (NEC's and IBM's rows), as Python's\n"
        "/// `shift_jis` decodes it (charset-normalizer's name for most such text).",
    ),
    (
        "GB2312",
        "gb2312",
        "gbk",
        two_byte(range(0xA1, 0xF8), range(0xA1, 0xFF)),
        "GBK text every code of which is GB2312's, as Python's `gb2312` decodes it (the name\n"
        "/// charset-normalizer gives such text).",
    ),
    (
        "GB18030",
        "gb18030",
        "gbk",
        two_byte(range(0x81, 0xFF), range(0x40, 0xFF))
        + [
            bytes([a, b, c, d])
            for a in range(0x81, 0x85)
            for b in range(0x30, 0x3A)
            for c in range(0x81, 0xFF)
            for d in range(0x30, 0x3A)
        ],
        "Other GBK text, as Python's `gb18030` decodes it (GB18030-2005; the WHATWG table\n"
        "/// follows GB18030-2022 and keeps `0x8135F437` for U+E7C7).",
    ),
    (
        "BIG5",
        "big5",
        "big5",
        two_byte(range(0x81, 0xFF), range(0x40, 0xFF)),
        "Big5 as Python's `big5` decodes it (the WHATWG table is Big5-HKSCS's, with the ETEN\n"
        "/// extensions).",
    ),
]

BREAKS = "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def differences(codec, label, candidates):
    pairs = []
    for c in candidates:
        try:
            t = c.decode(codec)
        except UnicodeDecodeError:
            continue
        if len(t) == 1 and t not in BREAKS:
            pairs.append((c, t))
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "codes.txt")
        with open(f, "wb") as out:
            out.write(b"\n".join(c for c, _ in pairs) + b"\n")
        r = rr.Reader(max_lines=0, max_bytes=0, max_line_chars=0, encoding=label).read(f)
    got = r.content.split("\n")[:-1]
    assert len(got) == len(pairs), (codec, len(got), len(pairs))
    diff = []
    for (c, t), g in zip(pairs, got):
        if t != g:
            assert len(g) == 1, (codec, c.hex(), t, g)
            diff.append((int.from_bytes(c, "big"), t))
    return sorted(diff)


def main():
    lines = [
        "//! The codes Python's codecs decode otherwise than the WHATWG tables encoding_rs has,",
        "//! found by decoding every code of each encoding both ways (`scripts/python_codec_tables.py`",
        "//! makes this file; `bindings/python/tests/test_codecs.py` checks every code against the",
        "//! Python it runs under). Sorted by code: a code of two bytes is `0xHHLL`, of three",
        "//! `0xHHMMLL`, of four `0xHHMMLLKK`.",
        "",
    ]
    for const, codec, label, candidates, doc in TABLES:
        diff = differences(codec, label, candidates)
        print(f"{const}: {len(diff)} codes", file=sys.stderr)
        lines.append(f"/// {doc}\n/// Each code, and the character Python gives it.")
        lines.append(f"pub(super) const {const}: &[(u32, char)] = &[")
        lines += [f"    (0x{code:X}, '\\u{{{ord(t):04X}}}')," for code, t in diff]
        lines.append("];")
        lines.append("")
    with open(OUT, "w") as f:
        f.write("\n".join(lines[:-1]) + "\n")


if __name__ == "__main__":
    main()
