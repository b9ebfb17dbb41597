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
. "$here/../pinned_venv.sh"
pinned_venv "$venv" moto "$MOTO_VERSION" "moto[server]==$MOTO_VERSION" \
  'import moto.server, flask' || exit $?
echo "$venv/bin/python"
