"""Writes a copy of a PDF with a comment line added after its header, as an editor or a
line-ending conversion does: every offset in its cross-reference table is then wrong, and
a reader must find the objects by scanning the file (poppler reconstructs the table so).

    python3 shift_pdf.py IN OUT
"""
import sys

data = open(sys.argv[1], "rb").read()
eol = data.index(b"\n") + 1
with open(sys.argv[2], "wb") as out:
    out.write(data[:eol] + b"% this line was added after the file was written\n" + data[eol:])
