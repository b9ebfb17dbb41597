#!/usr/bin/env python3
"""Trims agent session files for use as test fixtures, in place, keeping every record.

Every JSON string longer than 400 characters is cut to 400 and marked `…[trimmed]`
(conversation text fields `text`, `message`, `thinking`: 1200); `signature` and
`encrypted_content` values become `[trimmed]`. Records, field order, ids, timestamps and
paths are otherwise unchanged. What the agents write that is that long is their system
prompt, tool schemas and environment snapshots (copied into Claude Code's `attachment` /
`api-request-*` records and OpenCode's assistant messages), not the conversation.

Handles, by file name:
- `*.jsonl`: each line a JSON record (Claude Code, Codex);
- `*.json`: one JSON value (OpenCode's legacy `storage/` tree);
- `*.db`: an SQLite database (OpenCode's `opencode.db`): every text cell that holds JSON
  is trimmed the same way, other text cells longer than 400 characters are cut; the
  write-ahead log is checkpointed into the file and the file vacuumed.

With `--redact-agent-text`, JSONL records of the types in which Claude Code stores its
own text (`attachment`, `api-request`, `api-request-shape`, `api-request-blob`: its
system prompt, tool descriptions, environment snapshots), every string longer than 60
characters becomes `[redacted: agent text]`: that text is the agent vendor's, not the
conversation's, and not needed by any test. The conversation records are untouched.

Usage: python3 scripts/trim_session_fixture.py [--redact-agent-text] FILE_OR_DIR...
"""

import json
import os
import sqlite3
import sys

LIMIT = 400
TEXT_LIMIT = 1200
TEXT_KEYS = {"text", "message", "thinking"}
SECRET_KEYS = {"signature", "encrypted_content"}
MARK = "…[trimmed]"
AGENT_TEXT_TYPES = {"attachment", "api-request", "api-request-shape", "api-request-blob"}
REDACT = {"on": False}


def redact(value):
    if isinstance(value, dict):
        return {k: redact(v) for k, v in value.items()}
    if isinstance(value, list):
        return [redact(v) for v in value]
    if isinstance(value, str) and len(value) > 60:
        return "[redacted: agent text]"
    return value


def trim(value, key=None):
    if isinstance(value, dict):
        return {k: trim(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [trim(v, key) for v in value]
    if isinstance(value, str):
        if key in SECRET_KEYS:
            return "[trimmed]"
        limit = TEXT_LIMIT if key in TEXT_KEYS else LIMIT
        if len(value) > limit:
            return value[:limit] + MARK
    return value


def dumps(value, compact):
    if compact:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return json.dumps(value, ensure_ascii=False, indent=2)


def trim_jsonl(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip():
                continue
            record = json.loads(line)
            if REDACT["on"] and isinstance(record, dict) and record.get("type") in AGENT_TEXT_TYPES:
                record = redact(record)
            out.append(dumps(trim(record), True))
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def trim_json(path):
    with open(path, encoding="utf-8") as f:
        raw = f.read()
    value = trim(json.loads(raw))
    # OpenCode writes its storage files indented with two spaces.
    compact = "\n" not in raw.strip()
    with open(path, "w", encoding="utf-8") as f:
        f.write(dumps(value, compact))


def trim_db(path):
    conn = sqlite3.connect(path)
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    for table in tables:
        cols = [r[1] for r in conn.execute(f"PRAGMA table_info(`{table}`)")]
        rows = conn.execute(f"SELECT rowid, * FROM `{table}`").fetchall()
        for row in rows:
            rowid, values = row[0], row[1:]
            for col, v in zip(cols, values):
                if not isinstance(v, str) or len(v) <= LIMIT and not v.startswith(("{", "[")):
                    continue
                try:
                    new = dumps(trim(json.loads(v)), True)
                except ValueError:
                    new = v[:LIMIT] + MARK if len(v) > LIMIT else v
                if new != v:
                    conn.execute(f"UPDATE `{table}` SET `{col}` = ? WHERE rowid = ?", (new, rowid))
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.execute("VACUUM")
    conn.close()


def main(args):
    if "--redact-agent-text" in args:
        REDACT["on"] = True
        args = [a for a in args if a != "--redact-agent-text"]
    for arg in args:
        paths = [arg]
        if os.path.isdir(arg):
            paths = [os.path.join(d, n) for d, _, names in os.walk(arg) for n in sorted(names)]
        for p in paths:
            if p.endswith(".jsonl"):
                trim_jsonl(p)
            elif p.endswith(".json"):
                trim_json(p)
            elif p.endswith(".db"):
                trim_db(p)


if __name__ == "__main__":
    main(sys.argv[1:])
