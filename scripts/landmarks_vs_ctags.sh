#!/usr/bin/env bash
# Measures how well rangeread's landmarks agree with universal-ctags.
#
# What is measured, exactly:
#
#   Corpus   Real source files found on this machine, per language:
#              rust    *.rs under ~/.cargo/registry/src
#              python  *.py under /usr/lib/python3*
#              c       *.c  anywhere on the root file system except /proc, /sys and /work
#                       (registry crates such as libsqlite3-sys, /usr/share/doc examples,
#                       pyenv sources, ...)
#            Files with fewer than MIN_LINES lines (default 120) are skipped.
#   Reads    For each language, SAMPLES reads (default 200): a file drawn at random (fixed
#            SEED, with replacement, so a small corpus gives several reads per file), then
#            one 40-line read `--lines S:+39` with S uniform in [1, N-39]. The read
#            goes through the release `read` example with the library defaults (budgets,
#            40 landmarks, 256 KiB landmark window), `--format json`; our landmarks are
#            `omitted.landmarks` of that result.
#   ctags    `ctags --output-format=json --fields=+nK -f - FILE` (universal-ctags; the
#            kinds enabled by default).
#   Recall   Per read, the "nearest definitions" are the K (default 5) lines outside the
#            read, nearest to it in lines (either side), on which ctags reports a tag of a
#            definition kind:
#              rust    every kind except field and enumerator (enum variant)
#              python  class, function, member (methods)
#              c       function, struct, union, enum, typedef
#            Recall = (nearest-definition lines that are among our landmark lines) /
#            (nearest-definition lines), pooled over all reads.
#   Precision  Over all landmarks of all reads: the share of landmark lines on which
#            ctags reports a tag of any kind other than imports/includes
#            (python: namespace, module, unknown; c: header) = "lenient"; and the share on
#            which it reports a tag of the recall kinds above = "strict".
#   Targets  recall >= 0.9, lenient precision >= 0.8.
#
# Usage: scripts/landmarks_vs_ctags.sh [SAMPLES] [SEED]
# Needs: universal-ctags with JSON output, python3, cargo.
set -euo pipefail
cd "$(dirname "$0")/.."

SAMPLES=${1:-200}
SEED=${2:-7}
MIN_LINES=${MIN_LINES:-120}
K=${K:-5}

if ! ctags --version 2>/dev/null | grep -q "Universal Ctags"; then
  echo "error: universal-ctags is required (ctags --version)" >&2
  exit 1
fi
if ! ctags --list-features 2>/dev/null | grep -q '^json'; then
  echo "error: this ctags has no JSON output" >&2
  exit 1
fi

cargo build --release --example read >&2
READ=target/release/examples/read

SAMPLES=$SAMPLES SEED=$SEED MIN_LINES=$MIN_LINES K=$K READ=$READ python3 - <<'PY'
import glob, json, os, random, subprocess, sys

SAMPLES = int(os.environ["SAMPLES"])
SEED = int(os.environ["SEED"])
MIN_LINES = int(os.environ["MIN_LINES"])
K = int(os.environ["K"])
READ = os.environ["READ"]
HOME = os.path.expanduser("~")

CORPUS = {
    "rust": ([f"{HOME}/.cargo/registry/src"], "*.rs"),
    "python": (sorted(glob.glob("/usr/lib/python3*")), "*.py"),
    "c": (["/"], "*.c"),
}
RECALL_KINDS = {
    "rust": None,  # every kind except the excluded ones below
    "python": {"class", "function", "member"},
    "c": {"function", "struct", "union", "enum", "typedef"},
}
RUST_EXCLUDED = {"field", "enumerator"}
# Kinds that name something defined elsewhere (imports, includes), per language.
NOT_DEFINITIONS = {"rust": set(), "python": {"namespace", "module", "unknown"}, "c": {"header"}}


def is_recall_kind(lang, kind):
    if lang == "rust":
        return kind not in RUST_EXCLUDED
    return kind in RECALL_KINDS[lang]


def files_for(lang):
    roots, name = CORPUS[lang]
    out = subprocess.run(
        ["find", *roots, "-xdev", "(", "-path", "/proc", "-o", "-path", "/sys", "-o",
         "-path", "/work", ")", "-prune", "-o", "-name", name, "-type", "f", "-print"],
        capture_output=True, text=True, check=False).stdout
    seen = set()
    for p in out.splitlines():
        rp = os.path.realpath(p)
        if os.path.isfile(rp):
            seen.add(rp)
    return sorted(seen)


def count_lines(path):
    with open(path, "rb") as f:
        data = f.read()
    n = data.count(b"\n")
    if data and not data.endswith(b"\n"):
        n += 1
    return n


CTAGS_CACHE = {}


def ctags(path):
    if path in CTAGS_CACHE:
        return CTAGS_CACHE[path]
    out = subprocess.run(
        ["ctags", "--output-format=json", "--fields=+nK", "-f", "-", path],
        capture_output=True, check=False).stdout
    tags = {}
    for line in out.decode("utf-8", "replace").splitlines():
        try:
            t = json.loads(line)
        except ValueError:
            continue
        if t.get("_type") != "tag" or "line" not in t:
            continue
        tags.setdefault(t["line"], set()).add(t.get("kind", ""))
    CTAGS_CACHE[path] = tags
    return tags


def ours(path, start):
    r = subprocess.run([READ, "--lines", f"{start}:+39", "--format", "json", path],
                       capture_output=True, check=False)
    if r.returncode != 0:
        return None
    res = json.loads(r.stdout)
    om = res.get("omitted") or {}
    return [l["line"] for l in om.get("landmarks", [])]


rng = random.Random(SEED)
report = {}
for lang in ["rust", "python", "c"]:
    files = []
    for path in files_for(lang):
        try:
            n = count_lines(path)
        except OSError:
            continue
        if n >= MIN_LINES:
            files.append((path, n))
    reads = 0
    wanted = found = 0
    marks = lenient_ok = strict_ok = 0
    misses, false_pos = [], []
    attempts = 0
    while files and reads < SAMPLES and attempts < 20 * SAMPLES:
        attempts += 1
        path, n = rng.choice(files)
        start = rng.randint(1, n - 39)
        end = start + 39
        got = ours(path, start)
        if got is None:
            continue
        tags = ctags(path)
        if not tags:
            continue
        reads += 1
        got_set = set(got)
        defs = [l for l, kinds in tags.items()
                if (l < start or l > end) and any(is_recall_kind(lang, k) for k in kinds)]
        dist = lambda l: start - l if l < start else l - end
        nearest = sorted(defs, key=lambda l: (dist(l), l))[:K]
        wanted += len(nearest)
        for l in nearest:
            if l in got_set:
                found += 1
            else:
                misses.append((path, l, [f"read {start}-{end}"] + sorted(tags[l])))
        for l in got:
            marks += 1
            kinds = tags.get(l, set())
            if kinds - NOT_DEFINITIONS[lang]:
                lenient_ok += 1
            else:
                false_pos.append((path, l))
            if any(is_recall_kind(lang, k) for k in kinds):
                strict_ok += 1
    report[lang] = dict(
        reads=reads, files=len(files), nearest=wanted, found=found,
        recall=found / wanted if wanted else float("nan"),
        landmarks=marks,
        precision_lenient=lenient_ok / marks if marks else float("nan"),
        precision_strict=strict_ok / marks if marks else float("nan"),
    )
    if os.environ.get("VERBOSE"):
        def text(p, l):
            with open(p, "rb") as f:
                return f.read().split(b"\n")[l - 1].decode("utf-8", "replace").strip()[:100]
        for p, l, k in sorted(set((p, l, tuple(k)) for p, l, k in misses))[:60]:
            print(f"miss {lang} {p}:{l} {list(k)} | {text(p, l)}", file=sys.stderr)
        for p, l in sorted(set(false_pos))[:80]:
            print(f"extra {lang} {p}:{l} | {text(p, l)}", file=sys.stderr)

print(f"ctags: {subprocess.run(['ctags', '--version'], capture_output=True, text=True).stdout.splitlines()[0]}")
print(f"samples per language: {SAMPLES}, seed {SEED}, K = {K}, min lines {MIN_LINES}")
print()
print("| language | files in corpus | reads | nearest ctags definitions | found | recall | our landmarks | precision (lenient) | precision (strict) |")
print("|---|---|---|---|---|---|---|---|---|")
for lang, r in report.items():
    print(f"| {lang} | {r['files']} | {r['reads']} | {r['nearest']} | {r['found']} | "
          f"{r['recall']:.3f} | {r['landmarks']} | {r['precision_lenient']:.3f} | "
          f"{r['precision_strict']:.3f} |")
PY
