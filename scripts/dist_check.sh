#!/usr/bin/env bash
# The artifacts of scripts/dist.sh installed as users install them, with no Rust on PATH:
#
#   bash scripts/dist_check.sh [DIST]     # DIST: dist/ by default
#   DIST_CHECK_PARTS="python node mcp" bash scripts/dist_check.sh   # some of them
#
# - Python: the wheel into a fresh virtual environment (pip --no-index), then README's
#   Python line, the binding's pytest suite and mypy against the installed package
#   (bindings/python/ci.sh with RANGEREAD_WHEEL).
# - Node: a fresh npm project installs the main and platform tarballs offline, loads the
#   package with `require` and with `import` (the addon from the platform package), `tsc`
#   checks a typed use of it; then the binding's node --test suite runs against that
#   installed package (RANGEREAD_NODE_PACKAGE, RANGEREAD_NODE_TARBALLS).
# - The MCP server, installed from the rangeread-mcp wheel (`uvx`, `uv tool install`,
#   `pipx run`, all offline from dist/) and from the npm tarballs (`npx`): each answers
#   the MCP Inspector's CLI (tools/list and a tools/call of read_file), and the Python
#   SDK client (tests/mcp_client/run.sh) runs its checks against the uv-installed binary
#   and the npx launcher.
# Needs python3 with venv, Node 20+ and npm, and the registries for the test tools
# (pytest, mypy, uv, pipx, the MCP SDK; TypeScript, the MCP Inspector).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
dist=$(cd "${1:-dist}" && pwd)
start=$SECONDS
step() { echo "== dist_check: $* (at $((SECONDS - start))s)"; }
parts=${DIST_CHECK_PARTS:-python node mcp}
want() { [[ " $parts " == *" $1 "* ]]; }
for p in $parts; do
  case $p in python | node | mcp) ;; *) echo "DIST_CHECK_PARTS: no part $p (python, node, mcp)" >&2; exit 2 ;; esac
done
[ "$parts" = "python node mcp" ] || echo "dist_check: only $parts (DIST_CHECK_PARTS)"
version=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml)
work=$repo/target/dist-check
rm -rf "$work"
mkdir -p "$work"

# Tools for the checks, pinned, in a virtual environment of their own (uv and pipx are
# Python packages; installed before Rust leaves PATH, though neither needs it).
tools=$repo/target/dist-check-tools
pins="uv==0.13.8 pipx==1.18.4"
if [ "$(cat "$tools/pins" 2>/dev/null)" != "$pins" ]; then
  rm -rf "$tools"
  python3 -m venv "$tools"
  # shellcheck disable=SC2086 # the pins are words
  "$tools/bin/pip" install -q $pins
  echo "$pins" >"$tools/pins"
fi

# No Rust from here on: every directory of PATH that holds cargo or rustc is dropped.
clean=
IFS=: read -ra dirs <<<"$PATH"
for d in "${dirs[@]}"; do
  if [ -n "$d" ] && ! [ -x "$d/cargo" ] && ! [ -x "$d/rustc" ]; then clean=${clean:+$clean:}$d; fi
done
export PATH="$tools/bin:$clean"
unset CARGO RUSTC RUSTUP_TOOLCHAIN
if command -v cargo >/dev/null || command -v rustc >/dev/null; then
  echo "dist_check: cargo or rustc is still on PATH ($(command -v cargo rustc | paste -sd' '))" >&2
  exit 1
fi
step "no Rust on PATH: \`command -v cargo\` and \`command -v rustc\` fail"

if want python; then
step "Python: the wheel in a fresh venv, README's line, pytest, mypy (bindings/python/ci.sh)"
wheel=$(ls "$dist"/rangeread-"$version"-cp39-abi3-*.whl)
RANGEREAD_WHEEL=$wheel bash bindings/python/ci.sh
readme_line=$(grep -m1 "^python -c 'import rangeread" README.md)
[ -n "$readme_line" ] || { echo "dist_check: README.md has no python -c 'import rangeread ...' line" >&2; exit 1; }
echo "README: $readme_line"
out=$(PATH="$repo/target/bindings-venv-python/bin:$PATH" bash -c "$readme_line")
echo "$out"
grep -q '^line 40' <<<"$out" || { echo "dist_check: README's Python line did not print line 40" >&2; exit 1; }

fi

if want node; then
step "Node: a fresh project installs the two tarballs offline"
node_tgz=("$dist/rangeread-linux-x64-gnu-$version.tgz" "$dist/rangeread-$version.tgz")
proj=$work/node-project
mkdir -p "$proj"
echo '{ "name": "host", "version": "1.0.0", "private": true }' >"$proj/package.json"
(cd "$proj" && npm install --offline --no-audit --no-fund "${node_tgz[@]}")
[ -f "$proj/node_modules/rangeread-linux-x64-gnu/rangeread.linux-x64-gnu.node" ] || {
  echo "dist_check: the platform package did not install its .node" >&2; exit 1; }
if ls "$proj"/node_modules/rangeread/*.node >/dev/null 2>&1; then
  echo "dist_check: the main package carries a .node of its own" >&2; exit 1
fi
sample=$repo/tests/data/sample.txt
(cd "$proj" && node -e "
  const rr = require('rangeread')
  const loaded = Object.keys(require.cache).filter((f) => f.endsWith('.node'))
  if (!loaded.some((f) => f.includes('node_modules/rangeread-linux-x64-gnu/'))) throw new Error('addon from ' + loaded)
  const r = new rr.Reader().read(process.argv[1], { lines: '40:+2' })
  if (r.lines.start !== 40 || r.lines.end !== 42) throw new Error(JSON.stringify(r.lines))
  console.log('require: lines', r.lines.start, 'to', r.lines.end, 'through', loaded[0])
" "$sample")
(cd "$proj" && node --input-type=module -e "
  import { Reader, presets } from 'rangeread'
  import rr from 'rangeread'
  const r = await new Reader().readAsync(process.argv[1], { tail: 2 })
  if (!r.content || rr.Reader !== Reader || presets().length < 5) throw new Error('import')
  console.log('import: tail 2 ends at line', r.lines.end, '-', presets().length, 'presets')
" "$sample")
# TypeScript and Node's types from the registry (what a TypeScript user adds), at the
# versions bindings/node's lock file pins.
ts=$(node -p "require('$repo/bindings/node/package-lock.json').packages['node_modules/typescript'].version")
tn=$(node -p "require('$repo/bindings/node/package-lock.json').packages['node_modules/@types/node'].version")
(cd "$proj" && npm install --no-audit --no-fund --prefer-offline "typescript@$ts" "@types/node@$tn" >/dev/null)
cat >"$proj/check.ts" <<'EOF'
import { Reader, Workspace, presets } from 'rangeread'
import type { ReadResult } from 'rangeread'
const r: ReadResult = new Reader({ maxLines: 10 }).read('x', { lines: '1:+2' })
const start: number | undefined = r.lines?.start
const ws = new Workspace('.', { protect: ['.env*'] })
// @ts-expect-error: a selection's lines are a string or a pair of numbers
new Reader().read('x', { lines: true })
export { start, ws, presets }
EOF
(cd "$proj" && npx tsc --strict --noEmit --module commonjs --moduleResolution node --types node check.ts)
echo "tsc: check.ts type-checks against the installed index.d.ts"
(cd bindings/node && npm ci --no-audit --no-fund >/dev/null && npx tsc --noEmit -p __test__)
echo "tsc: bindings/node/__test__/typed.ts type-checks against index.d.ts (the packed one)"

step "Node: the binding's tests against the installed package"
(cd bindings/node && RANGEREAD_NODE_PACKAGE="$proj/node_modules/rangeread" \
  RANGEREAD_NODE_TARBALLS="$(IFS=:; echo "${node_tgz[*]}")" \
  node --test --test-reporter=spec __test__/*.test.mjs)

fi

if want mcp; then
step "the MCP server from its wheel: uvx, uv tool install, pipx run (offline from dist/)"
export UV_CACHE_DIR=$work/uv-cache UV_TOOL_DIR=$work/uv-tools UV_TOOL_BIN_DIR=$work/uv-bin
export PIPX_HOME=$work/pipx PIPX_BIN_DIR=$work/pipx-bin
# What a user types, with the package index replaced by dist/ (uv's and pip's own
# settings). An MCP client starts a server with only a few variables of its own
# environment (HOME, PATH, ...): the Inspector is given these with -e.
offline=(UV_OFFLINE=1 UV_NO_INDEX=1 "UV_FIND_LINKS=$dist" "UV_CACHE_DIR=$UV_CACHE_DIR"
  PIP_NO_INDEX=1 "PIP_FIND_LINKS=$dist" "PIPX_HOME=$PIPX_HOME")
env "${offline[@]}" uvx rangeread-mcp --help | head -3
env "${offline[@]}" uv tool install rangeread-mcp
env "${offline[@]}" pipx run --no-cache rangeread-mcp --help | head -3
inspector_env=()
for e in "${offline[@]}"; do inspector_env+=(-e "$e"); done
uv_server=$UV_TOOL_BIN_DIR/rangeread-mcp

step "the MCP server from npm: npx in a fresh project (offline from dist/)"
mcp_proj=$work/mcp-project
mkdir -p "$mcp_proj"
echo '{ "name": "host", "version": "1.0.0", "private": true }' >"$mcp_proj/package.json"
(cd "$mcp_proj" && npm install --offline --no-audit --no-fund \
  "$dist/rangeread-mcp-linux-x64-gnu-$version.tgz" "$dist/rangeread-mcp-$version.tgz")
(cd "$mcp_proj" && npx --no-install rangeread-mcp --help | head -3)
npx_server=$mcp_proj/node_modules/.bin/rangeread-mcp

step "the MCP Inspector's CLI against each installed server"
inspector=$work/inspector
mkdir -p "$inspector"
echo '{ "name": "inspector", "version": "1.0.0", "private": true }' >"$inspector/package.json"
(cd "$inspector" && npm install --no-audit --no-fund --prefer-offline @modelcontextprotocol/inspector@2.12.0 >/dev/null)
data=$repo/tests/data
for server in "uvx rangeread-mcp" "$uv_server" "pipx run --no-cache rangeread-mcp" "$npx_server"; do
  # shellcheck disable=SC2086 # the server command is words
  listed=$(cd "$inspector" && npx --no-install mcp-inspector --cli "${inspector_env[@]}" --method tools/list -- $server --root "$data")
  grep -q '"name": *"read_file"' <<<"$listed" || { echo "dist_check: tools/list of $server: $listed" >&2; exit 1; }
  # shellcheck disable=SC2086
  called=$(cd "$inspector" && npx --no-install mcp-inspector --cli "${inspector_env[@]}" --method tools/call --tool-name read_file \
    --tool-arg path=sample.txt --tool-arg start_line=40 --tool-arg end_line=40 -- $server --root "$data")
  grep -q 'line 40' <<<"$called" || { echo "dist_check: tools/call of $server: $called" >&2; exit 1; }
  echo "inspector: $server: tools/list names read_file; tools/call read line 40"
done

step "the Python MCP SDK client's checks (tests/mcp_client) against the installed servers"
bash tests/mcp_client/run.sh "$uv_server"
bash tests/mcp_client/run.sh "$npx_server"

fi

step "done: every artifact installed and checked without Rust in $((SECONDS - start))s"
