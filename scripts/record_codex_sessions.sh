#!/usr/bin/env bash
# Lets a real Codex CLI (the npm package `@openai/codex`) write real rollouts, against the
# scripted model server scripts/fake_model_server.py (started here, on 127.0.0.1; a
# custom model provider with `wire_api = "responses"`).
#
# Usage: scripts/record_codex_sessions.sh VERSION OUT_DIR [PORT]
#   VERSION  an `@openai/codex` version on the npm registry (installed under
#            target/agents/cx-VERSION unless already there)
#   OUT_DIR  a new directory: `codex/` is CODEX_HOME (what the session store reads),
#            `project/` the (git) project the sessions ran in, `reference/` what
#            `codex exec` printed.
#
# Sessions: "hello" then, resumed with `codex exec resume --last`, "capital" (two
# turns); "list the files here" (a tool call).
set -euo pipefail
VERSION=$1
OUT=$(realpath -m "$2")
PORT=${3:-18160}
HERE=$(cd "$(dirname "$0")/.." && pwd)
AGENT=$HERE/target/agents/cx-$VERSION
if [ ! -x "$AGENT/node_modules/.bin/codex" ]; then
  mkdir -p "$AGENT"
  (cd "$AGENT" && npm install --no-audit --no-fund --loglevel=error "@openai/codex@$VERSION")
fi
CODEX=$AGENT/node_modules/.bin/codex
mkdir -p "$OUT"/{home,codex,project,reference}
cd "$OUT/project"
if [ ! -d .git ]; then
  git init -q . && printf '# demo\n' > README.md && printf 'print("hi")\n' > main.py
fi
cat > "$OUT/codex/config.toml" <<TOML
model = "fake-model"
model_provider = "fake"
check_for_update_on_startup = false

[model_providers.fake]
name = "Fake"
base_url = "http://127.0.0.1:$PORT/v1"
wire_api = "responses"
env_key = "FAKE_API_KEY"

[analytics]
enabled = false
TOML
export HOME=$OUT/home CODEX_HOME=$OUT/codex FAKE_API_KEY=not-a-key NO_COLOR=1 TZ=UTC
python3 "$HERE/scripts/fake_model_server.py" --port "$PORT" --log "$OUT/requests.jsonl" \
  > "$OUT/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER' EXIT
sleep 1
run() { timeout 180 "$CODEX" exec "$@" < /dev/null; }
run "hello, who are you?" > "$OUT/reference/exec1.txt" 2>&1 || echo "exec1 failed: $?"
sleep 1.2
run resume --last "what is the capital of France?" > "$OUT/reference/exec2.txt" 2>&1 \
  || echo "exec2 failed: $?"
sleep 1.2
run "list the files here" > "$OUT/reference/exec3.txt" 2>&1 || echo "exec3 failed: $?"
