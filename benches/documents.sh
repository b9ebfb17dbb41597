#!/usr/bin/env bash
# Whole-process timings of the release `read` example on documents, against the tools
# people use for the same question: pages 1, 1000 and 2415 (the last) of a 2,415-page PDF
# (R's reference manual, from Debian's r-doc-pdf) and page 5 of a 308 MiB PDF (that
# manual 30 times over, made by qpdf) against poppler's `pdftotext -f N -l N`, and a range
# of cells of a 100 MB notebook (the cells of nbconvert's notebook2.ipynb repeated)
# against `jq '.cells[A:B]'`. Fixtures come from tests/documents/setup.sh --big.
#
# usage: benches/documents.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-11}
fixtures=$(bash tests/documents/setup.sh --big)
mkdir -p bench-data
nb=bench-data/notebook-100MB.ipynb
[ -f "$nb" ] || python3 benches/gen_notebook.py "$fixtures/plots.ipynb" "$nb" 100000000
command -v jq >/dev/null || { echo "needs jq (apt-get install jq)" >&2; exit 1; }
cargo build --release --example read --features pdf,images -q
python3 benches/compare_documents.py target/release/examples/read "$fixtures/refman.pdf" "$nb" "$runs" \
  "$fixtures/big.pdf"
