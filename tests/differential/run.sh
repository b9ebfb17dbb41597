#!/usr/bin/env bash
# The differential suite: each agent's released read tool beside the crate's preset.
#
#   bash tests/differential/run.sh [AGENT,AGENT...]
#
# Installs each agent's released package, pinned, from its registry into
# target/differential/ (never into the tree), builds the preset side once (the MCP server,
# the Python binding in a venv, the Node binding), generates the corpus of edge files,
# runs every call through both and prints `agent version: identical N/M` with the
# differences by cause; the full list is target/differential/report.{md,json}.
#
# RANGEREAD_DIFFERENTIAL_CORPUS=pinned runs it on real files of pinned npm and PyPI
# packages instead (outside_corpus.py downloads them at run time), RANGEREAD_DIFFERENTIAL_CORPUS=DIR
# on the files of DIR: a sample of at most RANGEREAD_DIFFERENTIAL_MAX_FILES (72) files,
# spread over each kind's files sorted by path, with the same call shapes; its runs and
# report go to target/differential/outside/NAME/, apart from the built-in corpus's.
#
# RANGEREAD_SKIP_DIFFERENTIAL=1 skips it (and says so). RANGEREAD_WHEEL (and
# RANGEREAD_MCP_WHEEL) take the preset side from built wheels instead of compiling it;
# RANGEREAD_DIFFERENTIAL_INSTALL_ONLY=1 installs the agents and stops. Needs node >= 20 with npm,
# python3 >= 3.9, a python 3.12 or later for OpenHands (PYTHON312, else python3.12 or
# pyenv's), cargo, and the package registries (npm, PyPI, crates.io). Already installed
# pins are reused; RUST_MCP_FILESYSTEM_BIN names an already built rust-mcp-filesystem of
# the pinned version instead of compiling one (a long build).
set -euo pipefail
if [ "${RANGEREAD_SKIP_DIFFERENTIAL:-}" = 1 ]; then
  echo "differential suite skipped (RANGEREAD_SKIP_DIFFERENTIAL=1)"
  exit 0
fi
cd "$(dirname "$0")/../.."
REPO=$PWD
WORK=$REPO/target/differential
HERE=$REPO/tests/differential
mkdir -p "$WORK"
start=$(date +%s)

# The pins: what each agent's users install today.
GEMINI_CORE=0.61.0
OPENHANDS_ACI=0.3.3
# openhands-aci's detectors at the versions OpenHands' lock file installs them with.
OPENHANDS_CHARDET=5.2.0
OPENHANDS_CHARSET_NORMALIZER=3.4.2
OPENHANDS_TOOLS=1.58.2
# The pydantic a fresh install of openhands-tools 1.58.2 resolves (`pip install --dry-run
# --report`, 2026-11-28): its validation reports name pydantic's version, which pip would
# otherwise take as it finds it (2.14.4 in a venv made earlier).
OPENHANDS_TOOLS_PYDANTIC=2.13.5
SERVER_FILESYSTEM=2026.8.31
RUST_MCP_FILESYSTEM=0.4.5
CLAUDE_CODE=2.1.332

need() { command -v "$1" >/dev/null || { echo "differential: $1 is missing ($2)" >&2; exit 1; }; }
need node "Debian/Ubuntu: apt-get install nodejs npm"
need npm "Debian/Ubuntu: apt-get install nodejs npm"
need cargo "https://rustup.rs"
need python3 "Debian/Ubuntu: apt-get install python3 python3-venv"

py312=${PYTHON312:-}
if [ -z "$py312" ]; then
  # A pyenv shim answers `command -v` for a version that is installed but not selected,
  # and then fails when run: take a candidate only when it runs. 3.12 first: the OpenHands
  # releases were measured on it.
  for c in python3.12 python3.13; do
    if command -v $c >/dev/null && $c -c 'import venv' 2>/dev/null; then py312=$(command -v $c); break; fi
  done
fi
if [ -z "$py312" ] && command -v pyenv >/dev/null; then
  for v in $(pyenv versions --bare | sort -V); do
    case $v in 3.1[2-9]*) py312=$(pyenv root)/versions/$v/bin/python3; break ;; esac
  done
fi
[ -n "$py312" ] || { echo "differential: openhands-aci and openhands-tools need Python 3.12 or later: set PYTHON312" >&2; exit 1; }

AGENTS=${1:-gemini,openhands,openhands-tools,mcp-filesystem,rust-mcp-filesystem,claude-code}
wants() { case ",$AGENTS," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }

echo "== installing the agents' released packages (pinned) into $WORK"
NPM=$WORK/npm
have_npm() { node -e "process.exit(require('$NPM/node_modules/$1/package.json').version === '$2' ? 0 : 1)" 2>/dev/null; }
# Only the packages of the agents asked for (Claude Code's is 400 MB), and only when the
# pinned version is not there yet.
want_npm=""
npm_pin() { # AGENT PACKAGE VERSION
  if wants "$1" && ! have_npm "$2" "$3"; then want_npm="$want_npm $2@$3"; fi
}
npm_pin gemini @google/gemini-cli-core $GEMINI_CORE
npm_pin mcp-filesystem @modelcontextprotocol/server-filesystem $SERVER_FILESYSTEM
npm_pin claude-code @anthropic-ai/claude-code $CLAUDE_CODE
if [ -n "$want_npm" ]; then
  mkdir -p "$NPM"
  [ -f "$NPM/package.json" ] || echo '{"private": true}' > "$NPM/package.json"
  # shellcheck disable=SC2086
  npm install --silent --no-audit --no-fund --loglevel=error --prefix "$NPM" $want_npm
fi
venv_with() { # DIR PACKAGE VERSION [MORE PINS NAME==VERSION...]
  local dir=$1 pkg=$2 ver=$3
  shift 3
  # Every pin is checked, not only the agent's own: a dependency pinned later (OpenHands'
  # chardet) reinstalls a venv that has the agent at its version but not the dependency.
  if ! "$dir/bin/python" -c "import importlib.metadata as m, sys
sys.exit(any(m.version(n) != v for n, v in (p.split('==') for p in sys.argv[1:])))" \
      "$pkg==$ver" "$@" 2>/dev/null; then
    rm -rf "$dir"
    "$py312" -m venv "$dir"
    # `python -m pip`, not bin/pip: a copied venv's scripts still name the interpreter of
    # the directory it was copied from.
    "$dir/bin/python" -m pip install -q --disable-pip-version-check "$pkg==$ver" "$@"
  fi
}
# openhands-aci asks for any chardet (through binaryornot 0.4.4) and charset-normalizer
# >=3.4.1,<4; OpenHands installs it from its poetry.lock (All-Hands-AI/OpenHands@156d068:
# chardet 5.2.0, charset-normalizer 3.4.2). Left free, pip takes today's chardet 7, whose
# detect() answers binary bytes with `encoding: None` at confidence 0.95 and binaryornot's
# Python 2 fallback raises NameError (`unicode`) inside the agent, on PNG, ELF and PDF files.
if wants openhands; then
  venv_with "$WORK/aci" openhands-aci $OPENHANDS_ACI chardet==$OPENHANDS_CHARDET \
    charset-normalizer==$OPENHANDS_CHARSET_NORMALIZER
fi
# openhands-tools names openhands-sdk without a version: unpinned, pip walks back through
# dozens of SDK releases; the SDK of the same release is the one it ships with.
if wants openhands-tools; then
  venv_with "$WORK/ohtools" openhands-tools $OPENHANDS_TOOLS "openhands-sdk==$OPENHANDS_TOOLS" \
    pydantic==$OPENHANDS_TOOLS_PYDANTIC
fi
RMF=${RUST_MCP_FILESYSTEM_BIN:-$WORK/rust-mcp-filesystem/bin/rust-mcp-filesystem}
if wants rust-mcp-filesystem && ! "$RMF" --version 2>/dev/null | grep -q "$RUST_MCP_FILESYSTEM"; then
  echo "   rust-mcp-filesystem $RUST_MCP_FILESYSTEM: cargo install (several minutes)"
  CARGO_TARGET_DIR=$WORK/rmf-build cargo install -q --locked --root "$WORK/rust-mcp-filesystem" \
    rust-mcp-filesystem --version "$RUST_MCP_FILESYSTEM"
  RMF=$WORK/rust-mcp-filesystem/bin/rust-mcp-filesystem
fi
CLAUDE=$NPM/node_modules/@anthropic-ai/claude-code-linux-x64/claude
[ -x "$CLAUDE" ] || CLAUDE=$NPM/node_modules/@anthropic-ai/claude-code/bin/claude.exe

# RANGEREAD_DIFFERENTIAL_INSTALL_ONLY=1: the agents' packages only (CI fetches them in the
# background while it compiles).
if [ "${RANGEREAD_DIFFERENTIAL_INSTALL_ONLY:-}" = 1 ]; then
  echo "differential: the agents are installed ($AGENTS); nothing run (RANGEREAD_DIFFERENTIAL_INSTALL_ONLY=1)"
  exit 0
fi

BVENV=$WORK/binding-venv
if [ -n "${RANGEREAD_WHEEL:-}" ]; then
  # The released artifacts (CI: scripts/dist.sh's wheels): the `rangeread` wheel and, with
  # RANGEREAD_MCP_WHEEL, the `rangeread-mcp` wheel, installed into a fresh venv.
  echo "== the preset side from wheels: $RANGEREAD_WHEEL ${RANGEREAD_MCP_WHEEL:-}"
  rm -rf "$BVENV"
  python3 -m venv "$BVENV"
  # shellcheck disable=SC2086
  "$BVENV/bin/pip" install -q --disable-pip-version-check --no-index "$RANGEREAD_WHEEL" ${RANGEREAD_MCP_WHEEL:-}
  MCP=$BVENV/bin/rangeread-mcp
  if [ -z "${RANGEREAD_MCP_WHEEL:-}" ]; then
    cargo build -q -p rangeread-mcp-server
    MCP=$REPO/target/debug/rangeread-mcp
  fi
else
  echo "== building the preset side: rangeread-mcp, the Python and Node bindings"
  cargo build -q -p rangeread-mcp-server
  MCP=$REPO/target/debug/rangeread-mcp
  if [ ! -x "$BVENV/bin/maturin" ]; then
    rm -rf "$BVENV"
    python3 -m venv "$BVENV"
    "$BVENV/bin/pip" install -q --disable-pip-version-check "maturin>=1.9,<2"
  fi
  (cd bindings/python && VIRTUAL_ENV=$BVENV PATH=$BVENV/bin:$PATH maturin develop > "$WORK/binding-build.log" 2>&1) \
    || { tail -30 "$WORK/binding-build.log"; echo "differential: the Python binding did not build" >&2; exit 1; }
fi
# Gemini CLI is a Node program: RANGEREAD_DIFFERENTIAL_NODE=1 answers its preset through the
# Node binding. It is off by default because `napi build` compiles the library a second
# time (under target/<host triple>/); the bindings are thin and answer alike.
NODE_OUT=$WORK/node-binding
GEMINI_PRESET="\"$BVENV/bin/python\", \"$HERE/drivers/preset.py\", \"{calls}\", \"{out}\", \"gemini\", \"{root}\", \"--more-roots\", \"{run}/project-temp-dir\""
if [ "${RANGEREAD_DIFFERENTIAL_NODE:-}" = 1 ]; then
  (cd bindings/node && { [ -d node_modules ] || npm ci --silent --no-audit --no-fund; } \
    && npx napi build --platform --js index.js --dts index.d.ts --output-dir "$NODE_OUT" >/dev/null)
  GEMINI_PRESET="\"node\", \"$HERE/drivers/preset_node.mjs\", \"{calls}\", \"{out}\", \"gemini\", \"{root}\", \"$NODE_OUT\""
fi

# The `openhands` preset's binary rule (`sample_shares`) is checked on its samples against
# the released binaryornot too (tests/data/binaryornot_samples.json).
if wants openhands; then
  "$WORK/aci/bin/python" "$HERE/binaryornot_check.py"
fi

# The `gemini` preset's binary rule (`suspicious_share`) is checked on its samples against
# the released isbinaryfile too (tests/data/isbinaryfile_samples.json).
if wants gemini; then
  node "$HERE/isbinaryfile_check.mjs" "$WORK/npm/node_modules"
fi

echo "== corpus"
OUTSIDE=${RANGEREAD_DIFFERENTIAL_CORPUS:-}
corpus_args=()
if [ -z "$OUTSIDE" ]; then
  python3 "$HERE/corpus.py" "$WORK/corpus"
else
  # A corpus the project does not have: its own directory, so that the answers kept
  # for one corpus are never taken for another's.
  max=(--max-files "${RANGEREAD_DIFFERENTIAL_MAX_FILES:-72}")
  if [ "$OUTSIDE" = pinned ]; then
    DEST=$WORK/outside/pinned
    python3 "$HERE/outside_corpus.py" "$DEST" "${max[@]}"
  else
    [ -d "$OUTSIDE" ] || { echo "differential: RANGEREAD_DIFFERENTIAL_CORPUS=$OUTSIDE is neither \"pinned\" nor a directory" >&2; exit 1; }
    src=$(cd "$OUTSIDE" && pwd)
    DEST=$WORK/outside/$(basename "$src")-$(printf %s "$src" | sha256sum | cut -c1-8)
    python3 "$HERE/outside_corpus.py" "$DEST" --from "$src" "${max[@]}"
  fi
  corpus_args=(--corpus "$DEST/corpus" --out "$DEST")
fi

D=$HERE/drivers
cat > "$WORK/tools.json" <<EOF
{
 "gemini": {"package": "@google/gemini-cli-core", "version": "$GEMINI_CORE", "preset_name": "gemini",
   "agent": ["node", "$D/gemini_agent.mjs", "{calls}", "{out}", "{root}", "$NPM/node_modules"],
   "preset": [$GEMINI_PRESET]},
 "openhands": {"package": "openhands-aci", "version": "$OPENHANDS_ACI", "preset_name": "openhands",
   "with": ["chardet==$OPENHANDS_CHARDET", "charset-normalizer==$OPENHANDS_CHARSET_NORMALIZER"],
   "agent": ["$WORK/aci/bin/python", "$D/openhands_agent.py", "{calls}", "{out}"],
   "preset": ["$BVENV/bin/python", "$D/preset.py", "{calls}", "{out}", "openhands", "{root}", "--no-workspace"]},
 "openhands-tools": {"package": "openhands-tools", "version": "$OPENHANDS_TOOLS", "preset_name": "openhands-tools",
   "with": ["pydantic==$OPENHANDS_TOOLS_PYDANTIC"],
   "agent": ["$WORK/ohtools/bin/python", "$D/openhands_tools_agent.py", "{calls}", "{out}", "{root}"],
   "preset": ["$BVENV/bin/python", "$D/preset.py", "{calls}", "{out}", "openhands-tools", "{root}", "--no-workspace"]},
 "mcp-filesystem": {"package": "@modelcontextprotocol/server-filesystem", "version": "$SERVER_FILESYSTEM",
   "preset_name": "mcp-filesystem",
   "agent": ["python3", "$D/mcp_stdio.py", "{calls}", "{out}", "--", "node",
             "$NPM/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", "{root}"],
   "preset": ["python3", "$D/mcp_stdio.py", "{calls}", "{out}", "--", "$MCP", "--preset", "mcp-filesystem",
              "--root", "{root}"]},
 "rust-mcp-filesystem": {"package": "rust-mcp-filesystem", "version": "$RUST_MCP_FILESYSTEM",
   "preset_name": "rust-mcp-filesystem",
   "agent": ["python3", "$D/mcp_stdio.py", "{calls}", "{out}", "--", "$RMF", "{root}"],
   "preset": ["python3", "$D/mcp_stdio.py", "{calls}", "{out}", "--", "$MCP", "--preset", "rust-mcp-filesystem",
              "--root", "{root}"]},
 "claude-code": {"package": "@anthropic-ai/claude-code", "version": "$CLAUDE_CODE", "preset_name": "claude-code",
   "agent": ["python3", "$D/claude_agent.py", "{calls}", "{out}", "$CLAUDE", "{root}", "$WORK/claude-home"],
   "preset": ["$BVENV/bin/python", "$D/preset.py", "{calls}", "{out}", "claude-code", "{root}",
              "--unconfined", "--room-tokens", "167000"]}
}
EOF

echo "== running (agents: $AGENTS)"
# --reuse-agents: an agent's answers to calls that did not change are kept from the last
# run (RANGEREAD_DIFFERENTIAL_FRESH=1 asks every agent again).
reuse=--reuse-agents
[ "${RANGEREAD_DIFFERENTIAL_FRESH:-}" = 1 ] && reuse=
# RANGEREAD_DIFFERENTIAL_MIN=99 fails the run when an agent is below 99% identical.
min=()
[ -n "${RANGEREAD_DIFFERENTIAL_MIN:-}" ] && min=(--min-identical "$RANGEREAD_DIFFERENTIAL_MIN")
python3 "$HERE/run.py" --work "$WORK" --tools-json "$WORK/tools.json" --agents "$AGENTS" $reuse "${min[@]}" "${corpus_args[@]}"
echo "differential suite: $(( $(date +%s) - start )) s"
