#!/usr/bin/env bash
# Builds the two peer MCP file servers from their package registries, and our server,
# for scripts/bench_peers.py:
#
#   scripts/peers.sh [DIR]          (default: target/peers; nothing here is committed)
#
# - DIR/node: `@modelcontextprotocol/server-filesystem` from npm (the reference server of
#   the MCP project, tool `read_text_file` with `head`/`tail`), version $NODE_FS_VERSION;
# - DIR/rust-mcp-filesystem: `rust-mcp-filesystem` from crates.io
#   (`cargo install --root`), tool `read_text_file` (and `read_file_lines` for line
#   ranges), version $RUST_FS_VERSION;
# - target/release/rangeread-mcp: this repository's server (`cargo build --release`).
#
# Needs node >= 18 with npm, and cargo. Already installed versions are kept.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-target/peers}
NODE_FS_VERSION=${NODE_FS_VERSION:-2026.8.31}
RUST_FS_VERSION=${RUST_FS_VERSION:-0.4.5}
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)

command -v npm >/dev/null || { echo "peers.sh: npm is missing (Debian/Ubuntu: apt-get install nodejs npm)" >&2; exit 1; }
command -v cargo >/dev/null || { echo "peers.sh: cargo is missing (https://rustup.rs)" >&2; exit 1; }

NODE_BIN=$DIR/node/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js
if [ ! -f "$NODE_BIN" ] || ! grep -q "\"version\": \"$NODE_FS_VERSION\"" \
    "$DIR/node/node_modules/@modelcontextprotocol/server-filesystem/package.json"; then
    mkdir -p "$DIR/node"
    npm install --silent --no-audit --no-fund --prefix "$DIR/node" \
        "@modelcontextprotocol/server-filesystem@$NODE_FS_VERSION"
fi

RUST_BIN=$DIR/rust-mcp-filesystem/bin/rust-mcp-filesystem
if [ ! -x "$RUST_BIN" ] || ! "$RUST_BIN" --version 2>/dev/null | grep -q "$RUST_FS_VERSION"; then
    cargo install --locked --root "$DIR/rust-mcp-filesystem" \
        rust-mcp-filesystem --version "$RUST_FS_VERSION"
fi

cargo build --release -p rangeread-mcp-server

echo "node:  node $NODE_BIN ROOT"
echo "rust:  $RUST_BIN ROOT"
echo "ours:  target/release/rangeread-mcp --root ROOT"
