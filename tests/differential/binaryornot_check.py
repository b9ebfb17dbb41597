#!/usr/bin/env python3
"""binaryornot's verdicts on the samples of tests/data/binaryornot_samples.json, checked
against the installed release (openhands-aci's binaryornot 0.4.4 with chardet 5.2.0).

    python binaryornot_check.py            # in the venv run.sh installs openhands-aci in
    python binaryornot_check.py --write    # records the verdicts (after adding a sample)

binaryornot reads the first 1,024 bytes of a file (`get_starting_chunk`); so does this.
The Rust side (`ControlBytes::SampleShares`, tests/openhands_view.rs) is checked against
the same file: a sample whose verdict this check finds changed fails here first.
"""

import json
import os
import sys

import chardet
from binaryornot.helpers import is_binary_string

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data", "binaryornot_samples.json")


def samples():
    """The samples, as (name, bytes): each branch of binaryornot's rule."""
    cjk = "first line\n" + "日本語のテキスト" * 60
    ok = cjk.encode()[: 1024 - (1024 - 11) % 3]  # ends on a character
    return [
        ("cjk cut inside a character at 1024", cjk.encode()),
        ("cjk ending on a character", ok),
        ("emoji, no ASCII", ("first line\n" + "😀" * 300).encode()),
        ("three emoji in ASCII text", ("🙂🙂🙂 " + "ascii words here\n" * 20).encode()),
        ("cyrillic UTF-8 without spaces", ("привет" * 100).encode()),
        ("abc FF FE then ASCII", b"abc\xff\xfe" + b"01 after the bytes\n" * 20),
        ("latin-1 with y-umlaut", "café naïve ÿ über\n".encode("latin-1") * 20),
        ("three 2-byte UTF-8 and a NUL", "ééé\0".encode() + b"ascii text\n" * 10),
        ("six 2-byte UTF-8 and a NUL", "éééééé\0".encode() + b"ascii text\n" * 10),
        ("four 3-byte UTF-8 and a NUL", "€€€€\0".encode() + b"ascii text\n" * 10),
        ("ESC with six 2-byte UTF-8 and a NUL", "\x1béééééé\0".encode() + b"ascii\n" * 10),
        ("UTF-8 mark, ASCII and a NUL", b"\xef\xbb\xbfascii\0text\n" * 10),
        ("UTF-16LE mark, whole units", "\ufeffhello world\n".encode("utf-16-le") * 10),
        ("UTF-16LE mark, odd length", "\ufeffhello world\n".encode("utf-16-le") * 10 + b"x"),
        ("mostly control bytes", bytes(range(1, 9)) * 40 + b"text"),
        ("BEL and VT only", b"\x07\x0b" * 10),
        ("high bytes without FF", bytes(range(0x80, 0xFF)) * 8),
        ("plain ASCII", b"just text\n" * 50),
        ("empty", b""),
        ("a BEL in ASCII text", b"\x07line 1\nline 2\n" * 20),
        ("cp1251 Russian with ya", "Привет, мир! Это тестовая строка, я рад.\n".encode("cp1251") * 10),
        ("cp1251 Bulgarian", "Здравей, свят! Аз съм тук и ям ябълка.\n".encode("cp1251") * 8),
        ("koi8-r with hard sign", RU.encode("koi8_r") * 6),
        ("koi8-r capitals with hard sign", RU.upper().encode("koi8_r") * 6),
        ("iso-8859-5 with dzhe", (RU + "џ").encode("iso8859_5") * 6),
        ("cp866 with nbsp", RU.encode("cp866") * 5 + b"\xff"),
        ("German cp1252 with y-umlaut", "Größe und Übermaß, ÿ, schön mit Äpfeln.\n".encode("cp1252") * 10),
        ("Turkish cp1254 with y-umlaut", "Türkçe metin: şu çalışma güzel ÿ.\n".encode("cp1254") * 10),
    ]


RU = "Привет, мир! Это тестовая строка для проверки, я рад. Объявление съезда.\n"


# Samples whose verdict rests on a legacy guess of chardet's that the Rust rule does not
# model (it reads them as text): the reason, for the record. The rule takes chardet to be
# sure of Cyrillic alone among the legacy encodings with a character at FF.
NOT_MODELLED = {
    "koi8-r capitals with hard sign": "Cyrillic in capitals: chardet guesses ISO-8859-8 at 0.79",
}


def main():
    if "--write" in sys.argv:
        rows = [
            dict({"name": n, "hex": b.hex(), "binary": bool(is_binary_string(b[:1024]))},
                 **({"not_modelled": NOT_MODELLED[n]} if n in NOT_MODELLED else {}))
            for n, b in samples()
        ]
        meta = {
            "source": "binaryornot 0.4.4 helpers.is_binary_string with chardet "
            + chardet.__version__
            + " (tests/differential/binaryornot_check.py --write)",
            "samples": rows,
        }
        with open(DATA, "w") as f:
            json.dump(meta, f, indent=1, ensure_ascii=False)
            f.write("\n")
    if chardet.__version__ != "5.2.0":
        print(f"binaryornot check: chardet {chardet.__version__} installed, the samples are 5.2.0's", file=sys.stderr)
        sys.exit(1)
    data = json.load(open(DATA))
    wrong = [s["name"] for s in data["samples"] if bool(is_binary_string(bytes.fromhex(s["hex"])[:1024])) != s["binary"]]
    n = len(data["samples"])
    print(f"binaryornot check: {n - len(wrong)}/{n} samples as recorded" + (f"; changed: {wrong}" if wrong else ""))
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
