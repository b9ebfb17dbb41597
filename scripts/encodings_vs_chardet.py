#!/usr/bin/env python3
"""Compares rangeread's encoding guesses with the labels of chardet's test corpus.

    scripts/encodings_vs_chardet.py [CORPUS]

CORPUS is a checkout of chardet's `tests` directory (one folder per encoding, named
`windows-1250-hungarian`, `SHIFT_JIS`, ...); by default the copy that Google Cloud SDK
ships under /usr/lib/google-cloud-sdk. Every file is classified by the `classify`
example (the first 8 KiB, as a read does). Files that are valid UTF-8 or UTF-16/32 and
folders for encodings that rangeread does not detect (EUC-TW, IBM855, Johab, Mac*,
ISO-2022-*, UTF-*) are left out; a guess counts as right when it decodes the label's
encoding: iso-8859-1 as windows-1252 (the WHATWG reading of Latin-1), GB2312 as GBK,
KOI8-R as KOI8-U, CP932 as Shift_JIS, CP949 as EUC-KR, TIS-620 as windows-874, and
ISO-8859-2 / windows-1250 for each other (they differ in a few letters).
"""
import collections
import os
import subprocess
import sys

DEFAULT = "/usr/lib/google-cloud-sdk/platform/gsutil/third_party/chardet/tests"
ACCEPT = {
    "big5": {"big5"}, "cp932": {"shift_jis"}, "cp949": {"euc-kr"}, "euc-jp": {"euc-jp"},
    "euc-kr": {"euc-kr"}, "gb2312": {"gbk", "gb18030"}, "ibm866": {"ibm866"},
    "koi8-r": {"koi8-u", "koi8-r"}, "shift_jis": {"shift_jis"}, "tis-620": {"windows-874"},
    "iso-8859-1": {"windows-1252"}, "iso-8859-2": {"iso-8859-2", "windows-1250"},
    "windows-1250": {"windows-1250", "iso-8859-2"}, "iso-8859-5": {"iso-8859-5"},
    "iso-8859-6": {"iso-8859-6"}, "iso-8859-7": {"iso-8859-7", "windows-1253"},
    "iso-8859-9": {"windows-1254"}, "windows-1251": {"windows-1251"},
    "windows-1252": {"windows-1252"}, "windows-1254": {"windows-1254"},
    "windows-1255": {"windows-1255", "iso-8859-8"}, "windows-1256": {"windows-1256"},
}


def label(folder):
    folder = folder.lower()
    for key in sorted(ACCEPT, key=len, reverse=True):
        if folder == key or folder.startswith(key + "-"):
            return key
    return None


def main():
    corpus = sys.argv[1] if len(sys.argv) > 1 else DEFAULT
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    subprocess.run(["cargo", "build", "--quiet", "--release", "--example", "classify"],
                   cwd=root, check=True)
    files = []
    for folder in sorted(os.listdir(corpus)):
        key = label(folder)
        path = os.path.join(corpus, folder)
        if key and os.path.isdir(path):
            files += [(key, os.path.join(path, f)) for f in sorted(os.listdir(path))]
    out = subprocess.run([os.path.join(root, "target/release/examples/classify"), "-"],
                         input="\n".join(p for _, p in files), capture_output=True,
                         text=True).stdout.splitlines()
    right, total, wrong = 0, 0, collections.Counter()
    per = collections.defaultdict(lambda: [0, 0])
    for (key, _), line in zip(files, out):
        fields = line.split("\t")
        if fields[1] != "text" or fields[2] in ("utf-8", "utf-16le", "utf-16be"):
            continue  # valid UTF-8 (often pure ASCII) or UTF-16: nothing to guess
        total += 1
        per[key][1] += 1
        if fields[2] in ACCEPT[key]:
            right += 1
            per[key][0] += 1
        else:
            wrong[f"{key} read as {fields[2]}"] += 1
    print(f"legacy-encoded files: {total}, guessed right: {right} ({100 * right / total:.1f}%)")
    for key, (r, t) in sorted(per.items()):
        print(f"  {key:13} {r:3}/{t}")
    for what, n in wrong.most_common():
        print(f"  wrong: {what} x{n}")


if __name__ == "__main__":
    main()
