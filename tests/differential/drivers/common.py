"""What every driver shares: reading the calls, writing what the model saw.

A driver reads a JSON list of calls (`{"id", "tool", "args"}`) and writes one JSON line
per call: `{"id", "text", "is_error", "media", "crash"?}`. `text` is the answer's text
items joined with a newline, `media` its image, audio and document items as
`{"mime", "sha256", "bytes"}` (the data itself is compared by hash), `crash` set when the
agent's own code failed on the call instead of answering it.
"""

import base64
import hashlib
import json
import sys


def load_calls(path):
    with open(path) as f:
        return json.load(f)


def media_item(mime, b64):
    raw = base64.b64decode(b64) if isinstance(b64, str) else bytes(b64)
    return {"mime": mime, "sha256": hashlib.sha256(raw).hexdigest()[:16], "bytes": len(raw)}


def answer(call_id, text, is_error, media=(), crash=None):
    out = {"id": call_id, "text": text, "is_error": bool(is_error), "media": list(media)}
    if crash is not None:
        out["crash"] = crash
    return out


class Writer:
    def __init__(self, path):
        self.f = open(path, "w")

    def put(self, record):
        self.f.write(json.dumps(record) + "\n")
        self.f.flush()

    def close(self):
        self.f.close()


def mcp_items(content):
    """(text, media) of an MCP tool result's content items."""
    texts, media = [], []
    for item in content or []:
        kind = item.get("type")
        if kind == "text":
            texts.append(item.get("text", ""))
        elif kind in ("image", "audio"):
            media.append(media_item(item.get("mimeType", ""), item.get("data", "")))
        elif kind == "resource":
            res = item.get("resource") or {}
            if "blob" in res:
                media.append(media_item(res.get("mimeType", ""), res["blob"]))
            else:
                texts.append(res.get("text", ""))
        else:
            texts.append(json.dumps(item, sort_keys=True))
    return "\n".join(texts), media


def main_args():
    if len(sys.argv) < 3:
        sys.exit(f"usage: {sys.argv[0]} CALLS.json OUT.jsonl [...]")
    return sys.argv[1], sys.argv[2], sys.argv[3:]
