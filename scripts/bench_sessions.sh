#!/usr/bin/env bash
# Benchmark: the last 20 messages of a 1 GiB Claude Code transcript, whole process,
# against `wc -l` on the same file.
#
#   scripts/bench_sessions.sh [RUNS]      (default 11; KEEP=1 keeps the 1 GiB file)
#
# Generates bench-data/claude/projects/-work-bench/<id>.jsonl (git-ignored) unless it is
# there, builds the example in release mode, warms the page cache, then alternates the
# two commands RUNS times and prints the median wall-clock time of each (bash
# $EPOCHREALTIME around each process). Afterwards it times the same read with counting
# on (one full pass, cold in-process cache: every process starts empty) and a title
# search (a full title scan plus the count), then deletes the file.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-11}
ID=b3f1c2d4-0000-4000-8000-00000000b1b1
DIR=bench-data/claude
FILE=$DIR/projects/-work-bench/$ID.jsonl
BIN=target/release/examples/sessions

if [[ ! -f $FILE ]]; then
    python3 scripts/gen_claude_transcript.py "$FILE" --size-mib 1024
fi
cargo build --release --quiet --example sessions
cat "$FILE" > /dev/null # page cache: both commands read warm data

SESS=("$BIN" --store claude --dir "$DIR" --id "$ID" --order newest --limit 20 --no-count --format json)
WC=(wc -l "$FILE")

ms() { # run a command, print its wall time in milliseconds
    local t0=$EPOCHREALTIME
    "$@" > /dev/null
    local t1=$EPOCHREALTIME
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) * 1000 }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

s_times=() ; w_times=()
for ((i = 0; i < RUNS; i++)); do
    s_times+=("$(ms "${SESS[@]}")")
    w_times+=("$(ms "${WC[@]}")")
done
s_med=$(printf '%s\n' "${s_times[@]}" | median)
w_med=$(printf '%s\n' "${w_times[@]}" | median)
echo "file: $FILE ($(stat -c %s "$FILE") bytes, $(wc -l < "$FILE") lines)"
echo "sessions --order newest --limit 20 --no-count: median ${s_med} ms  (runs: ${s_times[*]})"
echo "wc -l:                                         median ${w_med} ms  (runs: ${w_times[*]})"
awk -v s="$s_med" -v w="$w_med" 'BEGIN { printf "ratio sessions / wc -l: %.4f\n", s / w }'
"${SESS[@]}" 2>/dev/null | head -c 300 || true; echo

echo "with counting (full pass in a fresh process): $(ms "$BIN" --store claude --dir "$DIR" --id "$ID" --order newest --limit 20) ms"
echo "title search (full title scan + count):       $(ms "$BIN" --store claude --dir "$DIR" --title "huge benchmark" --order newest --limit 20) ms"

if [[ ${KEEP:-0} != 1 ]]; then
    rm -f "$FILE"
    echo "deleted $FILE"
fi
