#!/usr/bin/env bash
# Makes a Python that can run moto's S3 server (moto[server], pinned) and prints its path.
#
#   tests/s3/setup.sh
#
# Uses RANGEREAD_PYTHON when it already imports moto.server; otherwise a virtualenv under
# target/s3-venv (S3_VENV=DIR names another), filled from PyPI once.
# Exit status: 0 and the interpreter's path on stdout; 77 when no virtualenv can be
# created here; 78 when moto cannot be installed.
set -euo pipefail

MOTO_VERSION=5.2.1

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

if [ -n "${RANGEREAD_PYTHON:-}" ] && "$RANGEREAD_PYTHON" -c 'import moto.server' 2>/dev/null; then
  echo "$RANGEREAD_PYTHON"
  exit 0
fi

venv=${S3_VENV:-$repo/target/s3-venv}
if ! [ -x "$venv/bin/python" ] || ! [ -x "$venv/bin/pip" ]; then
  rm -rf "$venv"
  if ! python3 -m venv "$venv" >&2; then
    rm -rf "$venv"
    echo "setup.sh: cannot create a virtualenv with python3 -m venv (install python3-venv)" >&2
    exit 77
  fi
fi
have=$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("moto"))' 2>/dev/null || true)
if [ "$have" != "$MOTO_VERSION" ] || ! "$venv/bin/python" -c 'import moto.server, flask' 2>/dev/null; then
  echo "setup.sh: installing moto[server]==$MOTO_VERSION from PyPI into $venv" >&2
  if ! "$venv/bin/pip" install --disable-pip-version-check --quiet "moto[server]==$MOTO_VERSION" >&2; then
    echo "setup.sh: could not install moto[server]==$MOTO_VERSION (pip output above)" >&2
    exit 78
  fi
fi
echo "$venv/bin/python"
