# Sourced by scripts/record_claude_sessions.sh: the environment a real Claude Code runs in
# against scripts/fake_model_server.py, with every home directory under $OUT and
# telemetry, error reports and auto-update turned off. CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC
# is left unset on purpose: it also turns off the session titles Claude Code asks its model
# for (`ai-title` records); what it would reach instead fails fast (no network here).
export HOME=$OUT/home CLAUDE_CONFIG_DIR=$OUT/claude XDG_CONFIG_HOME=$OUT/config \
  XDG_CACHE_HOME=$OUT/cache XDG_DATA_HOME=$OUT/data XDG_STATE_HOME=$OUT/state
export ANTHROPIC_BASE_URL=http://127.0.0.1:$PORT ANTHROPIC_API_KEY=sk-ant-fake-key-for-local-server
export DISABLE_TELEMETRY=1 DISABLE_AUTOUPDATER=1 DISABLE_ERROR_REPORTING=1 \
  DISABLE_BUG_COMMAND=1 NO_COLOR=1 TZ=UTC IS_SANDBOX=1
unset CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC CLAUDE_CODE_DISABLE_TERMINAL_TITLE
