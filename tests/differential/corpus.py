#!/usr/bin/env python3
"""Generates the differential suite's corpus of edge files (stdlib only, deterministic).

    python3 tests/differential/corpus.py OUT_DIR

writes OUT_DIR/root/ (the workspace every agent and every preset reads), OUT_DIR/outside/
(what the symlink out of the root points at) and OUT_DIR/manifest.json: for each entry its
name, its group (the cause a difference on it is first filed under) and its line count
(what "the middle", "the last" and "past the end" of a call mean for it).

The files: UTF-8 with and without BOM, UTF-16LE/BE with and without BOM, Latin-1, cp1251,
Shift_JIS; LF, CRLF, lone CR, mixed endings, no final newline, an empty file, a lone
newline; BEL, VT, ESC and NUL at the start, at byte 100 and past 8 KiB; lines over 2,000
characters of ASCII, emoji and CJK; files over each agent's size cap (Claude Code's 256 KB,
OpenHands' 10 MiB, Gemini CLI's 20 MiB) and over the 2,000-line defaults; PNG, JPEG, PDF
(the generators of tests/corpus/make.py), ELF (a copy of /bin/true), zip; a directory, a
missing path and a symlink that leaves the root. Nothing here depends on the clock.
"""

import hashlib
import importlib.util
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MAKE = os.path.join(HERE, "..", "corpus", "make.py")


def fixtures():
    """The binary generators of the classification corpus (PNG, JPEG, PDF, zip)."""
    spec = importlib.util.spec_from_file_location("corpus_make", MAKE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def numbered(n, body, eol="\n", final=True):
    lines = [f"{i:02d} {body}" for i in range(1, n + 1)]
    text = eol.join(lines)
    return text + eol if final else text


def ctrl_file(ctrl, where):
    """About 9.3 KB of numbered lines with one control byte at the start, at byte 100,
    or past 8 KiB (inserted, so no line loses its newline)."""
    data = "".join(f"line {i:03d}: the quick brown fox jumps\n" for i in range(1, 261)).encode()
    at = {"start": 0, "100": 100, "8k": 8300}[where]
    return data[:at] + ctrl + data[at:]


def big(target_bytes):
    line = "row {:07d}: " + "lorem ipsum dolor sit amet consectetur adipiscing elit" + "\n"
    per = len(line.format(0))
    return "".join(line.format(i) for i in range(1, target_bytes // per + 2)).encode()


def entries(mk):
    """(name, group, bytes) for every regular file of the root."""
    utf8 = numbered(30, "héllo wörld ✓ 日本 😀")
    utf16 = numbered(30, "héllo wörld ✓ 日本")
    yield "plain.txt", "baseline", numbered(30, "the quick brown fox").encode()
    yield "lines3000.txt", "caps", numbered(3000, "a line of a long file").encode()
    yield "utf8.txt", "encodings", utf8.encode()
    yield "utf8_bom.txt", "encodings", b"\xef\xbb\xbf" + utf8.encode()
    yield "utf16le_bom.txt", "encodings", b"\xff\xfe" + utf16.encode("utf-16-le")
    yield "utf16le.txt", "encodings", utf16.encode("utf-16-le")
    yield "utf16be_bom.txt", "encodings", b"\xfe\xff" + utf16.encode("utf-16-be")
    yield "utf16be.txt", "encodings", utf16.encode("utf-16-be")
    yield "latin1.txt", "encodings", numbered(30, "café naïve façade über").encode("latin-1")
    yield "cp1251.txt", "encodings", numbered(30, "привет мир, съешь ещё").encode("cp1251")
    yield "shift_jis.txt", "encodings", numbered(30, "日本語のテキストです").encode("shift_jis")
    yield "crlf.txt", "line endings", numbered(30, "carriage return line feed", "\r\n").encode()
    yield "cr.txt", "line endings", numbered(30, "lone carriage return", "\r").encode()
    mixed = "".join(f"{i:02d} mixed endings" + ["\n", "\r\n", "\r"][i % 3] for i in range(1, 31))
    yield "mixed.txt", "line endings", mixed.encode()
    yield "no_final_newline.txt", "line endings", numbered(30, "no newline at the end", final=False).encode()
    yield "empty.txt", "line endings", b""
    yield "lone_newline.txt", "line endings", b"\n"
    for name, byte in (("bel", b"\x07"), ("vt", b"\x0b"), ("esc", b"\x1b"), ("nul", b"\x00")):
        for where in ("start", "100", "8k"):
            yield f"ctrl_{name}_{where}.txt", "binary rules", ctrl_file(byte, where)
    yield "invalid_utf8.txt", "binary rules", b"abc\xff\xfe" + numbered(29, "after invalid bytes").encode()
    # 2,500 characters; the emoji line is 2,100 characters but 4,200 UTF-16 units.
    for name, long in (("ascii", "0123456789" * 250), ("emoji", "😀" * 2100), ("cjk", "漢" * 2500)):
        body = f"first line\n{long}\nthird line\n" + numbered(5, "after the long line")
        yield f"long_{name}.txt", "long lines", body.encode()
    yield "big_300k.txt", "caps", big(300 * 1024)
    yield "big_11m.txt", "caps", big(11 * 1024 * 1024)
    yield "big_21m.txt", "caps", big(21 * 1024 * 1024)
    yield "image.png", "media", mk.png()
    yield "photo.jpg", "media", mk.jpeg()
    yield "doc.pdf", "media", mk.pdf()
    yield "archive.zip", "binary files", mk.zipped()
    with open("/bin/true", "rb") as f:
        yield "program.elf", "binary files", f.read()


def line_count(data):
    """Lines as "split on LF, a final LF ends the last line" would count them: what the
    call shapes take as the file's length (UTF-16 files are counted on their text)."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or (len(data) > 1 and (data[0] == 0 or data[1] == 0)):
        enc = {b"\xff\xfe": "utf-16", b"\xfe\xff": "utf-16"}.get(data[:2])
        if enc is None:
            enc = "utf-16-be" if data[0] == 0 else "utf-16-le"
        try:
            data = data.decode(enc).encode()
        except UnicodeDecodeError:
            pass
    if not data:
        return 0
    n = data.count(b"\n")
    return n if data.endswith(b"\n") else n + 1


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: corpus.py OUT_DIR")
    out = os.path.abspath(sys.argv[1])
    # The same generators write the same files: an existing corpus is kept (a run of
    # another agent may be reading it).
    stamp = hashlib.sha256(open(__file__, "rb").read() + open(MAKE, "rb").read()).hexdigest()
    stamp_path = os.path.join(out, "stamp")
    if os.path.exists(stamp_path) and open(stamp_path).read() == stamp:
        print(f"corpus: up to date in {out}")
        return
    if os.path.exists(out):
        shutil.rmtree(out)
    root = os.path.join(out, "root")
    outside = os.path.join(out, "outside")
    os.makedirs(root)
    os.makedirs(outside)
    mk = fixtures()
    manifest = []
    for name, group, data in entries(mk):
        with open(os.path.join(root, name), "wb") as f:
            f.write(data)
        manifest.append({"name": name, "group": group, "bytes": len(data), "lines": line_count(data)})
    os.makedirs(os.path.join(root, "dir", "sub"))
    with open(os.path.join(root, "dir", "inner.txt"), "w") as f:
        f.write("inside a directory\n")
    with open(os.path.join(root, "dir", "sub", "deep.txt"), "w") as f:
        f.write("two levels down\n")
    manifest.append({"name": "dir", "group": "paths", "bytes": 0, "lines": 0})
    manifest.append({"name": "missing.txt", "group": "paths", "bytes": 0, "lines": 0})
    with open(os.path.join(outside, "secret.txt"), "w") as f:
        f.write("outside the root\n")
    os.symlink(os.path.join("..", "outside", "secret.txt"), os.path.join(root, "link_out.txt"))
    manifest.append({"name": "link_out.txt", "group": "paths", "bytes": 0, "lines": 1})
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    with open(stamp_path, "w") as f:
        f.write(stamp)
    print(f"corpus: {len(manifest)} entries in {root}")


if __name__ == "__main__":
    main()
