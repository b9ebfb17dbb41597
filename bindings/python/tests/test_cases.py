"""bindings/cases/contract.json (cases of docs/contract.md and docs/bad-input.md) through
the Python binding: the answers and error kinds of the Rust core
(bindings/core/tests/cases.rs runs the same file)."""

import base64
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any, Dict

import pytest

import rangeread as rr

REPO = Path(__file__).resolve().parents[3]
CASES = json.loads((REPO / "bindings/cases/contract.json").read_text(encoding="utf-8"))["cases"]


def materialize(root: Path, files):
    for f in files:
        p = root / f["path"]
        p.parent.mkdir(parents=True, exist_ok=True)
        if f.get("dir"):
            p.mkdir(parents=True, exist_ok=True)
        elif "text" in f:
            p.write_bytes(f["text"].encode("utf-8"))
        elif "base64" in f:
            p.write_bytes(base64.b64decode(f["base64"]))
        elif "from_repo" in f:
            shutil.copyfile(REPO / f["from_repo"], p)
        else:
            raise AssertionError(f"file spec {f}")


def subset(want: Any, got: Any) -> bool:
    if isinstance(want, dict):
        return isinstance(got, dict) and all(subset(v, got.get(k)) for k, v in want.items())
    if isinstance(want, float) or isinstance(got, float):
        return want == got
    return bool(want == got) and type(want) is type(got)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_contract_case(case: Dict[str, Any]):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        materialize(root, case["files"])
        expect = case["expect"]
        try:
            reader = rr.Reader(**case.get("reader", {}))
            read = reader.read if case["method"] == "read" else reader.read_document
            read_in = reader.read_in if case["method"] == "read" else reader.read_document_in
            if "workspace" in case:
                ws = rr.Workspace(root, **case["workspace"])
                out = read_in(ws, case["path"], **case["call"])
            else:
                out = read(root / case["path"], **case["call"])
        except rr.Error as e:
            assert "error" in expect, f"expected a result, got {e.kind}: {e}"
            assert e.kind == expect["error"]["kind"]
            if "message" in expect["error"]:
                assert str(e).replace(str(root), "{root}") == expect["error"]["message"]
            return
        assert "result" in expect, f"expected an error, got {out.to_dict()}"
        got = out.to_dict()
        assert subset(expect["result"], got), f"want {expect['result']}\ngot  {got}"
        # The attributes are the dict's fields.
        for k in expect["result"]:
            assert getattr(out, k) == got[k]
