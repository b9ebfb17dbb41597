#!/usr/bin/env bash
# Lets a real OpenCode (the npm package `opencode-ai`) write a real session store, against
# the scripted model server scripts/fake_model_server.py (started here, on 127.0.0.1).
#
# Usage: scripts/record_opencode_sessions.sh VERSION OUT_DIR [PORT]
#   VERSION  an `opencode-ai` version on the npm registry (installed under
#            target/agents/oc-VERSION unless already there)
#   OUT_DIR  a new directory: its `home/`, `data/`, `config/` ... are the agent's, and
#            `data/opencode` is the data directory the session store reads; `project/`
#            is the (git) project the sessions ran in; `reference/` what OpenCode itself
#            shows (`opencode session list`, `opencode export`).
#
# Two sessions: "hello" then, continued with --continue, "capital" (two turns); and
# "list the files" (a tool call). With ONLY_PROMPT set, one session with that prompt
# (and EXTRA_RUN_ARGS, e.g. `--file README.md`) instead, to add a session to a data
# directory (also one an older OpenCode wrote).
set -euo pipefail
VERSION=$1
OUT=$(realpath -m "$2")
PORT=${3:-18080}
HERE=$(cd "$(dirname "$0")/.." && pwd)
AGENT=$HERE/target/agents/oc-$VERSION
if [ ! -x "$AGENT/node_modules/.bin/opencode" ]; then
  mkdir -p "$AGENT"
  (cd "$AGENT" && npm install --no-audit --no-fund --loglevel=error "opencode-ai@$VERSION")
fi
OC=$AGENT/node_modules/.bin/opencode
mkdir -p "$OUT"/{home,data,config,cache,state,project,reference}
export HOME=$OUT/home XDG_DATA_HOME=$OUT/data XDG_CONFIG_HOME=$OUT/config \
  XDG_CACHE_HOME=$OUT/cache XDG_STATE_HOME=$OUT/state
export OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_MODELS_FETCH=1 \
  OPENCODE_DISABLE_LSP_DOWNLOAD=1 OPENCODE_DISABLE_DEFAULT_PLUGINS=1 \
  OPENCODE_DISABLE_SHARE=1 OPENCODE_DISABLE_TERMINAL_TITLE=1 OPENCODE_DISABLE_CLAUDE_CODE=1 \
  NO_COLOR=1 TZ=UTC
cd "$OUT/project"
if [ ! -d .git ]; then
  git init -q . && printf '# demo\n' > README.md && printf 'print("hi")\n' > main.py
  git -c user.name=demo -c user.email=demo@example.invalid add . \
    && git -c user.name=demo -c user.email=demo@example.invalid commit -qm init
fi
cat > opencode.json <<JSON
{
  "\$schema": "https://opencode.ai/config.json",
  "provider": {
    "fake": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "Fake",
      "options": { "baseURL": "http://127.0.0.1:$PORT/v1", "apiKey": "not-a-key" },
      "models": { "fake-model": { "name": "Fake Model", "tool_call": true } }
    }
  },
  "model": "fake/fake-model",
  "small_model": "fake/fake-model",
  "autoupdate": false,
  "share": "disabled"
}
JSON
# FAKE_SERVER_ARGS: more arguments for the server (e.g. --fail-titles).
python3 "$HERE/scripts/fake_model_server.py" --port "$PORT" --log "$OUT/requests.jsonl" \
  ${FAKE_SERVER_ARGS:-} > "$OUT/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER' EXIT
sleep 1
run() { timeout 180 "$OC" run "$@" < /dev/null; }
if [ -n "${ONLY_PROMPT:-}" ]; then
  n=$(ls "$OUT/reference" | grep -c "^run" || true)
  # shellcheck disable=SC2086 # EXTRA_RUN_ARGS: more `opencode run` arguments (--file F).
  run "$ONLY_PROMPT" ${EXTRA_RUN_ARGS:-} > "$OUT/reference/run$((n + 1))-$VERSION.txt" 2>&1 \
    || echo "run failed: $?"
else
  run "hello, who are you?" > "$OUT/reference/run1.txt" 2>&1 || echo "run1 failed: $?"
  sleep 1.2
  run --continue "what is the capital of France?" > "$OUT/reference/run2.txt" 2>&1 \
    || echo "run2 failed: $?"
  sleep 1.2
  run "list the files here" > "$OUT/reference/run3.txt" 2>&1 || echo "run3 failed: $?"
fi
sleep 1.2
# What OpenCode itself shows: its session list and each session exported (1.x; 0.x has
# neither command).
timeout 60 "$OC" session list > "$OUT/reference/session-list.txt" 2>&1 \
  || echo "session list failed: $?"
for id in $(grep -o 'ses_[A-Za-z0-9]*' "$OUT/reference/session-list.txt" || true); do
  timeout 60 "$OC" export "$id" > "$OUT/reference/export-$id.json" 2>/dev/null \
    || echo "export $id failed: $?"
done
