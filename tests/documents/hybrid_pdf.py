"""Writes a hybrid-reference copy of a PDF whose cross-reference data is one stream (as
`qpdf --object-streams=generate` writes it): a classic table is appended that lists the
objects outside object streams and names the existing stream in /XRefStm, as writers of
hybrid files do for readers of PDF 1.4 (those see the table; the objects inside object
streams are only in the stream, which the table does not list).

    python3 hybrid_pdf.py IN OUT
"""
import re
import sys
import zlib

data = open(sys.argv[1], "rb").read()
start = int(re.findall(rb"startxref\s+(\d+)", data[-1024:])[-1])
head = re.match(rb"\s*(\d+) (\d+) obj\s*<<(.*?)>>\s*stream\r?\n", data[start:], re.S)
d = head.group(3)
length = int(re.search(rb"/Length (\d+)", d).group(1))
raw = zlib.decompress(data[start + head.end():start + head.end() + length])
w = [int(x) for x in re.search(rb"/W \[\s*(\d+) (\d+) (\d+)\s*\]", d).groups()]
size = int(re.search(rb"/Size (\d+)", d).group(1))
index = re.search(rb"/Index \[([\d\s]+)\]", d)
index = [int(x) for x in index.group(1).split()] if index else [0, size]
cols = re.search(rb"/Columns (\d+)", d)
width = sum(w)
rows = []
if re.search(rb"/Predictor 1[0-5]", d):  # PNG rows: a filter byte, then the row
    prev = bytes(width)
    for i in range(0, len(raw), width + 1):
        kind, row = raw[i], bytearray(raw[i + 1:i + 1 + width])
        if kind == 2:
            row = bytearray((a + b) & 0xFF for a, b in zip(row, prev))
        elif kind != 0:
            sys.exit(f"predictor row filter {kind} not handled")
        rows.append(bytes(row))
        prev = row
else:
    rows = [raw[i:i + width] for i in range(0, len(raw), width)]


def field(row, a, n, default):
    return int.from_bytes(row[a:a + n], "big") if n else default


entries = {}
r = iter(rows)
for first, count in zip(index[0::2], index[1::2]):
    for n in range(first, first + count):
        row = next(r)
        kind = field(row, 0, w[0], 1)
        entries[n] = (kind, field(row, w[0], w[1], 0), field(row, w[0] + w[1], w[2], 0))

# The table lists object 0 and the objects outside object streams, in runs of
# consecutive numbers; the others are only in the stream.
listed = [0] + [n for n in sorted(entries) if entries[n][0] == 1]
table = b"xref\n"
i = 0
while i < len(listed):
    j = i
    while j + 1 < len(listed) and listed[j + 1] == listed[j] + 1:
        j += 1
    table += b"%d %d\n" % (listed[i], j - i + 1)
    for n in listed[i:j + 1]:
        kind, a, b = entries.get(n, (0, 0, 65535))
        table += b"%010d %05d n\r\n" % (a, b) if kind == 1 else b"0000000000 65535 f\r\n"
    i = j + 1
keys = b"".join(re.findall(rb"/(?:Root|Info) \d+ \d+ R|/ID\s*\[[^\]]*\]", d))
body = data if data.endswith(b"\n") else data + b"\n"
at = len(body)
trailer = b"trailer\n<< /Size %d %s /XRefStm %d >>\nstartxref\n%d\n%%%%EOF\n" % (size, keys, start, at)
open(sys.argv[2], "wb").write(body + table + trailer)
