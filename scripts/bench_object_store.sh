#!/usr/bin/env bash
# Reads a 1 GiB object (or SIZE_BYTES) through a real S3 API server on loopback with the release `read`
# example, and reports for each read the requests it made, the bytes it received and the
# whole-process time (median of RUNS), beside the same read of the local file.
#
# usage: S3_SERVER=s3s-fs|s3rver|moto scripts/bench_object_store.sh [SIZE_BYTES] [RUNS]
#
# s3rver (npm, under target/s3rver; the default) and s3s-fs (crates.io, a Rust S3 server
# on a directory, under target/s3s-fs) serve ranges from disk; moto (PyPI,
# as the tests use it) reads the whole object for every ranged GET of it, ~0.8 s a
# request for 1 GiB, so its times measure moto.
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-1073741824}
runs=${2:-7}
mkdir -p bench-data
file=bench-data/lines-$size.txt
if [ ! -f "$file" ] || [ "$(stat -c %s "$file")" != "$size" ]; then
  echo "generating $file ..."
  python3 benches/gen_lines.py "$file" "$size"
fi
python=$(bash tests/s3/setup.sh)
cargo build --release --example read --features object-store -q
read=target/release/examples/read

port=$("$python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
idx=$(mktemp -d)
store=$(mktemp -d)
case ${S3_SERVER:-s3rver} in
  s3s-fs)
    if ! [ -x target/s3s-fs/bin/s3s-fs ]; then
      cargo install --quiet s3s-fs@0.14.1 --features binary --root target/s3s-fs
    fi
    target/s3s-fs/bin/s3s-fs --host 127.0.0.1 --port "$port" --access-key bench \
      --secret-key benchbench "$store" >/dev/null 2>&1 &
    key=bench secret=benchbench ;;
  s3rver)
    if ! [ -x target/s3rver/node_modules/.bin/s3rver ]; then
      mkdir -p target/s3rver
      (cd target/s3rver && npm install --silent --no-audit --no-fund s3rver@3.7.1)
    fi
    target/s3rver/node_modules/.bin/s3rver -d "$store" -a 127.0.0.1 -p "$port" >/dev/null 2>&1 &
    key=S3RVER secret=S3RVER ;;
  moto)
    "$python" -m moto.server -H 127.0.0.1 -p "$port" >/dev/null 2>&1 &
    key=testing secret=testing ;;
  *) echo "S3_SERVER must be s3rver or moto" >&2; exit 2 ;;
esac
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$idx" "$store"' EXIT
echo "server: ${S3_SERVER:-s3rver} on 127.0.0.1:$port"
export AWS_ACCESS_KEY_ID=$key AWS_SECRET_ACCESS_KEY=$secret AWS_REGION=us-east-1
export AWS_ENDPOINT_URL=http://127.0.0.1:$port
for _ in $(seq 100); do
  "$python" -c "import socket; socket.create_connection(('127.0.0.1', $port))" 2>/dev/null && break
  sleep 0.1
done
echo "uploading $file to s3://bench/lines.txt ..."
"$python" - "$file" <<'PY'
import sys, boto3
from boto3.s3.transfer import TransferConfig
s3 = boto3.client("s3")
s3.create_bucket(Bucket="bench")
s3.upload_file(sys.argv[1], "bench", "lines.txt",
               Config=TransferConfig(multipart_chunksize=64 << 20, max_concurrency=2))
PY

lines=$(wc -l < "$file")
deep=$((lines * 9 / 10))
mid=$((size / 2))
"$python" - "$read" "$file" "$runs" "$deep" "$mid" "$idx" <<'PY'
import os, statistics, subprocess, sys, time
read, path, runs, deep, mid, idx = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5]), sys.argv[6]
url = "s3://bench/lines.txt"
cases = [
    ("head 250", ["--head", "250"]),
    ("tail 250", ["--tail", "250"]),
    ("64 KiB at 50%", ["--bytes", f"{mid}:{mid + 65536}"]),
    ("250 lines at 90%, first read (count)", ["--lines", f"{deep}:+249"]),
    ("250 lines at 90%, persisted index", ["--lines", f"{deep}:+249", "--index-dir", idx]),
    ("tail 250, persisted index", ["--tail", "250", "--index-dir", idx]),
    ("64 KiB at 50%, persisted index", ["--bytes", f"{mid}:{mid + 65536}", "--index-dir", idx]),
]
def run(args):
    t = time.perf_counter()
    p = subprocess.run([read, *args], capture_output=True, text=True)
    dt = (time.perf_counter() - t) * 1000
    if p.returncode != 0:
        sys.exit(f"{args}: {p.stderr}")
    return dt, p.stderr
# The persisted index is written by one read first.
run(["--lines", f"{deep}:+249", "--index-dir", idx, url])
print(f"| read | requests | bytes received | object (ms, median of {runs}) | local file (ms) |")
print("|---|---:|---:|---:|---:|")
for name, args in cases:
    obj, loc, stats = [], [], ""
    for _ in range(runs):
        dt, err = run(args + ["--object-stats", url])
        obj.append(dt)
        stats = [l for l in err.splitlines() if l.startswith("object-store:")][-1]
        dt, _ = run(args + [path])
        loc.append(dt)
    req, byt = stats.split(":")[1].split(",")
    print(f"| {name} | {req.split()[0]} | {int(byt.split()[0]):,} | {statistics.median(obj):.1f} | {statistics.median(loc):.1f} |")
# The store's own cost of what the reads ask: one conditional 1 MiB ranged GET (median
# of RUNS, boto3), and one GET of the whole object read to the end.
import boto3
s3 = boto3.client("s3")
tag = s3.head_object(Bucket="bench", Key="lines.txt")["ETag"]
times = []
for i in range(runs):
    off = mid + i * (1 << 20)
    t = time.perf_counter()
    s3.get_object(Bucket="bench", Key="lines.txt", Range=f"bytes={off}-{off + (1 << 20) - 1}", IfMatch=tag)["Body"].read()
    times.append((time.perf_counter() - t) * 1000)
print(f"\none conditional 1 MiB ranged GET with boto3: {statistics.median(times):.1f} ms (median of {runs})")
t = time.perf_counter()
body = s3.get_object(Bucket="bench", Key="lines.txt")["Body"]
n = 0
while chunk := body.read(1 << 20):
    n += len(chunk)
print(f"one GET of the whole object ({n:,} bytes) with boto3: {(time.perf_counter() - t) * 1000:.0f} ms")
PY
