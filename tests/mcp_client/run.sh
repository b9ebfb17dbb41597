#!/usr/bin/env bash
# Drives mcp-server/src/main.rs with the official Python MCP SDK.
#
#   tests/mcp_client/run.sh SERVER_BINARY
#
# Needs python3 with the venv module (Debian/Ubuntu: apt install python3-venv) and
# access to PyPI to install the pinned `mcp` package into a virtualenv under target/
# (reused while it holds that version; MCP_CLIENT_VENV=DIR points at another, for
# example one filled beforehand on a machine without network access).
# Exit status: 0 when every check passed; 77 when no virtualenv can be created here;
# 78 when the `mcp` package cannot be installed; anything else is a failed check.
set -euo pipefail

MCP_VERSION=2.3.0

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
venv=${MCP_CLIENT_VENV:-$repo/target/mcp-client-venv}
server=${1:?usage: run.sh SERVER_BINARY}

. "$here/../pinned_venv.sh"
pinned_venv "$venv" mcp "$MCP_VERSION" || {
  status=$?
  [ "$status" = 78 ] && echo "run.sh: this test needs access to PyPI, or MCP_CLIENT_VENV=DIR" \
    "naming a virtualenv that has mcp==$MCP_VERSION" >&2
  exit "$status"
}

exec "$venv/bin/python" "$here/client.py" "$server"
