#!/usr/bin/env bash
# The Python binding as CI checks it: installed the way a user installs it into a fresh
# virtual environment, then the done-when one-liner, pytest, and mypy --strict over the
# package's stubs and a typed sample. Needs python3 (3.9 or later) with venv and pip, and
# the package registries.
#
#   bash bindings/python/ci.sh                  # builds it: pip install ./bindings/python
#   RANGEREAD_WHEEL=dist/X.whl bash bindings/python/ci.sh   # installs that wheel (no Rust)
set -euo pipefail
cd "$(dirname "$0")/../.."
py="${PYTHON:-python3}"
venv="$PWD/target/bindings-venv-python"
rm -rf "$venv"
"$py" -m venv "$venv"
"$venv/bin/pip" install -q --upgrade pip
# The test tools and the agent framework of test_frameworks.py, pinned (what CI used when these numbers were written).
"$venv/bin/pip" install -q "pytest==9.2.0" "mypy==2.4.1" "langchain-core==1.8.3"
# The extension builds with the `bindings` profile (optimized, no debug info) for the
# host triple named explicitly, as `napi build` builds the Node addon: the two share one
# compiled library (see the [build-dependencies] note in bindings/python/Cargo.toml).
if [ -n "${RANGEREAD_WHEEL:-}" ]; then
  echo "bindings/python: installing the built wheel $RANGEREAD_WHEEL (not the source tree)"
  "$venv/bin/pip" install -q --no-index "$RANGEREAD_WHEEL"
else
  host=$(rustc -vV | sed -n 's/^host: //p')
  MATURIN_PEP517_ARGS="--profile bindings --target $host" "$venv/bin/pip" install -q ./bindings/python
fi
"$venv/bin/python" -c '
import rangeread
import os, sysconfig
assert rangeread.__file__.startswith(sysconfig.get_paths()["purelib"]), rangeread.__file__
r = rangeread.Reader().read("tests/data/sample.txt", lines="40:+2")
assert r.lines == {"start": 40, "end": 42}, r.lines
print("rangeread", rangeread.__version__, "read lines", r.lines["start"], "to", r.lines["end"], "of", r.path)
'
# Run from outside the source tree so that the installed package is what is imported.
(cd bindings/python/tests && "$venv/bin/python" -m pytest -q -p no:cacheprovider .)
# The stubs as a user's type checker sees them (the installed package), and the package's
# own Python code.
mypy=("$venv/bin/mypy" --strict --no-incremental --python-executable "$venv/bin/python")
(cd bindings/python/tests && "${mypy[@]}" typed_sample.py)
"${mypy[@]}" -p rangeread
