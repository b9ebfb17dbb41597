#!/usr/bin/env python3
"""A tiny scripted model server for letting real coding agents write real session files.

It speaks just enough of two APIs for an agent to hold a short conversation:

- OpenAI-compatible chat completions: `POST /v1/chat/completions` (streaming or not),
  `GET /v1/models`; and OpenAI responses, `POST /v1/responses` (streaming, as the
  Codex CLI asks for it through a provider with `wire_api = "responses"`). OpenCode reaches it through a custom provider whose `baseURL` is
  `http://127.0.0.1:PORT/v1`.
- Anthropic messages: `POST /v1/messages` (streaming or not) and
  `POST /v1/messages/count_tokens`. Claude Code reaches it through
  `ANTHROPIC_BASE_URL=http://127.0.0.1:PORT`.

The replies are scripted, not generated, and always the same for the same request:

- a request whose system prompt asks for a title gets a title made from the user's
  prompt (see `TITLES`), as JSON `{"title": ...}` when the request asks for that schema;
- a user prompt that mentions "list" or "files", when the request offers a shell tool
  (`bash` / `Bash`), gets one tool call of that tool (`ls`), and the tool's result then
  gets a one-line summary;
- a user prompt that mentions "subagent", when the request offers OpenCode's `task`
  tool, gets one call of it (a `general` subagent asked to "Say hello from the
  subagent"), and the tool's result then gets a one-line summary;
- a request for a conversation summary (Claude Code's `/compact`) gets an `<analysis>`
  and a `<summary>` block naming the first prompt;
- anything else gets "Reply N: " and the prompt's first words back.

With `--fail-titles`, title requests get an HTTP 500 error instead (the agent then keeps
its placeholder title).

Every request is appended, as one JSON line, to the log file given with `--log`, so that
what an agent sent can be checked afterwards.

Usage: python3 scripts/fake_model_server.py --port 18080 --log /tmp/requests.jsonl
"""

import argparse
import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TITLES = {
    "hello": "Friendly greeting",
    "list": "Listing project files",
    "files": "Listing project files",
    "capital": "Capital of France question",
    "poem": "Short poem request",
}

LOCK = threading.Lock()
COUNTER = {"n": 0}


def text_of(content):
    """The text of an OpenAI or Anthropic message content (a string or a list of blocks)."""
    if isinstance(content, str):
        return content
    out = []
    for block in content or []:
        if isinstance(block, dict):
            if block.get("type") in ("text", "input_text") and isinstance(block.get("text"), str):
                out.append(block["text"])
            elif block.get("type") == "tool_result":
                out.append(text_of(block.get("content")))
    # Context an agent injects into the user's turn is not what the user said.
    text = "\n".join(out)
    text = re.sub(r"<system-reminder>.*?</system-reminder>\s*", "", text, flags=re.S)
    text = re.sub(r"<(local-command-[a-z]+|command-[a-z]+)>.*?</\1>\s*", "", text, flags=re.S)
    return text


def title_for(prompt):
    prompt = re.sub(r"<[^>]+>", " ", prompt)
    low = prompt.lower()
    for key, title in TITLES.items():
        if key in low:
            return title
    words = [w for w in prompt.replace("\n", " ").split(" ") if w][:4]
    return " ".join(words).capitalize() or "Untitled chat"


def is_title_request(system_text, messages_text):
    """A title request: a short system prompt about titles (an agent's own prompt for
    its main conversation is long and may mention titles in passing)."""
    s = system_text.lower()
    return (len(s) < 4000 and "title" in s) or "generate a title" in messages_text.lower()[:2000]


FAIL_TITLES = {"on": False}


def decide(system_text, turns, tool_names):
    """turns: list of (role, text, is_tool_result). Returns ("text", str),
    ("tool", name, args) or ("error", message)."""
    all_text = "\n".join(t for _, t, _ in turns)
    if is_title_request(system_text, all_text):
        if FAIL_TITLES["on"]:
            return ("error", "title generation is switched off on this server")
        users = [t for r, t, tr in turns if r == "user" and not tr and t.strip()]
        # The prompt the title is for: OpenCode sends it last; Claude Code first.
        prompt = users[-1] if users else ""
        return ("text", title_for(prompt))
    last_role, last_text, last_is_tool = turns[-1] if turns else ("user", "", False)
    if "<summary> block" in last_text or "<summary>" in last_text and "summar" in system_text.lower():
        # Claude Code's `/compact` asks for an <analysis> and a <summary> block.
        first = next((t for r, t, tr in turns if r == "user" and not tr and t.strip()), "")
        return (
            "text",
            "<analysis>One question so far.</analysis>\n<summary>1. Primary Request and Intent:\n"
            f"   The user asked: {' '.join(first.split()[:12])}\n</summary>",
        )
    with LOCK:
        COUNTER["n"] += 1
        n = COUNTER["n"]
    if last_is_tool:
        return ("text", "The listing shows the files of this directory; nothing else to do.")
    low = last_text.lower()
    if "task" in tool_names and "subagent" in low:
        return (
            "tool",
            "task",
            {
                "description": "Greet from a subagent",
                "prompt": "Say hello from the subagent",
                "subagent_type": "general",
            },
        )
    shell = next((t for t in tool_names if t.lower() == "bash"), None)
    if shell and ("list" in low or "files" in low):
        return ("tool", shell, {"command": "ls", "description": "List files in the directory"})
    first = " ".join(last_text.split()[:6])
    return ("text", f"Reply {n}: you said \"{first}\".")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    log_path = None

    def log_message(self, fmt, *args):  # quiet
        pass

    def _body(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            return json.loads(raw or b"{}")
        except ValueError:
            return {}

    def _log(self, body):
        if self.log_path:
            with LOCK, open(self.log_path, "a") as f:
                f.write(json.dumps({"path": self.path, "body": body}) + "\n")

    def _json(self, obj, status=200):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _sse_start(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def _sse(self, data, event=None):
        msg = ""
        if event:
            msg += f"event: {event}\n"
        msg += f"data: {data if isinstance(data, str) else json.dumps(data)}\n\n"
        self.wfile.write(msg.encode())
        self.wfile.flush()

    def do_GET(self):
        if self.path.rstrip("/").endswith("/models"):
            return self._json(
                {"object": "list", "data": [{"id": "fake-model", "object": "model", "owned_by": "fake"}]}
            )
        self._json({"error": {"message": f"no route {self.path}"}}, 404)

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        body = self._body()
        self._log(body)
        path = self.path.split("?")[0].rstrip("/")
        if path.endswith("/chat/completions"):
            return self.openai(body)
        if path.endswith("/responses"):
            return self.openai_responses(body)
        if path.endswith("/messages/count_tokens"):
            return self._json({"input_tokens": 10})
        if path.endswith("/messages"):
            return self.anthropic(body)
        self._json({"error": {"message": f"no route {self.path}"}}, 404)

    # ---- OpenAI chat completions ----

    def openai(self, body):
        system, turns = [], []
        for m in body.get("messages", []):
            role = m.get("role")
            if role in ("system", "developer"):
                system.append(text_of(m.get("content")))
            elif role == "tool":
                turns.append(("user", text_of(m.get("content")), True))
            else:
                turns.append((role, text_of(m.get("content")), False))
        tools = [t.get("function", {}).get("name", "") for t in body.get("tools") or []]
        decision = decide("\n".join(system), turns, tools)
        if decision[0] == "error":
            return self._json({"error": {"message": decision[1], "type": "server_error"}}, 500)
        model = body.get("model", "fake-model")
        cid = f"chatcmpl-{int(time.time() * 1000)}"
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        if decision[0] == "tool":
            call = {
                "id": f"call_{cid[-8:]}",
                "type": "function",
                "function": {"name": decision[1], "arguments": json.dumps(decision[2])},
            }
            message, finish = {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"
        else:
            message, finish = {"role": "assistant", "content": decision[1]}, "stop"
        if not body.get("stream"):
            return self._json(
                {
                    "id": cid,
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": model,
                    "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                    "usage": usage,
                }
            )
        self._sse_start()

        def chunk(delta, finish_reason=None, with_usage=False):
            c = {
                "id": cid,
                "object": "chat.completion.chunk",
                "created": int(time.time()),
                "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
            }
            if with_usage:
                c["usage"] = usage
            self._sse(c)

        chunk({"role": "assistant", "content": ""})
        if decision[0] == "tool":
            call = dict(message["tool_calls"][0], index=0)
            chunk({"tool_calls": [call]})
        else:
            words = decision[1].split(" ")
            for i, w in enumerate(words):
                chunk({"content": w + (" " if i + 1 < len(words) else "")})
        chunk({}, finish, with_usage=True)
        self._sse("[DONE]")

    # ---- OpenAI responses (Codex) ----

    def openai_responses(self, body):
        system = [body.get("instructions") or ""]
        turns = []
        for item in body.get("input") or []:
            kind = item.get("type", "message")
            if kind == "message":
                role = item.get("role")
                if role in ("system", "developer"):
                    system.append(text_of(item.get("content")))
                else:
                    turns.append((role, text_of(item.get("content")), False))
            elif kind in ("function_call_output", "custom_tool_call_output"):
                turns.append(("user", str(item.get("output")), True))
        tools = [t.get("name", "") for t in body.get("tools") or [] if isinstance(t, dict)]
        shell = next((t for t in tools if t in ("shell_command", "shell", "exec_command")), None)
        # Codex's own context (AGENTS.md, environment) arrives as user messages too: the
        # prompt is the last user message.
        decision = decide("\n".join(system), turns, [])
        low = turns[-1][1].lower() if turns else ""
        if decision[0] == "text" and shell and not turns[-1][2] and ("list" in low or "files" in low):
            args = {"shell_command": {"command": "ls"}, "shell": {"command": ["ls"]},
                    "exec_command": {"cmd": "ls"}}[shell]
            decision = ("tool", shell, args)
        if decision[0] == "error":
            return self._json({"error": {"message": decision[1], "type": "server_error"}}, 500)
        rid = f"resp_{int(time.time() * 1000)}"
        if decision[0] == "tool":
            item = {"type": "function_call", "id": f"fc_{rid[5:]}", "call_id": f"call_{rid[5:]}",
                    "name": decision[1], "arguments": json.dumps(decision[2])}
        else:
            item = {"type": "message", "id": f"msg_{rid[5:]}", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": decision[1], "annotations": []}]}
        usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
                 "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0},
                 "total_tokens": 15}
        self._sse_start()
        self._sse({"type": "response.created", "response": {"id": rid, "status": "in_progress"}},
                  "response.created")
        self._sse({"type": "response.output_item.added", "output_index": 0, "item": item},
                  "response.output_item.added")
        if item["type"] == "message":
            self._sse({"type": "response.output_text.delta", "item_id": item["id"], "output_index": 0,
                       "content_index": 0, "delta": decision[1]}, "response.output_text.delta")
        self._sse({"type": "response.output_item.done", "output_index": 0, "item": item},
                  "response.output_item.done")
        self._sse({"type": "response.completed",
                   "response": {"id": rid, "status": "completed", "output": [item], "usage": usage}},
                  "response.completed")

    # ---- Anthropic messages ----

    def anthropic(self, body):
        system = body.get("system")
        system = text_of(system) if not isinstance(system, str) else system
        turns = []
        for m in body.get("messages", []):
            content = m.get("content")
            if m.get("role") == "system":
                system += "\n" + text_of(content)
                continue
            is_tool = isinstance(content, list) and any(
                isinstance(b, dict) and b.get("type") == "tool_result" for b in content
            )
            text = text_of(content)
            if isinstance(content, list) and not is_tool:
                # The user's words are the last block; the ones before are context the
                # agent added (a compaction summary, reminders).
                blocks = [text_of([b]) for b in content if isinstance(b, dict)]
                blocks = [b for b in blocks if b.strip()]
                text = blocks[-1] if blocks else text
            turns.append((m.get("role"), text, is_tool))
        tools = [t.get("name", "") for t in body.get("tools") or []]
        decision = decide(system, turns, tools)
        if decision[0] == "error":
            return self._json(
                {"type": "error", "error": {"type": "api_error", "message": decision[1]}}, 500
            )
        schema = ((body.get("output_config") or {}).get("format") or {}).get("schema") or {}
        if decision[0] == "text" and "title" in (schema.get("properties") or {}):
            # Claude Code asks for its session titles as JSON: {"title": ...}.
            decision = ("text", json.dumps({"title": decision[1]}))
        model = body.get("model", "claude-fake")
        mid = f"msg_fake{int(time.time() * 1000)}"
        if decision[0] == "tool":
            block = {
                "type": "tool_use",
                "id": f"toolu_fake{int(time.time() * 1000)}",
                "name": decision[1],
                "input": decision[2],
            }
            stop = "tool_use"
        else:
            block = {"type": "text", "text": decision[1]}
            stop = "end_turn"
        usage = {"input_tokens": 10, "output_tokens": 5}
        if not body.get("stream"):
            return self._json(
                {
                    "id": mid,
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": [block],
                    "stop_reason": stop,
                    "stop_sequence": None,
                    "usage": usage,
                }
            )
        self._sse_start()
        self._sse(
            {
                "type": "message_start",
                "message": {
                    "id": mid,
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": {"input_tokens": 10, "output_tokens": 1},
                },
            },
            "message_start",
        )
        if block["type"] == "text":
            self._sse(
                {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
                "content_block_start",
            )
            self._sse(
                {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": block["text"]}},
                "content_block_delta",
            )
        else:
            start = dict(block, input={})
            self._sse({"type": "content_block_start", "index": 0, "content_block": start}, "content_block_start")
            self._sse(
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "input_json_delta", "partial_json": json.dumps(block["input"])},
                },
                "content_block_delta",
            )
        self._sse({"type": "content_block_stop", "index": 0}, "content_block_stop")
        self._sse(
            {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": 5}},
            "message_delta",
        )
        self._sse({"type": "message_stop"}, "message_stop")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--port", type=int, default=18080)
    ap.add_argument("--log", default=None, help="append every request body here (JSON lines)")
    ap.add_argument("--fail-titles", action="store_true", help="answer title requests with HTTP 500")
    args = ap.parse_args()
    FAIL_TITLES["on"] = args.fail_titles
    Handler.log_path = args.log
    srv = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print(f"fake model server on http://127.0.0.1:{args.port}", flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
