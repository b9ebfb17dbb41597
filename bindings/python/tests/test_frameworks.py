"""`DialectTool` plugged into a Python agent framework's tool interface, as
docs/python.md shows it: LangChain's `StructuredTool` (langchain-core, pinned in ci.sh)."""

import os
from pathlib import Path

import pytest

import rangeread as rr

try:
    from langchain_core.tools import StructuredTool, ToolException
except ImportError:  # pragma: no cover - CI installs it
    if os.environ.get("RANGEREAD_SKIP_LANGCHAIN"):
        print("RANGEREAD_SKIP_LANGCHAIN is set: the LangChain test is skipped")
        pytest.skip("RANGEREAD_SKIP_LANGCHAIN is set", allow_module_level=True)
    raise ImportError(
        "this test needs langchain-core: pip install 'langchain-core==1.8.3' "
        "(bindings/python/ci.sh installs it), or set RANGEREAD_SKIP_LANGCHAIN=1"
    )


def as_langchain(tool: rr.DialectTool) -> StructuredTool:
    """The docs/python.md example, verbatim."""
    d = tool.definition()

    def run(**args: object) -> str:
        answer = tool.respond(args)
        text = "\n".join(i["text"] for i in answer.items if i["type"] == "text")
        if answer.is_error:
            raise ToolException(text)
        return text

    return StructuredTool.from_function(
        func=run,
        name=d["name"],
        description=d["description"],
        args_schema=d["input_schema"],
        handle_tool_error=True,
    )


def test_a_preset_as_a_langchain_tool(tmp_path: Path):
    (tmp_path / "app.py").write_text("".join(f"x{i} = {i}\n" for i in range(1, 3001)))
    (tmp_path / ".env").write_text("SECRET=1\n")
    ws = rr.Workspace(tmp_path, protect=[".env*"])
    lc = as_langchain(rr.DialectTool("claude-code", workspace=ws))
    assert lc.name == "Read"
    assert "file_path" in lc.args
    out = lc.invoke({"file_path": str(tmp_path / "app.py"), "offset": 2999, "limit": 2})
    assert out.endswith("2999\tx2999 = 2999\n3000\tx3000 = 3000"), out
    refused = lc.invoke({"file_path": str(tmp_path / ".env")})
    assert "SECRET" not in refused and refused, refused
    # The whole file pages, and the page says where to continue.
    whole = lc.invoke({"file_path": str(tmp_path / "app.py")})
    assert "x1 = 1" in whole
    # What LangChain sends the model is the peer's own schema.
    published = rr.DialectTool("claude-code").definition()["input_schema"]
    sent = lc.tool_call_schema
    assert isinstance(sent, dict)
    assert (sent["properties"], sent.get("required")) == (published["properties"], published.get("required"))
