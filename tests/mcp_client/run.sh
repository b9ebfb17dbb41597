#!/usr/bin/env bash
# Drives examples/mcp_server.rs with the official Python MCP SDK.
#
#   tests/mcp_client/run.sh SERVER_BINARY
#
# Installs the pinned `mcp` package from PyPI into a virtualenv under target/ (reused
# while it holds that version), then runs client.py against the server binary.
# Exit status: 0 when every check passed; 77 when no virtualenv can be created here
# (the Rust test then skips, loudly); anything else is a failure, including pip's.
set -euo pipefail

MCP_VERSION=2.3.0

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
venv=${MCP_CLIENT_VENV:-$repo/target/mcp-client-venv}
server=${1:?usage: run.sh SERVER_BINARY}

if ! [ -x "$venv/bin/python" ] || ! [ -x "$venv/bin/pip" ]; then
  rm -rf "$venv"
  if ! python3 -m venv "$venv"; then
    rm -rf "$venv"
    echo "run.sh: cannot create a virtualenv with python3 -m venv" >&2
    exit 77
  fi
fi

have=$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))' 2>/dev/null || true)
if [ "$have" != "$MCP_VERSION" ]; then
  echo "run.sh: installing mcp==$MCP_VERSION into $venv" >&2
  "$venv/bin/pip" install --disable-pip-version-check --quiet "mcp==$MCP_VERSION"
fi

exec "$venv/bin/python" "$here/client.py" "$server"
