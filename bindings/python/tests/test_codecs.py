"""codec_tables="python": every code of each legacy encoding Python's codec decodes reads
as that codec decodes it, checked against the Python these tests run under (the tables in
src/text/codecs/tables.rs were found the same way, by scripts/python_codecs.py --write)."""

import pytest

import rangeread as rr

WHOLE = dict(max_lines=0, max_bytes=0, max_line_chars=0)


def two_byte(leads, trails):
    return [bytes([a, b]) for a in leads for b in trails]


def codes(codec, candidates):
    """The candidates Python's codec decodes to one character, with that character."""
    out = []
    for c in candidates:
        try:
            t = c.decode(codec)
        except UnicodeDecodeError:
            continue
        if len(t) == 1 and t not in "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029":
            out.append((c, t))
    return out


GB2312_ROWS = two_byte(range(0xA1, 0xF8), range(0xA1, 0xFF))
CASES = {
    # label: (Python's codec, the codes tried)
    "euc-jp": (
        "euc_jp",
        two_byte(range(0xA1, 0xFF), range(0xA1, 0xFF))
        + two_byte([0x8E], range(0xA1, 0xE0))
        + [bytes([0x8F, a, b]) for a in range(0xA1, 0xFF) for b in range(0xA1, 0xFF)],
    ),
    "shift_jis": (
        "shift_jis",
        two_byte(list(range(0x81, 0xA0)) + list(range(0xE0, 0xFD)), range(0x40, 0xFD)),
    ),
    "gb2312": ("gb2312", GB2312_ROWS),
    "gb18030": (
        "gb18030",
        two_byte(range(0x81, 0xFF), range(0x40, 0xFF))
        + [bytes([0x81, 0x35, c, d]) for c in range(0x81, 0xFF) for d in range(0x30, 0x3A)],
    ),
    "big5": ("big5", two_byte(range(0x81, 0xFF), range(0x40, 0xFF))),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_code_python_decodes_reads_as_python_decodes_it(tmp_path, name):
    codec, candidates = CASES[name]
    pairs = codes(codec, candidates)
    assert len(pairs) > 6000, f"{codec}: {len(pairs)} codes"
    f = tmp_path / f"{name}.txt"
    f.write_bytes(b"\n".join(c for c, _ in pairs) + b"\n")
    # GB2312's codes and GB18030's are both GBK to the WHATWG standard.
    label = "gbk" if name.startswith("gb") else name

    def lines(tables):
        r = rr.Reader(**WHOLE, encoding=label, codec_tables=tables).read(str(f))
        got = r.content.split("\n")[:-1]
        assert len(got) == len(pairs)
        return got

    python = lines("python")
    wrong = [(c.hex(), t, g) for (c, t), g in zip(pairs, python) if t != g]
    assert wrong == [], f"{codec}: {len(wrong)} codes read otherwise than Python: {wrong[:5]}"
    # The WHATWG tables, the default, differ on the codes the option swaps.
    whatwg = lines("whatwg")
    differ = sum(t != g for (_, t), g in zip(pairs, whatwg))
    assert differ > 0, codec


def test_a_python_preset_reads_euc_jp_as_python_does(tmp_path):
    f = tmp_path / "notice.txt"
    text = "\u301c公開中より\u301c、価格は\uffe5でなく\u00a5\n"
    f.write_bytes(text.encode("euc_jp", errors="ignore") * 40)
    expected = f.read_bytes().decode("euc_jp")
    r = rr.Reader(**WHOLE, encoding="euc-jp", codec_tables="python").read(str(f))
    assert r.content == expected
    assert rr.Reader(**WHOLE, encoding="euc-jp").read(str(f)).content != expected
