#!/usr/bin/env python3
"""Generates the classification corpus of tests/classify.rs.

Run from anywhere: `python3 tests/corpus/make.py`. Only the standard library is used and
everything is deterministic (fixed seeds, fixed timestamps), except the SQLite file,
whose header carries the library version that wrote it.

Writes the files into tests/corpus/files/ and tests/corpus/manifest.json, which records
for every file what the classifier must say and, for text, the exact text a read must
return (decoded, without a byte order mark). The expectations come from here, not from
the Rust code under test.
"""

import gzip
import io
import json
import os
import random
import sqlite3
import struct
import tarfile
import zipfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "files")
SAMPLE = 8192

manifest = []


def put(name, data):
    path = os.path.join(OUT, name)
    if os.path.exists(path):
        os.remove(path)
    with open(path, "wb") as f:
        f.write(data)
    return path


def binary(name, data, mime):
    put(name, data)
    manifest.append({"file": name, "verdict": "binary", "mime": mime})


def text(name, content, encoding="utf-8", codec=None, bom=b"", mime=None, crlf=False):
    """`content` is the str a read must return; `codec` the Python codec that writes it."""
    if crlf:
        content = content.replace("\n", "\r\n")
    data = bom + content.encode(codec or encoding)
    put(name, data)
    manifest.append(
        {
            "file": name,
            "verdict": "text",
            "encoding": encoding,
            "bom": bool(bom),
            "mime": mime,
            "text": content,
        }
    )


# --- binary -------------------------------------------------------------------------


def png():
    def chunk(kind, body):
        return (
            struct.pack(">I", len(body))
            + kind
            + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
        )

    w = h = 4
    # Filter byte 0, then RGB pixels, per row.
    raw = b"".join(b"\x00" + b"".join(bytes([x * 60, y * 60, 128]) for x in range(w)) for y in range(h))
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def jpeg():
    # SOI, APP0 JFIF, a quantization table, SOF0 1x1, EOI: the header a decoder reads.
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    dqt = b"\xff\xdb" + struct.pack(">H", 67) + b"\x00" + bytes(range(1, 65))
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, 1, 1, 1) + b"\x01\x11\x00"
    return b"\xff\xd8" + app0 + dqt + sof + b"\xff\xd9"


def gif():
    # A 1x1 GIF89a with a two-colour palette.
    return (
        b"GIF89a"
        + struct.pack("<HHBBB", 1, 1, 0x80, 0, 0)
        + b"\x00\x00\x00\xff\xff\xff"
        + b"\x2c"
        + struct.pack("<HHHHB", 0, 0, 1, 1, 0)
        + b"\x02\x02\x44\x01\x00\x3b"
    )


def gz():
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, filename="") as f:
        f.write(b"hello gzip\n" * 20)
    return buf.getvalue()


def zipped():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        info = zipfile.ZipInfo("readme.txt", date_time=(2020, 1, 1, 0, 0, 0))
        z.writestr(info, "hello zip\n" * 20)
    return buf.getvalue()


def tar():
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as t:
        body = b"hello tar\n"
        info = tarfile.TarInfo("readme.txt")
        info.size = len(body)
        info.mtime = 0
        info.uname = info.gname = "user"
        t.addfile(info, io.BytesIO(body))
    return buf.getvalue()


def pdf():
    # A real PDF: binary comment line (as the PDF spec recommends), a compressed stream,
    # and the font its text is set in (until 2026-11-29 the page named /F1 without
    # defining it: pdfminer then laid each glyph out as a line of its own).
    stream = zlib.compress(b"BT /F1 24 Tf 72 720 Td (Hello PDF) Tj ET")
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"
    offsets = []
    for i, o in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + o + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    return out


def sqlite():
    path = os.path.join(OUT, "db.sqlite")
    if os.path.exists(path):
        os.remove(path)
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    con.executemany("INSERT INTO notes (body) VALUES (?)", [("note %d" % i,) for i in range(50)])
    con.commit()
    con.close()
    with open(path, "rb") as f:
        return f.read()


def ttf():
    # sfnt header with one table record (head), then the table's start.
    head = struct.pack(">IHHHH", 0x00010000, 1, 16, 0, 0)
    record = b"head" + struct.pack(">III", 0, 28, 54)
    return head + record + b"\x00\x01\x00\x00" + bytes(50)


def woff():
    header = b"wOFF" + struct.pack(">IIHHIHHIIIII", 0x00010000, 96, 1, 0, 200, 1, 0, 0, 0, 0, 0, 0)
    return header + b"head" + struct.pack(">IIII", 44, 36, 54, 0) + bytes(36)


def wasm():
    # (module (func (export "f") (result i32) i32.const 42))
    return bytes.fromhex(
        "0061736d01000000010501600001 7f03020100070501016600000a06010400412a0b".replace(" ", "")
    )


def elf():
    ident = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    hdr = struct.pack("<HHIQQQIHHHHHH", 2, 0x3E, 1, 0x401000, 64, 0, 0, 64, 56, 1, 64, 0, 0)
    phdr = struct.pack("<IIQQQQQQ", 1, 5, 0, 0x400000, 0x400000, 0x1000, 0x1000, 0x1000)
    return ident + hdr + phdr + b"\xb8\x3c\x00\x00\x00\x31\xff\x0f\x05"


def random_bytes():
    rnd = random.Random(4)
    data = bytearray(rnd.getrandbits(8) for _ in range(4096))
    for i in range(0, len(data), 97):
        data[i] = 0
    return bytes(data)


# --- text ---------------------------------------------------------------------------

RUST = '''//! A tiny module.

/// Adds two numbers.
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests {
    #[test]
    fn adds() {
        assert_eq!(super::add(2, 2), 4);
    }
}
'''

PYTHON = '''"""Greetings, in several languages."""

GREETINGS = {"fr": "Bonjour", "de": "Grüß Gott", "ja": "こんにちは"}


def greet(lang: str) -> str:
    return GREETINGS.get(lang, "Hello")


if __name__ == "__main__":
    print(greet("ja"))
'''

C = '''#include <stdio.h>

int main(void) {
    printf("hello, world\\n");
    return 0;
}
'''

GO = '''package main

import "fmt"

func main() {
\tfmt.Println("héllo, 世界")
}
'''

SHELL = '''#!/bin/sh
set -eu
for f in "$@"; do
    printf '%s\\n' "$f"
done
'''

JSON = json.dumps(
    {"name": "rangeread", "tags": ["file", "range", "ünïcode"], "n": 3, "nested": {"ok": True}},
    ensure_ascii=False,
    indent=2,
) + "\n"

MINIFIED_JS = (
    "!function(e){var t={};function n(r){if(t[r])return t[r].exports;var o=t[r]={i:r,l:!1,exports:{}};"
    + "".join(
        "e[%d].call(o.exports,o,o.exports,n),o.l=!0;var a%d=function(x){return x*%d+\"é\"};" % (i, i, i)
        for i in range(120)
    )
    + "return o.exports}n(0)}([]);\n"
)

CSV = "id,name,city,amount\n" + "".join(
    "%d,%s,%s,%d.%02d\n" % (i, n, c, i * 17 % 1000, i % 100)
    for i, (n, c) in enumerate(
        [("Anna", "Zürich"), ("Björn", "Malmö"), ("Chloé", "Paris"), ("Dmitri", "Москва")] * 10
    )
)

SVG = '''<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">
  <circle cx="5" cy="5" r="4" fill="teal"/>
</svg>
'''

HTML = '''<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Test</title></head>
<body>
<p>Hello — “quoted” text.</p>
</body>
</html>
'''

ANSI_LOG = "".join(
    "\x1b[32m2024-01-01T00:00:%02dZ\x1b[0m \x1b[1;33mWARN\x1b[0m request %d took %d ms\n" % (i, i, i * 7)
    for i in range(40)
)

PEM = """-----BEGIN CERTIFICATE-----
MIIBszCCAVmgAwIBAgIUEXAMPLEEXAMPLEEXAMPLEEXAMPLEwCgYIKoZIzj0EAwIw
EjEQMA4GA1UEAwwHZXhhbXBsZTAeFw0yNDAxMDEwMDAwMDBaFw0zNDAxMDEwMDAw
-----END CERTIFICATE-----
"""

POSTSCRIPT = """%!PS-Adobe-3.0
%%Title: hello
/Helvetica findfont 24 scalefont setfont
72 720 moveto (Hello PostScript) show
showpage
"""

RTF = r"""{\rtf1\ansi\deff0 {\fonttbl {\f0 Times;}}
\f0\fs24 Hello RTF.\par
}
"""

# A multi-byte character whose bytes straddle the 8 KiB sample edge: 'é' (2 bytes) at
# 8191-8192, then more text; and a 4-byte emoji straddling it in a second file.
STRADDLE2 = "a" * (SAMPLE - 1) + "é" + "\nafter the edge: ünïcode\n"
STRADDLE4 = "b" * (SAMPLE - 2) + "😀" + "\nafter the edge\n"

UTF16_TEXT = "First line\nSecond: naïve café\nThird: 日本語 and 😀 emoji\nlast line\n"

LATIN1 = (
    "Le cœur a ses raisons que la raison ne connaît point. "
    "Où est la bibliothèque? Ça coûte très cher, déjà vu, à bientôt.\n"
    "Über den Wolken muß die Freiheit wohl grenzenlos sein. Grüße aus Köln.\n"
    "El niño pequeño comió piña en la montaña, ¿verdad? ¡Olé!\n"
) * 4
LATIN1 = LATIN1.replace("œ", "oe")  # not in Latin-1

CP1252 = (
    "“Smart quotes” and ‘single ones’ — an em dash – an en dash… ellipsis.\n"
    "Prices: 20 € or £15; trademark™ and per mille ‰. Café, naïve, façade, Zoë.\n"
    "Les élèves étudient l’histoire de l’œuvre à l’école.\n"
) * 4

SHIFT_JIS = (
    "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。"
    "何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。\n"
    "吾輩はここで始めて人間というものを見た。しかもあとで聞くとそれは書生という人間中で"
    "一番獰悪な種族であったそうだ。\n"
    "東京都の天気は晴れ、気温は二十度です。明日は雨が降るでしょう。\n"
) * 3

GBK = (
    "我们今天去公园散步，天气非常好。孩子们在草地上玩耍，老人们在树下下棋。\n"
    "中华人民共和国是一个历史悠久的国家，有着灿烂的文化和众多的人口。\n"
    "学习中文需要时间和耐心，但是非常有意思。北京的秋天最美丽。\n"
) * 3

EUC_KR = (
    "대한민국의 수도는 서울입니다. 오늘은 날씨가 맑고 따뜻합니다.\n"
    "한국어를 배우는 것은 어렵지만 재미있습니다. 우리는 도서관에서 책을 읽었습니다.\n"
    "김치와 불고기는 한국의 대표적인 음식입니다.\n"
) * 3


def main():
    os.makedirs(OUT, exist_ok=True)
    binary("image.png", png(), "image/png")
    binary("photo.jpg", jpeg(), "image/jpeg")
    binary("anim.gif", gif(), "image/gif")
    binary("archive.gz", gz(), "application/gzip")
    binary("archive.zip", zipped(), "application/zip")
    binary("archive.tar", tar(), "application/x-tar")
    binary("doc.pdf", pdf(), "application/pdf")
    manifest.append({"file": "db.sqlite", "verdict": "binary", "mime": "application/vnd.sqlite3"})
    sqlite()
    binary("font.ttf", ttf(), "application/font-sfnt")
    binary("font.woff", woff(), "application/font-woff")
    binary("module.wasm", wasm(), "application/wasm")
    binary("program.elf", elf(), "application/x-executable")
    binary("random.bin", random_bytes(), "application/octet-stream")
    # Text whose name says binary: content decides.
    text("notes.dat", "key=value\nother=thing\n")
    text("lib.rs", RUST)
    text("greet.py", PYTHON)
    text("hello.c", C)
    text("main.go", GO)
    text("script.sh", SHELL, mime="text/x-shellscript")
    text("data.json", JSON)
    text("bundle.min.js", MINIFIED_JS)
    text("table.csv", CSV)
    text("icon.svg", SVG, mime="text/xml")
    text("page.html", HTML, mime="text/html")
    text("colors.log", ANSI_LOG)
    text("cert.pem", PEM, mime="application/x-x509-ca-cert")
    text("hello.ps", POSTSCRIPT, mime="application/postscript")
    text("hello.rtf", RTF, mime="application/rtf")
    text("straddle2.txt", STRADDLE2)
    text("straddle4.txt", STRADDLE4)
    text("bom-utf8.txt", "BOM first\nthen text: ünïcode\n", bom=b"\xef\xbb\xbf")
    text("utf16le-bom.txt", UTF16_TEXT, "utf-16le", bom=b"\xff\xfe", crlf=True)
    text("utf16be-bom.txt", UTF16_TEXT, "utf-16be", bom=b"\xfe\xff")
    text("utf16le.txt", UTF16_TEXT, "utf-16le")
    text("utf16be.txt", UTF16_TEXT, "utf-16be", crlf=True)
    text("utf32le-bom.txt", UTF16_TEXT, "utf-32le", bom=b"\xff\xfe\x00\x00")
    text("utf32be-bom.txt", UTF16_TEXT, "utf-32be", bom=b"\x00\x00\xfe\xff")
    # Latin-1 is reported as windows-1252, its superset (WHATWG).
    text("latin1.txt", LATIN1, "windows-1252", codec="latin-1")
    text("cp1252.txt", CP1252, "windows-1252", codec="cp1252")
    text("shift_jis.txt", SHIFT_JIS, "shift_jis", codec="shift_jis")
    text("gbk.txt", GBK, "gbk", codec="gbk")
    text("euc-kr.txt", EUC_KR, "euc-kr", codec="euc-kr")
    text("empty.txt", "")
    with open(os.path.join(HERE, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
