#!/usr/bin/env python3
"""The crate's preset over the same calls, through the Python binding (`DialectTool`).

    preset.py CALLS.json OUT.jsonl PRESET ROOT [--no-workspace | --unconfined] [--room-tokens N]
              [--more-roots FILE]

A call that names a tool of a preset serving several (`rust-mcp-filesystem`'s
`head_file`) is answered by `PRESET/TOOL`. The answer is what a host sends: the response's
items, text joined with a newline and media by hash.

The host's settings, where the agent's session has them too: `--no-workspace` answers as a
host replacing an agent that has no root does (OpenHands' editor): a `DialectTool` without
a workspace, the calls' absolute paths read as they are. `--unconfined` answers
without a workspace, in ROOT (Claude Code's Read is not confined to a directory: its
driver runs it with bypassPermissions, in ROOT); `--room-tokens N` says how much context
the caller has left, which picks the sentence a size refusal ends with: Claude Code's
driver passes 167,000, what a fresh session on its 200,000-token model has before it
compacts (the window less 20,000 kept for the answer, less 13,000). `--more-roots FILE`, when FILE exists, names more
directories the agent reads from (one a line: Gemini CLI's project temp directory, written
by its driver), added after ROOT as a host adds them.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Writer, answer, load_calls, media_item  # noqa: E402

import rangeread  # noqa: E402


def main():
    calls_path, out_path, preset, root = sys.argv[1:5]
    extra = sys.argv[5:]
    room = int(extra[extra.index("--room-tokens") + 1]) if "--room-tokens" in extra else None
    if "--unconfined" in extra:
        os.chdir(root)
        ws = None
    elif "--no-workspace" in extra:
        ws = None
    else:
        ws = rangeread.Workspace(root)
    more = []
    if "--more-roots" in extra and os.path.exists(extra[extra.index("--more-roots") + 1]):
        more = [d for d in open(extra[extra.index("--more-roots") + 1]).read().splitlines() if d]
    for d in more:
        os.makedirs(d, exist_ok=True)
    scope = {"roots": [ws] + [rangeread.Workspace(d) for d in more]} if more and ws else {"workspace": ws}

    def tool(name):
        t = rangeread.DialectTool(name, **scope)
        if room is None:
            return t
        d = t.dialect
        d["caps"]["lift"]["room_tokens"] = room
        return rangeread.DialectTool(d, **scope)

    tools = {}
    out = Writer(out_path)
    for call in load_calls(calls_path):
        name = f"{preset}/{call['tool']}" if call.get("tool") and "/" not in preset else preset
        if name not in tools:
            try:
                tools[name] = tool(name)
            except Exception:
                tools[name] = tool(preset)
        try:
            r = tools[name].respond(call["args"])
        except Exception as e:  # a binding failure is ours, not an answer
            out.put(answer(call["id"], "", True, crash=f"{type(e).__name__}: {e}"))
            continue
        texts, media = [], []
        for item in r.items:
            item = item if isinstance(item, dict) else item.__dict__
            if item.get("type") == "text":
                texts.append(item["text"])
            else:
                media.append(media_item(item.get("mime_type", ""), item.get("data", "")))
        out.put(answer(call["id"], "\n".join(texts), r.is_error, media))
    out.close()


if __name__ == "__main__":
    main()
