#!/usr/bin/env bash
# Lets a real Claude Code (the npm package `@anthropic-ai/claude-code`) write real
# transcripts, against the scripted model server scripts/fake_model_server.py (started
# here, on 127.0.0.1). The interactive sessions are driven through tmux, as a user types.
#
# Usage: scripts/record_claude_sessions.sh VERSION OUT_DIR [PORT]
#   VERSION  a `@anthropic-ai/claude-code` version on the npm registry (installed under
#            target/agents/cc-VERSION unless already there)
#   OUT_DIR  a new directory: `claude/` is CLAUDE_CONFIG_DIR (`claude/projects` is what
#            the session store reads), `project/` the (git) project the sessions ran in,
#            `reference/` what Claude Code itself showed (screens, `-p` output).
#
# Sessions: (1) interactive: a long prompt (Claude Code names the session, `ai-title`),
# a tool call, then `/rename` (`custom-title`); (2) interactive: a long prompt only
# (`ai-title`); (3) `claude -p` with a short prompt (no title at all). With ONLY=compact,
# only one more session in OUT_DIR instead: a prompt, `/compact`, another prompt.
set -euo pipefail
VERSION=$1
OUT=$(realpath -m "$2")
PORT=${3:-18090}
HERE=$(cd "$(dirname "$0")/.." && pwd)
AGENT=$HERE/target/agents/cc-$VERSION
if [ ! -x "$AGENT/node_modules/.bin/claude" ]; then
  mkdir -p "$AGENT"
  (cd "$AGENT" && npm install --no-audit --no-fund --loglevel=error "@anthropic-ai/claude-code@$VERSION")
fi
CLAUDE=$AGENT/node_modules/.bin/claude
mkdir -p "$OUT"/{home,claude,project,reference}
cd "$OUT/project"
if [ ! -d .git ]; then
  git init -q . && printf '# demo\n' > README.md && printf 'print("hi")\n' > main.py
fi
# First run done, this project trusted, the key approved: no dialogs in the way.
python3 - "$OUT" "$VERSION" <<'PY'
import json, sys
out, version = sys.argv[1], sys.argv[2]
key = "sk-ant-fake-key-for-local-server"
json.dump({"hasCompletedOnboarding": True, "lastOnboardingVersion": version, "theme": "dark",
           "customApiKeyResponses": {"approved": [key[-20:]], "rejected": []},
           "projects": {f"{out}/project": {"hasTrustDialogAccepted": True,
                                           "hasCompletedProjectOnboarding": True,
                                           "allowedTools": []}}},
          open(f"{out}/claude/.claude.json", "w"))
PY
cat > "$OUT/env.sh" <<SH
OUT=$OUT PORT=$PORT
source "$HERE/scripts/claude_env.sh"
cd "$OUT/project"
SH
python3 "$HERE/scripts/fake_model_server.py" --port "$PORT" --log "$OUT/requests.jsonl" \
  > "$OUT/server.log" 2>&1 &
SERVER=$!
TMUX_S=claude-rec-$$
trap 'kill $SERVER; tmux kill-session -t $TMUX_S 2>/dev/null || true' EXIT
sleep 1
say() { tmux send-keys -t "$TMUX_S" -l "$1"; sleep 0.5; tmux send-keys -t "$TMUX_S" Enter; sleep "${2:-8}"; }
screen() { tmux capture-pane -t "$TMUX_S" -p -S -200 > "$OUT/reference/$1"; }
start() {
  tmux new-session -d -s "$TMUX_S" -x 160 -y 50 "bash --norc"
  tmux send-keys -t "$TMUX_S" "source $OUT/env.sh; $CLAUDE" Enter
  sleep 10
}
stop() { say "/exit" 3; tmux kill-session -t "$TMUX_S"; }

if [ "${ONLY:-}" = compact ]; then
  # One more session: a prompt, then `/compact` (a compaction summary and boundary).
  start
  say "please explain in a few sentences how the Rust borrow checker decides when a reference may be used" 10
  say "/compact" 12
  say "thanks, and what about lifetimes?" 10
  screen session-compact.txt
  stop
  exit 0
fi
start
say "please write me a short poem about the Rust borrow checker, with four lines that rhyme, and explain the joke afterwards" 10
say "list the files here" 10
say "/rename Borrow checker poem" 4
screen session1.txt
stop
sleep 1
start
say "what is the capital of France? I am planning a trip there next spring and would like to know a little about the city first" 10
screen session2.txt
stop
sleep 1
(source "$OUT/env.sh"; timeout 120 "$CLAUDE" -p "hello, who are you?" < /dev/null) \
  > "$OUT/reference/session3-print.txt" 2>&1 || echo "claude -p failed: $?"
sleep 1
# The session picker: the titles Claude Code itself shows.
start
say "/resume" 4
screen resume-picker.txt
tmux send-keys -t "$TMUX_S" Escape; sleep 1
stop
