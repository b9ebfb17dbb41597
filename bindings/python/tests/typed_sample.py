"""A user's code, type-checked by mypy --strict against the package's stubs in CI (and
run by test_api.py, so it is also true at run time)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import rangeread as rr


def sample(repo: Path) -> List[str]:
    ws = rr.Workspace(repo, protect=[".env*"])
    reader = rr.Reader(max_lines=0, max_bytes=1 << 20)
    r: rr.ReadResult = reader.read_in(ws, "tests/data/sample.txt", lines="40:+2")
    span = r.lines
    first: Optional[int] = span["start"] if span is not None else None
    total: Optional[int] = r.total_lines
    raw: bytes = r.raw_bytes
    tail = reader.read(repo / "tests/data/sample.txt", tail=5)
    outline: rr.Outline = reader.read(repo / "tests/data/landmarks/sample.py", outline=True)
    names = [lm["text"] for lm in outline.landmarks]
    tool = rr.DialectTool("codex", workspace=ws)
    schema = tool.definition()["input_schema"]
    answer = tool.respond({"file_path": f"{ws.root}/tests/data/sample.txt", "offset": 2, "limit": 1})
    items = [i.get("text", "") for i in answer.items if i["type"] == "text"]
    doc = reader.read_document(repo / "tests/data/sample.txt", head=1)
    kind: str = doc.kind
    try:
        reader.read(repo / "missing.txt")
    except FileNotFoundError as e:
        assert isinstance(e, rr.Error) and e.kind == "not_found"
    return [r.content, tail.render("cat-n"), str(first), str(total), raw.decode(), str(schema)] + names + items + [kind] + rr.presets()
