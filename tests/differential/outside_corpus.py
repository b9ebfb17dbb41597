#!/usr/bin/env python3
"""A corpus the project does not have: real files of pinned registry packages, or any
directory, sampled the same way every time.

    python3 tests/differential/outside_corpus.py OUT_DIR [--from DIR] [--max-files N]

Without `--from`, downloads the packages of PINNED (npm pack, pip download; nothing of
them enters the tree), unpacks each under OUT_DIR/tree/NAME-VERSION/ and samples that.
With `--from DIR`, samples the files of DIR (links are not followed). The sample is copied
into OUT_DIR/root/ (the workspace every agent and every preset reads) and described in
OUT_DIR/manifest.json the way corpus.py describes its own: name, group, bytes, lines.

The sample: every regular file, sorted by path, falls in the first group it fits, in the
order of KINDS (an image, a PDF, a NUL in its first 8 KiB, over 10 MiB, over 256 KiB, a
byte order mark or not UTF-8, CRLF or a lone CR, a line over 2,000 characters, else
text). Of each group at most `--max-files` / (number of groups) files are taken, spread
evenly over the group's sorted list (the first and the last included); the first text
file is the baseline (a call shape that differs there too is the shape's doing), and the
first file of each group also gets the argument-type calls. Paths with a space or a
control character are left out (a call's id is `NAME SHAPE`). Nothing depends on the
clock or on the directory order.
"""

import argparse
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus import line_count  # noqa: E402

# The packages, pinned: (registry, name, version). What each brings that real trees have:
PINNED = [
    # JavaScript with CRLF endings, minified builds, Markdown.
    ("npm", "bignumber.js", "9.3.1"),
    ("npm", "tslib", "2.9.1"),
    # A README and a licence that start with a UTF-8 byte order mark.
    ("npm", "whatwg-url", "5.0.0"),
    ("npm", "express-rate-limit", "7.5.1"),
    # Bundles with lines of hundreds of KB, one file of 11.6 MB (over OpenHands' 10 MiB
    # cap), PNGs, JSON, TypeScript declarations.
    ("npm", "@google/gemini-cli-core", "0.61.0"),
    # Its test suite: real web pages and texts in Big5, EUC-JP, Shift_JIS, KOI8-R,
    # windows-1251/1252, ISO-8859-x, UTF-16/32 with and without a mark, ...
    ("pypi-sdist", "chardet", "5.2.0"),
    # PNG, JPEG and PDF images, fonts (binary), AFM metrics, Python sources.
    ("pypi-wheel", "matplotlib", "3.11.2"),
]

KINDS = [
    "images", "PDF", "binary files", "over 10 MiB", "over 256 KiB", "encodings",
    "line endings", "long lines", "text",
]
IMAGE_EXT = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".ico"}


def kind(path):
    size = os.path.getsize(path)
    ext = os.path.splitext(path)[1].lower()
    if ext in IMAGE_EXT:
        return "images"
    if ext == ".pdf":
        return "PDF"
    with open(path, "rb") as f:
        head = f.read(8192)
    marked = head[:3] == b"\xef\xbb\xbf" or head[:2] in (b"\xff\xfe", b"\xfe\xff")
    if b"\0" in head and not marked:
        return "binary files"
    if size > 10 * 1024 * 1024:
        return "over 10 MiB"
    if size > 256 * 1024:
        return "over 256 KiB"
    with open(path, "rb") as f:
        data = f.read()
    if marked:
        return "encodings"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return "encodings"
    if b"\r" in data:
        return "line endings"
    if any(len(line) > 2000 for line in data.split(b"\n")):
        return "long lines"
    return "text"


def fetch(out):
    """Downloads and unpacks PINNED into OUT/tree/ (kept while PINNED does not change)."""
    tree = os.path.join(out, "tree")
    stamp = hashlib.sha256(json.dumps(PINNED).encode()).hexdigest()
    stamp_path = os.path.join(out, "tree.stamp")
    if os.path.exists(stamp_path) and open(stamp_path).read() == stamp:
        return tree
    dl = os.path.join(out, "downloads")
    for d in (tree, dl):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    for registry, name, version in PINNED:
        label = f"{name.replace('@', '').replace('/', '-')}-{version}"
        dest = os.path.join(tree, label)
        before = set(os.listdir(dl))
        if registry == "npm":
            cmd = ["npm", "pack", "--silent", "--pack-destination", dl, f"{name}@{version}"]
        else:
            cmd = [sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check",
                   "--no-deps", "-d", dl, f"{name}=={version}"]
            if registry == "pypi-sdist":
                cmd += ["--no-binary", ":all:"]
            else:  # one wheel whatever the machine: CPython 3.12 on x86-64 Linux
                cmd += ["--only-binary", ":all:", "--platform", "manylinux_2_17_x86_64",
                        "--python-version", "3.12"]
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        got = sorted(set(os.listdir(dl)) - before)
        if r.returncode != 0 or len(got) != 1:
            sys.exit(f"outside corpus: {' '.join(cmd)} failed ({r.returncode}): {r.stderr[-500:]}"
                     "\n(needs npm and pip with the npm and PyPI registries reachable)")
        archive = os.path.join(dl, got[0])
        os.makedirs(dest)
        if archive.endswith(".whl"):
            with zipfile.ZipFile(archive) as z:
                z.extractall(dest)
        else:
            with tarfile.open(archive) as t:
                t.extractall(dest, filter="data")
        print(f"outside corpus: {name} {version} ({registry}) -> {dest}")
    with open(stamp_path, "w") as f:
        f.write(stamp)
    return tree


def files(top):
    out = []
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames.sort()
        for f in filenames:
            p = os.path.join(dirpath, f)
            rel = os.path.relpath(p, top)
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            if any(c.isspace() or ord(c) < 32 for c in rel):
                continue
            out.append(rel)
    return sorted(out)


def spread(items, n):
    """n items of a sorted list, evenly apart, the first and the last included."""
    if len(items) <= n:
        return list(items)
    if n == 1:
        return [items[0]]
    return [items[round(i * (len(items) - 1) / (n - 1))] for i in range(n)]


def sample(top, max_files):
    groups = {k: [] for k in KINDS}
    for rel in files(top):
        groups[kind(os.path.join(top, rel))].append(rel)
    per = max(max_files // len(KINDS), 1)
    picked = []
    for k in KINDS:
        for i, rel in enumerate(spread(groups[k], per)):
            group = "baseline" if k == "text" and i == 0 else k
            picked.append((rel, group, i == 0))
    counts = {k: len(v) for k, v in groups.items()}
    return picked, counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--from", dest="source", help="sample this directory instead of the pinned packages")
    ap.add_argument("--max-files", type=int, default=72)
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    top = os.path.abspath(args.source) if args.source else fetch(out)
    if not os.path.isdir(top):
        sys.exit(f"outside corpus: {top} is not a directory (RANGEREAD_DIFFERENTIAL_CORPUS)")
    picked, counts = sample(top, args.max_files)
    root = os.path.join(out, "corpus", "root")
    shutil.rmtree(os.path.join(out, "corpus"), ignore_errors=True)
    os.makedirs(root)
    os.makedirs(os.path.join(out, "corpus", "outside"))
    manifest = []
    for rel, group, types in picked:
        dest = os.path.join(root, rel)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(os.path.join(top, rel), dest)
        data = open(dest, "rb").read()
        manifest.append({"name": rel, "group": group, "bytes": len(data), "lines": line_count(data),
                         "types": types})
    with open(os.path.join(out, "corpus", "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    source = args.source or ", ".join(f"{n} {v}" for _, n, v in PINNED)
    print(f"outside corpus: {len(manifest)} of {sum(counts.values())} files of {source}, "
          f"at most {max(args.max_files // len(KINDS), 1)} per kind, spread over each kind's "
          f"files sorted by path, in {root}")
    for k in KINDS:
        n = sum(1 for _, g, _ in picked if g == k or (k == "text" and g == "baseline"))
        print(f"    {k}: {n} of {counts[k]}")


if __name__ == "__main__":
    main()
