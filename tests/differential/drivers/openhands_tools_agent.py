#!/usr/bin/env python3
"""OpenHands' file_editor `view`, from the released openhands-tools (the OpenHands SDK's
agent), over the suite's calls.

    openhands_tools_agent.py CALLS.json OUT.jsonl ROOT   (the interpreter it is installed in)

Each call goes the SDK agent's way (`openhands.sdk.agent.Agent._get_action_event`): the
arguments as JSON text through `parse_tool_call_arguments`, `normalize_tool_call` and
`fix_malformed_tool_arguments`, then `FileEditorAction.model_validate`; a failure there is
the agent's `Error validating tool 'file_editor': ...` message (an error). Otherwise the
tool's executor (`FileEditorExecutor(workspace_root=ROOT)`, as `FileEditorTool.create`
builds it) answers, and the model sees the observation's `to_llm_content`: its text
items (joined as the SDK's own `Observation.text` joins them, with nothing between) and
its images.
"""

import json
import logging
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Writer, answer, load_calls, media_item  # noqa: E402

logging.disable(logging.INFO)
os.environ.setdefault("OPENHANDS_SUPPRESS_BANNER", "1")
# LiteLLM, imported by the SDK, fetches a price list from GitHub unless told not to.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from openhands.sdk.agent.utils import (  # noqa: E402
    fix_malformed_tool_arguments,
    normalize_tool_call,
    parse_tool_call_arguments,
)
from openhands.tools.file_editor.definition import FileEditorAction  # noqa: E402
from openhands.tools.file_editor.impl import FileEditorExecutor  # noqa: E402
from pydantic import ValidationError  # noqa: E402

TOOL = "file_editor"


def main():
    calls_path, out_path, root = sys.argv[1:4]
    executor = FileEditorExecutor(workspace_root=root)
    out = Writer(out_path)
    for call in load_calls(calls_path):
        arguments = None
        try:
            arguments = parse_tool_call_arguments(json.dumps(call["args"]))
            _, arguments = normalize_tool_call(TOOL, arguments, [TOOL])
            arguments = fix_malformed_tool_arguments(arguments, FileEditorAction)
            action = FileEditorAction.model_validate(arguments)
        except (ValueError, json.JSONDecodeError, ValidationError) as e:
            keys = list(arguments.keys()) if isinstance(arguments, dict) else None
            params = f"Parameters provided: {keys}" if keys is not None else "Arguments: unparseable JSON"
            out.put(answer(call["id"], f"Error validating tool '{TOOL}': {e}. {params}", True))
            continue
        try:
            obs = executor(action)
        except Exception as e:  # noqa: BLE001 - the agent's own failure, recorded
            out.put(answer(call["id"], "", True, crash=f"{type(e).__name__}: {str(e)[:200]}"))
            continue
        texts, media = [], []
        for item in obs.to_llm_content:
            if getattr(item, "type", None) == "image" or hasattr(item, "image_urls"):
                for url in getattr(item, "image_urls", []) or []:
                    head, _, data = url.partition(",")
                    mime = head[5:].split(";")[0] if head.startswith("data:") else ""
                    media.append(media_item(mime, data))
            else:
                texts.append(item.text)
        out.put(answer(call["id"], "".join(texts), obs.is_error, media))
    out.close()


if __name__ == "__main__":
    main()
