#!/usr/bin/env bash
# Compares rangeread's text/binary classification with `file --mime-encoding` on a
# deterministic sample of the files under /usr/bin, /usr/lib and /usr/share.
#
#   scripts/classify_vs_file.sh [N] [OUTDIR]
#
# N (default 2000) files are sampled, a third from each directory: the sorted list of
# non-empty regular files is shuffled with a fixed random source, so the same machine
# always gives the same sample. Empty files are left out: file(1) calls them binary
# (inode/x-empty) and rangeread calls them empty text, by definition on both sides.
#
# file(1) says "binary" for charset=binary and a text charset otherwise (us-ascii,
# utf-8, iso-8859-1, unknown-8bit, utf-16le ...). Output in OUTDIR (default
# target/classify-agreement): sample.txt, ours.tsv, file.tsv, joined.tsv,
# disagreements.tsv, and the summary on stdout.
set -euo pipefail

N=${1:-2000}
OUT=${2:-target/classify-agreement}
cd "$(dirname "$0")/.."
mkdir -p "$OUT"
command -v file >/dev/null || { echo "file(1) is required (apt-get install file)" >&2; exit 1; }

per_dir=$(( (N + 2) / 3 ))
: > "$OUT/sample.txt"
for dir in /usr/bin /usr/lib /usr/share; do
    # Readable, non-empty regular files; sorted bytewise, then a fixed-seed shuffle.
    find "$dir" -type f -size +0 -readable 2>/dev/null | LC_ALL=C sort \
        | shuf -n "$per_dir" --random-source=<(yes rangeread) >> "$OUT/sample.txt" || true
done
head -n "$N" "$OUT/sample.txt" > "$OUT/sample.tmp" && mv "$OUT/sample.tmp" "$OUT/sample.txt"
total=$(wc -l < "$OUT/sample.txt")

cargo build --quiet --release --example classify
# PATH \t text|binary|error \t detail...
target/release/examples/classify - < "$OUT/sample.txt" > "$OUT/ours.tsv" || true
# PATH \t mime-type \t charset (one process for the whole list).
file -N -b --mime -f "$OUT/sample.txt" \
    | paste "$OUT/sample.txt" - \
    | sed -E 's/; charset=/\t/' > "$OUT/file.tsv"

# joined: PATH, ours (text|binary|error), our detail, file verdict, file mime, file charset
paste <(cut -f1-3 "$OUT/ours.tsv") <(cut -f2,3 "$OUT/file.tsv") \
    | awk -F'\t' 'BEGIN{OFS="\t"} {fv = ($5 == "binary") ? "binary" : "text"; print $1, $2, $3, fv, $4, $5}' \
    > "$OUT/joined.tsv"

awk -F'\t' '$2 != $4' "$OUT/joined.tsv" > "$OUT/disagreements.tsv"
agree=$(awk -F'\t' '$2 == $4' "$OUT/joined.tsv" | wc -l)
errors=$(awk -F'\t' '$2 == "error"' "$OUT/joined.tsv" | wc -l)

echo "sample: $total files ($per_dir per directory at most)"
echo "agreement: $agree / $total = $(awk -v a="$agree" -v t="$total" 'BEGIN{printf "%.2f%%", 100*a/t}')"
echo "read errors (counted as disagreements): $errors"
echo
echo "ours vs file(1), all files:"
awk -F'\t' '{print $2 " / " $4}' "$OUT/joined.tsv" | sort | uniq -c | sort -rn
echo
echo "disagreements by kind (ours, our detail | file mime, file charset):"
awk -F'\t' '{print $2 " " $3 " | " $5 " " $6}' "$OUT/disagreements.tsv" | sort | uniq -c | sort -rn
