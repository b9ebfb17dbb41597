#!/usr/bin/env python3
"""Claude Code's own Read, run by its released binary against a scripted model on loopback.

    claude_agent.py CALLS.json OUT.jsonl CLAUDE_BINARY ROOT WORKDIR

scripts/fake_model_server.py answers every request Claude Code makes (titles, side
requests); this driver takes over the main conversation: while calls are left, the
"model" answers each turn with `Read` tool calls (BATCH at a time) carrying the calls'
arguments as a model would send them, and records the `tool_result` Claude Code sends
back (its content blocks and `is_error`: exactly what the model sees). Calls run in
sessions of one file each (`claude -p` in ROOT), so that no conversation grows past a few
hundred KB. The session offers Read alone (`--tools Read`): with its task tools on, the
harness appends a reminder about them to some tool results, which is not Read's answer.
"""

import json
import os
import subprocess
import sys
import threading
import time
from http.server import ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "scripts"))
import fake_model_server as fms  # noqa: E402
from common import Writer, answer, load_calls, media_item  # noqa: E402

STATE = {"queue": [], "pending": {}, "results": {}, "lock": threading.Lock()}
# Read calls per model turn: Claude Code runs a turn's Read calls side by side (they are
# read-only), which spares a round of its per-turn work for each.
BATCH = 16
PROMPT = "Run the differential read calls."


def blocks_seen(content):
    """(text, media) of a tool_result's content as the model receives it."""
    if isinstance(content, str):
        return content, []
    texts, media = [], []
    for b in content or []:
        kind = b.get("type")
        if kind == "text":
            texts.append(b.get("text", ""))
        elif kind in ("image", "document"):
            src = b.get("source") or {}
            if src.get("type") == "base64":
                media.append(media_item(src.get("media_type", ""), src.get("data", "")))
            else:
                texts.append(json.dumps(b, sort_keys=True))
        else:
            texts.append(json.dumps(b, sort_keys=True))
    return "\n".join(texts), media


def estimated_tokens(body):
    """What the count_tokens endpoint answers: the characters of the messages' text over
    4, the estimate Claude Code makes itself before it asks. Claude Code asks the API to
    count a read whose estimate is over its 25,000-token cap and truncates only when the
    count is over too; the suite has no Anthropic tokenizer, and the fake server's fixed
    answer (10 tokens) let every file through that cap, which no user sees."""

    def chars(v):
        if isinstance(v, str):
            # JavaScript's length: UTF-16 code units.
            return len(v.encode("utf-16-le")) // 2
        if isinstance(v, list):
            return sum(chars(x) for x in v)
        if isinstance(v, dict):
            return sum(chars(v[k]) for k in ("text", "content") if k in v)
        return 0

    # Math.round's half up, as Claude Code rounds its own estimate (Python's round() would
    # take 144,506.5 to the even 144,506).
    return max((chars(body.get("messages") or []) * 2 + 4) // 8, 1)


class Handler(fms.Handler):
    def do_POST(self):
        if self.path.split("?")[0].rstrip("/").endswith("/messages/count_tokens"):
            return self._json({"input_tokens": estimated_tokens(self._body())})
        return super().do_POST()

    def anthropic(self, body):
        tools = [t.get("name") for t in body.get("tools") or []]
        messages = body.get("messages") or []
        if "Read" not in tools or not messages:
            return super().anthropic(body)
        with STATE["lock"]:
            content = messages[-1].get("content")
            for b in content if isinstance(content, list) else []:
                if isinstance(b, dict) and b.get("type") == "tool_result":
                    call = STATE["pending"].pop(b.get("tool_use_id"), None)
                    if call is not None:
                        text, media = blocks_seen(b.get("content"))
                        STATE["results"][call["id"]] = answer(call["id"], text, b.get("is_error", False), media)
            if not STATE["pending"]:
                batch, STATE["queue"] = STATE["queue"][:BATCH], STATE["queue"][BATCH:]
                STATE["pending"] = {f"toolu_{c['n']:06d}": c for c in batch}
            batch = list(STATE["pending"].items())
        if not batch:
            return self.reply_text("Done.")
        return self.reply_tools(batch)

    def reply_text(self, text):
        self._sse_start()
        self.start_message()
        self._sse({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
                  "content_block_start")
        self._sse({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}},
                  "content_block_delta")
        self.end_message("end_turn")

    def reply_tools(self, batch):
        self._sse_start()
        self.start_message()
        for i, (tool_id, call) in enumerate(batch):
            if i:
                self._sse({"type": "content_block_stop", "index": i - 1}, "content_block_stop")
            self._sse({"type": "content_block_start", "index": i,
                       "content_block": {"type": "tool_use", "id": tool_id, "name": "Read", "input": {}}},
                      "content_block_start")
            self._sse({"type": "content_block_delta", "index": i,
                       "delta": {"type": "input_json_delta", "partial_json": json.dumps(call["args"])}},
                      "content_block_delta")
        self.end_message("tool_use", len(batch) - 1)

    def start_message(self):
        self._sse({"type": "message_start", "message": {
            "id": f"msg_diff{time.time_ns()}", "type": "message", "role": "assistant",
            "model": "claude-sonnet-4-5", "content": [], "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 1}}}, "message_start")

    def end_message(self, stop, last=0):
        self._sse({"type": "content_block_stop", "index": last}, "content_block_stop")
        self._sse({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                   "usage": {"output_tokens": 5}}, "message_delta")
        self._sse({"type": "message_stop"}, "message_stop")


def main():
    calls_path, out_path, claude, root, work = sys.argv[1:6]
    calls = load_calls(calls_path)
    for n, c in enumerate(calls):
        c["n"] = n
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port = srv.server_address[1]
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    env = dict(os.environ)
    for d in ("home", "claude", "config", "cache", "data", "state"):
        os.makedirs(os.path.join(work, d), exist_ok=True)
    env.update({
        "HOME": f"{work}/home", "CLAUDE_CONFIG_DIR": f"{work}/claude", "XDG_CONFIG_HOME": f"{work}/config",
        "XDG_CACHE_HOME": f"{work}/cache", "XDG_DATA_HOME": f"{work}/data", "XDG_STATE_HOME": f"{work}/state",
        "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{port}", "ANTHROPIC_API_KEY": "sk-ant-fake-key-for-local-server",
        "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1",
        "DISABLE_BUG_COMMAND": "1", "NO_COLOR": "1", "TZ": "UTC", "IS_SANDBOX": "1",
        "CLAUDE_CODE_TOTAL_TOKENS_REMINDER": "off",
    })
    env.pop("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", None)
    sessions = {}
    for c in calls:
        sessions.setdefault(c["file"], []).append(c)
    out = Writer(out_path)
    for batch in sessions.values():
        with STATE["lock"]:
            STATE["queue"] = list(batch)
            STATE["pending"] = {}
        try:
            subprocess.run(
                [claude, "-p", PROMPT, "--permission-mode", "bypassPermissions", "--model", "claude-sonnet-4-5", "--tools", "Read",
                 "--max-turns", str(len(batch) + 5)],
                cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, timeout=60 + 20 * len(batch),
            )
        except subprocess.TimeoutExpired:
            pass
        for c in batch:
            rec = STATE["results"].get(c["id"])
            out.put(rec or answer(c["id"], "", True, crash="Claude Code sent no tool_result for this call"))
    srv.shutdown()
    out.close()


if __name__ == "__main__":
    main()
