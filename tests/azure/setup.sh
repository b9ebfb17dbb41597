#!/usr/bin/env bash
# Makes Microsoft's Azure Storage emulator (Azurite, from npm, pinned) and a Python with
# Microsoft's blob SDK (azure-storage-blob, from PyPI, pinned) to put blobs with, and
# prints both paths, one a line: azurite-blob, then python.
#
#   tests/azure/setup.sh
#
# Installs under target/azurite (AZURITE_DIR=DIR names another) once.
# Exit status: 0 and the two paths on stdout; 77 when no virtualenv can be created here;
# 78 when azure-storage-blob cannot be installed; 79 when npm is missing or Azurite
# cannot be installed.
set -euo pipefail

AZURITE_VERSION=3.34.0
BLOB_SDK_VERSION=12.26.0

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
dir=${AZURITE_DIR:-$repo/target/azurite}
mkdir -p "$dir"

bin="$dir/node_modules/.bin/azurite-blob"
have=$(node -p "require('$dir/node_modules/azurite/package.json').version" 2>/dev/null || true)
if [ "$have" != "$AZURITE_VERSION" ] || ! [ -x "$bin" ]; then
  if ! command -v npm >/dev/null; then
    echo "setup.sh: npm is missing (install Node.js and npm)" >&2
    exit 79
  fi
  echo "setup.sh: installing azurite@$AZURITE_VERSION from npm into $dir" >&2
  # Azurite 3.34 declares node >= 18 and runs on the machine's Node 20 (later versions
  # ask for 22).
  if ! npm install --prefix "$dir" --no-audit --no-fund --silent "azurite@$AZURITE_VERSION" >&2; then
    echo "setup.sh: could not install azurite@$AZURITE_VERSION (npm output above)" >&2
    exit 79
  fi
fi

venv=$dir/venv
. "$here/../pinned_venv.sh"
pinned_venv "$venv" azure-storage-blob "$BLOB_SDK_VERSION" || exit $?
echo "$bin"
echo "$venv/bin/python"
