#!/usr/bin/env python3
"""OpenHands' editor `view`, from the released openhands-aci, over the suite's calls.

    openhands_agent.py CALLS.json OUT.jsonl   (run with the interpreter aci is installed in)

Each call goes through the package's own entry point, `openhands_aci.editor.file_editor`
(what OpenHands' runtime calls), with the call's arguments as the model sent them; the
answer is its `formatted_output_and_error` (`ERROR:\\n...` marks an error, as the preset's
cases take it). An exception that escapes the package is a crash of the agent, recorded as
one: OpenHands' runtime catches only the editor's `ToolError` (`_execute_file_editor`);
anything else fails `/execute_action` with HTTP 500, and the runtime's `_handle_action`
sets its status to error and adds no observation, so the model is shown no text for the
call and the conversation stops (OpenHands 0.x, `openhands/runtime/base.py`).
"""

import json
import logging
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Writer, answer, load_calls  # noqa: E402

from openhands_aci.editor import file_editor  # noqa: E402

logging.disable(logging.INFO)
MARK = re.compile(r"^<oh_aci_output_[0-9a-f]+>\n(.*)\n</oh_aci_output_[0-9a-f]+>$", re.S)


def main():
    calls_path, out_path = sys.argv[1:3]
    out = Writer(out_path)
    for call in load_calls(calls_path):
        args = dict(call["args"])
        try:
            raw = file_editor(**args)
        except Exception as e:  # noqa: BLE001 - the agent's own failure, recorded
            out.put(answer(call["id"], "", True, crash=f"{type(e).__name__}: {str(e)[:200]}"))
            continue
        m = MARK.match(raw)
        text = json.loads(m.group(1))["formatted_output_and_error"] if m else raw
        out.put(answer(call["id"], text, text.startswith("ERROR:\n")))
    out.close()


if __name__ == "__main__":
    main()
